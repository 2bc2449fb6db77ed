package verdict

import (
	"math"
	"strings"
	"testing"

	"restbench/internal/metric"
	"restbench/internal/result"
)

// fig is what a fixture trial measured; zero fields are left out.
type fig struct {
	rps, mean, p50, p99, cpu float64
	probeMean                float64
	probes                   int64
}

// trialsOf builds the trials of one run, trial k measured in round k.
func trialsOf(run string, figs ...fig) []*result.Trial {
	var out []*result.Trial
	for i, f := range figs {
		t := &result.Trial{Run: run, Trial: i + 1, Round: i + 1, Status: result.StatusOK, Load: &result.Load{}}
		t.Load.RPS = f.rps
		t.Load.Latency = result.Latency{Mean: f.mean, P50: f.p50, P99: f.p99}
		if f.probes > 0 {
			t.Load.Probe = &result.Stats{Requests: f.probes, Latency: result.Latency{Mean: f.probeMean}}
		}
		t.Monitor = &result.Monitor{ServerCPUMean: f.cpu}
		out = append(out, t)
	}
	return out
}

func rpsOf(vs ...float64) []fig {
	var out []fig
	for _, v := range vs {
		out = append(out, fig{rps: v})
	}
	return out
}

func meanOf(vs ...float64) []fig {
	var out []fig
	for _, v := range vs {
		out = append(out, fig{mean: v})
	}
	return out
}

// fixture is one experiment: runs (published figures by id) and trials.
type fixture struct {
	published map[string]map[string]float64
	trials    map[string][]fig
}

func (f fixture) eval(c result.Conclusion) Verdict {
	runs := map[string]result.RunInfo{}
	trials := map[string][]*result.Trial{}
	for id, figs := range f.trials {
		runs[id] = result.RunInfo{ID: id, Published: f.published[id]}
		trials[id] = trialsOf(id, figs...)
	}
	for id, p := range f.published {
		if _, ok := runs[id]; !ok {
			runs[id] = result.RunInfo{ID: id, Published: p}
		}
	}
	return Evaluate(c, runs, trials, 1)
}

