package summary

import (
	"strings"
	"testing"

	"restbench/internal/report/model"
	"restbench/internal/result"
	"restbench/internal/verdict"
)

// TestTrendPointUnits: a trend over one run's own figure prints each point
// in the metric's unit; a trend over ratios prints ratios.
func TestTrendPointUnits(t *testing.T) {
	own := model.Verdict{Verdict: verdict.Verdict{Conclusion: result.Conclusion{Text: "memory grows", Metric: "rss_mb", Claim: result.ClaimGrows},
		Points: []verdict.PointValue{{X: 0, Measured: 97.8}, {X: 30, Measured: 278}}, Outcome: verdict.NotComparable, Why: "flagged"}}
	ratio := model.Verdict{Verdict: verdict.Verdict{Conclusion: result.Conclusion{Text: "lead grows", Metric: "rps", Claim: result.ClaimGrows},
		Points: []verdict.PointValue{{X: 100, Published: 1.23, Measured: 3.37, Ratio: true}}, Outcome: verdict.NotComparable, Why: "flagged"}}
	for v, want := range map[*model.Verdict]string{&own: "at 30 published —, here 278 MiB", &ratio: "at 100 published 1.23×, here 3.37×"} {
		if got := VerdictDetail(*v); !strings.Contains(got, want) {
			t.Errorf("%s: %q lacks %q", v.Text, got, want)
		}
	}
}

// TestScaledAndDesign: a scaled claim and a claim carried by another design
// than the published one say so beside the verdict (the table's cell) and
// give the rule in the verdict's line; a plain claim says neither.
func TestScaledAndDesign(t *testing.T) {
	base := result.Conclusion{Text: "Go collapses", Metric: "rps", A: "q/go 1", B: "q/go cores", Claim: result.ClaimBand, Low: 5}
	scaled, design := base, base
	scaled.Scaled = "quota = cores ÷ 4, GOMAXPROCS = cores"
	design.Design = "server-bound (0.5-CPU quota on both)"
	for _, c := range []struct {
		name       string
		c          result.Conclusion
		bound      string
		cell, line string // wanted in outcomeCell and verdictDetail; "" wants neither mark
	}{
		{"plain", base, "", "", ""},
		{"scaled", scaled, "", "holds, scaled", "Scaled: quota = cores ÷ 4, GOMAXPROCS = cores."},
		{"design with a bound", design, "lower", "holds (lower bound), design: server-bound (0.5-CPU quota on both)", "Design: server-bound (0.5-CPU quota on both)."},
	} {
		v := model.Verdict{Verdict: verdict.Verdict{Conclusion: c.c, Outcome: verdict.Holds, Bound: c.bound, Estimate: 6, Lo: 5.5, Hi: 6.5, Pairs: 5, Rule: "above 5×"}}
		cell, line := OutcomeCell(v), VerdictDetail(v)
		if c.cell == "" {
			if strings.Contains(cell, "scaled") || strings.Contains(cell, "design") || strings.Contains(line, "Scaled:") || strings.Contains(line, "Design:") {
				t.Errorf("%s: %q / %q mark a claim that is neither scaled nor redesigned", c.name, cell, line)
			}
			continue
		}
		if cell != c.cell {
			t.Errorf("%s: outcome cell %q, want %q", c.name, cell, c.cell)
		}
		if !strings.HasSuffix(line, c.line) {
			t.Errorf("%s: verdict line %q does not end with %q", c.name, line, c.line)
		}
	}
}

