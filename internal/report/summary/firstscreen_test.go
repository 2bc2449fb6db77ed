package summary

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"restbench/internal/report/model"
	"restbench/internal/result"
	"restbench/internal/verdict"
)

// graded is a verdict on A/B with an interval, for the first screen's tests.
func graded(text, kind, outcome, bound string, est, lo, hi, rlo, rhi float64) model.Verdict {
	return model.Verdict{Verdict: verdict.Verdict{
		Conclusion: result.Conclusion{Text: text, Kind: kind, Metric: "rps", A: "x/a", B: "x/b", Published: 1.77},
		Estimate:   est, Lo: lo, Hi: hi, Pairs: 5, Outcome: outcome, Bound: bound, Rule: "interval of the median paired ratio above 1×",
		RegionLo: rlo, RegionHi: rhi,
	}}
}

// notGraded is a verdict with nothing paired.
func notGraded(text, kind, outcome, why string) model.Verdict {
	return model.Verdict{Verdict: verdict.Verdict{Conclusion: result.Conclusion{Text: text, Kind: kind, Metric: "rps", A: "x/a", B: "x/b"},
		Outcome: outcome, Why: why, RegionLo: 1, RegionHi: math.Inf(1)}}
}

// screenOf builds the first screen of one suite with one experiment.
func screenOf(name string, vs ...model.Verdict) Screen {
	e := &model.ExperimentReport{Experiment: result.Experiment{Name: "x"}, Verdicts: vs}
	for _, v := range vs {
		e.Experiment.Conclusions = append(e.Experiment.Conclusions, v.Conclusion)
	}
	return BuildScreen([]*model.SuiteReport{{Suite: result.Suite{Name: name}, Experiments: []*model.ExperimentReport{e}}})
}

// TestLearnedLines: "What was learned" names a suite's most firmly decided
// claims (the interval farthest inside or outside the region), at most
// three, strongest first, never restbench's own checks, and counts the rest.
func TestLearnedLines(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		name  string
		vs    []model.Verdict
		lines []string // the claims named, in order
		rest  string
	}{
		{
			name: "strongest first, at most three",
			vs: []model.Verdict{
				graded("barely above 1", "", model.Holds, "", 1.05, 1.01, 1.1, 1, inf),
				graded("far above 1", "", model.Holds, "", 3, 2.5, 3.5, 1, inf),
				graded("far outside a band", "", model.DoesNotHold, "", 0.5, 0.4, 0.6, 1.6, 2.5),
				graded("inside a band", "", model.Holds, "", 2, 1.9, 2.1, 1.6, 2.5),
				graded("a check, however firm", result.KindCheck, model.Holds, "", 9, 8, 10, 1, inf),
			},
			lines: []string{"far outside a band", "far above 1", "inside a band"},
			rest:  "Its other claims: 1 holds.",
		},
		{
			name: "a bound is decided; a non-verdict is not",
			vs: []model.Verdict{
				graded("a lower bound", "", model.Holds, "lower", 3.4, 3.2, 3.5, 1.18, inf),
				graded("flagged", "", model.NotComparable, "", 1.5, 1.4, 1.6, 1, inf),
			},
			lines: []string{"a lower bound"},
			rest:  "Its other claims: 1 not comparable.",
		},
		{
			name: "nothing decided",
			vs: []model.Verdict{
				graded("straddles", "", model.Inconclusive, "", 1, 0.9, 1.1, 1, inf),
				notGraded("needs cores", "", model.NotRun, "needs 4 cores (2 usable)"),
			},
			rest: "Nothing decided here: 1 inconclusive, 1 not run here.",
		},
		{
			name:  "a replay is learned too",
			vs:    []model.Verdict{graded("Node 24: Node is faster", result.KindReplay, model.Holds, "", 1.3, 1.2, 1.4, 1, inf)},
			lines: []string{"Node 24: Node is faster"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := screenOf("s", c.vs...)
			if len(fs.Learned) != 1 {
				t.Fatalf("learned %+v, want one suite", fs.Learned)
			}
			var got []string
			for _, l := range fs.Learned[0].Lines {
				got = append(got, l.Claim)
			}
			if !reflect.DeepEqual(got, c.lines) {
				t.Errorf("lines %q, want %q", got, c.lines)
			}
			if fs.Learned[0].Rest != c.rest {
				t.Errorf("rest %q, want %q", fs.Learned[0].Rest, c.rest)
			}
		})
	}
}

