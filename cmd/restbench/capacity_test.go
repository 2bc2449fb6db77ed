package main

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"restbench/internal/result"
	"restbench/internal/threshold"
)

// TestCapacityJSON runs restbench capacity with load's flags against a real
// server and reads its --json back: every step printed is kept, and the
// capacity is the highest sustained target.
func TestCapacityJSON(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Test") != "yes" {
			w.WriteHeader(http.StatusBadRequest) // -H did not reach the steps
		}
	}))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "capacity.json")
	err := cmdCapacity(context.Background(), []string{"-c", "20", "-d", "1s", "--warmup", "100ms", "-H", "X-Test: yes",
		"--start", "50", "--max-steps", "4", "--pause", "50ms", "--json", out, srv.URL + "/"})
	if err != nil {
		t.Fatal(err)
	}
	var c result.Capacity
	if err := result.ReadJSON(out, &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Steps) != 4 || c.Settings.Connections != 20 || len(c.Settings.Headers) != 1 {
		t.Fatalf("%d steps, settings %+v: want the 4 steps of -max-steps 4 with -c 20 and the header", len(c.Steps), c.Settings)
	}
	high := 0.0
	for _, s := range c.Steps {
		if s.Sustained {
			high = max(high, s.TargetRPS)
		}
		if s.Errors > 0 {
			t.Errorf("step %+v: errors", s)
		}
	}
	if c.CapacityRPS != high || high == 0 {
		t.Errorf("capacity_rps %.0f, highest sustained step %.0f", c.CapacityRPS, high)
	}
}

// TestCapacityThresholds: --threshold judges the capacity's own step and a
// failed one exits with threshold.ExitCode, as load does.
func TestCapacityThresholds(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(10 * time.Millisecond)
	}))
	defer srv.Close()
	for _, tt := range []struct {
		threshold string
		code      int
	}{
		{"p99<1ms", threshold.ExitCode}, // every response takes 10 ms
		{"p99<10s", 0},
	} {
		args := []string{"-c", "20", "-d", "500ms", "--warmup", "100ms", "--start", "100", "--max-steps", "2", "--pause", "50ms",
			"--threshold", tt.threshold, "--allow-flags", srv.URL + "/"}
		err := cmdCapacity(context.Background(), args)
		var ee *exitError
		switch {
		case tt.code == 0 && err != nil:
			t.Errorf("%s: %v, want a pass", tt.threshold, err)
		case tt.code != 0 && (!errors.As(err, &ee) || ee.code != tt.code):
			t.Errorf("%s: %v, want exit %d", tt.threshold, err, tt.code)
		}
	}
}
