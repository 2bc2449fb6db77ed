package summary

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"restbench/internal/metric"
	"restbench/internal/report/model"
	"restbench/internal/result"
	"restbench/internal/verdict"
)

// VerdictsIntro opens the summary table in both report.md and report.html.
const VerdictsIntro = "Every conclusion of the published write-ups, graded on this machine, then restbench's own checks. " +
	"Ratios are paired per round: round k measures trial k of every run of an experiment side by side, " +
	"and the measured figure is the median of the per-round ratios A/B with a distribution-free interval of that median " +
	"whose exact coverage is printed beside it (min–max of 5 rounds covers 93.8 %; of 3, only 75 %; a trend: the median of the rounds' fitted changes). " +
	"A claim holds when the interval lies wholly inside the region the claim names, does not hold when it lies wholly outside, " +
	"and is inconclusive while it straddles a boundary, lies nearer a boundary than its suite's A/A noise floor (two identical runs' ratio), or covers less than 90 %. " +
	"It is not comparable when a run it rests on did not do what the claim needs (a validity flag: behind-schedule, connection-bound, censored, …), " +
	"unless the flag can only push the ratio towards the claim's boundary and it holds all the same (\"holds as a lower bound\"); " +
	"and published figures inconsistent when the published figure it rests on breaks the model of the load that measured it " +
	"(a closed loop's mean off Little's law by more than 25 %; req/s, a count over a clock, never), its sentence graded on our runs beside it. " +
	"docs/report.md explains every state and flag."

// Row is one conclusion in the opening table: its state, ratio,
// interval and one short reason, the full reasoning one link away (ID).
type Row struct {
	Suite, SuiteID string
	ID             string // the anchor of the verdict's line in its section
	Claim          string
	Kind           string // "" (the write-up's), result.KindReplay or result.KindCheck
	Published      string // the published figure and what kind of figure it is
	Region         string // the region the claim wants the ratio in
	State          string // as the table shows it: "holds (lower bound)", "not run as premised", …
	Outcome, Bound string // verdict.Outcomes' state, and "lower" or "upper" for a bound
	Ratio          string // the measured figure, "" when nothing was paired
	Interval       string
	Reason         string // the verdict's own reason, its first clause
	SuiteStart     bool   // the first row of its suite in its kind's table
	v              model.Verdict
}

// Pairs is how many paired rounds the row's figure rests on.
func (r Row) Pairs() int { return r.v.Pairs }

// NotVerdict reports whether a measured ratio stands beside a state that
// is no verdict (not comparable, inconclusive, …).
func (r Row) NotVerdict() bool { return r.Ratio != "" && !r.decided() }

// VerdictID is the anchor of a verdict's line in its experiment's section.
func VerdictID(s *model.SuiteReport, e *model.ExperimentReport, i int) string {
	return "v-" + model.Slug(s.Suite.Name) + "-" + model.Slug(e.Experiment.Name) + "-" + strconv.Itoa(i+1)
}

// Rows are the opening table's rows: every verdict of every suite, in the
// suites' order, less the A/A noise floors.
func Rows(suites []*model.SuiteReport) []Row {
	var rows []Row
	for _, s := range suites {
		for _, e := range s.Experiments {
			runs := map[string]result.RunInfo{}
			for _, r := range e.Experiment.Runs {
				runs[r.ID] = r
			}
			for i, v := range e.Verdicts {
				if v.Kind == result.KindAA {
					continue // a noise floor, printed beside the suite's verdicts
				}
				given := 0.0
				if i < len(e.Experiment.Conclusions) {
					given = e.Experiment.Conclusions[i].Published
				}
				r := Row{
					Suite: s.Suite.Name, SuiteID: model.Anchor(s.Suite.Name), ID: VerdictID(s, e, i), Claim: v.Text, Kind: claimKind(v.Conclusion),
					Published: publishedCell(v, given, runs), Region: regionText(v), State: OutcomeCell(v), Outcome: v.Outcome, Bound: v.Bound,
					Reason: shortReason(v), v: v,
				}
				if v.Pairs > 0 {
					r.Ratio, r.Interval = model.VerdictFigure(v, v.Estimate), model.Interval(v)
					if v.From != nil {
						r.Interval += " (" + v.From.Short() + ")"
					}
				}
				rows = append(rows, r)
			}
		}
	}
	return rows
}