// TestCountStates: the count by state counts each kind apart, so a runtime
// replay of a claim is never a second write-up conclusion; a bound counts
// among the holds; a "not run here" whose cells ran counts as not run as
// premised.
func TestCountStates(t *testing.T) {
	inf := math.Inf(1)
	premised := graded("needs 4 cores, ran on 1", "", model.NotRun, "", 1.9, 1.8, 2, 3, inf)
	premised.Why = "needs 4 cores for the server (x/a had 1)"
	scaled := graded("scaled", "", model.DoesNotHold, "", 1.1, 1.05, 1.15, 2, inf)
	scaled.Scaled = "GOMAXPROCS=2 against 1 under a 0.5-CPU quota"
	designed := graded("designed", "", model.Holds, "lower", 2.4, 2.1, 2.9, 1.34, inf)
	designed.Design = "server-bound"
	disputed := graded("disputed", "", model.Holds, "", 2.5, 2.2, 2.6, 1, inf)
	disputed.Disagrees = "wrk measured 2.28×"
	premisedAs := func(text string) model.Verdict {
		v := graded(text, "", model.NotRun, "", 1.9, 1.8, 2, 3, inf)
		v.Why = "needs 4 cores for the server (x/a had 1)"
		return v
	}
	twin := func(v model.Verdict) model.Verdict {
		v.Scaled = "quota = cores ÷ 4"
		return v
	}
	for _, c := range []struct {
		name string
		vs   []model.Verdict
		want []string
	}{
		{
			name: "a replay is counted apart",
			vs: []model.Verdict{
				graded("Node is faster", "", model.Holds, "", 1.3, 1.2, 1.4, 1, inf),
				graded("Node 24: Node is faster", result.KindReplay, model.Holds, "", 1.1, 1.05, 1.2, 1, inf),
				graded("Bun: Node is faster", result.KindReplay, model.DoesNotHold, "", 0.8, 0.7, 0.9, 1, inf),
			},
			want: []string{"The write-ups' conclusions 1: 1 holds; answered 1 of 1 (100 %)",
				"Runtime replays 2: 1 holds, 1 does not hold here; answered 2 of 2 (100 %)"},
		},
		{
			name: "bounds, checks and not run as premised",
			vs: []model.Verdict{
				graded("a", "", model.Holds, "lower", 3.4, 3.2, 3.5, 1.18, inf),
				graded("b", "", model.Holds, "", 1.3, 1.2, 1.4, 1, inf),
				notGraded("c", "", model.NotRun, "needs 6 cores (2 usable)"),
				premised,
				graded("d", result.KindConclusion, model.PublishedInconsistent, "", 0.4, 0.3, 0.5, 5, inf),
				graded("check", result.KindCheck, model.Inconclusive, "", 1, 0.9, 1.1, 0.95, 1.05),
			},
			want: []string{
				"The write-ups' conclusions 5: 2 holds (1 as a bound), 1 published figures inconsistent, 1 not run here, 1 not run as premised; answered 2 of 5 (40 %)",
				"restbench's own checks 1: 1 inconclusive; answered 0 of 1 (0 %)",
			},
		},
		{
			// The 2026-11-25 sample report counted 53 of its 60 write-up
			// conclusions: a state with a suffix fell out of every count.
			name: "scaled, designed, disputed and bounded states count as their outcome",
			vs: []model.Verdict{
				scaled,
				designed,
				disputed,
				graded("capped", "", model.DoesNotHold, "upper", 0.7, 0.6, 0.8, 0.9, 1.1),
			},
			want: []string{"The write-ups' conclusions 4: 2 holds (1 as a bound), 2 does not hold here; answered 4 of 4 (100 %)"},
		},
		{
			// A conclusion graded on a scaled design beside the published
			// one is one conclusion: counted by the published design where
			// that decided it (collapse), else by the scaled one where that
			// did (parallel), else as published (tail); a second sentence
			// of the same text with no scaled design stays apart.
			name: "a scaled design beside the published one counts once",
			vs: []model.Verdict{
				graded("collapse", "", model.DoesNotHold, "", 1.4, 1.2, 1.4, 5, inf),
				premisedAs("parallel"),
				premisedAs("tail"),
				twin(graded("collapse", "", model.Holds, "", 6, 5.5, 7, 5, inf)),
				twin(graded("parallel", "", model.Holds, "", 3.5, 3.2, 3.8, 3, inf)),
				twin(graded("tail", "", model.NotComparable, "", 1.3, 0.9, 2, 3, inf)),
				graded("same words", "", model.Holds, "", 1.3, 1.2, 1.4, 1, inf),
				graded("same words", "", model.Inconclusive, "", 1.3, 0.9, 1.4, 1, inf),
			},
			want: []string{"The write-ups' conclusions 5: 2 holds, 1 does not hold here, 1 inconclusive, 1 not run as premised; answered 3 of 5 (60 %); 3 graded on a scaled design too, each counted once (1 by its scaled design)"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, n := range screenOf("s", c.vs...).Counts {
				got = append(got, strings.SplitN(n.Title, " (", 2)[0]+" "+n.String())
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("counts\n%q\nwant\n%q", got, c.want)
			}
		})
	}
}

