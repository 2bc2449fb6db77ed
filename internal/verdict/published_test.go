package verdict

import (
	"math"
	"strings"
	"testing"

	"restbench/internal/metric"
	"restbench/internal/result"
)

var (
	wrk  = &result.PublishedLoad{Tool: "wrk", Model: result.ModelClosed}
	ab   = &result.PublishedLoad{Tool: "ab", Model: result.ModelClosed}
	wrk2 = &result.PublishedLoad{Tool: "wrk2", Model: result.ModelOpen}
)

// Each published row is checked by the model of the load that measured it.
func TestCheckPublished(t *testing.T) {
	withLoad := func(p result.PublishedLoad) *result.PublishedLoad { return &p }
	cases := []struct {
		name     string
		info     result.RunInfo
		ok       bool
		state    string
		breaks   string
		rps      float64 // the row's req/s as checked
		inFlight float64
		why      string
	}{
		// heysphere c=100 as a closed loop: 12.9k × 7 ms = 90 on 100.
		{"closed, consistent", result.RunInfo{ID: "n100", Connections: 100, PublishedLoad: wrk, Published: map[string]float64{"rps": 12900, "latency_mean_ms": 7}},
			true, RowConsistent, "", 12900, 90.3, "90 in flight on 100 connections"},
		// dotchev's quota row: 11,614 requests in 20.03 s is 580 req/s,
		// exact; with 10 connections busy the mean is 17 ms, not 25.
		{"closed, counts exact, mean off", result.RunInfo{ID: "quota", Connections: 10, PublishedLoad: wrk,
			Published: map[string]float64{"rps": 579.77, "requests": 11614, "duration_s": 20.03, "latency_mean_ms": 25.13}},
			true, RowMeanOff, "latency_mean_ms", 11614 / 20.03, 11614 / 20.03 * 0.02513, "11,614 requests in 20.03 s is 580 req/s"},
		// The write-up's connections, not the scale's capped ones.
		{"closed, published connections", result.RunInfo{ID: "q", Connections: 200, PublishedLoad: withLoad(result.PublishedLoad{Tool: "wrk", Model: result.ModelClosed, Connections: 1000}),
			Published: map[string]float64{"rps": 10000, "latency_mean_ms": 100}}, true, RowConsistent, "", 10000, 1000, "1000 in flight on 1000 connections"},
		// ab prints 1000 ÷ 17,280.86 req/s = 57.867 ms: nothing to check.
		{"ab, derived", result.RunInfo{ID: "sum", Connections: 1000, PublishedLoad: ab, Published: map[string]float64{"rps": 17280.86, "latency_mean_ms": 57.867}},
			true, RowDerived, "", 17280.86, 1000, "holds by construction"},
		// heysphere Go c=10 with wrk2: 6,478 in flight on 10 connections is
		// a backlog, which nothing bounds without the rate and the window.
		{"open, unbounded", result.RunInfo{ID: "go10", Connections: 10, OpenLoop: true, PublishedLoad: wrk2, Published: map[string]float64{"rps": 39500, "latency_mean_ms": 164}},
			true, RowUnbounded, "", 39500, 6478, "nothing bounds them"},
		// heysphere (c) Node 1 %: 7k of 10k req/s for 30 s leaves a backlog
		// of up to 90,000: 61,810 in flight fits.
		{"open, within the backlog", result.RunInfo{ID: "n1", Connections: 1400, OpenLoop: true,
			PublishedLoad: withLoad(result.PublishedLoad{Tool: "wrk2", Model: result.ModelOpen, Rate: 10000, DurationS: 30}),
			Published:     map[string]float64{"rps": 7000, "latency_mean_ms": 8830}}, true, RowConsistent, "", 7000, 61810, "backlog"},
		{"open, mean beyond any backlog", result.RunInfo{ID: "x", Connections: 100, OpenLoop: true,
			PublishedLoad: withLoad(result.PublishedLoad{Tool: "wrk2", Model: result.ModelOpen, Rate: 10000, DurationS: 30}),
			Published:     map[string]float64{"rps": 10000, "latency_mean_ms": 500}}, true, RowMeanOff, "latency_mean_ms", 10000, 5000, "its latency mean is off"},
		{"open, above its rate", result.RunInfo{ID: "y", Connections: 100, OpenLoop: true,
			PublishedLoad: withLoad(result.PublishedLoad{Tool: "wrk2", Model: result.ModelOpen, Rate: 10000, DurationS: 30}),
			Published:     map[string]float64{"rps": 12000, "latency_mean_ms": 5}}, true, RowAboveRate, metric.Achieved, 12000, 60, "cannot send more than its rate"},
		// A row without a mean has nothing for Little's law.
		{"no mean", result.RunInfo{ID: "z", Connections: 10, PublishedLoad: wrk, Published: map[string]float64{"rps": 1000}}, false, "", "", 1000, 0, ""},
	}
	for _, c := range cases {
		got, ok := CheckPublished(c.info)
		if ok != c.ok {
			t.Errorf("%s: ok %v, want %v", c.name, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		if got.State != c.state || got.Breaks != c.breaks || math.Abs(got.RPS-c.rps) > 0.01 || math.Abs(got.InFlight-c.inFlight) > 0.5 || !strings.Contains(got.Why, c.why) {
			t.Errorf("%s: state %q breaks %q rps %.2f in flight %.1f (%s); want %q %q %.2f %.1f and %q", c.name, got.State, got.Breaks, got.RPS, got.InFlight, got.Why, c.state, c.breaks, c.rps, c.inFlight, c.why)
		}
	}
}

// A row whose mean is off blocks the claims on that mean, graded on our
// runs beside it, and never a claim on its req/s, which is a count.
func TestPublishedBlocksOnlyWhatItBreaks(t *testing.T) {
	runs := map[string]result.RunInfo{
		// 12.9k × 37.4 ms = 482 in flight on 10 connections of a closed loop.
		"node10":  {ID: "node10", Connections: 10, PublishedLoad: wrk, Published: map[string]float64{"rps": 12900, "latency_mean_ms": 37.4}},
		"node100": {ID: "node100", Connections: 100, PublishedLoad: wrk, Published: map[string]float64{"rps": 12900, "latency_mean_ms": 7}},
	}
	trials := map[string][]*result.Trial{
		"node10":  trialsOf("node10", []fig{{rps: 10, mean: 0.8}, {rps: 10, mean: 0.9}, {rps: 10, mean: 1}, {rps: 10, mean: 0.85}, {rps: 10, mean: 0.95}}...),
		"node100": trialsOf("node100", []fig{{rps: 10.2, mean: 8}, {rps: 10.1, mean: 9}, {rps: 10.3, mean: 10}, {rps: 10.2, mean: 8.5}, {rps: 10.1, mean: 9.5}}...),
	}
	cases := []struct {
		c       result.Conclusion
		outcome string
		why     []string
	}{
		{result.Conclusion{Text: "10 to 100 made latency 5x better", Metric: "latency_mean_ms", A: "node10", B: "node100", Claim: result.ClaimBand, Low: 4.3, High: 6.7},
			PublishedInconsistent, []string{"482 in flight", "latency mean is off by 48.2×", "on our runs the sentence does not hold"}},
		{result.Conclusion{Text: "more connections do not change req/s", Metric: "rps", A: "node100", B: "node10", Claim: result.ClaimTie, Tolerance: 0.1},
			Holds, nil},
	}
	for _, c := range cases {
		v := Evaluate(c.c, runs, trials, 1)
		if v.Outcome != c.outcome {
			t.Errorf("%s: %q (%s), want %q", c.c.Text, v.Outcome, v.Why, c.outcome)
		}
		for _, w := range c.why {
			if !strings.Contains(v.Why, w) {
				t.Errorf("%s: why %q lacks %q", c.c.Text, v.Why, w)
			}
		}
		if v.Estimate == 0 {
			t.Errorf("%s: the measurement must stay beside it", c.c.Text)
		}
	}
	// An open loop's row (wrk2) with the same figures breaks nothing.
	for _, id := range []string{"node10", "node100"} {
		r := runs[id]
		r.OpenLoop, r.PublishedLoad = true, wrk2
		runs[id] = r
	}
	if v := Evaluate(cases[0].c, runs, trials, 1); v.Outcome != DoesNotHold {
		t.Errorf("open loop: %q (%s), want it graded on our runs", v.Outcome, v.Why)
	}
}

// Three rounds cover the median with 75 %: such a line reads
// inconclusive whatever its flags or the published figures say.
func TestThreeRoundsStayInconclusive(t *testing.T) {
	runs := map[string]result.RunInfo{
		"a": {ID: "a", Connections: 10, PublishedLoad: wrk, Published: map[string]float64{"rps": 20, "latency_mean_ms": 1000}}, // 20 in flight on 10
		"b": {ID: "b", Connections: 10, PublishedLoad: wrk, Published: map[string]float64{"rps": 10, "latency_mean_ms": 1000}},
	}
	three := func(run string, mean float64, flag string) []*result.Trial {
		ts := trialsOf(run, meanOf(mean, mean*1.01, mean*1.02)...)
		for _, t := range ts {
			if flag != "" {
				t.Load.Flags = []string{flag}
				t.Load.Little = &result.Little{Connections: 10, InFlight: 4, Ratio: 0.4}
			}
		}
		return ts
	}
	for _, tc := range []struct {
		name string
		flag string
	}{{"published mean off", ""}, {"flagged and published mean off", result.FlagInconsistent}} {
		trials := map[string][]*result.Trial{"a": three("a", 500, tc.flag), "b": three("b", 100, "")}
		v := Evaluate(result.Conclusion{Text: "a is slower", Metric: "latency_mean_ms", A: "a", B: "b", Claim: result.ClaimBand, Low: 2}, runs, trials, 1)
		if v.Outcome != Inconclusive || !strings.Contains(v.Why, "75 %") || !strings.Contains(v.Why, "mean is off") {
			t.Errorf("%s: %q (%s), want inconclusive, saying why and what else", tc.name, v.Outcome, v.Why)
		}
		if tc.flag != "" && !strings.Contains(v.Why, result.FlagInconsistent) {
			t.Errorf("%s: why %q lacks the flag", tc.name, v.Why)
		}
	}
}

// A saturated open loop's rows fell behind their rate on their
// connections: the same flags on our cells are the published condition.
// They bias nothing but the latency of a run behind its rate, which grows
// with a window shorter than the published one (a floor).
func TestAsPublished(t *testing.T) {
	sat := &result.PublishedLoad{Tool: "wrk2", Model: result.ModelOpen, DurationS: 30, Saturated: true}
	runs := map[string]result.RunInfo{
		"c10":  {ID: "c10", OpenLoop: true, PublishedLoad: sat},
		"c100": {ID: "c100", OpenLoop: true, PublishedLoad: sat},
	}
	// 2,000 req/s × 50 ms needs 112 connections; 20 carry 400 req/s:
	// connection-bound and behind schedule, as published.
	trials := map[string][]*result.Trial{
		"c10":  openTrials("c10", 2000, 400, 50, 900, 20),
		"c100": openTrials("c100", 2000, 1990, 5, 6, 200),
	}
	cases := []struct {
		c       result.Conclusion
		outcome string
		bound   string
		why     []string
	}{
		// Req/s: the flags are the published condition and bias nothing,
		// but c=100 kept up with its rate, so its req/s is the rate: a
		// floor of what it carries, and the ratio a floor too.
		{result.Conclusion{Text: "more connections do not change req/s", Metric: "rps", A: "c100", B: "c10", Claim: result.ClaimTie, Tolerance: 0.1},
			DoesNotHold, "lower", []string{"connection-bound", "as published", "c100: capped at the rate"}},
		// Latency, open above: c=10's is a floor, so at least 5× holds as one.
		{result.Conclusion{Text: "10 to 100 made latency better", Metric: "latency_mean_ms", A: "c10", B: "c100", Claim: result.ClaimBand, Low: 5},
			Holds, "lower", []string{"1.25 s here", "the published 30 s"}},
		// A floor above the band's top: cannot hold whatever the window.
		{result.Conclusion{Text: "about 5x better", Metric: "latency_mean_ms", A: "c10", B: "c100", Claim: result.ClaimBand, Low: 4, High: 6},
			DoesNotHold, "lower", []string{"at least the measured one, above the claim's 6×"}},
		// A floor inside a closed band says nothing.
		{result.Conclusion{Text: "about 150x better", Metric: "latency_mean_ms", A: "c10", B: "c100", Claim: result.ClaimBand, Low: 120, High: 190},
			NotComparable, "", []string{"a floor"}},
	}
	for _, tr := range trials["c10"] {
		tr.Load.DurationS = 1.25
	}
	for _, c := range cases {
		v := Evaluate(c.c, runs, trials, 1)
		if v.Outcome != c.outcome || v.Bound != c.bound {
			t.Errorf("%s: %q %q (%s), want %q %q", c.c.Text, v.Outcome, v.Bound, v.Why, c.outcome, c.bound)
		}
		for _, w := range c.why {
			if !strings.Contains(v.Why, w) {
				t.Errorf("%s: why %q lacks %q", c.c.Text, v.Why, w)
			}
		}
	}
	// Without saturated: the connections are ours to size, so not comparable.
	plain := map[string]result.RunInfo{"c10": {ID: "c10", OpenLoop: true, PublishedLoad: wrk2}, "c100": {ID: "c100", OpenLoop: true, PublishedLoad: wrk2}}
	if v := Evaluate(cases[0].c, plain, trials, 1); v.Outcome != NotComparable {
		t.Errorf("not saturated: %q (%s), want not comparable", v.Outcome, v.Why)
	}
}
