package main

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestStartAt(t *testing.T) {
	want := time.Date(2026, 11, 22, 21, 0, 0, 0, time.UTC)
	for _, v := range []string{"2026-11-22T21:00:00Z", "2026-11-22T22:00:00+01:00", "1795381200"} {
		got, err := parseStartAt(v)
		if err != nil || !got.Equal(want) {
			t.Errorf("--start-at %s = %v, %v; want %v", v, got, err, want)
		}
	}
	if _, err := parseStartAt("tomorrow"); err == nil {
		t.Error("--start-at tomorrow accepted")
	}
	// A start in the past is refused; one just ahead is waited for.
	if err := waitUntil(context.Background(), time.Now().Add(time.Second), 2*time.Second); err == nil || !strings.Contains(err.Error(), "past") {
		t.Errorf("warm-up that should have begun already: err = %v", err)
	}
	start := time.Now().Add(300 * time.Millisecond)
	if err := waitUntil(context.Background(), start, 100*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if early := start.Add(-100 * time.Millisecond).Sub(time.Now()); early > 0 {
		t.Errorf("returned %v before the warm-up had to begin", early)
	}
}
