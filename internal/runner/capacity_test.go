package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"restbench/internal/capacity"
	"restbench/internal/result"
)

// TestRateFromSearch runs two experiments whose rates are half the
// open-loop capacity of one run, searched once per round against a real
// server: every trial records the search it took its rate from, and both
// experiments share round k's search. A third searches once for the run.
func TestRateFromSearch(t *testing.T) {
	dir := t.TempDir()
	m := testManifest(t, dir)
	// 20 connections: on a busy machine a stall of the server's CPU then
	// has to outlast 20 requests before an arrival is missed.
	a := testRun("a/test-ok", "test-ok", 2, 300*time.Millisecond)
	a.Load.Warmup, a.Load.Connections = 100*time.Millisecond, 20
	a.RateOf, a.RateFraction, a.RateSearch = "a/test-ok", 0.5, true
	b := testRun("b/test-ok", "test-ok", 2, 200*time.Millisecond)
	b.RateOf, b.RateFraction, b.RateSearch = "a/test-ok", 0.5, true
	// rate_search: once: one search of its own for the whole run.
	c := testRun("c/test-ok", "test-ok", 2, 200*time.Millisecond)
	c.RateOf, c.RateFraction, c.RateSearch, c.RateSearchOnce = "a/test-ok", 0.5, true, true
	var log strings.Builder
	o, err := Run(context.Background(), testSuite(a, b, c), Options{Manifest: m, Out: filepath.Join(dir, "results"), Log: &log, ReadyTimeout: 10 * time.Second,
		// Up from 100 req/s by doubling: a short seed, or a step down, can
		// find nothing while a busy machine stalls the server's core.
		Search: capacity.Options{Start: 100, Factor: 2, MaxSteps: 14, Pause: 100 * time.Millisecond, MinWarmup: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + log.String())
	if o.OK != 6 {
		for _, id := range []string{"a/test-ok", "b/test-ok", "c/test-ok"} {
			for n := 1; n <= 2; n++ {
				tr := readTrial(t, o.Dir, id, n)
				t.Logf("%s round %d: %s %s", id, n, tr.Status, tr.Error)
			}
		}
		t.Fatalf("ok %d failed %d, want 6 ok", o.OK, o.Failed)
	}
	if n := strings.Count(log.String(), "searching the open-loop capacity of a/test-ok"); n != 3 {
		t.Errorf("%d searches, want one per round (2) and one for rate_search: once", n)
	}
	c1, c2 := readTrial(t, o.Dir, "c/test-ok", 1).RateFrom, readTrial(t, o.Dir, "c/test-ok", 2).RateFrom
	if c1 == nil || c2 == nil || c1.CapacityRPS <= 0 || c1.CapacityRPS != c2.CapacityRPS {
		t.Errorf("rate_search once: rounds took %+v and %+v, want one search's capacity", c1, c2)
	}
	for round := 1; round <= 2; round++ {
		var found []float64
		for _, id := range []string{"a/test-ok", "b/test-ok"} {
			tr := readTrial(t, o.Dir, id, round)
			f := tr.RateFrom
			if f == nil || f.Method != result.RateFromSearch || f.Run != "a/test-ok" || f.Fraction != 0.5 || f.Search == nil {
				t.Fatalf("%s round %d: rate_from %+v, want a search of a/test-ok at 0.5", id, round, f)
			}
			if f.CapacityRPS <= 0 || f.CapacityRPS != f.Search.CapacityRPS || len(f.Search.Steps) < 2 {
				t.Errorf("%s round %d: capacity %.0f from %d steps", id, round, f.CapacityRPS, len(f.Search.Steps))
			}
			if got := tr.Load.Settings.Rate; got != 0.5*f.CapacityRPS {
				t.Errorf("%s round %d: rate %.1f, want 0.5 x %.1f", id, round, got, f.CapacityRPS)
			}
			found = append(found, f.CapacityRPS)
		}
		if found[0] != found[1] {
			t.Errorf("round %d: the experiments took capacities %v, want round %d's one search", round, found, round)
		}
	}
}