// publishedCell is the published figure and what kind of figure it is:
// "1.77× from the published rows", "7.00× as the text states it".
func publishedCell(v model.Verdict, given float64, runs map[string]result.RunInfo) string {
	k := publishedKind(v, given, runs)
	if v.Published == 0 || k == pubOwn {
		return "— (" + k + ")"
	}
	return model.VerdictFigure(v, v.Published) + " " + k
}

// OutcomeCell is the verdict's state as the report prints it: a bound
// says so, "not run here" whose cells ran short of the claim's premise
// reads "not run as premised", a verdict whose cells are scaled or set up
// in another design than the published one says so (the rule and the
// design are in verdictDetail), and so does another generator that
// measured the same cells otherwise.
func OutcomeCell(v model.Verdict) string {
	out := shownOutcome(v)
	if v.Outcome == model.Holds && v.Bound != "" {
		out = "holds (" + v.Bound + " bound)"
	}
	if v.Scaled != "" {
		out += ", scaled"
	}
	if v.Design != "" {
		out += ", design: " + v.Design
	}
	// Another generator measured the run, not its control: a verdict
	// graded on the control says so, and the run's own reading, first.
	c, graded := controlNote(v), v.Control != nil && v.Control.Graded
	if c != "" && graded {
		out += "; " + c
	}
	if v.Disagrees != "" {
		out += "; but " + v.Disagrees
	}
	if c != "" && !graded {
		out += "; " + c
	}
	return out
}

// controlNote says how the claim reads on the control of a run whose flag
// is the published condition (verdict.Control): the control's figure and
// state, and the run's figure as a share of its control's, which is how
// much of the result the condition is. "" without a control.
func controlNote(v model.Verdict) string {
	c := v.Control
	if c == nil {
		return ""
	}
	cv := v
	cv.Lo, cv.Hi = c.Lo, c.Hi
	share := fmt.Sprintf("%s at %s (%s) of its control", c.Run, model.Times(c.Share), strings.TrimSuffix(model.Times(c.ShareLo), "×")+"–"+strings.TrimSuffix(model.Times(c.ShareHi), "×"))
	if c.Graded {
		// The verdict is the control's (verdict.gradeOnControl): say why,
		// and what the run itself read.
		return fmt.Sprintf("graded with the control %s in its place: %s was %s in %d of %d rounds (idle up to %d s while its last connections waited for a re-sent SYN, where the published run ended on its work), so its figure is TCP's timer; as published it read %s (%s), %s; %s",
			c.In, c.Run, result.FlagRetransmissionBound, c.Bound, c.Of, c.IdleS, model.VerdictFigure(v, c.Estimate), model.Interval(cv), c.Outcome, share)
	}
	return fmt.Sprintf("with the control %s in its place: %s (%s), %s; %s",
		c.In, model.VerdictFigure(v, c.Estimate), model.Interval(cv), c.Outcome, share)
}

// designNote is the sentence verdictDetail ends with for a scaled or
// redesigned claim: the rule its cells follow and the design that carried
// it, or "".
func designNote(v model.Verdict) string {
	s := ""
	if v.Scaled != "" {
		s += " Scaled: " + strings.TrimSuffix(v.Scaled, ".") + "."
	}
	if v.Design != "" {
		s += " Design: " + strings.TrimSuffix(v.Design, ".") + "."
	}
	return s
}

// VerdictDetail is a verdict's line in its section, without the outcome:
// what is compared, published against measured, the interval and the rule,
// and for a scaled or redesigned claim how its cells were set up.
func VerdictDetail(v model.Verdict) string {
	return verdictLine(v) + designNote(v)
}

