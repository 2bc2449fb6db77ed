package verdict

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"restbench/internal/metric"
	"restbench/internal/result"
)

// FlagRateCapped is not a trial's flag but a claim's: a req/s claim in an
// experiment whose published rows ran saturated (result.PublishedLoad),
// resting on an open-loop trial that kept up with its rate. An open loop
// sends no more than its rate, so what that trial achieved is the rate, a
// floor of what the server carries with those connections; a trial behind
// its rate achieved what the server carried.
const FlagRateCapped = "capped at the rate"

// keptUp is the share of its rate an open loop that the rate, not the
// server, limited achieves: all of it but the requests in flight at the
// window's edges (100 connections at 40k req/s over 1 s: 0.25 %). A
// saturated server (result.ServerBound) that achieved less fell short on its
// own capacity, however little short: heysphere (a)'s Node at c=100 ran at
// 100 % of its core and achieved 95.9-97.8 % of its searched capacity in
// three rounds of the standard bench of 2026-11-25, which the 95 %
// behind-schedule line read as capped. One with CPU to spare that fell
// short stalled (a pause of the machine, not the server's limit): the
// rate still capped what it would have carried.
const keptUp = 0.99

// rateCapped is the FlagRateCapped break of run id's trials, or false when
// the claim is not a req/s claim of a saturated experiment or no trial
// kept up with its rate.
func rateCapped(id, key string, info result.RunInfo, trials []*result.Trial) (Break, bool) {
	if metric.ClassOf(key) != metric.Throughput || info.PublishedLoad == nil || !info.PublishedLoad.Saturated {
		return Break{}, false
	}
	n, of, last := countTrials(trials, func(t *result.Trial) bool {
		l := t.Load
		behind := slices.Contains(t.Flags, result.FlagBehindSchedule) || slices.Contains(l.Flags, result.FlagBehindSchedule)
		atCapacity := l.RPS < keptUp*l.TargetRPS && l.ServerCPUShare >= result.ServerBound
		return l.TargetRPS > 0 && !behind && !atCapacity
	})
	if n == 0 {
		return Break{}, false
	}
	if above, ok := atOwnCapacity(id, trials); ok {
		return Break{Run: id, Flag: FlagAtCapacity, Rounds: n, Of: of, AsPublished: true,
			Detail: fmt.Sprintf("its rate was 1 × its own capacity search, %s req/s, whose step above (%s) failed: it carried its capacity as measured, as wrk2 -R at a server's maximum prints it",
				metric.Thousands(last.TargetRPS), above)}, true
	}
	return Break{Run: id, Flag: FlagRateCapped, Rounds: n, Of: of, Bias: Floor,
		Detail: fmt.Sprintf("achieved %s of %s req/s: an open loop sends no more than its rate, so its req/s is the rate, not what the server carries with these connections",
			metric.Thousands(last.RPS), metric.Thousands(last.TargetRPS))}, true
}

// FlagAtCapacity is not a trial's flag but a claim's: a req/s claim resting
// on an open-loop run whose rate is 1 × its own capacity search (heysphere
// (a): each server at its own maximum, as wrk2 -R ran it) and which kept up
// with it. Its figure is the rate, but the rate is what the search found the
// server to carry: the search's step above it failed, so what it carries
// lies between the rate and that step (its bracket), not anywhere above.
// The ratio of two such runs is the ratio of their capacities, the
// write-up's model ("Go can handle 3-4 times more req/s"): graded as
// measured. One trial at another run's capacity, or a fraction of its own,
// keeps the floor (FlagRateCapped).
const FlagAtCapacity = "kept up with its own capacity"

