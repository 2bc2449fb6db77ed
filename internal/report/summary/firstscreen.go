// Package summary builds the report's first screen from the model: one row
// per graded claim, the count of each state, what was learned, and the rows
// of the forest plot.
package summary

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"restbench/internal/metric"
	"restbench/internal/report/model"
	"restbench/internal/result"
	"restbench/internal/verdict"
)

// The first screen of report.md and report.html, built once from the same
// verdicts the tables and the verdict lines use: what was learned (the most
// firmly decided claims of each suite), the count by state, the windows
// here against the published ones, the forest plot and the short table.

// NotRunAsPremised is how the first screen shows a "not run here" verdict
// whose cells did run, short of the claim's premise (cores, requests in
// flight): "not run here" is kept for cells that did not run.
const NotRunAsPremised = "not run as premised"

// Screen is what the report opens with.
type Screen struct {
	Learned []learnedSuite
	Counts  []stateCount
	Windows []string
	Rows    []Row
	Forest  []ForestRow
	// Unplotted counts the graded claims on one run's own figure (CPU %,
	// MiB): they are no ratios, so the forest plot leaves them to the table.
	Unplotted int
}

// learnedSuite is one suite's lines in "What was learned".
type learnedSuite struct {
	Suite, SuiteID, Title string
	Lines                 []Row  // its most firmly decided claims, strongest first
	Rest                  string // what the other claims are, counted by state
}

// stateCount is one kind of claim counted by state.
type stateCount struct {
	Title  string
	Total  int
	Parts  []string // "16 holds", "2 does not hold here", …
	Bounds int      // holds as a bound, among the holds
	// Answered counts the claims decided: holds (as a bound too) or does
	// not hold.
	Answered int
	// Twinned counts the conclusions graded on a scaled design beside the
	// published one, each counted once; ByScaled those of them counted by
	// the scaled design's state (the published design read no verdict).
	Twinned, ByScaled int
}

// String prints the count as one line: "54: 16 holds (5 as a bound), …;
// answered (…) 21 of 54 (39 %)", and how conclusions graded twice counted.
func (c stateCount) String() string {
	return fmt.Sprintf("%d: %s; %s", c.Total, strings.Join(c.Parts, ", "), c.Answers())
}

// Answers says how many claims were answered (holds, as a bound too, or
// does not hold) and how the ones graded on a scaled design too counted.
func (c stateCount) Answers() string {
	s := fmt.Sprintf("answered %d of %d (%.0f %%)",
		c.Answered, c.Total, 100*float64(c.Answered)/float64(c.Total))
	if c.Twinned > 0 {
		s += fmt.Sprintf("; %d graded on a scaled design too, each counted once (%d by its scaled design)", c.Twinned, c.ByScaled)
	}
	return s
}

// maxLearned is how many claims of a suite "What was learned" names.
const maxLearned = 3

// BuildScreen computes the first screen of the report.
func BuildScreen(suites []*model.SuiteReport) Screen {
	fs := Screen{Rows: Rows(suites)}
	last := map[string]string{} // each kind's table: the suite of its last row
	for i := range fs.Rows {
		r := &fs.Rows[i]
		r.SuiteStart, last[r.Kind] = last[r.Kind] != r.Suite, r.Suite
	}
	fs.Counts = countStates(fs.Rows)
	for _, s := range suites {
		if l := learnedOf(s, fs.Rows); len(l.Lines) > 0 || l.Rest != "" {
			fs.Learned = append(fs.Learned, l)
		}
		if w := windowLine(s); w != "" {
			fs.Windows = append(fs.Windows, w)
		}
	}
	fs.Forest, fs.Unplotted = ForestRows(fs.Rows)
	return fs
}

// decided reports whether a row is a verdict: holds (a bound too) or does
// not hold. Every other state beside a measured ratio is not a verdict.
func (r Row) decided() bool { return r.Outcome == model.Holds || r.Outcome == model.DoesNotHold }

// strength is how far a decided claim's interval lies from its region's
// nearest edge, in log units: inside for holds, outside for does not hold.
func (r Row) strength() float64 {
	v := r.v
	if v.Lo <= 0 || v.Hi <= 0 {
		return 0
	}
	lo, hi := v.RegionLo, v.RegionHi
	d := math.Inf(1)
	if v.Outcome == model.Holds {
		if lo > 0 {
			d = math.Log(v.Lo / lo)
		}
		if !math.IsInf(hi, 1) {
			d = math.Min(d, math.Log(hi/v.Hi))
		}
	} else {
		d = 0
		if lo > 0 && v.Hi < lo {
			d = math.Log(lo / v.Hi)
		}
		if !math.IsInf(hi, 1) && v.Lo > hi {
			d = math.Max(d, math.Log(v.Lo/hi))
		}
	}
	if math.IsInf(d, 1) {
		return 0
	}
	return d
}

