// Package verdict grades a published conclusion (result.Conclusion) against
// measured trials: holds, does not hold, or inconclusive.
//
// Every claim comes down to one ratio and a region it must fall in. A
// direction claim ("Node is faster") wants A/B above 1, a band ("about 2×")
// wants it inside 1.6–2.5×, a tie wants it within ±5 % of 1, a trend ("the
// lead grows with connections") wants the fitted change of A/B over all its
// points above 1. The ratio is taken per round: trial k of every run is
// measured in round k, side by side, so A_k/B_k cancels whatever slowed the
// machine during that round. The verdict reads a 95 % bootstrap interval of
// the median paired ratio: wholly inside the region, the claim holds; wholly
// outside, it does not; straddling a boundary, the trials cannot tell yet.
package verdict

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"restbench/internal/result"
)

// Outcomes.
const (
	Holds        = "holds"
	DoesNotHold  = "does not hold here"
	Inconclusive = "inconclusive"
	NotMeasured  = "not measured"
	NotRun       = "not run here"
)

// MinPairs is the fewest paired rounds a verdict rests on: with fewer, an
// interval is one or two numbers, not a measure of spread.
const MinPairs = 3

// MinProbes is the fewest heartbeat probes a cell needs before a verdict on
// a probe_ metric: with 2 or 3 probes a trial's mean is one stall or none.
const MinProbes = 30

// DefaultTolerance is the half-width of a tie when a conclusion gives none.
const DefaultTolerance = 0.05

// Verdict is one conclusion graded.
type Verdict struct {
	// Conclusion as given, with Published filled in from the runs'
	// published figures when the suite left it 0.
	result.Conclusion
	// Estimate is the median paired ratio A/B (a trend: the fitted change
	// over its points); Lo and Hi bound its 95 % bootstrap interval.
	Estimate, Lo, Hi float64
	// Pairs is the number of paired rounds the estimate rests on.
	Pairs int
	// Points are a trend's cells: published and measured at each X.
	Points []PointValue
	// Rule says what decided, e.g. "95 % interval inside 1.60–2.50×".
	Rule    string
	Outcome string
	// Why says what is missing when the outcome is not holds or does not hold.
	Why string
}

// PointValue is one point of a trend: the published and the measured
// (median paired) value of A/B, or of A alone, at X.
type PointValue struct {
	X                   float64
	Published, Measured float64
}

// Decided reports whether more rounds cannot change the verdict: it holds or
// does not, or it cannot be measured on this machine at all.
func (v Verdict) Decided() bool {
	switch v.Outcome {
	case Holds, DoesNotHold, NotRun:
		return true
	}
	return false
}

// Evaluate grades c against the trials of its experiment, by run id. runs
// gives the published figures the claim is read from when c.Published is 0.
func Evaluate(c result.Conclusion, runs map[string]result.RunInfo, trials map[string][]*result.Trial) Verdict {
	v := Verdict{Conclusion: c, Outcome: NotMeasured}
	if v.Claim == "" {
		v.Claim = result.ClaimDirection
	}
	if v.Claim == result.ClaimTie && v.Tolerance == 0 {
		v.Tolerance = DefaultTolerance
	}
	lo, hi := region(v.Conclusion)
	v.Rule = rule(v.Conclusion, lo, hi)
	seed := seedOf(c)
	if v.Claim == result.ClaimGrows || v.Claim == result.ClaimShrinks {
		trend(&v, runs, trials, lo, hi, seed)
		return v
	}
	if v.Published == 0 {
		v.Published = publishedRatio(runs, c.Metric, c.A, c.B)
	}
	sa, cautionA, why := series(c.A, c.Metric, runs, trials)
	var sb rounds
	var cautionB string
	if why == "" {
		sb, cautionB, why = series(c.B, c.Metric, runs, trials)
	}
	if why != "" {
		decide(&v, why, lo, hi)
		return v
	}
	ratios, n := pairRatios(sa, sb)
	v.Pairs = n
	if n == 0 {
		decide(&v, fmt.Sprintf("no round measured both %s and %s", c.A, c.B), lo, hi)
		return v
	}
	v.Estimate = median(ratios)
	v.Lo, v.Hi = bootstrap(n, seed, func(idx []int) float64 { return medianAt(ratios, idx) })
	decide(&v, "", lo, hi)
	caution(&v, firstNonEmpty(cautionA, cautionB))
	return v
}

// decide sets the outcome from the interval and the region [lo, hi] the
// claim wants the ratio in, or from why, the reason there is no interval.
func decide(v *Verdict, why string, lo, hi float64) {
	switch {
	case strings.HasPrefix(why, NotRun):
		v.Outcome, v.Why = NotRun, strings.TrimSpace(strings.TrimPrefix(why, NotRun+":"))
		return
	case why != "":
		v.Outcome, v.Why = NotMeasured, why
		return
	case v.Lo >= lo && v.Hi <= hi:
		v.Outcome = Holds
	case v.Hi < lo || v.Lo > hi:
		v.Outcome = DoesNotHold
	default:
		v.Outcome = Inconclusive
		v.Why = "the interval straddles a boundary of the claim; more rounds may settle it"
	}
	if v.Pairs < MinPairs {
		v.Outcome = Inconclusive
		v.Why = fmt.Sprintf("%d paired round(s); a verdict needs %d", v.Pairs, MinPairs)
	}
}