// atOwnCapacity says whether every trial of run id that took its rate from
// a capacity search took 1 × its own, and gives the lowest failed step
// above the rate of the last one ("no step" when the search had none).
func atOwnCapacity(id string, trials []*result.Trial) (above string, ok bool) {
	var last *result.RateFrom
	for _, t := range trials {
		if t.Status != result.StatusOK || t.Load == nil || t.Load.TargetRPS <= 0 {
			continue
		}
		rf := t.RateFrom
		if rf == nil || rf.Method != result.RateFromSearch || rf.Run != id || math.Abs(rf.Fraction-1) > 0.001 || rf.Search == nil {
			return "", false
		}
		last = rf
	}
	if last == nil {
		return "", false
	}
	low := math.Inf(1)
	for _, st := range last.Search.Steps {
		if !st.Sustained && st.TargetRPS > last.CapacityRPS && st.TargetRPS < low {
			low = st.TargetRPS
		}
	}
	if math.IsInf(low, 1) {
		return "no step", true
	}
	return metric.Thousands(low) + " req/s", true
}

// FlagAtOneRate is not a trial's flag but a claim's: a req/s ratio of two
// runs that both kept up with one and the same open-loop rate in every
// round (FlagRateCapped on both sides, every round). Each figure is then
// that rate, a floor of what its server carries, but their ratio is what
// the published load model prints: wrk2 -R reports the rate for a row that
// kept up (heysphere's c=10 and c=100 rows both read 12.9k), so a claim
// that compares req/s across such rows (more connections, the same req/s)
// is graded on the ratio as measured, unbiased; one side falling behind in
// any round leaves both floors as they are.
const FlagAtOneRate = "both kept up with one rate"

// atOneRate takes FlagRateCapped off ba and bb, and returns the
// FlagAtOneRate break in their place, when runs a and b kept up with the
// same rate in every round (see FlagAtOneRate); ok is false, and ba and bb
// unchanged, otherwise.
func atOneRate(a, b string, ba, bb []Break, trials map[string][]*result.Trial) (oa, ob []Break, one Break, ok bool) {
	capped := func(x Break) bool { return x.Flag == FlagRateCapped && x.Rounds == x.Of && x.Of > 0 }
	ia, ib := slices.IndexFunc(ba, capped), slices.IndexFunc(bb, capped)
	if ia < 0 || ib < 0 {
		return ba, bb, Break{}, false
	}
	rate := 0.0
	for _, t := range slices.Concat(trials[a], trials[b]) {
		if t.Status != result.StatusOK || t.Load == nil {
			continue
		}
		if rate == 0 {
			rate = t.Load.TargetRPS
		}
		if rate <= 0 || math.Abs(t.Load.TargetRPS/rate-1) > 0.001 {
			return ba, bb, Break{}, false // a rate per round, or none
		}
	}
	one = Break{Run: a + " and " + b, Flag: FlagAtOneRate, Rounds: ba[ia].Rounds, Of: ba[ia].Of, AsPublished: true,
		Detail: fmt.Sprintf("%s req/s: each figure is the rate, as wrk2 -R prints a row that kept up, and their ratio is the published model's; what either carries above the rate is not measured", metric.Thousands(rate))}
	return slices.Delete(slices.Clone(ba), ia, ia+1), slices.Delete(slices.Clone(bb), ib, ib+1), one, true
}

// FlagCutAtCap is not a trial's flag but a claim's on req/s: a load of a
// request count (ab -n) whose window closed at its duration cap with
// requests unfinished. Its req/s is what finished over the cap, a ceiling
// of what the run would read had it waited for its last request (ab's
// figure, the published load's): the unfinished ones waited on a
// retransmitted SYN while the server idled, and would have added time,
// not responses.
const FlagCutAtCap = "cut at the cap"

// cutAtCap is the FlagCutAtCap break of a req/s claim resting on run id,
// when any of its trials closed at the cap short of its request count
// (joshuous' single Node process: 49,664 of 50,000 by 7.5 s in every round
// of a standard bench on a 2-vCPU AMD VM, the rest in SYN retries).
func cutAtCap(id, key string, trials []*result.Trial) (Break, bool) {
	if metric.ClassOf(key) != metric.Throughput {
		return Break{}, false
	}
	n, of, last := countTrials(trials, func(t *result.Trial) bool {
		l, s := t.Load, t.Load.Settings
		return s.MaxRequests > 0 && s.DurationS > 0 && l.Responses < s.MaxRequests && l.DurationS >= 0.999*s.DurationS
	})
	if n == 0 {
		return Break{}, false
	}
	return Break{Run: id, Flag: FlagCutAtCap, Rounds: n, Of: of, Bias: Ceiling,
		Detail: fmt.Sprintf("%s of %s requests answered when the %s cap closed the window: its req/s is a ceiling of the run to its last request; raise the cap (duration) past the slowest request",
			metric.Thousands(float64(last.Responses)), metric.Thousands(float64(last.Settings.MaxRequests)), seconds(last.DurationS))}, true
}