func verdictLine(v model.Verdict) string {
	b := &strings.Builder{}
	fmt.Fprintf(b, "%s — %s", v.Text, metric.Label(v.Metric))
	if len(v.Points) > 0 {
		fmt.Fprintf(b, " over %s:", model.FirstNonEmpty(v.Over, "the points"))
		for i, p := range v.Points {
			if i > 0 {
				b.WriteString(";")
			}
			fmt.Fprintf(b, " at %s published %s, here %s", strconv.FormatFloat(p.X, 'f', -1, 64), pointOrDash(v, p, p.Published), pointOrDash(v, p, p.Measured))
		}
		fmt.Fprintf(b, ". Fitted change published %s", xfOrDash(v.Published))
	} else {
		if v.Single() {
			fmt.Fprintf(b, ", %s: published %s", v.A, figureOrDash(v, v.Published))
		} else {
			fmt.Fprintf(b, ", %s over %s: published %s", v.A, v.B, xfOrDash(v.Published))
		}
	}
	if v.Note != "" {
		fmt.Fprintf(b, " (%s)", v.Note)
	}
	switch v.Outcome {
	case model.NotRun:
		if v.Pairs > 0 {
			fmt.Fprintf(b, "; not graded: %s. The cells ran short of that premise: there %s (interval %s: %s), which is not a verdict.",
				v.Why, model.VerdictFigure(v, v.Estimate), model.Interval(v), v.Interval.Describe(v.Looks))
			return b.String()
		}
		fmt.Fprintf(b, "; not run here: %s.", v.Why)
		return b.String()
	case model.NotMeasured:
		fmt.Fprintf(b, "; here not measured: %s.", v.Why)
		return b.String()
	case verdict.NotGraded:
		fmt.Fprintf(b, "; %s.", v.Why)
		return b.String()
	}
	if v.Pairs == 0 {
		fmt.Fprintf(b, ". Rule: %s. %s: %s.", v.Rule, strings.ToUpper(v.Outcome[:1])+v.Outcome[1:], v.Why)
		return b.String()
	}
	here := "here"
	if v.From != nil {
		here = v.From.String() + ","
	}
	fmt.Fprintf(b, ", %s %s (interval %s: %s). Rule: %s.", here, model.VerdictFigure(v, v.Estimate), model.Interval(v), v.Interval.Describe(v.Looks), v.Rule)
	switch {
	case v.Outcome == model.Holds && v.Bound != "":
		fmt.Fprintf(b, " Holds as a%s bound: %s.", map[string]string{"lower": " lower", "upper": "n upper"}[v.Bound], strings.TrimPrefix(strings.TrimPrefix(v.Why, "holds as a lower bound: "), "holds as an upper bound: "))
	case v.Outcome != model.Holds && v.Outcome != model.DoesNotHold && v.Why != "":
		fmt.Fprintf(b, " %s: %s.", strings.ToUpper(v.Outcome[:1])+v.Outcome[1:], v.Why)
	case v.Why != "":
		// A bound that does not hold, or a flag that is the published
		// condition (verdict.Break.AsPublished): said beside the verdict.
		fmt.Fprintf(b, " %s.", strings.ToUpper(v.Why[:1])+v.Why[1:])
	}
	return b.String()
}

func figureOrDash(v model.Verdict, x float64) string {
	if x == 0 {
		return "—"
	}
	return model.VerdictFigure(v, x)
}

// pointOrDash is a trend point's figure: a ratio, or one run's own figure
// in its metric's unit ("at 30 here 278 MiB", not "278×").
func pointOrDash(v model.Verdict, p verdict.PointValue, x float64) string {
	if p.Ratio || x == 0 {
		return xfOrDash(x)
	}
	return metric.Format(v.Metric, x)
}

func xfOrDash(v float64) string {
	if v == 0 {
		return "—"
	}
	return model.Times(v)
}

// LearnedIntro says where "What was learned" comes from.
const LearnedIntro = "From the verdicts alone: for each write-up, the claims whose interval lies farthest inside (holds) or outside (does not hold) the region the claim names, " +
	"with the measured ratio and its interval; every claim is in the table under Verdicts, and its line in the suite's section gives the full reasoning."

// NoiseFloorsText is noiseFloors without the Markdown links, for HTML.
func NoiseFloorsText(suites []*model.SuiteReport) []string {
	var out []string
	for _, f := range NoiseFloors(suites) {
		if i := strings.Index(f, "]("); strings.HasPrefix(f, "[") && i > 0 {
			if j := strings.Index(f[i:], ")"); j > 0 {
				f = f[1:i] + f[i+j+1:]
			}
		}
		out = append(out, f)
	}
	return out
}

