package verdict

import (
	"math"
	"strings"
	"testing"

	"restbench/internal/metric"
	"restbench/internal/result"
)

// The order-statistic interval states the coverage it has: min–max of 3
// rounds is 75 %, of 5 is 93.75 %; at 10 rounds the 2nd–9th reach 95 %.
func TestMedianInterval(t *testing.T) {
	cases := []struct {
		n, k     int
		coverage float64
	}{
		{1, 1, 0}, {3, 1, 0.75}, {4, 1, 0.875}, {5, 1, 0.9375}, {6, 1, 0.96875},
		{8, 1, 0.9921875}, {9, 2, 0.9609375}, {10, 2, 0.978515625}, {20, 6, 0.9586105346679688},
	}
	for _, c := range cases {
		vs := make([]float64, c.n)
		for i := range vs {
			vs[i] = float64(c.n - i) // unsorted on purpose
		}
		iv := MedianInterval(vs, Confidence)
		if iv.K != c.k || math.Abs(iv.Coverage-c.coverage) > 1e-9 {
			t.Errorf("n=%d: k=%d coverage %.6f, want k=%d %.6f", c.n, iv.K, iv.Coverage, c.k, c.coverage)
		}
		if iv.Lo != float64(c.k) || iv.Hi != float64(c.n-c.k+1) {
			t.Errorf("n=%d: %v–%v, want the %dth from each end", c.n, iv.Lo, iv.Hi, c.k)
		}
	}
	if got := (Interval{K: 1, N: 3, Coverage: 0.75}).Describe(1); got != "min–max of 3 rounds, 75 %" {
		t.Errorf("describe = %q", got)
	}
	// Three looks at a 96.9 % interval leave 90.6 %.
	if got := Corrected(0.96875, 3); math.Abs(got-0.90625) > 1e-12 {
		t.Errorf("corrected = %v", got)
	}
}

// open builds five rounds of an open-loop run at target req/s whose
// service time is serviceMS over conns connections, achieving rps.
func openTrials(run string, target, rps, serviceMS, meanMS float64, conns int) []*result.Trial {
	var out []*result.Trial
	for k := 1; k <= 5; k++ {
		l := &result.Load{TargetRPS: target, DurationS: 10, Settings: result.Settings{Connections: conns, Rate: target}}
		l.RPS = rps * (1 + 0.01*float64(k))
		l.Latency = result.Latency{Mean: meanMS * (1 + 0.01*float64(k))}
		l.Service = &result.Latency{Mean: serviceMS}
		l.ConnectionsNeeded = result.NeededConnections(target, l.Service)
		l.Flags = result.ValidityFlags(l)
		t := &result.Trial{Run: run, Trial: k, Round: k, Status: result.StatusOK, Load: l, Flags: l.Flags}
		out = append(out, t)
	}
	return out
}

// A held-out shape: an open-loop cell that its connections cannot carry is
// not comparable, naming the flag and the numbers, never holds or not.
func TestNotComparable(t *testing.T) {
	runs := map[string]result.RunInfo{"fast": {ID: "fast", OpenLoop: true}, "slow": {ID: "slow", OpenLoop: true}}
	trials := map[string][]*result.Trial{
		// 2,000 req/s × 50 ms needs 100 connections; 20 carry 400 req/s.
		"fast": openTrials("fast", 2000, 400, 50, 900, 20),
		"slow": openTrials("slow", 2000, 1990, 5, 6, 200),
	}
	for _, c := range []result.Conclusion{
		{Text: "latency", Metric: "latency_mean_ms", A: "fast", B: "slow", Claim: result.ClaimBand, Low: 100},
		{Text: "tie", Metric: "rps", A: "fast", B: "slow", Claim: result.ClaimTie},
		{Text: "slow has more req/s", Metric: "rps", A: "slow", B: "fast"},
	} {
		v := Evaluate(c, runs, trials, 1)
		if v.Outcome != NotComparable {
			t.Errorf("%s: %q (%s), want not comparable", c.Text, v.Outcome, v.Why)
		}
		for _, want := range []string{"fast: connection-bound", "needs 112 connections, had 20", "raise connections"} {
			if !strings.Contains(v.Why, want) {
				t.Errorf("%s: why %q lacks %q", c.Text, v.Why, want)
			}
		}
	}
	// The generator capped the server claimed to be faster: its req/s is a
	// floor, so "fast has more req/s" holds as a lower bound.
	trials["slow"] = openTrials("slow", 200, 200, 5, 6, 200)
	v := Evaluate(result.Conclusion{Text: "fast has more req/s", Metric: "rps", A: "fast", B: "slow"}, runs, trials, 1)
	if v.Outcome != Holds || v.Bound != "lower" || !strings.Contains(v.Why, "lower bound") {
		t.Errorf("got %q bound %q (%s), want holds as a lower bound", v.Outcome, v.Bound, v.Why)
	}
}