// TestIssueCases grades the eight cases of issue 10's table, with trials
// shaped like the sample report's (docs/sample-report, standard scale).
func TestIssueCases(t *testing.T) {
	cases := []struct {
		name  string
		c     result.Conclusion
		f     fixture
		want  string
		check func(t *testing.T, v Verdict)
	}{
		{
			// Was "holds" at 5.3×: the magnitude was never checked.
			name: "about 2x faster, measured 5.3x",
			c:    result.Conclusion{Text: "Go handles the sum about 2x faster", Metric: "rps", A: "go", B: "node", Claim: result.ClaimBand, Low: 1.6, High: 2.5},
			f: fixture{
				published: map[string]map[string]float64{"go": {"rps": 17280.86}, "node": {"rps": 7390.41}},
				trials:    map[string][]fig{"go": rpsOf(24000, 26500, 27600, 24000, 26500), "node": rpsOf(5000, 5000, 4000, 5000, 5000)},
			},
			want: DoesNotHold,
			check: func(t *testing.T, v Verdict) {
				if math.Abs(v.Published-17280.86/7390.41) > 1e-9 {
					t.Errorf("published = %v, want the ratio of the runs' figures", v.Published)
				}
			},
		},
		{
			// Was "holds": the lead shrank from 1.92x to 1.86x.
			name: "lead grows with connections, measured shrinking",
			c: result.Conclusion{Text: "Go's lead grows with connections", Metric: "rps", Claim: result.ClaimGrows, Over: "connections",
				Points: []result.Point{{X: 100, A: "go100", B: "node100"}, {X: 500, A: "go500", B: "node500"}}},
			f: fixture{
				published: map[string]map[string]float64{"go100": {"rps": 15847.80}, "node100": {"rps": 12925.33}, "go500": {"rps": 14682.27}, "node500": {"rps": 9673.37}},
				trials: map[string][]fig{
					"go100": rpsOf(19000, 19200, 19500, 19000, 19200), "node100": rpsOf(10000, 10000, 10000, 10000, 10000),
					"go500": rpsOf(18400, 18600, 18800, 18400, 18600), "node500": rpsOf(10000, 10000, 10000, 10000, 10000),
				},
			},
			want: DoesNotHold,
			check: func(t *testing.T, v Verdict) {
				if v.Published <= 1 || v.Estimate >= 1 || len(v.Points) != 2 {
					t.Errorf("published change %v, measured %v, points %v: want published > 1 > measured", v.Published, v.Estimate, v.Points)
				}
			},
		},
		{
			// Was "holds" on Node's p99 over Go's: both tails are 1.45x their median.
			name: "Go's latency stays flat, both shapes 1.45",
			c:    result.Conclusion{Text: "Go's latency stays flat while Node's tail grows", Metric: metric.Shape, A: "node", B: "go", Claim: result.ClaimBand, Low: 1.5},
			f: fixture{
				published: map[string]map[string]float64{"node": {"p50_ms": 48, "p99_ms": 156}, "go": {"p50_ms": 34, "p99_ms": 41}},
				trials: map[string][]fig{
					"node": {{p50: 20, p99: 29}, {p50: 22, p99: 31.9}, {p50: 21, p99: 30.5}, {p50: 20, p99: 29}, {p50: 22, p99: 31.9}},
					"go":   {{p50: 10, p99: 14.5}, {p50: 11, p99: 16}, {p50: 10.5, p99: 15.2}, {p50: 10, p99: 14.5}, {p50: 11, p99: 16}},
				},
			},
			want: DoesNotHold,
		},
		{
			// Was Node vs Go at 40 ms; the claim is Node at 40 ms against Node at 30 ms.
			name: "Node's latency grows about 6x from 30 to 40 ms",
			c:    result.Conclusion{Text: "Node's latency grows about 6x from 30 to 40 ms", Metric: "latency_mean_ms", A: "node40", B: "node30", Claim: result.ClaimBand, Low: 4.5, High: 7.1},
			f: fixture{
				published: map[string]map[string]float64{"node40": {"latency_mean_ms": 241}, "node30": {"latency_mean_ms": 42.6}},
				trials:    map[string][]fig{"node40": meanOf(300, 210, 250, 300, 210), "node30": meanOf(50, 40, 45, 50, 40)},
			},
			want: Holds,
		},
		{
			// Was Node vs Go; the claim is Node 1 % against Node 0 %.
			name: "1% computation makes Node's latency about 488x worse",
			c:    result.Conclusion{Text: "1% of computation: Node's latency almost 488 times higher", Metric: "latency_mean_ms", A: "node1", B: "node0", Claim: result.ClaimBand, Low: 390, High: 610},
			f: fixture{
				published: map[string]map[string]float64{"node1": {"latency_mean_ms": 8830}, "node0": {"latency_mean_ms": 18.1}},
				trials:    map[string][]fig{"node1": meanOf(3900, 4100, 4400, 3900, 4100), "node0": meanOf(20, 21, 19, 20, 21)},
			},
			want: DoesNotHold,
		},
		{
			// Was inconclusive: a tie was never recognised.
			name: "PM2 tie",
			c:    result.Conclusion{Text: "Node.js alone is about as fast as under PM2", Metric: "rps", A: "alone", B: "pm2", Claim: result.ClaimTie},
			f: fixture{
				published: map[string]map[string]float64{"alone": {"rps": 7390.41}, "pm2": {"rps": 7213.76}},
				trials:    map[string][]fig{"alone": rpsOf(5000, 4000, 6000, 5500, 4500), "pm2": rpsOf(5050, 3960, 5940, 5500, 4480)},
			},
			want: Holds,
			check: func(t *testing.T, v Verdict) {
				if v.Tolerance != DefaultTolerance || !strings.Contains(v.Rule, "±5 %") {
					t.Errorf("tolerance %v, rule %q: want the default ±5 %%", v.Tolerance, v.Rule)
				}
			},
		},
		{
			// Was inconclusive at 0.95x (0.94-1.04): the collapse is absent.
			name: "579 req/s quota collapse absent",
			c:    result.Conclusion{Text: "1-CPU quota: GOMAXPROCS=4 far slower than GOMAXPROCS=1", Metric: "rps", A: "one", B: "four", Claim: result.ClaimBand, Low: 3},
			f: fixture{
				published: map[string]map[string]float64{"one": {"rps": 6209.90}, "four": {"rps": 579.77}},
				trials:    map[string][]fig{"one": rpsOf(9400, 9300, 10400, 9400, 9300), "four": rpsOf(10000, 9900, 10000, 10000, 9900)},
			},
			want: DoesNotHold,
		},
		{
			// Was a verdict on 2-3 probes per trial, which flipped between runs.
			name: "filter heartbeat on 3 probes per trial",
			c:    result.Conclusion{Text: "All cores: the heartbeat starves far more under Node", Metric: "probe_mean_ms", A: "node", B: "go"},
			f: fixture{
				trials: map[string][]fig{
					"node": {{probeMean: 900, probes: 3}, {probeMean: 700, probes: 3}, {probeMean: 1200, probes: 3}, {probeMean: 800, probes: 3}, {probeMean: 1000, probes: 3}},
					"go":   {{probeMean: 500, probes: 3}, {probeMean: 600, probes: 3}, {probeMean: 400, probes: 3}, {probeMean: 450, probes: 3}, {probeMean: 550, probes: 3}},
				},
			},
			want: Inconclusive,
			check: func(t *testing.T, v Verdict) {
				if !strings.Contains(v.Why, "needs 30") {
					t.Errorf("why = %q, want the probe count named", v.Why)
				}
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.f.eval(tc.c)
			if v.Outcome != tc.want {
				t.Fatalf("outcome %q (%.3g, %.3g–%.3g, %s), want %q", v.Outcome, v.Estimate, v.Lo, v.Hi, v.Why, tc.want)
			}
			if v.Lo > v.Estimate || v.Estimate > v.Hi {
				t.Errorf("estimate %v outside its interval %v–%v", v.Estimate, v.Lo, v.Hi)
			}
			if tc.check != nil {
				tc.check(t, v)
			}
		})
	}
}

