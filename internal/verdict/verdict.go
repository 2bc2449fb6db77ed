// Package verdict grades a conclusion (result.Conclusion) against measured
// trials: holds, does not hold, inconclusive, or not comparable when a run
// it rests on did not do what the claim needs.
//
// Every claim comes down to one ratio and a region it must fall in. A
// direction claim ("Node is faster") wants A/B above 1, a band ("about 2×")
// wants it inside 1.6–2.5×, a tie wants it within ±5 % of 1, a trend ("the
// lead grows with connections") wants the fitted change of A/B over all its
// points above 1. The ratio is taken per round: trial k of every run is
// measured in round k, side by side, so A_k/B_k cancels whatever slowed the
// machine during that round. The verdict reads a distribution-free interval
// of the median paired ratio (MedianInterval) whose exact coverage it
// states: wholly inside the region, the claim holds; wholly outside, it does
// not; straddling a boundary, the trials cannot tell. Below MinCoverage (5
// rounds) there is no verdict.
//
// Before the interval counts, the runs must carry the claim: a run flagged
// behind-schedule, connection-bound, censored... (validity.go) makes the
// claim not comparable, unless the flag biases the ratio against the claim
// and the claim holds all the same (a bound); a published row whose figure
// for the claim's metric breaks the model of the load that measured it
// (published.go: a closed loop's mean off Little's law) makes it "published
// figures inconsistent", with our own grade beside it; a premise in cores
// or requests in flight the runs do not meet makes it "not run here".
package verdict

import (
	"fmt"
	"math"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"restbench/internal/cpu"
	"restbench/internal/metric"
	"restbench/internal/result"
)

// Outcomes.
const (
	Holds                 = "holds"
	DoesNotHold           = "does not hold here"
	Inconclusive          = "inconclusive"
	NotComparable         = "not comparable"
	PublishedInconsistent = "published figures inconsistent"
	NotMeasured           = "not measured"
	NotRun                = "not run here"
	// NotGraded: the scale the results were measured at leaves out a run
	// the claim compares; its Why says which scale and that full runs it.
	NotGraded = "not graded at this scale"
)

// Outcomes lists every outcome in the order the report counts them.
var Outcomes = []string{Holds, DoesNotHold, Inconclusive, NotComparable, PublishedInconsistent, NotRun, NotGraded, NotMeasured}

// MinPairs is the fewest paired rounds whose min–max interval reaches
// MinCoverage: 5 (93.75 %).
const MinPairs = 5

// MinProbes is the fewest heartbeat probes a cell needs before a verdict on
// a probe_ metric: with 2 or 3 probes a trial's mean is one stall or none.
const MinProbes = 30

// DefaultTolerance is the half-width of a tie when a conclusion gives none.
const DefaultTolerance = 0.05

// Verdict is one conclusion graded.
type Verdict struct {
	// Conclusion as given, with Published filled in from the runs' published
	// figures when the suite left it 0.
	result.Conclusion
	// Estimate is the median paired ratio A/B (a trend: the median of the
	// rounds' fitted changes); Lo and Hi bound its interval.
	Estimate, Lo, Hi float64
	// Interval is how Lo and Hi were chosen and what they cover; Looks how
	// many times a stop rule looked (its coverage is corrected for them).
	Interval Interval
	Looks    int
	// Pairs is the number of paired rounds the estimate rests on.
	Pairs int
	// Points are a trend's cells: published and measured at each X.
	Points []PointValue
	// Rule says what decided, e.g. "interval inside 1.60–2.50×".
	Rule    string
	Outcome string
	// Bound is "lower" or "upper" when the claim holds as a bound: a run it
	// rests on is flagged, but the flag can only push the ratio towards the
	// claim's boundary.
	Bound string
	// Breaks are the flags of the runs that touch the claim's metric.
	Breaks []Break
	// BeforeNoise is what the claim read (holds, does not hold) before its
	// suite's A/A noise floor turned it inconclusive (WithinNoise); empty
	// where it did not.
	BeforeNoise string
	// Why says what is missing when the outcome is not holds or does not
	// hold, or why it holds only as a bound.
	Why string
	// RegionLo and RegionHi bound the region the claim wants the ratio (or
	// a single run's figure) in: 0 and +Inf for an open side.
	RegionLo, RegionHi float64
	// Disagrees says how another generator measured the same claim on the
	// same cells when it differs beyond the noise floor ("ab measured
	// 2.03×"); empty when none did. The report prints it beside the
	// verdict: a claim graded on one generator while another disagrees must
	// say so.
	Disagrees string
	// Control is the claim graded again with a run's control in the run's
	// place, where the run's flag is the published condition and its suite
	// names a run that lifts it (result.PublishedLoad.Control): how much of
	// the result is that condition. nil when no run has one.
	Control *Control
}