// TestShortReason: the table's reason is the verdict's own, its first
// clause, a parenthesis kept whole; the rule when there is no reason.
func TestShortReason(t *testing.T) {
	for _, c := range []struct{ why, rule, want string }{
		{"", "interval of the median paired ratio above 1×", "rule: interval of the median paired ratio above 1×"},
		{"holds as a lower bound: hello/go-fasthttp c=100: client-bound in 5 of 5 rounds (the generator used 97 % of its CPU; give it more CPUs); its figure is a floor; so the true ratio is at least the measured one",
			"", "hello/go-fasthttp c=100: client-bound in 5 of 5 rounds (the generator used 97 % of its CPU; give it more CPUs)"},
		{"published q/go: 580 req/s × 25 ms = 15 in flight on 10 connections (1.5×); a closed loop keeps exactly its connections in flight; here it does not hold",
			"", "published q/go: 580 req/s × 25 ms = 15 in flight on 10 connections (1.5×)"},
		{"needs 12 cores", "", "needs 12 cores"},
		{strings.Repeat("word ", 60), "", strings.TrimSpace(strings.Repeat("word ", 32)) + " …"},
	} {
		v := model.Verdict{Verdict: verdict.Verdict{Why: c.why, Rule: c.rule}}
		if got := shortReason(v); got != c.want {
			t.Errorf("shortReason(%q) = %q, want %q", c.why, got, c.want)
		}
	}
}

// TestPublishedKind: the published column says what its figure is.
func TestPublishedKind(t *testing.T) {
	runs := map[string]result.RunInfo{
		"a": {ID: "a", Published: map[string]float64{"rps": 12618.86}},
		"b": {ID: "b", Published: map[string]float64{"rps": 7124.41}},
	}
	for _, c := range []struct {
		name      string
		kind      string
		published float64 // the verdict's, after the runs filled it in
		given     float64 // the suite's
		want      string
	}{
		{"left to the rows", "", 1.771, 0, pubRows},
		{"given, equal to the rows' ratio", result.KindReplay, 1.77, 1.77, pubRows},
		{"a factor of the text", "", 2, 2, pubStated},
		{"none", "", 0, 0, pubNone},
		{"restbench's check", result.KindCheck, 1, 1, pubOwn},
	} {
		v := model.Verdict{Verdict: verdict.Verdict{Conclusion: result.Conclusion{Kind: c.kind, Metric: "rps", A: "a", B: "b", Published: c.published}}}
		if got := publishedKind(v, c.given, runs); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestRegionText: the region in a few characters, saying when the words
// were read as a band.
func TestRegionText(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		c      result.Conclusion
		lo, hi float64
		want   string
	}{
		{result.Conclusion{B: "b"}, 1, inf, "> 1×"},
		{result.Conclusion{B: "b", Published: 0.7}, 0, 1, "< 1×"},
		{result.Conclusion{B: "b", Claim: result.ClaimBand, Low: 1.6, High: 2.5}, 1.6, 2.5, "1.6–2.5×, read from the words"},
		{result.Conclusion{B: "b", Claim: result.ClaimBand, Low: 3}, 3, inf, "≥ 3×, read from the words"},
		{result.Conclusion{B: "b", Claim: result.ClaimTie, Kind: result.KindCheck}, 0.95, 1.05, "0.95–1.05× (a tie)"},
		{result.Conclusion{B: "b", Claim: result.ClaimGrows, Points: []result.Point{{X: 1}, {X: 2}}}, 1, inf, "grows: change > 1×"},
		{result.Conclusion{Metric: "cpu_pct", Claim: result.ClaimBand, Low: 80, High: 100}, 80, 100, "80 %–100 %, read from the words"},
	} {
		v := model.Verdict{Verdict: verdict.Verdict{Conclusion: c.c, RegionLo: c.lo, RegionHi: c.hi}}
		if got := regionText(v); got != c.want {
			t.Errorf("%+v: %q, want %q", c.c, got, c.want)
		}
	}
}

// TestPremiseRatios: a claim whose cells ran short of its premise (one
// core where it needs four) reads "not run as premised", with the ratio
// the cells measured beside it as no verdict; a claim whose cells did not
// run stays "not run here", with no ratio.
func TestPremiseRatios(t *testing.T) {
	trials := func(rps float64, status string) []result.Trial {
		var out []result.Trial
		for k := 1; k <= 5; k++ {
			tr := result.Trial{Trial: k, Round: k, Status: status, Placement: result.Placement{ServerCPUs: "1"}}
			if status == result.StatusOK {
				tr.Load = &result.Load{Stats: result.Stats{RPS: rps + float64(k)}}
			} else {
				tr.Error = "needs 6 cores (2 usable)"
			}
			out = append(out, tr)
		}
		return out
	}
	needs4 := &result.Requires{MinCores: 4}
	for _, c := range []struct {
		name   string
		status string // of the a side's trials
		state  string
		ratio  string
	}{
		{"the cells ran on one core", result.StatusOK, NotRunAsPremised, "2.00×"},
		{"the cells did not run", result.StatusNotRun, model.NotRun, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := result.Experiment{Name: "x", Runs: []result.RunInfo{{ID: "x/go", Trials: 5}, {ID: "x/node", Trials: 5}},
				Conclusions: []result.Conclusion{{Text: "Go uses parallelism", Metric: "rps", A: "x/go", B: "x/node", Requires: needs4}}}
			r := &model.Results{Suite: result.Suite{Name: "s", Experiments: []result.Experiment{e}},
				Trials: map[string][]result.Trial{"x/go": trials(2000, c.status), "x/node": trials(1000, result.StatusOK)}}
			fs := BuildScreen([]*model.SuiteReport{model.Build(r)})
			if len(fs.Rows) != 1 {
				t.Fatalf("rows %+v", fs.Rows)
			}
			row := fs.Rows[0]
			if row.State != c.state || row.Ratio != c.ratio || row.NotVerdict() != (c.ratio != "") {
				t.Errorf("state %q ratio %q (not a verdict: %v), want %q %q", row.State, row.Ratio, row.NotVerdict(), c.state, c.ratio)
			}
			if !strings.HasPrefix(row.Reason, "needs ") {
				t.Errorf("reason %q, want the premise the cells missed", row.Reason)
			}
		})
	}
}