// TestRules covers each claim kind on both sides of its boundaries.
func TestRules(t *testing.T) {
	two := rpsOf(100, 100, 100, 100, 100)
	cases := []struct {
		name string
		c    result.Conclusion
		a, b []fig
		want string
	}{
		{"direction holds", result.Conclusion{Claim: result.ClaimDirection}, rpsOf(130, 120, 125, 128, 122), two, Holds},
		{"direction reversed", result.Conclusion{}, rpsOf(80, 85, 90, 82, 88), two, DoesNotHold},
		{"direction with a published ratio below 1", result.Conclusion{Published: 0.5}, rpsOf(80, 85, 90, 82, 88), two, Holds},
		{"direction straddles 1", result.Conclusion{}, rpsOf(90, 110, 95, 105, 100), two, Inconclusive},
		{"band inside", result.Conclusion{Claim: result.ClaimBand, Low: 1.6, High: 2.5}, rpsOf(200, 210, 190, 205, 195), two, Holds},
		{"band above", result.Conclusion{Claim: result.ClaimBand, Low: 1.6, High: 2.5}, rpsOf(500, 510, 490, 505, 495), two, DoesNotHold},
		{"band straddles its upper edge", result.Conclusion{Claim: result.ClaimBand, Low: 1.6, High: 2.5}, rpsOf(230, 260, 240, 270, 250), two, Inconclusive},
		{"at least, above", result.Conclusion{Claim: result.ClaimBand, Low: 3}, rpsOf(400, 500, 450, 420, 480), two, Holds},
		{"tie outside", result.Conclusion{Claim: result.ClaimTie}, rpsOf(120, 121, 119, 122, 118), two, DoesNotHold},
		{"tie with a wide tolerance", result.Conclusion{Claim: result.ClaimTie, Tolerance: 0.25}, rpsOf(120, 121, 119, 122, 118), two, Holds},
		{"two rounds are not enough", result.Conclusion{}, rpsOf(200, 210), rpsOf(100, 100), Inconclusive},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.c
			c.Text, c.Metric, c.A, c.B = tc.name, "rps", "a", "b"
			v := fixture{trials: map[string][]fig{"a": tc.a, "b": tc.b}}.eval(c)
			if v.Outcome != tc.want {
				t.Errorf("outcome %q (%.3g, %.3g–%.3g: %s; rule %s), want %q", v.Outcome, v.Estimate, v.Lo, v.Hi, v.Why, v.Rule, tc.want)
			}
		})
	}
}