// Control is a claim graded on a control run (Verdict.Control).
type Control struct {
	// Run is the flagged run, In its control, which took Run's place.
	Run, In string
	// Estimate, Lo, Hi and Outcome are the claim's figure, interval and
	// state with In in Run's place.
	Estimate, Lo, Hi float64
	Outcome          string
	// Share is Run's figure over In's, the median paired ratio, with its
	// interval: 1 when the condition costs nothing.
	Share, ShareLo, ShareHi float64
	// Graded says the verdict is the control's: Run was
	// retransmission-bound (result.RetransmissionBound) in Bound of Of
	// rounds, idle for up to IdleS seconds while its last connections
	// waited for a re-sent SYN, so its figure was TCP's timer, which the
	// published run's was not. The verdict's figures and state are then
	// In's, and Estimate, Lo, Hi and Outcome above are the claim as it
	// read on Run, as published.
	Graded           bool
	Bound, Of, IdleS int
}

// PointValue is one point of a trend: the published and the measured
// (median paired) value of A/B, or of A alone, at X.
type PointValue struct {
	X                   float64
	Published, Measured float64
	Ratio               bool // the point is a ratio A/B; else A's own figure, in the metric's unit
}

// Coverage is the interval's coverage after the stop rule's looks.
func (v Verdict) Coverage() float64 { return Corrected(v.Interval.Coverage, v.Looks) }

// Single reports whether the claim grades one run's own figure (a band
// with no b), so that its figures are values in the metric's unit, not
// ratios.
func (v Verdict) Single() bool { return v.B == "" && len(v.Conclusion.Points) == 0 }

// Own reports whether the claim is restbench's, not the write-up's.
func (v Verdict) Own() bool { return v.Kind == result.KindCheck || v.Kind == result.KindAA }

// Decided reports whether more rounds cannot change the verdict: it holds or
// does not, its runs cannot carry it, or it cannot be measured here at all.
func (v Verdict) Decided() bool {
	switch v.Outcome {
	case Holds, DoesNotHold, NotRun, NotGraded, NotComparable, PublishedInconsistent:
		return true
	}
	return false
}

// Evaluate grades c against the trials of its experiment, by run id. runs
// gives the published figures the claim is read from when c.Published is 0;
// looks is how many times a stop rule may look (result.Experiment.Looks).
func Evaluate(c result.Conclusion, runs map[string]result.RunInfo, trials map[string][]*result.Trial, looks int) Verdict {
	return evaluate(c, runs, trials, looks, true)
}