// caution turns a decided verdict inconclusive when its samples are too
// thin to trust, whatever the interval says.
func caution(v *Verdict, why string) {
	if why != "" && (v.Outcome == Holds || v.Outcome == DoesNotHold) {
		v.Outcome, v.Why = Inconclusive, why
	}
}

// region is where the ratio must lie for the claim to hold.
func region(c result.Conclusion) (lo, hi float64) {
	switch c.Claim {
	case result.ClaimBand:
		hi = c.High
		if hi == 0 {
			hi = math.Inf(1)
		}
		return c.Low, hi
	case result.ClaimTie:
		tol := c.Tolerance
		if tol == 0 {
			tol = DefaultTolerance
		}
		return 1 - tol, 1 + tol
	case result.ClaimShrinks:
		return 0, 1
	case result.ClaimGrows:
		return 1, math.Inf(1)
	}
	// direction: A > B, unless the write-up published A below B.
	if c.Published != 0 && c.Published < 1 {
		return 0, 1
	}
	return 1, math.Inf(1)
}

// rule is the region in words.
func rule(c result.Conclusion, lo, hi float64) string {
	what := "95 % interval of the paired ratio"
	if c.Claim == result.ClaimGrows || c.Claim == result.ClaimShrinks {
		what = "95 % interval of the fitted change over " + firstNonEmpty(c.Over, "the points")
	}
	switch {
	case c.Claim == result.ClaimTie:
		return fmt.Sprintf("%s inside %s–%s (a tie, ±%g %%)", what, x(lo), x(hi), math.Round((hi-1)*1000)/10)
	case math.IsInf(hi, 1):
		return fmt.Sprintf("%s above %s", what, x(lo))
	case lo == 0:
		return fmt.Sprintf("%s below %s", what, x(hi))
	}
	return fmt.Sprintf("%s inside %s–%s", what, x(lo), x(hi))
}

func x(v float64) string { return fmt.Sprintf("%.3g×", v) }

// rounds maps a round to the run's value in it.
type rounds map[int]float64

// series reads a run's metric per round from its successful trials. why is
// set when there is nothing to read (it starts with NotRun when this
// machine cannot run the run); caution when there is, but too little.
func series(id, metric string, runs map[string]result.RunInfo, trials map[string][]*result.Trial) (out rounds, caution, why string) {
	if _, ok := runs[id]; !ok {
		return nil, "", fmt.Sprintf("run %q is not in the suite; fix the conclusion's run ids", id)
	}
	out = rounds{}
	notRun, probes := "", 0
	for _, t := range trials[id] {
		if t.Status == result.StatusNotRun || t.Status == result.StatusNotSupported {
			notRun = firstNonEmpty(t.Error, t.Status)
			continue
		}
		if t.Status != result.StatusOK || t.Load == nil {
			continue
		}
		hist, probe := Histograms(t)
		v, ok := Value(t, hist, probe, metric)
		if !ok {
			continue
		}
		out[RoundOf(t)] = v
		if t.Load.Probe != nil {
			probes += int(t.Load.Probe.Requests)
		}
	}
	switch {
	case len(out) == 0 && notRun != "":
		return nil, "", NotRun + ": " + strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(notRun, "not run here:"), "not run:"))
	case len(trials[id]) == 0:
		return nil, "", fmt.Sprintf("no trial of %s in these results (left out by --only, or still to run)", id)
	case len(out) == 0:
		return nil, "", fmt.Sprintf("no successful trial of %s measured %s", id, metric)
	case strings.HasPrefix(metric, "probe_") && probes < MinProbes:
		caution = fmt.Sprintf("%s got %d heartbeat probes over its trials; a heartbeat verdict needs %d (shorten the probe interval)", id, probes, MinProbes)
	}
	return out, caution, ""
}

// RoundOf is the round a trial was measured in; trials written before
// rounds were recorded pair by trial number.
func RoundOf(t *result.Trial) int {
	if t.Round > 0 {
		return t.Round
	}
	return t.Trial
}

// pairRatios returns A/B for every round both runs measured, in round order.
func pairRatios(a, b rounds) ([]float64, int) {
	var keys []int
	for r := range a {
		if vb, ok := b[r]; ok && vb != 0 {
			keys = append(keys, r)
		}
	}
	sort.Ints(keys)
	out := make([]float64, len(keys))
	for i, r := range keys {
		out[i] = a[r] / b[r]
	}
	return out, len(out)
}

// publishedRatio reads the claim's published ratio from the runs' figures:
// the write-ups print figures, not ratios. 0 when one is missing.
func publishedRatio(runs map[string]result.RunInfo, metric, a, b string) float64 {
	pa := publishedValue(runs[a].Published, metric)
	if b == "" {
		return pa
	}
	pb := publishedValue(runs[b].Published, metric)
	if pa == 0 || pb == 0 {
		return 0
	}
	return pa / pb
}

func publishedValue(p map[string]float64, metric string) float64 {
	if metric == ShapeKey {
		if p["p50_ms"] == 0 {
			return 0
		}
		return p["p99_ms"] / p["p50_ms"]
	}
	return p[metric]
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
