package suite

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"restbench/internal/cpu"
	"restbench/internal/result"
)

// benchCores is the machine make bench is sized for: 2 cores, so a pinned
// server has one (the generator takes the other) and a shared one two.
const benchCores = 2

// serverCores is how many cores run r's server gets on the bench machine:
// its explicit CPU list, one when pinned, every core when shared, and no
// more than its quota.
func serverCores(r *Run) float64 {
	n := cpuCores(r)
	if r.Quota > 0 {
		n = min(n, math.Ceil(r.Quota))
	}
	return n
}

// cpuCores is the cores r's server may run on, its quota aside.
func cpuCores(r *Run) float64 {
	switch {
	case r.ServerCPUs != "":
		list, _ := cpu.ParseList(r.ServerCPUs)
		return float64(len(list))
	case r.Pinned:
		return benchCores - 1
	}
	return benchCores
}

// closedLoop: the run offers no rate, so the server is saturated (wrk, ab
// and restbench's closed loop alike): its CPU is all it may use, and its
// mean latency is connections ÷ req/s (Little's law).
func closedLoop(r *Run) bool { return r.Load.Rate == 0 && r.RateOf == "" }

// latencyKeys are the metrics Little's law fixes in a saturated closed
// loop: the mean, and with it the percentiles around it. A tail's shape
// (p99/p50) and the light requests of a mix are not fixed by it.
func latencyKey(m string) bool {
	return m == "latency_mean_ms" || m == "latency_stdev_ms" || m == "latency_min_ms" || m == "latency_max_ms" ||
		strings.HasPrefix(m, "p") && strings.HasSuffix(m, "_ms") && !strings.HasPrefix(m, "probe_")
}

// forced says why c's state is forced by its runs' set-up on the bench
// machine, or "" when its measurement can go either way. A claim the runs
// do not meet the premise of (requires min_cores above what the runs get)
// is never graded there, so nothing about it is forced.
func forced(c result.Conclusion, byID map[string]*Run) string {
	if c.NotRun != "" || c.NotGraded != "" {
		return ""
	}
	type side struct {
		x   float64
		run *Run
	}
	var sides []side // every run the claim reads, with its X
	var paired bool  // the claim is a ratio of two runs at each point
	if len(c.Points) > 0 {
		for _, p := range c.Points {
			sides = append(sides, side{p.X, byID[p.A]})
			if p.B != "" {
				paired = true
				sides = append(sides, side{p.X, byID[p.B]})
			}
		}
	} else {
		sides = append(sides, side{0, byID[c.A]})
		if c.B != "" {
			sides = append(sides, side{1, byID[c.B]})
		}
	}
	for _, s := range sides {
		if s.run == nil {
			return "" // not at this scale: listed, not graded
		}
		if c.Requires != nil && c.Requires.MinCores > 0 && serverCores(s.run) < float64(c.Requires.MinCores) {
			return "" // "not run here: needs N cores": never graded here
		}
	}
	switch {
	case c.Metric == "cpu_pct" || c.Metric == "cores_busy_pct":
		for _, s := range sides {
			if closedLoop(s.run) && serverCores(s.run) <= 1 {
				return fmt.Sprintf("a CPU-share claim on %s, saturated (closed loop) on %g core: its CPU is at most 100 %% by construction (grade it where the server may use more cores: requires: {min_cores: 2} or placement shared)", s.run.ID, serverCores(s.run))
			}
		}
	case c.Metric == "p99_p50":
		// A tail's shape under a CPU quota that a saturated server spends:
		// it is throttled for the rest of each period (docker's 100 ms), and
		// the requests that arrive then wait out the pause: that pause, not
		// the server, makes the p99.
		for _, s := range sides {
			if closedLoop(s.run) && s.run.Quota > 0 && s.run.Quota < cpuCores(s.run) {
				return fmt.Sprintf("a tail-shape claim on %s, saturated (closed loop) under a %g-CPU quota: the throttle's pause in every period sets its p99 (grade it unthrottled: requires: {min_cores: N})", s.run.ID, s.run.Quota)
			}
		}
	case latencyKey(c.Metric) && !paired:
		// One server's latency compared across connection counts: in a
		// saturated closed loop it is connections ÷ req/s, so more
		// connections make it worse whatever the server does.
		conns := map[int]bool{}
		for _, s := range sides {
			if !closedLoop(s.run) {
				return ""
			}
			conns[s.run.Load.Connections] = true
		}
		if len(conns) > 1 && (c.B == "" || byID[c.A].Impl == byID[c.B].Impl) {
			return fmt.Sprintf("a latency-by-connections claim on closed-loop runs (%s): latency = connections ÷ req/s at saturation, so it can only grow with the connections (run them as an open loop at a rate, as wrk2 does)", strings.Join(ids(sides, func(s side) string { return s.run.ID }), ", "))
		}
	}
	return ""
}