// TestWindowLine: each suite states its windows here against the
// published ones.
func TestWindowLine(t *testing.T) {
	run := func(ds ...float64) *model.RunReport {
		r := &model.RunReport{}
		for _, d := range ds {
			r.OK = append(r.OK, model.Measured{Trial: &result.Trial{Load: &result.Load{DurationS: d}}})
		}
		return r
	}
	for _, c := range []struct {
		name, window string
		runs         []*model.RunReport
		want         string
	}{
		{"one length", "20 s (wrk -d 20s)", []*model.RunReport{run(1.5, 1.5), run(1.5)},
			"s: here 1.5 s, at standard scale; published: 20 s (wrk -d 20s)"},
		{"lengths that vary", "50,000 requests (ab -n 50000)", []*model.RunReport{run(0.17, 1.7), run(3.03)},
			"s: here 0.17–3.03 s, median 1.7 s, at standard scale; published: 50,000 requests (ab -n 50000)"},
		{"no published window", "", []*model.RunReport{run(1)},
			"s: here 1 s, at standard scale; published: not recorded in the suite (its source: window)"},
		{"nothing measured", "20 s", []*model.RunReport{run()}, ""},
	} {
		s := &model.SuiteReport{Suite: result.Suite{Name: "s", Scale: "standard", PublishedWindow: c.window},
			Experiments: []*model.ExperimentReport{{Runs: c.runs}}}
		if got := windowLine(s); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestForestRows: the forest plot draws every claim with a measured ratio,
// a verdict or not, with its region and published figure; it leaves out
// what was not paired and counts the claims on one run's own figure.
func TestForestRows(t *testing.T) {
	inf := math.Inf(1)
	single := model.Verdict{Verdict: verdict.Verdict{Conclusion: result.Conclusion{Text: "Node keeps one CPU at 90 %", Metric: "cpu_pct", A: "x/a", Claim: result.ClaimBand, Low: 80, High: 100},
		Estimate: 95, Lo: 93, Hi: 97, Pairs: 5, Outcome: model.Holds, RegionLo: 80, RegionHi: 100}}
	fs := screenOf("s",
		graded("holds", "", model.Holds, "", 1.3, 1.2, 1.4, 1, inf),
		graded("flagged", "", model.NotComparable, "", 0.9, 0.8, 1.1, 1.6, 2.5),
		notGraded("not run", "", model.NotRun, "needs 6 cores"),
		single,
	)
	want := []ForestRow{
		{ID: "v-s-x-1", Suite: "s", Label: "holds", State: model.Holds, Est: 1.3, Lo: 1.2, Hi: 1.4, Pub: 1.77, RegionLo: 1, RegionHi: inf, Verdict: true},
		{ID: "v-s-x-2", Suite: "s", Label: "flagged", State: model.NotComparable, Est: 0.9, Lo: 0.8, Hi: 1.1, Pub: 1.77, RegionLo: 1.6, RegionHi: 2.5},
	}
	if !reflect.DeepEqual(fs.Forest, want) {
		t.Errorf("forest rows\n%+v\nwant\n%+v", fs.Forest, want)
	}
	if fs.Unplotted != 1 {
		t.Errorf("unplotted %d, want 1 (the single run's CPU band)", fs.Unplotted)
	}
}