// Saturation against saturation is not comparable; a saturated run's
// latency over an unsaturated one's is a floor, so "at least" can hold.
func TestBehindSchedule(t *testing.T) {
	runs := map[string]result.RunInfo{"a": {ID: "a", OpenLoop: true}, "b": {ID: "b", OpenLoop: true}, "ok": {ID: "ok", OpenLoop: true}}
	trials := map[string][]*result.Trial{
		"a":  openTrials("a", 1000, 700, 2, 2000, 500),
		"b":  openTrials("b", 1000, 800, 2, 1500, 500),
		"ok": openTrials("ok", 1000, 1000, 2, 20, 500),
	}
	v := Evaluate(result.Conclusion{Text: "a worse", Metric: "latency_mean_ms", A: "a", B: "b", Claim: result.ClaimBand, Low: 1.1}, runs, trials, 1)
	if v.Outcome != NotComparable || !strings.Contains(v.Why, "behind-schedule in 5 of 5 rounds") {
		t.Errorf("saturated against saturated: %q (%s)", v.Outcome, v.Why)
	}
	v = Evaluate(result.Conclusion{Text: "a serious", Metric: "latency_mean_ms", A: "a", B: "ok", Claim: result.ClaimBand, Low: 5}, runs, trials, 1)
	if v.Outcome != Holds || v.Bound != "lower" {
		t.Errorf("saturated over healthy, at least 5×: %q %q (%s)", v.Outcome, v.Bound, v.Why)
	}
	// A floor inside a closed band cannot tell; one above its top can.
	v = Evaluate(result.Conclusion{Text: "a about 100x", Metric: "latency_mean_ms", A: "a", B: "ok", Claim: result.ClaimBand, Low: 80, High: 125}, runs, trials, 1)
	if v.Outcome != NotComparable {
		t.Errorf("a band cannot hold on a floor: %q (%s)", v.Outcome, v.Why)
	}
	v = Evaluate(result.Conclusion{Text: "a about 2x", Metric: "latency_mean_ms", A: "a", B: "ok", Claim: result.ClaimBand, Low: 1.6, High: 2.5}, runs, trials, 1)
	if v.Outcome != DoesNotHold || v.Bound != "lower" {
		t.Errorf("a floor above the band: %q %q (%s), want does not hold as a lower bound", v.Outcome, v.Bound, v.Why)
	}
}

// A claim's premise the runs do not meet reads "not run here: needs …".
func TestRequires(t *testing.T) {
	runs := map[string]result.RunInfo{"go": {ID: "go"}, "node": {ID: "node"}}
	trials := map[string][]*result.Trial{"go": trialsOf("go", rpsOf(3, 3, 3, 3, 3)...), "node": trialsOf("node", rpsOf(1, 1, 1, 1, 1)...)}
	for _, t := range append(trials["go"], trials["node"]...) {
		t.Placement.ServerCPUs = "0"
		t.Load.Settings.Connections = 10
	}
	cases := []struct {
		rq   result.Requires
		want string
	}{
		{result.Requires{MinCores: 4}, "needs 4 cores for the server (go had 1)"},
		{result.Requires{MinInFlight: 100}, "needs 100 requests in flight (go had 10)"},
		{result.Requires{MaxCores: 1, MinInFlight: 10}, ""},
	}
	for _, c := range cases {
		rq := c.rq
		v := Evaluate(result.Conclusion{Text: "parallelism", Metric: "rps", A: "go", B: "node", Claim: result.ClaimBand, Low: 3, Requires: &rq}, runs, trials, 1)
		if c.want == "" {
			if v.Outcome == NotRun {
				t.Errorf("%+v: not run (%s), want a verdict", c.rq, v.Why)
			}
			continue
		}
		if v.Outcome != NotRun || v.Why != c.want {
			t.Errorf("%+v: %q %q, want not run here: %s", c.rq, v.Outcome, v.Why, c.want)
		}
	}
}