// evaluate is Evaluate, and with withControl grades the claim on the
// controls of its runs too (Verdict.Control).
func evaluate(c result.Conclusion, runs map[string]result.RunInfo, trials map[string][]*result.Trial, looks int, withControl bool) Verdict {
	v := Verdict{Conclusion: c, Outcome: NotMeasured, Looks: max(looks, 1)}
	if v.Claim == "" {
		v.Claim = result.ClaimDirection
	}
	if v.Claim == result.ClaimTie && v.Tolerance == 0 {
		v.Tolerance = DefaultTolerance
	}
	lo, hi := region(v.Conclusion)
	v.Rule, v.RegionLo, v.RegionHi = rule(v.Conclusion, lo, hi), lo, hi
	switch {
	case c.NotGraded != "":
		v.Outcome, v.Why = NotGraded, c.NotGraded
		return v
	case c.NotRun != "":
		v.Outcome, v.Why = NotRun, c.NotRun
		return v
	}
	if why := unmet(c, trials); why != "" {
		v.Outcome, v.Why = NotRun, why
		return v
	}
	if v.Claim == result.ClaimGrows || v.Claim == result.ClaimShrinks {
		trend(&v, runs, trials, lo, hi)
		published(&v, runs)
		return v
	}
	if v.Published == 0 {
		v.Published = publishedRatio(runs, c.Metric, c.A, c.B)
	}
	sa, cautionA, why := series(c.A, c.Metric, runs, trials)
	var sb rounds
	var cautionB string
	if why == "" && c.B != "" {
		sb, cautionB, why = series(c.B, c.Metric, runs, trials)
	}
	if why != "" {
		decide(&v, why, lo, hi)
		return v
	}
	var ratios []float64
	if c.B == "" {
		ratios = values(sa)
	} else {
		ratios = pairRatios(sa, sb)
	}
	v.Pairs = len(ratios)
	if v.Pairs == 0 {
		decide(&v, fmt.Sprintf("no round measured both %s and %s", c.A, c.B), lo, hi)
		return v
	}
	v.Estimate = result.Median(ratios)
	v.Interval = MedianInterval(ratios, PerLook(Confidence, v.Looks))
	v.Lo, v.Hi = v.Interval.Lo, v.Interval.Hi
	decide(&v, "", lo, hi)
	caution(&v, firstNonEmpty(cautionA, cautionB))
	ba, biasA := breaks(c.A, c.Metric, runs[c.A], trials[c.A])
	bias := biasA
	v.Breaks = ba
	if c.B != "" {
		bb, biasB := breaks(c.B, c.Metric, runs[c.B], trials[c.B])
		if oa, ob, one, ok := atOneRate(c.A, c.B, ba, bb, trials); ok {
			bb, biasA, biasB = append(ob, one), biasOf(oa), biasOf(ob)
			v.Breaks = oa
		}
		v.Breaks, bias = append(v.Breaks, bb...), ratioBias(biasA, biasB)
	}
	if c.B == "" || !windowEnvelope(&v, [][][2]string{{{c.A, c.B}}}, runs, trials, lo, hi) {
		comparable(&v, bias, lo, hi)
	}
	published(&v, runs)
	if withControl {
		control(&v, runs, trials, looks)
	}
	return v
}

// control fills v.Control: the claim graded again with the control of the
// one run it rests on whose accept-queue-overflow is the published
// condition, and that run's figure over its control's.
func control(v *Verdict, runs map[string]result.RunInfo, trials map[string][]*result.Trial, looks int) {
	if v.Pairs == 0 {
		return
	}
	var overflowed []Break
	for _, b := range v.Breaks {
		if b.AsPublished && b.Flag == result.FlagAcceptQueueOverflow {
			overflowed = append(overflowed, b)
		}
	}
	if len(overflowed) != 1 {
		// None, or both sides carry the published condition: lifting it on
		// one of them alone would compare unlike loads.
		return
	}
	b := overflowed[0]
	p := runs[b.Run].PublishedLoad
	if p == nil || p.Control == "" || len(trials[p.Control]) == 0 {
		return
	}
	c := v.Conclusion
	c.Published = v.Published
	if c.A == b.Run {
		c.A = p.Control
	} else {
		c.B = p.Control
	}
	if c.A == c.B {
		return // the claim compares the run with its control itself
	}
	cv := evaluate(c, runs, trials, looks, false)
	sr, _, why := series(b.Run, v.Metric, runs, trials)
	sc, _, whyC := series(p.Control, v.Metric, runs, trials)
	share := pairRatios(sr, sc)
	if cv.Pairs == 0 || why != "" || whyC != "" || len(share) == 0 {
		return
	}
	in := MedianInterval(share, PerLook(Confidence, max(looks, 1)))
	v.Control = &Control{Run: b.Run, In: p.Control, Estimate: cv.Estimate, Lo: cv.Lo, Hi: cv.Hi, Outcome: cv.Outcome,
		Share: result.Median(share), ShareLo: in.Lo, ShareHi: in.Hi}
	if bound, of, idle := retransmissionBound(trials[b.Run]); bound > 0 && !v.Own() && endedOnWork(runs[b.Run].Published) {
		gradeOnControl(v, cv, bound, of, idle)
	}
}

// endedOnWork says whether a published run ended on its work, not on a
// re-sent SYN: its longest request took under half the run, its requests
// over its req/s. A run that ends on the timer lasts as long as its
// longest request (every retransmission-bound run here did), so a
// published run whose longest request is a short part of it did not; one
// whose figures do not say cannot be told, and keeps its verdict.
func endedOnWork(p map[string]float64) bool {
	longest, ok := p["latency_max_ms"]
	if !ok {
		longest, ok = p["p100_ms"]
	}
	n, rps := p["requests"], p["rps"]
	return ok && n > 0 && rps > 0 && longest/1000 < n/rps/2
}