func ids[T any](xs []T, f func(T) string) []string {
	var out []string
	for _, x := range xs {
		if s := f(x); !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// knownForced are claims the rule flags on main today, until the change
// that fixes them lands. A name that no longer fails must leave this list.
// (heysphere (a)'s four latency-by-connections claims left it when (a)
// became an open loop at a constant rate, as wrk2 ran it.)
var knownForced = map[string]bool{}

// TestClaimsCanFail: no conclusion of a real suite, at standard or full
// scale, may have its state forced by its runs' set-up on the bench
// machine (a CPU share of a saturated server held to one core; a latency
// compared across connection counts in a closed loop).
func TestClaimsCanFail(t *testing.T) {
	m := realManifest(t)
	files, err := filepath.Glob("../../suites/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no suites: %v", err)
	}
	stillForced := map[string]bool{}
	for _, f := range files {
		for _, scale := range []string{"standard", "full"} {
			s, err := Load(f, Options{Scale: scale, Impls: m.IDs(), Languages: m.Languages()})
			if err != nil {
				t.Fatal(err)
			}
			byID := map[string]*Run{}
			for i := range s.Runs {
				byID[s.Runs[i].ID] = &s.Runs[i]
			}
			for _, e := range s.Info.Experiments {
				for _, c := range e.Conclusions {
					why := forced(c, byID)
					name := s.Name + ": " + c.Text
					switch {
					case why != "" && knownForced[name]:
						stillForced[name] = true
						t.Logf("%s (%s): known: %s", name, scale, why)
					case why != "":
						t.Errorf("%s (%s): its state is forced: %s", name, scale, why)
					}
				}
			}
		}
	}
	for name := range knownForced {
		if !stillForced[name] {
			t.Errorf("%q can fail now: remove it from knownForced", name)
		}
	}
}

// TestForced: the rule itself, on cells built to be forced and cells built
// not to be.
func TestForced(t *testing.T) {
	pinned := func(id string, conns int) *Run {
		r := &Run{ID: id, Impl: strings.Fields(id)[0], Pinned: true}
		r.Load.Connections = conns
		return r
	}
	shared := func(id string) *Run { r := pinned(id, 10); r.Pinned = false; return r }
	open := func(id string, conns int) *Run { r := pinned(id, conns); r.Load.Rate = 1000; return r }
	quota := func(id string) *Run { r := shared(id); r.Quota = 1; return r }
	for _, c := range []struct {
		name   string
		c      result.Conclusion
		runs   []*Run
		forced bool
	}{
		{"CPU tie, both pinned and saturated", result.Conclusion{Metric: "cpu_pct", Claim: "tie", A: "node", B: "go"},
			[]*Run{pinned("node", 10), pinned("go", 10)}, true},
		{"CPU tie, needs 2 cores", result.Conclusion{Metric: "cpu_pct", Claim: "tie", A: "node", B: "go", Requires: &result.Requires{MinCores: 2}},
			[]*Run{pinned("node", 10), pinned("go", 10)}, false},
		{"CPU tie, shared", result.Conclusion{Metric: "cpu_pct", Claim: "tie", A: "node", B: "go"},
			[]*Run{shared("node"), shared("go")}, false},
		{"CPU band under a 1-CPU quota", result.Conclusion{Metric: "cpu_pct", Claim: "band", Low: 90, A: "go"},
			[]*Run{quota("go")}, true},
		{"tail shape under a 1-CPU quota, closed loop", result.Conclusion{Metric: "p99_p50", Claim: "band", High: 1.5, A: "go"},
			[]*Run{quota("go")}, true},
		{"tail shape under a quota, needs 3 cores", result.Conclusion{Metric: "p99_p50", Claim: "band", High: 1.5, A: "go", Requires: &result.Requires{MinCores: 3}},
			[]*Run{quota("go")}, false},
		{"tail shape without a quota", result.Conclusion{Metric: "p99_p50", Claim: "band", High: 1.5, A: "go"},
			[]*Run{pinned("go", 10)}, false},
		{"system CPU grows, pinned closed loop", result.Conclusion{Metric: "cores_busy_pct", Claim: "grows", Points: []result.Point{{X: 1, A: "go a"}, {X: 2, A: "go b"}}},
			[]*Run{pinned("go a", 10), pinned("go b", 100)}, true},
		{"CPU grows, open loop at a rate", result.Conclusion{Metric: "cpu_pct", Claim: "grows", Points: []result.Point{{X: 1, A: "go a"}, {X: 2, A: "go b"}}},
			[]*Run{open("go a", 10), open("go b", 100)}, false},
		{"latency better with more connections, closed loop", result.Conclusion{Metric: "latency_mean_ms", Claim: "band", Low: 4, A: "node c10", B: "node c100"},
			[]*Run{pinned("node c10", 10), pinned("node c100", 100)}, true},
		{"latency better with more connections, open loop", result.Conclusion{Metric: "latency_mean_ms", Claim: "band", Low: 4, A: "node c10", B: "node c100"},
			[]*Run{open("node c10", 10), open("node c100", 100)}, false},
		{"latency grows over connections, closed loop", result.Conclusion{Metric: "p99_ms", Claim: "grows", Points: []result.Point{{X: 100, A: "go c100"}, {X: 1000, A: "go c1000"}}},
			[]*Run{pinned("go c100", 100), pinned("go c1000", 1000)}, true},
		{"Node's latency over Go's over connections: connections cancel", result.Conclusion{Metric: "latency_mean_ms", Claim: "grows",
			Points: []result.Point{{X: 100, A: "node c100", B: "go c100"}, {X: 1000, A: "node c1000", B: "go c1000"}}},
			[]*Run{pinned("node c100", 100), pinned("go c100", 100), pinned("node c1000", 1000), pinned("go c1000", 1000)}, false},
		{"latency of two servers at one connection count", result.Conclusion{Metric: "latency_mean_ms", A: "node c10", B: "go c10"},
			[]*Run{pinned("node c10", 10), pinned("go c10", 10)}, false},
		{"tail shape across connections", result.Conclusion{Metric: "p99_p50", Claim: "band", Low: 1.5, A: "node c500", B: "node c100"},
			[]*Run{pinned("node c500", 500), pinned("node c100", 100)}, false},
		{"req/s across connections", result.Conclusion{Metric: "rps", Claim: "tie", A: "node c1000", B: "node c100"},
			[]*Run{pinned("node c1000", 1000), pinned("node c100", 100)}, false},
		{"not run on any machine", result.Conclusion{Metric: "cpu_pct", Claim: "tie", A: "node", B: "go", NotRun: "no task"},
			[]*Run{pinned("node", 10), pinned("go", 10)}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			byID := map[string]*Run{}
			for _, r := range c.runs {
				byID[r.ID] = r
			}
			if why := forced(c.c, byID); (why != "") != c.forced {
				t.Errorf("forced = %q, want forced %v", why, c.forced)
			}
		})
	}
}