// controlNote says, beside the state, how the claim reads on a run's
// control and what share of its control's figure the run measured: a
// ratio for a claim on two runs, the metric's unit for one run's figure.
func TestControlNote(t *testing.T) {
	ctl := &verdict.Control{Run: "sum/node", In: "sum/node backlog=4096", Estimate: 2.03, Lo: 1.98, Hi: 2.36, Outcome: verdict.Holds, Share: 0.686, ShareLo: 0.488, ShareHi: 0.829}
	graded := &verdict.Control{Run: "sum/node", In: "sum/node backlog=4096", Estimate: 3.25, Lo: 3.15, Hi: 3.30, Outcome: verdict.DoesNotHold, Share: 0.661, ShareLo: 0.636, ShareHi: 0.71,
		Graded: true, Bound: 3, Of: 5, IdleS: 4}
	cpu := &verdict.Control{Run: "sum/node", In: "sum/node backlog=4096", Estimate: 103, Lo: 73, Hi: 108, Outcome: verdict.Inconclusive, Share: 0.69, ShareLo: 0.622, ShareHi: 0.771}
	for _, c := range []struct {
		name string
		v    verdict.Verdict
		want string
	}{
		{"none", verdict.Verdict{Conclusion: result.Conclusion{Metric: "rps", A: "sum/go", B: "sum/node"}}, ""},
		{"ratio", verdict.Verdict{Conclusion: result.Conclusion{Metric: "rps", A: "sum/go", B: "sum/node"}, Control: ctl},
			"with the control sum/node backlog=4096 in its place: 2.03× (1.98–2.36), holds; sum/node at 0.686× (0.488–0.829) of its control"},
		{"one run's figure", verdict.Verdict{Conclusion: result.Conclusion{Metric: "cpu_pct", A: "sum/node"}, Control: cpu},
			"with the control sum/node backlog=4096 in its place: 103 % (73 %–108 %), inconclusive; sum/node at 0.69× (0.622–0.771) of its control"},
		{"graded on the control", verdict.Verdict{Conclusion: result.Conclusion{Metric: "rps", A: "sum/go", B: "sum/node"}, Control: graded},
			"graded with the control sum/node backlog=4096 in its place: sum/node was retransmission-bound in 3 of 5 rounds (idle up to 4 s while its last connections waited for a re-sent SYN, where the published run ended on its work), so its figure is TCP's timer; as published it read 3.25× (3.15–3.30), does not hold here; sum/node at 0.661× (0.636–0.71) of its control"},
	} {
		if got := controlNote(model.Verdict{Verdict: c.v}); got != c.want {
			t.Errorf("%s: %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestNoiseFloorsSayWhatTheyTurned: a suite's A/A floor line counts the
// verdicts the floor turned inconclusive, by what they read before; a
// floor that turned none says nothing more.
func TestNoiseFloorsSayWhatTheyTurned(t *testing.T) {
	aa := model.Verdict{Verdict: verdict.Verdict{Conclusion: result.Conclusion{Text: "A/A: x against itself", Kind: result.KindAA, Metric: "rps"},
		Estimate: 1, Lo: 0.956, Hi: 1.03, Pairs: 5, Outcome: verdict.Inconclusive}}
	claim := func(before string) model.Verdict {
		return model.Verdict{Verdict: verdict.Verdict{Conclusion: result.Conclusion{Text: "go beats node", Metric: "rps"}, Outcome: verdict.Inconclusive, BeforeNoise: before}}
	}
	for _, c := range []struct {
		name    string
		befores []string
		want    string
	}{
		{"none", []string{"", ""}, ""},
		{"held and not", []string{verdict.Holds, verdict.Holds, verdict.DoesNotHold, ""}, "; within it (a band narrower than the floor, or a ratio nearer the claim's edge than the floor): 2 that held and 1 that did not hold, now inconclusive"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := &model.ExperimentReport{Verdicts: []model.Verdict{aa}}
			for _, b := range c.befores {
				e.Verdicts = append(e.Verdicts, claim(b))
			}
			s := &model.SuiteReport{Suite: result.Suite{Name: "s"}, Experiments: []*model.ExperimentReport{e}}
			floors := NoiseFloors([]*model.SuiteReport{s})
			if len(floors) != 1 {
				t.Fatalf("floors = %q, want one", floors)
			}
			if c.want == "" && strings.Contains(floors[0], "within it") || c.want != "" && !strings.HasSuffix(floors[0], c.want) {
				t.Errorf("floor = %q, want it to end %q", floors[0], c.want)
			}
		})
	}
}

// An A/A line says in how many rounds each of its runs was
// retransmission-bound; nothing where none was.
func TestTimerBound(t *testing.T) {
	trial := func(idle bool) model.Measured {
		l := &result.Load{DurationS: 8.5}
		for s := range 8 {
			l.Timeline = append(l.Timeline, result.Second{T: s, Requests: 6000})
		}
		if idle {
			l.Timeline[6].Requests = 0
		}
		return model.Measured{Trial: &result.Trial{Load: l, Listen: &result.Listen{Backlog: 511, Overflows: 4000}}}
	}
	run := func(id string, idle ...bool) *model.RunReport {
		rr := &model.RunReport{Info: result.RunInfo{ID: id}}
		for _, i := range idle {
			rr.OK = append(rr.OK, trial(i))
		}
		return rr
	}
	for _, c := range []struct {
		name string
		runs []*model.RunReport
		want string
	}{
		{"both", []*model.RunReport{run("node", true, true, false), run("node A/A", false, true, false), run("go", true)},
			"; retransmission-bound in 2 and 1 of 3 rounds: the spread holds where TCP's SYN timer ended each run"},
		{"neither", []*model.RunReport{run("node", false, false), run("node A/A", false, false)}, ""},
	} {
		e := &model.ExperimentReport{Runs: c.runs}
		if got := timerBound(e, "node", "node A/A"); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// A verdict graded on its control says so first, then what another
// generator measured on the run itself; otherwise the generator comes
// first and the control after.
func TestOutcomeCellOrder(t *testing.T) {
	for _, graded := range []bool{true, false} {
		ctl := &verdict.Control{Run: "sum/node", In: "sum/node backlog=4096", Estimate: 3.25, Lo: 3.15, Hi: 3.30, Outcome: verdict.DoesNotHold, Share: 0.661, ShareLo: 0.636, ShareHi: 0.71,
			Graded: graded, Bound: 5, Of: 5, IdleS: 2}
		v := model.Verdict{Verdict: verdict.Verdict{Conclusion: result.Conclusion{Metric: "rps", A: "sum/go", B: "sum/node"}, Outcome: verdict.Holds,
			Disagrees: "ab measured 3.21× (3.05–3.52) on the same cells", Control: ctl}}
		got := OutcomeCell(v)
		c, ab := strings.Index(got, "in its place"), strings.Index(got, "but ab measured")
		if c < 0 || ab < 0 || (c < ab) != graded {
			t.Errorf("graded %v: %q", graded, got)
		}
	}
}