// retransmissionBound counts the successful trials of a run that were
// retransmission-bound, of all its successful ones (countTrials), and the
// most idle seconds among them.
func retransmissionBound(trials []*result.Trial) (bound, of, idle int) {
	bound, of, _ = countTrials(trials, func(t *result.Trial) bool {
		s := result.RetransmissionBound(t)
		idle = max(idle, s)
		return s > 0
	})
	return bound, of, idle
}

// gradeOnControl makes the claim's verdict cv, its grading on the control,
// and keeps v's own reading in v.Control. Why: a published run that
// overflowed its queue and still ended on its work (joshuous' Node run:
// Connect max 1,023 ms, its longest request 1,391 ms of a 6.8 s run)
// measured the server's rate with the retransmissions in it; a run here
// that idled a whole second waiting for its last re-sent SYNs measured
// TCP's timer against this machine's speed instead (the same load read
// 2.29× at full speed and 3.25× at half the CPU, where every run ended
// near 15 s). The control carries the same load without the idle wait,
// so it is the run that measures what the published one did. Any round
// counts: a median over rounds that measured two different things
// measures neither. The write-up's claims only: a cross-check or an A/A
// arm compares the run with itself or with another tool on the same
// load, where the timer is the same on both sides.
func gradeOnControl(v *Verdict, cv Verdict, bound, of, idle int) {
	c := v.Control
	c.Estimate, c.Lo, c.Hi, c.Outcome = v.Estimate, v.Lo, v.Hi, v.Outcome
	c.Graded, c.Bound, c.Of, c.IdleS = true, bound, of, idle
	v.Estimate, v.Lo, v.Hi, v.Interval, v.Pairs = cv.Estimate, cv.Lo, cv.Hi, cv.Interval, cv.Pairs
	v.Outcome, v.Bound, v.Breaks, v.Why = cv.Outcome, cv.Bound, cv.Breaks, cv.Why
}

// gradable reports whether v's interval is wide enough for a verdict at
// all: MinPairs rounds and MinCoverage. Below it a verdict stays
// inconclusive whatever its flags or the published figures say.
func (v *Verdict) gradable() bool { return v.Pairs >= MinPairs && v.Coverage() >= MinCoverage }

// comparable turns a verdict resting on flagged runs into "not comparable",
// or into a bound when the flags can only push the ratio one way and the
// claim is decided all the same: a floor of the ratio above the lower edge
// of a claim open above (holds) or above the upper edge of any claim (does
// not hold), a ceiling the other way round. A flag that is the published
// condition and biases nothing (Break.AsPublished) is said, not counted.
func comparable(v *Verdict, bias Bias, lo, hi float64) {
	if len(v.Breaks) == 0 || v.Outcome == NotRun || v.Outcome == NotMeasured {
		return
	}
	var why, asPublished []string
	for _, b := range v.Breaks {
		if b.AsPublished && b.Bias == Unbiased {
			asPublished = append(asPublished, b.String())
			continue
		}
		why = append(why, b.String())
	}
	if len(why) == 0 {
		v.Why = joinWhy(v.Why, strings.Join(asPublished, "; "))
		return
	}
	why = append(why, asPublished...)
	flags := strings.Join(why, "; ")
	switch {
	case !v.gradable():
		// Too few rounds decide nothing; the flags are said beside it.
		v.Why = joinWhy(v.Why, "and "+flags)
	case bias == Floor && math.IsInf(hi, 1) && v.Lo >= lo:
		v.Outcome, v.Bound = Holds, "lower"
		v.Why = "holds as a lower bound: " + flags + "; so the true ratio is at least the measured one"
	case bias == Floor && v.Lo > hi:
		v.Outcome, v.Bound = DoesNotHold, "lower"
		v.Why = "does not hold, as a lower bound: " + flags + "; so the true ratio is at least the measured one, above the claim's " + metric.Ratio(hi)
	case bias == Ceiling && lo == 0 && v.Hi <= hi:
		v.Outcome, v.Bound = Holds, "upper"
		v.Why = "holds as an upper bound: " + flags + "; so the true ratio is at most the measured one"
	case bias == Ceiling && v.Hi < lo:
		v.Outcome, v.Bound = DoesNotHold, "upper"
		v.Why = "does not hold, as an upper bound: " + flags + "; so the true ratio is at most the measured one, below the claim's " + metric.Ratio(lo)
	default:
		v.Outcome, v.Bound = NotComparable, ""
		v.Why = flags
	}
}