// learnedOf picks a suite's most firmly decided claims, the write-ups' and
// their replays (restbench's own checks are in the table), and counts the
// rest by state.
func learnedOf(s *model.SuiteReport, rows []Row) learnedSuite {
	l := learnedSuite{Suite: s.Suite.Name, SuiteID: model.Anchor(s.Suite.Name), Title: model.FirstNonEmpty(s.Suite.Title, s.Suite.Name)}
	var decided []Row
	rest := map[string]int{}
	for _, r := range rows {
		if r.Suite != s.Suite.Name || r.Kind == result.KindCheck {
			continue
		}
		if r.decided() && r.Pairs() > 0 {
			decided = append(decided, r)
			continue
		}
		rest[shownOutcome(r.v)]++
	}
	sort.SliceStable(decided, func(i, j int) bool { return decided[i].strength() > decided[j].strength() })
	for i, r := range decided {
		if i < maxLearned {
			l.Lines = append(l.Lines, r)
			continue
		}
		rest[shownOutcome(r.v)]++
	}
	var parts []string
	for _, st := range states {
		if n := rest[st]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, st))
		}
	}
	if len(parts) > 0 {
		other := "Its other claims"
		if len(l.Lines) == 0 {
			other = "Nothing decided here"
		}
		l.Rest = other + ": " + strings.Join(parts, ", ") + "."
	}
	return l
}

// states lists the first screen's states in the order it counts them.
var states = func() []string {
	var out []string
	for _, o := range verdict.Outcomes {
		out = append(out, o)
		if o == model.NotRun {
			out = append(out, NotRunAsPremised)
		}
	}
	return out
}()

// shownOutcome is v's outcome as the report shows it, and the state a row
// is counted under: "not run here" whose cells ran, short of the claim's
// premise, reads "not run as premised". What the table adds to a state (a
// bound, "scaled", a design, a generator's disagreement, a control) makes
// no state of its own: counted by the table's text, such rows fell out of
// every count.
func shownOutcome(v model.Verdict) string {
	if v.Outcome == model.NotRun && v.Pairs > 0 {
		return NotRunAsPremised
	}
	return v.Outcome
}

// KindTitles names each kind of claim, in the order the first screen
// lists them.
var KindTitles = []struct{ Kind, Title string }{
	{"", "The write-ups' conclusions"},
	{result.KindReplay, "Runtime replays (a conclusion graded again on another runtime, counted apart)"},
	{result.KindCheck, "restbench's own checks (generator cross-checks, comparisons the write-ups' figures allow but their texts do not make)"},
}

// countStates counts each kind's rows by the state the table shows: a
// runtime replay counts as a replay, never as another conclusion, and a
// conclusion graded on a scaled design beside its published one (suites'
// `scaled:`, the same text) counts once: by the published design where that
// decided it, else by the scaled design where that did, else as published.
// Counted twice, a conclusion the machine cannot run as published would
// weigh double, and one answered twice would count as two answers.
func countStates(rows []Row) []stateCount {
	var out []stateCount
	for _, k := range KindTitles {
		n := map[string]int{}
		c := stateCount{Title: k.Title}
		for _, g := range conclusions(rows, k.Kind) {
			r := g[0]
			if len(g) > 1 {
				c.Twinned++
				if !r.decided() {
					for _, t := range g[1:] {
						if t.decided() {
							r = t
							c.ByScaled++
							break
						}
					}
				}
			}
			c.Total++
			st := shownOutcome(r.v)
			if st == model.Holds && r.Bound != "" {
				c.Bounds++
			}
			if r.decided() {
				c.Answered++
			}
			n[st]++
		}
		if c.Total == 0 {
			continue
		}
		for _, st := range states {
			if n[st] == 0 {
				continue
			}
			p := fmt.Sprintf("%d %s", n[st], st)
			if st == model.Holds && c.Bounds > 0 {
				p += fmt.Sprintf(" (%d as a bound)", c.Bounds)
			}
			c.Parts = append(c.Parts, p)
		}
		out = append(out, c)
	}
	return out
}

// conclusions groups a kind's rows by conclusion, in the table's order: a
// row alone, or a published design first and the scaled designs of the same
// suite and text after it. Rows of one text with no scaled design among
// them stay apart (two experiments may state one sentence of two runs).
func conclusions(rows []Row, kind string) [][]Row {
	scaled := map[string]bool{}
	key := func(r Row) string { return r.Suite + "\x00" + r.Claim }
	for _, r := range rows {
		if r.Kind == kind && r.v.Scaled != "" {
			scaled[key(r)] = true
		}
	}
	var out [][]Row
	at := map[string]int{}
	for _, r := range rows {
		if r.Kind != kind {
			continue
		}
		k := key(r)
		if !scaled[k] {
			out = append(out, []Row{r})
			continue
		}
		i, ok := at[k]
		if !ok {
			at[k], out = len(out), append(out, nil)
			i = at[k]
		}
		if r.v.Scaled == "" {
			out[i] = append([]Row{r}, out[i]...)
		} else {
			out[i] = append(out[i], r)
		}
	}
	return out
}