// TestPairedByRound: ratios pair the trials of one round, whatever order the
// trial files come in.
func TestPairedByRound(t *testing.T) {
	runs := map[string]result.RunInfo{"a": {ID: "a"}, "b": {ID: "b"}}
	a := trialsOf("a", rpsOf(300, 100, 200)...)
	b := trialsOf("b", rpsOf(50, 150, 100)...)
	// A run's trial k ran beside the other run's trial of the same Round,
	// not the one with the same index.
	for i, r := range []int{2, 3, 1} {
		a[i].Round = r
	}
	for i, r := range []int{3, 1, 2} {
		b[i].Round = r
	}
	trials := map[string][]*result.Trial{"a": a, "b": b}
	v := Evaluate(result.Conclusion{Text: "t", Metric: "rps", A: "a", B: "b"}, runs, trials, 1)
	// Rounds: 1: 200/150, 2: 300/100, 3: 100/50.
	want := result.Median([]float64{200.0 / 150, 300.0 / 100, 100.0 / 50})
	if v.Pairs != 3 || math.Abs(v.Estimate-want) > 1e-12 {
		t.Fatalf("pairs %d estimate %v, want 3 pairs and %v", v.Pairs, v.Estimate, want)
	}
	// Round 0 (files from before rounds) pairs by trial number.
	for _, t := range append(a, b...) {
		t.Round = 0
	}
	v = Evaluate(result.Conclusion{Text: "t", Metric: "rps", A: "a", B: "b"}, runs, trials, 1)
	want = result.Median([]float64{300.0 / 50, 100.0 / 150, 200.0 / 100})
	if math.Abs(v.Estimate-want) > 1e-12 {
		t.Errorf("by trial number: estimate %v, want %v", v.Estimate, want)
	}
}

func TestDeterministic(t *testing.T) {
	f := fixture{trials: map[string][]fig{"a": rpsOf(130, 90, 125, 128, 101, 99), "b": rpsOf(100, 100, 97, 104, 100, 110)}}
	c := result.Conclusion{Text: "same seed", Metric: "rps", A: "a", B: "b"}
	v1, v2 := f.eval(c), f.eval(c)
	if v1.Lo != v2.Lo || v1.Hi != v2.Hi {
		t.Errorf("two evaluations differ: %v–%v and %v–%v", v1.Lo, v1.Hi, v2.Lo, v2.Hi)
	}
}

func TestNotRunAndMissing(t *testing.T) {
	runs := map[string]result.RunInfo{"six": {ID: "six"}, "one": {ID: "one"}}
	trials := map[string][]*result.Trial{
		"six": {{Run: "six", Trial: 1, Status: result.StatusNotRun, Error: "not run here: needs 6 cores"}},
		"one": trialsOf("one", rpsOf(1, 2, 3, 1, 2)...),
	}
	v := Evaluate(result.Conclusion{Text: "t", Metric: "rps", A: "six", B: "one"}, runs, trials, 1)
	if v.Outcome != NotRun || v.Why != "needs 6 cores" || !v.Decided() {
		t.Errorf("got %q %q, want not run: needs 6 cores", v.Outcome, v.Why)
	}
	v = Evaluate(result.Conclusion{Text: "t", Metric: "rps", A: "one", B: "nine"}, runs, trials, 1)
	if v.Outcome != NotMeasured || !strings.Contains(v.Why, `"nine"`) {
		t.Errorf("got %q %q, want not measured naming the unknown run", v.Outcome, v.Why)
	}
}

