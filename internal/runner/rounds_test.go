package runner

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"restbench/internal/result"
	"restbench/internal/suite"
)

// TestInterleavedRounds runs two experiments of two runs each: round k
// measures trial k of every run of an experiment before trial k+1 of any,
// the order rotates each round, a run whose rate is a fraction of another
// run's capacity in the same experiment comes after it, and every trial
// records its round and what the server reported.
func TestInterleavedRounds(t *testing.T) {
	dir := t.TempDir()
	m := testManifest(t, dir)
	d := 200 * time.Millisecond
	rated := testRun("b/test-ok rated", "test-ok", 3, d)
	rated.RateOf, rated.RateFraction = "b/test-ok", 0.5
	s := testSuite(
		testRun("a/test-ok", "test-ok", 3, d),
		testRun("a/test-tree", "test-tree", 3, d),
		rated, // listed first, measured after its source every round
		testRun("b/test-ok", "test-ok", 3, d),
	)
	s.Info.Experiments = []result.Experiment{{Name: "a"}, {Name: "b"}}
	var log strings.Builder
	o, err := Run(context.Background(), s, Options{Manifest: m, Out: filepath.Join(dir, "r"), Log: &log, ReadyTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + log.String())
	if o.OK != 12 {
		t.Fatalf("%+v, want 12 ok trials", o)
	}
	for _, exp := range []struct {
		name  string
		order [][]string // run ids in measured order, per round
	}{
		{"a", [][]string{{"a/test-ok", "a/test-tree"}, {"a/test-tree", "a/test-ok"}, {"a/test-ok", "a/test-tree"}}},
		{"b", [][]string{{"b/test-ok", "b/test-ok rated"}, {"b/test-ok", "b/test-ok rated"}, {"b/test-ok", "b/test-ok rated"}}},
	} {
		var prev *result.Trial
		for k, ids := range exp.order {
			for _, id := range ids {
				tr := readTrial(t, o.Dir, id, k+1)
				if tr.Round != k+1 || tr.Trial != k+1 {
					t.Errorf("%s: trial %d round %d, want %d", id, tr.Trial, tr.Round, k+1)
				}
				if prev != nil && tr.Started.Before(prev.Finished) {
					t.Errorf("round %d: %s started before %s trial %d finished: not measured in this order %v", k+1, id, prev.Run, prev.Trial, exp.order)
				}
				if srv := tr.Server; srv == nil || srv.Port == 0 || srv.PID == 0 || srv.Threads != 1 || srv.GOMAXPROCS < 1 || !strings.HasPrefix(srv.Line, "restbench-server ") {
					t.Errorf("%s trial %d: server report %+v", id, k+1, srv)
				}
				prev = tr
			}
		}
	}
	// Each rated trial uses the capacity measured up to its round.
	var caps []float64
	for k := 1; k <= 3; k++ {
		caps = append(caps, readTrial(t, o.Dir, "b/test-ok", k).Load.RPS)
		want := 0.5 * result.Median(caps)
		if got := readTrial(t, o.Dir, "b/test-ok rated", k).Load.Settings.Rate; got < want*0.999 || got > want*1.001 {
			t.Errorf("round %d: rate %v, want half the median capacity so far %v", k, got, want)
		}
	}
	var info result.Suite
	if err := result.ReadJSON(filepath.Join(o.Dir, result.SuiteFile), &info); err != nil {
		t.Fatal(err)
	}
	for _, e := range info.Experiments {
		if e.Stopped != result.StoppedRounds || e.Rounds != 3 {
			t.Errorf("experiment %s: stopped %q after %d rounds, want %q after 3", e.Name, e.Stopped, e.Rounds, result.StoppedRounds)
		}
	}
	// One line per run, printed when its experiment's last round is done.
	if n := strings.Count(log.String(), "req/s  p99"); n != 4 {
		t.Errorf("%d run lines, want 4:\n%s", n, log.String())
	}
}

// TestStopRule plugs in a stop rule: it may add rounds up to MaxTrials and
// stop once it is satisfied; a time cap stops adding rounds; --resume
// continues the rounds without measuring a finished trial again.
func TestStopRule(t *testing.T) {
	dir := t.TempDir()
	m := testManifest(t, dir)
	run := func(id string) suite.Run {
		r := testRun(id, "test-ok", 1, 100*time.Millisecond)
		r.MaxTrials = 5
		return r
	}
	capped := run("capped/test-ok")
	capped.TimeCap = time.Nanosecond
	s := testSuite(run("decided/test-ok"), run("decided/test-ok 2"), run("rounds/test-ok"), capped)
	s.Info.Experiments = []result.Experiment{{Name: "decided"}, {Name: "rounds"}, {Name: "capped"}}
	var calls []string
	enough := func(exp string, trials []*result.Trial) (bool, string) {
		calls = append(calls, fmt.Sprintf("%s:%d", exp, len(trials)))
		if exp == "decided" && len(trials) >= 6 {
			return true, "6 trials are plenty"
		}
		return false, ""
	}
	out := filepath.Join(dir, "r")
	o, err := Run(context.Background(), s, Options{Manifest: m, Out: out, ReadyTimeout: 10 * time.Second, Enough: enough})
	if err != nil {
		t.Fatal(err)
	}
	// decided: 3 rounds of 2 runs; rounds: all 5; capped: the minimum, 1.
	if o.OK != 6+5+1 {
		t.Errorf("%+v, want 12 ok trials", o)
	}
	want := "decided:2 decided:4 decided:6 rounds:1 rounds:2 rounds:3 rounds:4 rounds:5 capped:1"
	if got := strings.Join(calls, " "); got != want {
		t.Errorf("stop rule calls %q, want %q", got, want)
	}
	check := func(dir string) {
		t.Helper()
		var info result.Suite
		if err := result.ReadJSON(filepath.Join(dir, result.SuiteFile), &info); err != nil {
			t.Fatal(err)
		}
		for i, w := range []struct {
			stopped, why string
			rounds       int
		}{{result.StoppedDecided, "6 trials are plenty", 3}, {result.StoppedRounds, "", 5}, {result.StoppedTimeCap, "cap is 1ns", 1}} {
			e := info.Experiments[i]
			if e.Stopped != w.stopped || !strings.Contains(e.StoppedWhy, w.why) || e.Rounds != w.rounds {
				t.Errorf("%s: stopped %q (%q) after %d rounds, want %q (%q) after %d", e.Name, e.Stopped, e.StoppedWhy, e.Rounds, w.stopped, w.why, w.rounds)
			}
		}
	}
	check(o.Dir)

	calls = nil
	o2, err := Run(context.Background(), s, Options{Manifest: m, Out: out, Resume: true, ReadyTimeout: 10 * time.Second, Enough: enough})
	if err != nil {
		t.Fatal(err)
	}
	if o2.Dir != o.Dir || o2.Skipped != 12 || o2.OK != 0 {
		t.Errorf("resume: %+v, want the same folder and 12 trials skipped", o2)
	}
	check(o2.Dir)
}

// TestOrder checks the round order on its own: rotation, and runs rated
// from a same-experiment capacity last.
func TestOrder(t *testing.T) {
	run := func(id, of string) suite.Run { return suite.Run{ID: id, Experiment: "e", RateOf: of} }
	e := experiment{name: "e", runs: []suite.Run{run("e/r1", "e/a"), run("e/a", ""), run("e/b", ""), run("e/c", "other/x"), run("e/r2", "e/b")}}
	for k, want := range []string{"e/a e/b e/c e/r1 e/r2", "e/b e/c e/a e/r2 e/r1", "e/c e/a e/b e/r1 e/r2", "e/a e/b e/c e/r2 e/r1"} {
		var ids []string
		for _, r := range e.order(k + 1) {
			ids = append(ids, r.ID)
		}
		if got := strings.Join(ids, " "); got != want {
			t.Errorf("round %d: %s, want %s", k+1, got, want)
		}
	}
}

// TestTrialsOption: Options.Trials (run --trials) is the number of rounds,
// even where a stop rule that is never satisfied could add rounds up to the
// runs' MaxTrials.
func TestTrialsOption(t *testing.T) {
	dir := t.TempDir()
	r := testRun("undecided/test-ok", "test-ok", 3, 100*time.Millisecond)
	r.MaxTrials = 5
	s := testSuite(r)
	s.Info.Experiments = []result.Experiment{{Name: "undecided", Looks: 3}}
	never := func(string, []*result.Trial) (bool, string) { return false, "" }
	o, err := Run(context.Background(), s, Options{Manifest: testManifest(t, dir), Out: filepath.Join(dir, "r"), ReadyTimeout: 10 * time.Second, Enough: never, Trials: 2})
	if err != nil {
		t.Fatal(err)
	}
	if o.OK != 2 {
		t.Errorf("%d ok trials with Trials 2, want 2 (the stop rule must not add rounds)", o.OK)
	}
	var info result.Suite
	if err := result.ReadJSON(filepath.Join(o.Dir, result.SuiteFile), &info); err != nil {
		t.Fatal(err)
	}
	if e := info.Experiments[0]; e.Looks > 1 || e.Rounds != 2 {
		t.Errorf("suite.json: %d looks, %d rounds; want the rounds fixed (no looks to correct for) at 2", e.Looks, e.Rounds)
	}
}
