package verdict

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"restbench/internal/result"
)

// FlagRateCapped is not a trial's flag but a claim's: a req/s claim in an
// experiment whose published rows ran saturated (result.PublishedLoad),
// resting on an open-loop trial that kept up with its rate. An open loop
// sends no more than its rate, so what that trial achieved is the rate, a
// floor of what the server carries with those connections; a trial behind
// its rate achieved what the server carried.
const FlagRateCapped = "capped at the rate"

// rateCapped is the FlagRateCapped break of run id's trials, or false when
// the claim is not a req/s claim of a saturated experiment or no trial
// kept up with its rate.
func rateCapped(id, metric string, info result.RunInfo, trials []*result.Trial) (Break, bool) {
	if metricClass(metric) != classThroughput || info.PublishedLoad == nil || !info.PublishedLoad.Saturated {
		return Break{}, false
	}
	n, of := 0, 0
	var last *result.Load
	for _, t := range trials {
		if t.Status != result.StatusOK || t.Load == nil {
			continue
		}
		of++
		l := t.Load
		if l.TargetRPS > 0 && !slices.Contains(t.Flags, result.FlagBehindSchedule) && !slices.Contains(l.Flags, result.FlagBehindSchedule) {
			n, last = n+1, l
		}
	}
	if n == 0 {
		return Break{}, false
	}
	return Break{Run: id, Flag: FlagRateCapped, Rounds: n, Of: of, Bias: Floor,
		Detail: fmt.Sprintf("achieved %s of %s req/s: an open loop sends no more than its rate, so its req/s is the rate, not what the server carries with these connections",
			thousands(last.RPS), thousands(last.TargetRPS))}, true
}

// windowFlags are the flags a latency ratio of two saturated cells may
// carry and still be graded by the window rule (windowEnvelope): each is
// the published condition or the window's own limit, a floor that a longer
// window raises. Any other flag (a stalled connection, an overflowed
// accept queue) is not about the window.
var windowFlags = []string{result.FlagBehindSchedule, result.FlagConnectionBound, result.FlagCensored, FlagShortWindow}

// lagGrowth is how fast a trial's backlog grows, in seconds of delay per
// second: an open loop that achieved a of its rate r sends at time t the
// arrival due at a·t/r, which has waited t·(1 − a/r). 0 for a trial that
// kept up; NaN for one with no rate.
func lagGrowth(t *result.Trial) float64 {
	l := t.Load
	if l == nil || l.TargetRPS <= 0 {
		return math.NaN()
	}
	return max(0, 1-l.RPS/l.TargetRPS)
}

// windowEnvelope grades a latency ratio A/B whose two cells ran in an
// experiment published saturated (result.PublishedLoad.Saturated) and fell
// behind their rate: each figure is a floor of what the published window
// shows, since the backlog grows for as long as the window lasts, and a
// ratio of two floors is neither. Under a backlog that grows at a steady
// rate, a cell's latency over a window of T seconds is α + β·T (α the
// service time and the backlog the window opened with, β half the lag
// growth, lagGrowth), so the ratio (α_A + β_A·T)/(α_B + β_B·T) moves
// monotonically with T, from the measured ratio towards β_A/β_B. Over the
// published window (longer than ours) each round's ratio then lies between
// its measured ratio and its ratio of lag growths; the interval of the
// median lies between the intervals of the rounds' smaller and larger
// ends. A claim holds where that envelope lies in its region, does not
// hold where it lies outside, and is not comparable where it straddles.
// It applies only when both cells measured windows of one length in every
// round and every flag they carry is in windowFlags; it reports whether it
// graded v.
func windowEnvelope(v *Verdict, a, b string, runs map[string]result.RunInfo, trials map[string][]*result.Trial, lo, hi float64) bool {
	if metricClass(v.Metric) != classLatency || v.Metric == ShapeKey || !v.gradable() || len(v.Breaks) == 0 {
		return false
	}
	for _, id := range []string{a, b} {
		if p := runs[id].PublishedLoad; p == nil || !p.Saturated {
			return false
		}
	}
	floor := false
	for _, br := range v.Breaks {
		if !slices.Contains(windowFlags, br.Flag) || br.Bias == Unknown || br.Bias == Ceiling {
			return false
		}
		floor = floor || br.Bias == Floor
	}
	if !floor {
		return false
	}
	type cell struct{ value, growth, window float64 }
	read := func(id string) map[int]cell {
		out := map[int]cell{}
		for _, t := range trials[id] {
			if t.Status != result.StatusOK || t.Load == nil {
				continue
			}
			hist, probe := Histograms(t)
			if x, ok := Value(t, hist, probe, v.Metric); ok {
				out[RoundOf(t)] = cell{x, lagGrowth(t), t.Load.DurationS}
			}
		}
		return out
	}
	ca, cb := read(a), read(b)
	var lows, highs []float64
	var ga, gb []float64
	for r, x := range ca {
		y, ok := cb[r]
		if !ok || y.value == 0 {
			continue
		}
		if math.IsNaN(x.growth) || math.IsNaN(y.growth) || math.Abs(x.window-y.window) > 0.01*max(x.window, y.window) {
			return false
		}
		m, g := x.value/y.value, m0(x.growth, y.growth)
		if math.IsNaN(g) {
			g = m // neither fell behind: the ratio does not move with the window
		}
		lows, highs = append(lows, math.Min(m, g)), append(highs, math.Max(m, g))
		ga, gb = append(ga, x.growth), append(gb, y.growth)
	}
	if len(lows) != v.Pairs {
		return false
	}
	conf := PerLook(Confidence, v.Looks)
	envLo, envHi := MedianInterval(lows, conf).Lo, MedianInterval(highs, conf).Hi
	pub := "the published window"
	if w := runs[a].PublishedLoad.DurationS; w > 0 {
		pub = "the published " + seconds(w)
	}
	var flags []string
	for _, br := range v.Breaks {
		flags = append(flags, br.String())
	}
	why := fmt.Sprintf("%s; each latency is a floor of what %s shows, but under a backlog growing at a steady rate the ratio moves, as the window lengthens, from the measured one towards the ratio of the backlogs' growth (1 − achieved/rate: %s %.3g, %s %.3g a second, medians), so over %s it lies in %s–%s",
		strings.Join(flags, "; "), pub, a, median(ga), b, median(gb), pub, x(envLo), xInf(envHi))
	v.Bound = ""
	switch {
	case envLo >= lo && envHi <= hi:
		v.Outcome, v.Why = Holds, "holds over "+pub+" too: "+why
	case envHi < lo || envLo > hi:
		v.Outcome, v.Why = DoesNotHold, "does not hold over "+pub+" either: "+why
	default:
		v.Outcome, v.Why = NotComparable, why+", which straddles a boundary of the claim"
	}
	return true
}

// m0 is the ratio of two lag growths: +Inf where only the numerator's cell
// fell behind, 0 where only the denominator's did, NaN where neither did.
func m0(a, b float64) float64 {
	switch {
	case a == 0 && b == 0:
		return math.NaN()
	case b == 0:
		return math.Inf(1)
	}
	return a / b
}

func xInf(v float64) string {
	if math.IsInf(v, 1) {
		return "∞"
	}
	return x(v)
}
