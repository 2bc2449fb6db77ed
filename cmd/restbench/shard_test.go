package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"restbench/internal/load"
)

func TestShardSplitsTheTotal(t *testing.T) {
	for _, tc := range []struct {
		n            int
		conns        int
		requests     int64
		rate         float64
		wantConns    []int
		wantRequests []int64
	}{
		{3, 10, 0, 900, []int{4, 3, 3}, []int64{0, 0, 0}},
		{2, 2, 1001, 0, []int{1, 1}, []int64{501, 500}},
		{1, 7, 5, 10, []int{7}, []int64{5}},
	} {
		var conns int
		var reqs int64
		var rate float64
		for i := range tc.n {
			s, err := parseShard(fmt.Sprintf("%d/%d", i, tc.n))
			if err != nil {
				t.Fatal(err)
			}
			cfg := load.Config{Connections: tc.conns, MaxRequests: tc.requests, Rate: tc.rate}
			if err := s.apply(&cfg); err != nil {
				t.Fatal(err)
			}
			if cfg.Connections != tc.wantConns[i] || cfg.MaxRequests != tc.wantRequests[i] {
				t.Errorf("shard %v of -c %d -n %d: got -c %d -n %d", s, tc.conns, tc.requests, cfg.Connections, cfg.MaxRequests)
			}
			conns, reqs, rate = conns+cfg.Connections, reqs+cfg.MaxRequests, rate+cfg.Rate
		}
		if conns != tc.conns || reqs != tc.requests || rate < tc.rate-1e-9 || rate > tc.rate+1e-9 {
			t.Errorf("shares add up to -c %d -n %d -R %v, want %d %d %v", conns, reqs, rate, tc.conns, tc.requests, tc.rate)
		}
	}
}

func TestShardRefuses(t *testing.T) {
	for _, tc := range []struct{ shard, want string }{
		{"3/3", "0 <= i < N"}, {"a/2", "i/N"}, {"0", "i/N"}, {"-1/2", "0 <= i < N"},
	} {
		if _, err := parseShard(tc.shard); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("--shard %s: err = %v", tc.shard, err)
		}
	}
	s, _ := parseShard("0/4")
	if err := s.apply(&load.Config{Connections: 3}); err == nil || !strings.Contains(err.Error(), "-c 4 or more") {
		t.Errorf("-c 3 over 4 shards: err = %v", err)
	}
}

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