// NoiseFloors describes each A/A arm: the twin's ratio to its run, median
// and interval with its coverage.
func NoiseFloors(suites []*model.SuiteReport) []string {
	var out []string
	for _, s := range suites {
		for _, e := range s.Experiments {
			for _, v := range e.Verdicts {
				if v.Kind != result.KindAA {
					continue
				}
				line := fmt.Sprintf("[%s](#%s), %s: %s", s.Suite.Name, model.Anchor(s.Suite.Name), strings.TrimPrefix(v.Text, "A/A: "), metric.Label(v.Metric))
				if v.Pairs == 0 {
					line += " — not measured (" + v.Why + ")"
				} else {
					line += fmt.Sprintf(" %s (%s; %s)", model.Times(v.Estimate), model.Interval(v), v.Interval.Describe(v.Looks))
				}
				if v.Outcome == model.NotComparable {
					// verdict.NoiseFloor leaves it out: its runs cannot carry the figure.
					line += ", not comparable, so no floor: " + v.Why
				}
				line += timerBound(e, v.A, v.B)
				out = append(out, line+turned(s))
			}
		}
	}
	return out
}

// timerBound says, where an A/A arm's runs were retransmission-bound
// (result.RetransmissionBound), in how many rounds: their spread is then
// where TCP's SYN timer ended each run (joshuous' node-express at half the
// CPU: 5.7 s in one round, 7.8 s in the next), not how two servers differ,
// and a claim the suite grades on the run's control (verdict.Control) has
// a noise the floor overstates. "" where neither was.
func timerBound(e *model.ExperimentReport, ids ...string) string {
	var parts []string
	of := 0
	for _, rr := range e.Runs {
		if !slices.Contains(ids, rr.Info.ID) {
			continue
		}
		n, _ := rr.RetransmissionBound()
		of = max(of, len(rr.OK))
		parts = append(parts, strconv.Itoa(n))
	}
	if len(parts) != 2 || parts[0] == "0" && parts[1] == "0" {
		return ""
	}
	return fmt.Sprintf("; %s in %s and %s of %d rounds: the spread holds where TCP's SYN timer ended each run", result.FlagRetransmissionBound, parts[0], parts[1], of)
}

// turned says how many of s's verdicts its A/A floor turned inconclusive
// (verdict.WithinNoise), by what they read before: "; within it: 2 that
// held, 1 that did not hold, now inconclusive".
func turned(s *model.SuiteReport) string {
	held, not := 0, 0
	for _, e := range s.Experiments {
		for _, v := range e.Verdicts {
			switch v.BeforeNoise {
			case model.Holds:
				held++
			case model.DoesNotHold:
				not++
			}
		}
	}
	var parts []string
	if held > 0 {
		parts = append(parts, fmt.Sprintf("%d that held", held))
	}
	if not > 0 {
		parts = append(parts, fmt.Sprintf("%d that did not hold", not))
	}
	if len(parts) == 0 {
		return ""
	}
	return "; within it (a band narrower than the floor, or a ratio nearer the claim's edge than the floor): " + strings.Join(parts, " and ") + ", now inconclusive"
}

// RoundsLine says how many rounds an experiment ran and what stopped it,
// as the runner recorded in suite.json: the suite's rounds, every verdict
// settled (verdict.StopRule), or the time cap.
func RoundsLine(e *model.ExperimentReport) string {
	x := e.Experiment
	if x.Rounds == 0 || len(e.Verdicts) == 0 {
		return ""
	}
	s := fmt.Sprintf("Rounds: %d", x.Rounds)
	if x.Looks > 1 {
		s += fmt.Sprintf(" (adaptive: a stop rule could look %d times, so every interval's coverage is corrected for %d looks, Bonferroni)", x.Looks, x.Looks)
	} else {
		s += " (fixed before measuring)"
	}
	switch x.Stopped {
	case result.StoppedDecided:
		s += "; stopped when every verdict settled"
	case result.StoppedTimeCap:
		s += "; stopped by the time cap"
	case result.StoppedRounds:
		s += ", as many as the suite asks (or allows)"
	}
	if x.StoppedWhy != "" {
		s += " (" + x.StoppedWhy + ")"
	}
	return s + "."
}
