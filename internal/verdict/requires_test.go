package verdict

import (
	"strings"
	"testing"

	"restbench/internal/result"
)

// OfferedWork derives the cores a claim's premise needs from what the
// trial was offered: rate × the heavy share × its work ms.
func TestOfferedWork(t *testing.T) {
	mix := func(rate, share float64, work string) *result.Trial {
		tr := &result.Trial{Load: &result.Load{}}
		tr.Load.Settings.Rate = rate
		tr.Load.Settings.MixTargets = []result.MixTarget{
			{Name: "light", Path: "/time", Weight: 100 - share},
			{Name: "heavy", Path: "/time?" + work, Weight: share},
		}
		return tr
	}
	single := func(rate float64, url string) *result.Trial {
		tr := &result.Trial{Load: &result.Load{}}
		tr.Load.Settings.Rate, tr.Load.Settings.URL = rate, url
		return tr
	}
	for _, c := range []struct {
		name string
		t    *result.Trial
		want float64
	}{
		{"heysphere 25 % of 1 ms at 17,900 req/s", mix(17900, 25, "work=1"), 4.475},
		{"10 % of 1 ms at 10,000 req/s", mix(10000, 10, "work=1"), 1},
		{"0 % share", mix(17900, 0, "work=1"), 0},
		{"2 ms of work on every request", single(500, "http://127.0.0.1:1/time?delay=0&work=2"), 1},
		{"no work", single(500, "http://127.0.0.1:1/time"), 0},
		{"closed loop", mix(0, 25, "work=1"), 0},
		{"no load", &result.Trial{}, 0},
	} {
		if got := OfferedWork(c.t); got < c.want-1e-9 || got > c.want+1e-9 {
			t.Errorf("%s: %v CPU-seconds a second, want %v", c.name, got, c.want)
		}
	}
}

// requires: {offered_work: true} reads "not run here: needs N cores" with
// N from the offered work, and grades where the cores suffice.
func TestRequiresOfferedWork(t *testing.T) {
	runs := map[string]result.RunInfo{"go 25": {ID: "go 25"}, "go 1": {ID: "go 1"}}
	trials := map[string][]*result.Trial{"go 25": trialsOf("go 25", meanOf(3400, 3300, 3500, 3400, 3450)...), "go 1": trialsOf("go 1", meanOf(13, 12, 14, 13, 13)...)}
	set := func(cpus string) {
		for id, ts := range trials {
			share := 1.0
			if id == "go 25" {
				share = 25
			}
			for _, tr := range ts {
				tr.Placement.ServerCPUs = cpus
				tr.Load.Settings.Rate = 17900
				tr.Load.Settings.MixTargets = []result.MixTarget{{Name: "light", Path: "/time", Weight: 100 - share}, {Name: "heavy", Path: "/time?work=1", Weight: share}}
			}
		}
	}
	c := result.Conclusion{Text: "Only at 25 %", Metric: "latency_mean_ms", Claim: result.ClaimBand, Low: 10, A: "go 25", B: "go 1", Requires: &result.Requires{OfferedWork: true}}
	set("0")
	v := Evaluate(c, runs, trials, 1)
	if v.Outcome != NotRun || !strings.HasPrefix(v.Why, "needs 5 cores for the server: go 25 is offered 4.5 CPU-seconds a second") {
		t.Errorf("one core: %q %q, want not run here: needs 5 cores", v.Outcome, v.Why)
	}
	set("0-5")
	if v := Evaluate(c, runs, trials, 1); v.Outcome != Holds {
		t.Errorf("six cores: %q %q, want holds", v.Outcome, v.Why)
	}
}

// A conclusion its scale does not grade, or no machine can test, is listed
// with its reason and never graded.
func TestNotGradedAndNotRun(t *testing.T) {
	runs := map[string]result.RunInfo{"a": {ID: "a"}, "b": {ID: "b"}}
	trials := map[string][]*result.Trial{"a": trialsOf("a", rpsOf(2, 2, 2, 2, 2)...), "b": trialsOf("b", rpsOf(1, 1, 1, 1, 1)...)}
	for _, c := range []struct {
		c       result.Conclusion
		outcome string
		why     string
	}{
		{result.Conclusion{Text: "t", Metric: "rps", A: "a", B: "c10", NotGraded: "not graded at standard: its cells run at full"}, NotGraded, "not graded at standard: its cells run at full"},
		{result.Conclusion{Text: "t", Metric: "rps", A: "a", B: "b", NotRun: "the write-up names no task"}, NotRun, "the write-up names no task"},
		{result.Conclusion{Text: "t", Metric: "rps", A: "a", B: "b"}, Holds, ""},
	} {
		v := Evaluate(c.c, runs, trials, 1)
		if v.Outcome != c.outcome || v.Why != c.why || !v.Decided() {
			t.Errorf("%+v: %q %q, want %q %q", c.c, v.Outcome, v.Why, c.outcome, c.why)
		}
	}
}