func TestStopRule(t *testing.T) {
	s := result.Suite{Experiments: []result.Experiment{{
		Name: "e",
		Runs: []result.RunInfo{{ID: "e/a"}, {ID: "e/b"}},
		Conclusions: []result.Conclusion{
			{Text: "a faster", Metric: "rps", A: "e/a", B: "e/b"},
		},
	}, {Name: "bare"}}}
	stop := StopRule(s)
	var trials []*result.Trial
	add := func(a, b float64) {
		n := len(trials)/2 + 1
		trials = append(trials, trialsOf("e/a", rpsOf(a)...)[0], trialsOf("e/b", rpsOf(b)...)[0])
		trials[len(trials)-2].Round, trials[len(trials)-1].Round = n, n
	}
	add(120, 100)
	add(125, 100)
	if ok, why := stop("e", trials); ok {
		t.Fatalf("stopped after 2 rounds: %s", why)
	}
	add(95, 100) // one round the other way: the interval straddles 1
	if ok, why := stop("e", trials); ok || !strings.Contains(why, "a faster") {
		t.Fatalf("stop %v (%s), want to go on naming the open verdict", ok, why)
	}
	add(130, 100)
	add(128, 100)
	add(126, 100)
	add(122, 100)
	// Seven rounds: the interval that covers 95 % is their min–max, which
	// holds the 0.95.
	if ok, why := stop("e", trials); ok {
		t.Fatalf("stopped after 7 rounds, one of them the other way: %s", why)
	}
	add(127, 100)
	add(124, 100)
	// Nine: the 2nd smallest to the 2nd largest covers 96 %, all above 1.
	if ok, why := stop("e", trials); !ok {
		t.Fatalf("did not stop after 9 rounds, 8 of them A ahead: %s", why)
	}
	if ok, _ := stop("bare", nil); !ok {
		t.Errorf("an experiment without conclusions should stop at once")
	}
}