// claimKind is a conclusion's kind as the first screen groups it: "" (the
// write-up's), KindReplay or KindCheck.
func claimKind(c result.Conclusion) string {
	if c.Kind == result.KindConclusion {
		return ""
	}
	return c.Kind
}

// windowLine states a suite's windows here against the published ones:
// "dotchev-echo: here 1–1.5 s, median 1.5 s, at standard scale;
// published: 20 s (wrk -d 20s)".
func windowLine(s *model.SuiteReport) string {
	var ds []float64
	for _, e := range s.Experiments {
		for _, r := range e.Runs {
			for _, m := range r.OK {
				if d := m.Trial.Load.DurationS; d > 0 {
					ds = append(ds, d)
				}
			}
		}
	}
	if len(ds) == 0 {
		return ""
	}
	sp := metric.SpreadOf(ds)
	here := seconds(sp.Median)
	if seconds(sp.Min) != seconds(sp.Max) {
		here = fmt.Sprintf("%s–%s, median %s", strings.TrimSuffix(seconds(sp.Min), " s"), seconds(sp.Max), here)
	}
	pub := "not recorded in the suite (its source: window)"
	if w := s.Suite.PublishedWindow; w != "" {
		pub = w
	}
	return fmt.Sprintf("%s: here %s, at %s scale; published: %s", s.Suite.Name, here, model.FirstNonEmpty(s.Suite.Scale, s.Env.Scale, "unknown"), pub)
}

// seconds prints a window: 1.5 s, 20 s, 0.25 s.
func seconds(s float64) string {
	return fmt.Sprintf("%.3g s", s)
}

// shortReason is the verdict's own reason, its first clause (a
// parenthesis is kept whole), or the rule that decided when it needs none.
func shortReason(v model.Verdict) string {
	why := v.Why
	if why == "" {
		return "rule: " + v.Rule
	}
	why = strings.TrimPrefix(strings.TrimPrefix(why, "holds as a lower bound: "), "holds as an upper bound: ")
	depth := 0
	for i, c := range why {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ';':
			if depth == 0 {
				return clip(why[:i])
			}
		}
	}
	return clip(why)
}

// clip cuts a reason at a word near maxReason characters.
func clip(s string) string {
	const maxReason = 160
	r := []rune(strings.TrimSpace(s))
	if len(r) <= maxReason {
		return string(r)
	}
	cut := string(r[:maxReason])
	if i := strings.LastIndex(cut, " "); i > maxReason/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, ",;: ") + " …"
}

// Published kinds: what the published column's figure is.
const (
	pubRows   = "from published rows"
	pubStated = "as the text states it"
	pubNone   = "none published"
	pubOwn    = "restbench's check"
)

// publishedKind says what a verdict's published figure is: computed from
// the published rows (the suite left it to them, or it equals their
// ratio), a factor the write-up's text states, or none.
func publishedKind(v model.Verdict, given float64, runs map[string]result.RunInfo) string {
	switch {
	case v.Kind == result.KindCheck:
		return pubOwn
	case v.Published == 0:
		return pubNone
	case given == 0:
		return pubRows
	}
	pa := runs[v.A].Published[v.Metric]
	rows := pa
	if v.B != "" {
		if pb := runs[v.B].Published[v.Metric]; pb != 0 {
			rows = pa / pb
		} else {
			rows = 0
		}
	}
	if rows != 0 && math.Abs(given/rows-1) < 0.005 {
		return pubRows
	}
	return pubStated
}

// regionText is the region a claim wants its ratio in, short: "> 1×",
// "1.6–2.5×", "≥ 80 %"; a band or tie of a write-up's claim was read from
// its words, and says so.
func regionText(v model.Verdict) string {
	lo, hi := v.RegionLo, v.RegionHi
	if lo == 0 && hi == 0 {
		return "—"
	}
	f := func(x float64) string {
		if v.Single() {
			return metric.Format(v.Metric, x)
		}
		return metric.Ratio(x)
	}
	var s string
	switch {
	case math.IsInf(hi, 1) && lo == 1:
		s = "> 1×"
	case math.IsInf(hi, 1):
		s = "≥ " + f(lo)
	case lo == 0 && hi == 1:
		s = "< 1×"
	case lo == 0:
		s = "≤ " + f(hi)
	default:
		s = strings.TrimSuffix(f(lo), "×") + "–" + f(hi)
	}
	switch {
	case v.Claim == result.ClaimGrows || v.Claim == result.ClaimShrinks:
		s = v.Claim + ": change " + s
	case v.Claim == result.ClaimTie:
		s += " (a tie)"
	}
	if (v.Claim == result.ClaimBand || v.Claim == result.ClaimTie) && v.Kind != result.KindCheck {
		s += ", read from the words"
	}
	return s
}