// published grades a claim resting on a published row whose figure for the
// claim's metric breaks the row's own load model (CheckPublished): a mean
// latency off Little's law on a closed loop, a req/s above an open loop's
// rate. The write-up's figures cannot all be true, so its number is not
// graded; the sentence is, on our runs, and the verdict says both. A
// figure the row does not break (a req/s from exact counts beside a mean
// that is off) blocks nothing.
func published(v *Verdict, runs map[string]result.RunInfo) {
	if v.Outcome == NotRun {
		return
	}
	ids := []string{v.A, v.B}
	for _, p := range v.Conclusion.Points {
		ids = append(ids, p.A, p.B)
	}
	var off []string
	seen := map[string]bool{}
	for _, id := range ids {
		if id == "" || seen[id] {
			continue
		}
		seen[id] = true
		if why := publishedOff(runs[id], v.Metric); why != "" {
			off = append(off, why)
		}
	}
	if len(off) == 0 {
		return
	}
	if v.Outcome == Inconclusive && !v.gradable() {
		v.Why = joinWhy(v.Why, "and "+strings.Join(off, "; "))
		return
	}
	here := "on our runs the sentence is " + v.Outcome
	if v.Outcome == Holds || v.Outcome == DoesNotHold {
		here = "on our runs the sentence " + strings.TrimSuffix(v.Outcome, " here")
	}
	if v.Why != "" {
		here += " (" + v.Why + ")"
	}
	v.Outcome, v.Bound = PublishedInconsistent, ""
	v.Why = strings.Join(off, "; ") + "; " + here
}