// A claim on one run grades its own figure ("keeps one CPU at ~90 %").
func TestSingleRun(t *testing.T) {
	runs := map[string]result.RunInfo{"node": {ID: "node", Published: map[string]float64{"cpu_pct": 90}}}
	trials := map[string][]*result.Trial{"node": trialsOf("node", []fig{{cpu: 97}, {cpu: 99}, {cpu: 98}, {cpu: 96}, {cpu: 99}}...)}
	v := Evaluate(result.Conclusion{Text: "one CPU at ~90 %", Metric: "cpu_pct", A: "node", Claim: result.ClaimBand, Low: 80, High: 100}, runs, trials, 1)
	if v.Outcome != Holds || v.Published != 90 || v.Estimate != 98 {
		t.Errorf("got %q published %v estimate %v (%s)", v.Outcome, v.Published, v.Estimate, v.Why)
	}
	// Looking after every round costs coverage: 5 rounds looked at 3 times
	// cover 81 %, too little for a verdict.
	v = Evaluate(result.Conclusion{Text: "one CPU at ~90 %", Metric: "cpu_pct", A: "node", Claim: result.ClaimBand, Low: 80, High: 100}, runs, trials, 3)
	if v.Outcome != Inconclusive || !strings.Contains(v.Why, "81.2 %") {
		t.Errorf("three looks: %q (%s)", v.Outcome, v.Why)
	}
}

// TestEffect: what a flag does to CPU and memory figures, beside the
// throughput and latency rows the verdicts above exercise.
func TestEffect(t *testing.T) {
	tests := []struct {
		flag, metric string
		also         []string
		want         Bias
	}{
		// Held back by the generator: fewer requests held, less CPU spent.
		{result.FlagConnectionBound, "rss_mb", nil, Floor},
		{result.FlagClientBound, "cpu_pct", nil, Floor},
		// The generator's share is what client-bound is made of.
		{result.FlagClientBound, "client_cpu_share", nil, Unbiased},
		// A saturated server: its CPU is saturation's, its memory grows
		// with the queue and the window.
		{result.FlagBehindSchedule, "cpu_pct", nil, Unbiased},
		{result.FlagBehindSchedule, "rss_mb", nil, Unknown},
		{result.FlagBehindSchedule, "rss_mb", []string{result.FlagConnectionBound}, Unbiased}, // the connection-bound flag speaks
		// A backlog worked off: more than the rate asks.
		{result.FlagAheadOfSchedule, "cores_busy_pct", nil, Ceiling},
		{result.FlagAheadOfSchedule, "rps", nil, Unknown},
		{result.FlagAheadOfSchedule, "latency_mean_ms", nil, Ceiling}, // queued behind the backlog
		{result.FlagAheadOfSchedule, "p99_ms", nil, Ceiling},
		{result.FlagQuotaNotApplied, "rss_mb", nil, Unknown},
		{result.FlagAcceptQueueOverflow, "rss_mb", nil, Unbiased},
		// CPU per response divides the CPU by what was served: a generator
		// or a queue that changed how much was served changes both alike.
		{result.FlagClientBound, metric.CPUPerResponse, nil, Unbiased},
		{result.FlagAcceptQueueOverflow, metric.CPUPerResponse, nil, Unbiased},
		{result.FlagAheadOfSchedule, metric.CPUPerResponse, nil, Unbiased},
		{result.FlagBehindSchedule, metric.CPUPerResponse, nil, Unbiased},
		{result.FlagQuotaNotApplied, metric.CPUPerResponse, nil, Unknown},
	}
	for _, tt := range tests {
		all := append([]string{tt.flag}, tt.also...)
		if got := effect(tt.flag, metric.ClassOf(tt.metric), all); got != tt.want {
			t.Errorf("%s on %s (with %v): %v, want %v", tt.flag, tt.metric, tt.also, got, tt.want)
		}
	}
}