// countTrials counts the successful trials with a load (of) and those of
// them that is true of (n), and returns the last of those.
func countTrials(trials []*result.Trial, is func(*result.Trial) bool) (n, of int, last *result.Load) {
	for _, t := range trials {
		if t.Status != result.StatusOK || t.Load == nil {
			continue
		}
		of++
		if is(t) {
			n, last = n+1, t.Load
		}
	}
	return n, of, last
}

// windowFlags are the flags the window rule (windowEnvelope) models: each
// is the published condition or the window's own limit, a floor that a
// longer window raises. Any other flag (a stalled connection) is not about
// the window: with a known bias it opens the envelope on its side, with an
// unknown one (an overflowed accept queue) it leaves the claim to the
// bounds.
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

// windowEnvelope grades a ratio of mean latencies A/B whose two cells ran in an
// experiment published saturated (result.PublishedLoad.Saturated) and fell
// behind their rate: each figure is a floor of what the published window
// shows, since the backlog grows for as long as the window lasts, and a
// ratio of two floors is neither. Under a backlog that grows at a steady
// rate, a cell's latency over a window of T seconds is α + β·T (α the
// service time and the backlog the window opened with, β half the lag
// growth, lagGrowth), so the ratio (α_A + β_A·T)/(α_B + β_B·T) moves
// monotonically with T, from the measured ratio to its value over the
// published window (each mean extrapolated by its own growth; without a
// published window, towards β_A/β_B). Each round's ratio over the
// published window then lies between the two (the measured end guards
// the extrapolation); a product of such ratios (a trend of ratios:
// factors) between the products of their ends.
// The interval of the median lies between the intervals of the rounds'
// smaller and larger ends. A claim holds where that envelope lies in its
// region, does not hold where it lies outside, and is not comparable where
// it straddles. It applies only when every cell measured windows of one
// length in every round and every flag they carry is in windowFlags; it
// reports whether it graded v.
func windowEnvelope(v *Verdict, decomps [][][2]string, runs map[string]result.RunInfo, trials map[string][]*result.Trial, lo, hi float64) bool {
	if v.Metric != "latency_mean_ms" || !v.gradable() || len(v.Breaks) == 0 || len(decomps) == 0 {
		return false
	}
	factors := decomps[0]
	for _, f := range factors {
		for _, id := range f {
			if p := runs[id].PublishedLoad; p == nil || !p.Saturated {
				return false
			}
		}
	}
	// A flag the window model does not cover, but whose bias is known (a
	// stalled connection's missing latency: a floor), leaves the envelope
	// open on the side it pushes the ratio to.
	floor, other := false, map[string]Bias{}
	for _, br := range v.Breaks {
		switch {
		case br.Bias == Unknown:
			return false
		case slices.Contains(windowFlags, br.Flag):
			if br.Bias == Ceiling {
				return false
			}
			floor = floor || br.Bias == Floor
		default:
			other[br.Run] = combine(other[br.Run], br.Bias)
			if other[br.Run] == Unknown {
				return false
			}
		}
	}
	if !floor {
		return false
	}
	type cell struct{ value, growth, window float64 }
	// A mean over a window of T s whose requests were sent with a delay
	// growing by g a second is α + g·T/2 (in s): over the published window
	// pubS it is the measured mean plus g·(pubS − T)/2.
	pubS := runs[factors[0][0]].PublishedLoad.DurationS
	at := func(c cell, pubS float64) float64 { return c.value + 1000*c.growth*max(pubS-c.window, 0)/2 }
	cells := map[string]map[int]cell{}
	read := func(id string) map[int]cell {
		if c, ok := cells[id]; ok {
			return c
		}
		out := map[int]cell{}
		for _, t := range trials[id] {
			if t.Status != result.StatusOK || t.Load == nil {
				continue
			}
			hist, probe := metric.Histograms(t)
			if x, ok := metric.Value(t, hist, probe, v.Metric); ok {
				out[RoundOf(t)] = cell{x, lagGrowth(t), t.Load.DurationS}
			}
		}
		cells[id] = out
		return out
	}
	var rs []int // the rounds every cell measured
	for r := range read(factors[0][0]) {
		all := true
		for _, f := range factors {
			for _, id := range f {
				if c, ok := read(id)[r]; !ok || c.value == 0 {
					all = false
				}
			}
		}
		if all {
			rs = append(rs, r)
		}
	}
	if len(rs) != v.Pairs {
		return false
	}
	slices.Sort(rs)
	lows, highs := make([]float64, len(rs)), make([]float64, len(rs))
	growth := map[string][]float64{}
	var order []string
	for k, r := range rs {
		window := read(factors[0][0])[r].window
		// Each decomposition of the claim's ratio into ratios of two
		// cells gives an envelope that holds; the round's is their
		// intersection.
		lows[k], highs[k] = 0, math.Inf(1)
		for d, fs := range decomps {
			dl, dh := 1.0, 1.0
			for _, f := range fs {
				x, y := read(f[0])[r], read(f[1])[r]
				for _, c := range []cell{x, y} {
					if math.IsNaN(c.growth) || math.Abs(c.window-window) > 0.01*window {
						return false
					}
				}
				m, g := x.value/y.value, m0(x.growth, y.growth)
				switch {
				case pubS > 0:
					g = at(x, pubS) / at(y, pubS)
				case math.IsNaN(g):
					g = m // neither fell behind: the ratio does not move with the window
				}
				l, h := math.Min(m, g), math.Max(m, g)
				if other[f[0]] == Floor || other[f[1]] == Ceiling {
					h = math.Inf(1)
				}
				if other[f[0]] == Ceiling || other[f[1]] == Floor {
					l = 0
				}
				dl, dh = dl*l, dh*h
				for i, id := range f {
					if d > 0 {
						continue
					}
					if _, ok := growth[id]; !ok {
						order = append(order, id)
					}
					growth[id] = append(growth[id], []cell{x, y}[i].growth)
				}
			}
			lows[k], highs[k] = math.Max(lows[k], dl), math.Min(highs[k], dh)
		}
	}
	conf := PerLook(Confidence, v.Looks)
	envLo, envHi := MedianInterval(lows, conf).Lo, MedianInterval(highs, conf).Hi
	pub := "the published window"
	if w := runs[factors[0][0]].PublishedLoad.DurationS; w > 0 {
		pub = "the published " + seconds(w)
	}
	var flags, gs []string
	for _, br := range v.Breaks {
		flags = append(flags, br.String())
	}
	for _, id := range order {
		gs = append(gs, fmt.Sprintf("%s %.3g", id, result.Median(growth[id])))
	}
	model := "towards the ratio of the backlogs' growth"
	if pubS > 0 {
		model = fmt.Sprintf("to where each mean is after %s more of that growth (mean + growth × (%s − window) / 2)", seconds(pubS-windowS(trials, factors[0][0])), seconds(pubS))
	}
	why := fmt.Sprintf("%s; each latency is a floor of what %s shows, but under a backlog growing at a steady rate (1 − achieved/rate, a second, medians: %s) the ratio moves, as the window lengthens, from the measured one %s, so over %s it lies in %s–%s",
		strings.Join(flags, "; "), pub, strings.Join(gs, ", "), model, pub, metric.Ratio(envLo), xInf(envHi))
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

// windowS is the window of run id's first successful trial, in s.
func windowS(trials map[string][]*result.Trial, id string) float64 {
	for _, t := range trials[id] {
		if t.Status == result.StatusOK && t.Load != nil {
			return t.Load.DurationS
		}
	}
	return 0
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
	return metric.Ratio(v)
}