func joinWhy(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// unmet says which premise of c the runs do not meet, as "needs …", or "".
func unmet(c result.Conclusion, trials map[string][]*result.Trial) string {
	rq := c.Requires
	if rq == nil {
		return ""
	}
	ids := []string{c.A, c.B}
	for _, p := range c.Points {
		ids = append(ids, p.A, p.B)
	}
	for _, id := range ids {
		for _, t := range trials[id] {
			if t.Status != result.StatusOK {
				continue
			}
			list, _ := cpu.ParseList(t.Placement.ServerCPUs) // the runner wrote it with cpu.FormatList
			cores := len(list)
			if q := t.Placement.Quota; q > 0 && t.Placement.QuotaApplied {
				cores = min(cores, int(math.Ceil(q)))
			}
			inFlight := 0
			if t.Load != nil {
				inFlight = max(t.Load.Settings.Connections, t.Load.Settings.MaxConnections)
			}
			switch {
			case rq.MinCores > 0 && cores < rq.MinCores:
				return fmt.Sprintf("needs %d cores for the server (%s had %d)", rq.MinCores, id, cores)
			case rq.MaxCores > 0 && cores > rq.MaxCores:
				return fmt.Sprintf("needs at most %d cores for the server, as the claim's premise has (%s had %d)", rq.MaxCores, id, cores)
			case rq.MinInFlight > 0 && inFlight > 0 && inFlight < rq.MinInFlight:
				return fmt.Sprintf("needs %d requests in flight (%s had %d)", rq.MinInFlight, id, inFlight)
			}
			if cpuS := OfferedWork(t); rq.OfferedWork && cpuS > 0 && cores < int(math.Ceil(cpuS)) {
				return fmt.Sprintf("needs %d cores for the server: %s is offered %.1f CPU-seconds a second of work (rate × work share × work ms) and had %d", int(math.Ceil(cpuS)), id, cpuS, cores)
			}
		}
	}
	return ""
}

// OfferedWork is the CPU work a trial's open loop offers its server, in
// CPU-seconds per second: the rate × each target's share of it × the ms of
// work its query asks for (work=W), / 1000. 0 for a closed loop or a load
// without work. The light requests' own cost is left out: it is the
// server's, not the offered work's, so the figure is a floor.
func OfferedWork(t *result.Trial) float64 {
	if t.Load == nil {
		return 0
	}
	st := t.Load.Settings
	rate := max(st.Rate, t.Load.TargetRPS)
	if rate <= 0 {
		return 0
	}
	ms, total := 0.0, 0.0
	for _, m := range st.MixTargets {
		total += m.Weight
		ms += m.Weight * WorkMS(m.Path)
	}
	switch {
	case total > 0:
		ms /= total
	default:
		ms = WorkMS(st.URL)
	}
	return rate * ms / 1000
}

// WorkMS reads work=W (ms of CPU) from a request's path or URL; 0 without.
func WorkMS(path string) float64 {
	_, query, ok := strings.Cut(path, "?")
	if !ok {
		return 0
	}
	q, err := url.ParseQuery(query)
	if err != nil {
		return 0
	}
	w, _ := strconv.ParseFloat(q.Get("work"), 64)
	return w
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
	if c := v.Coverage(); v.Pairs < MinPairs || c < MinCoverage {
		v.Outcome = Inconclusive
		v.Why = fmt.Sprintf("%d paired rounds give an interval of %s coverage; a verdict needs %s (%d rounds with the rounds fixed in advance)",
			v.Pairs, Percent(c), Percent(MinCoverage), MinPairs)
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
	if c.B == "" && len(c.Points) == 0 && c.Claim == result.ClaimBand {
		switch {
		case math.IsInf(hi, 1):
			return fmt.Sprintf("interval of the median at least %s", metric.Format(c.Metric, lo))
		case lo == 0:
			return fmt.Sprintf("interval of the median at most %s", metric.Format(c.Metric, hi))
		}
		return fmt.Sprintf("interval of the median inside %s–%s", metric.Format(c.Metric, lo), metric.Format(c.Metric, hi))
	}
	what := "interval of the median paired ratio"
	switch {
	case c.Claim == result.ClaimGrows || c.Claim == result.ClaimShrinks:
		what = "interval of the median fitted change over " + firstNonEmpty(c.Over, "the points")
	case c.B == "":
		what = "interval of the median"
	}
	switch {
	case c.Claim == result.ClaimTie:
		return fmt.Sprintf("%s inside %s–%s (a tie, ±%g %%)", what, metric.Ratio(lo), metric.Ratio(hi), math.Round((hi-1)*1000)/10)
	case math.IsInf(hi, 1):
		return fmt.Sprintf("%s above %s", what, metric.Ratio(lo))
	case lo == 0:
		return fmt.Sprintf("%s below %s", what, metric.Ratio(hi))
	}
	return fmt.Sprintf("%s inside %s–%s", what, metric.Ratio(lo), metric.Ratio(hi))
}

// rounds maps a round to the run's value in it.
type rounds map[int]float64

// series reads a run's metric per round from its successful trials. why is
// set when there is nothing to read (it starts with NotRun when this
// machine cannot run the run); caution when there is, but too little.
func series(id, key string, runs map[string]result.RunInfo, trials map[string][]*result.Trial) (out rounds, caution, why string) {
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
		hist, probe := metric.Histograms(t)
		v, ok := metric.Value(t, hist, probe, key)
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
		return nil, "", fmt.Sprintf("no successful trial of %s measured %s", id, key)
	case strings.HasPrefix(key, "probe_") && probes < MinProbes:
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

// values returns a run's values in round order.
func values(a rounds) []float64 {
	var keys []int
	for r := range a {
		keys = append(keys, r)
	}
	sort.Ints(keys)
	out := make([]float64, len(keys))
	for i, r := range keys {
		out[i] = a[r]
	}
	return out
}

// pairRatios returns A/B for every round both runs measured, in round order.
func pairRatios(a, b rounds) []float64 {
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
	return out
}

// publishedRatio reads the claim's published ratio from the runs' figures:
// the write-ups print figures, not ratios. 0 when one is missing.
func publishedRatio(runs map[string]result.RunInfo, key, a, b string) float64 {
	pa, _ := metric.PublishedValue(runs[a].Published, key)
	if b == "" {
		return pa
	}
	pb, _ := metric.PublishedValue(runs[b].Published, key)
	if pa == 0 || pb == 0 {
		return 0
	}
	return pa / pb
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// NoiseFactor is the factor within which two measurements of one thing may
// differ by noise alone: the A/A arm's interval (NoiseFloor: one run
// measured twice in every round) read both ways, at least DefaultTolerance;
// aa nil or not measured gives DefaultTolerance alone.
func NoiseFactor(aa *Verdict) float64 {
	f := 1 + DefaultTolerance
	if aa != nil && aa.Pairs > 0 && aa.Lo > 0 {
		f = max(f, aa.Hi, 1/aa.Lo)
	}
	return f
}

// Disagree reports whether two estimates of one claim, by two generators on
// the same cells, differ by more than the noise floor.
func Disagree(estimate, other, floor float64) bool {
	if estimate <= 0 || other <= 0 {
		return false
	}
	r := estimate / other
	return r > floor || r < 1/floor
}