// TestTrend fits all points, not the ends: a dip in the middle of a rising
// series still rises; an endpoint above the start does not make a falling
// series rise.
func TestTrend(t *testing.T) {
	points := func(ids ...string) []result.Point {
		var out []result.Point
		for i, id := range ids {
			out = append(out, result.Point{X: float64([]int{0, 1, 10, 25, 50}[i]), A: id})
		}
		return out
	}
	cases := []struct {
		name   string
		claim  string
		trials map[string][]fig
		want   string
	}{
		{"rising with a dip", result.ClaimGrows, map[string][]fig{
			"p0": meanOf(10, 11, 10, 10, 11), "p1": meanOf(300, 280, 320, 300, 280), "p10": meanOf(200, 210, 190, 200, 210), "p25": meanOf(900, 950, 870, 900, 950), "p50": meanOf(2000, 2100, 1900, 2000, 2100),
		}, Holds},
		{"falling but the last point above the first", result.ClaimGrows, map[string][]fig{
			"p0": meanOf(100, 101, 99, 100, 101), "p1": meanOf(900, 950, 870, 900, 950), "p10": meanOf(500, 520, 480, 500, 520), "p25": meanOf(200, 210, 190, 200, 210), "p50": meanOf(110, 112, 108, 110, 112),
		}, DoesNotHold},
		{"falling, claimed to shrink", result.ClaimShrinks, map[string][]fig{
			"p0": meanOf(100, 101, 99, 100, 101), "p1": meanOf(90, 95, 87, 90, 95), "p10": meanOf(50, 52, 48, 50, 52), "p25": meanOf(20, 21, 19, 20, 21), "p50": meanOf(11, 12, 10, 11, 12),
		}, Holds},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := result.Conclusion{Text: tc.name, Metric: "latency_mean_ms", Claim: tc.claim, Over: "work_share", Points: points("p0", "p1", "p10", "p25", "p50")}
			v := fixture{trials: tc.trials}.eval(c)
			if v.Outcome != tc.want {
				t.Errorf("outcome %q (change %.3g, %.3g–%.3g: %s), want %q", v.Outcome, v.Estimate, v.Lo, v.Hi, v.Why, tc.want)
			}
			if len(v.Points) != 5 || v.Points[1].Measured == 0 {
				t.Errorf("points %+v: want five measured", v.Points)
			}
		})
	}
	// A flagged point bounds the fitted change by where it lies: a floor
	// right of the mean x (a backlog that grows with the window) bounds it
	// from below, left of it from above; unknown leaves it not comparable.
	rising := map[string][]fig{"p0": meanOf(10, 11, 10, 10, 11), "p1": meanOf(30, 28, 32, 30, 28), "p25": meanOf(9000, 9500, 8700, 9000, 9500)}
	for _, tc := range []struct {
		name    string
		flagged string // the point that carries the flag
		flag    string
		want    string
		bound   string
	}{
		{"a floor right of the mean: at least this change", "p25", result.FlagBehindSchedule, Holds, "lower"},
		{"a floor left of the mean: at most this change", "p0", result.FlagBehindSchedule, NotComparable, ""},
		{"unknown", "p25", result.FlagAheadOfSchedule, NotComparable, ""},
		{"a ceiling right of the mean", "p25", result.FlagConnectionBound, NotComparable, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs, trials := map[string]result.RunInfo{}, map[string][]*result.Trial{}
			for id, figs := range rising {
				runs[id] = result.RunInfo{ID: id}
				trials[id] = trialsOf(id, figs...)
				if id == tc.flagged {
					for _, tr := range trials[id] {
						tr.Flags = []string{tc.flag}
					}
				}
			}
			c := result.Conclusion{Text: tc.name, Metric: "latency_mean_ms", Claim: result.ClaimGrows, Over: "work_share",
				Points: []result.Point{{X: 0, A: "p0"}, {X: 1, A: "p1"}, {X: 25, A: "p25"}}}
			v := Evaluate(c, runs, trials, 1)
			if v.Outcome != tc.want || v.Bound != tc.bound {
				t.Errorf("outcome %q bound %q (change %.3g, %.3g–%.3g: %s), want %q %q", v.Outcome, v.Bound, v.Estimate, v.Lo, v.Hi, v.Why, tc.want, tc.bound)
			}
		})
	}
	// A point that cannot run here makes the whole trend not run here.
	runs := map[string]result.RunInfo{"a": {ID: "a"}, "b": {ID: "b"}}
	trials := map[string][]*result.Trial{
		"a": trialsOf("a", meanOf(1, 2, 3, 1, 2)...),
		"b": {{Run: "b", Trial: 1, Status: result.StatusNotRun, Error: "not run here: needs 12 cores"}},
	}
	v := Evaluate(result.Conclusion{Text: "t", Metric: "latency_mean_ms", Claim: result.ClaimGrows, Points: []result.Point{{X: 1, A: "a"}, {X: 2, A: "b"}}}, runs, trials, 1)
	if v.Outcome != NotRun || v.Why != "needs 12 cores" {
		t.Errorf("got %q %q, want not run here: needs 12 cores", v.Outcome, v.Why)
	}
}

// TestDisagree: two generators' estimates of one claim disagree only beyond
// the noise floor, the A/A arm's interval read both ways or ±5 % at least.
func TestDisagree(t *testing.T) {
	tests := []struct {
		name            string
		aa              *Verdict
		estimate, other float64
		want            bool
	}{
		{"no A/A: 5 %, inside", nil, 2.0, 2.03, false},
		{"no A/A: 5 %, beyond", nil, 3.91, 2.03, true},
		{"wide A/A floor covers it", &Verdict{Pairs: 5, Lo: 0.725, Hi: 1.31}, 2.6, 2.03, false},
		{"wide A/A floor, below it", &Verdict{Pairs: 5, Lo: 0.725, Hi: 1.31}, 1.4, 2.03, true},
		{"A/A not measured: 5 %", &Verdict{}, 2.2, 2.03, true},
		{"nothing to compare", nil, 0, 2.03, false},
	}
	for _, tt := range tests {
		if got := Disagree(tt.estimate, tt.other, NoiseFactor(tt.aa)); got != tt.want {
			t.Errorf("%s: Disagree(%g, %g) = %v, want %v", tt.name, tt.estimate, tt.other, got, tt.want)
		}
	}
}
