package verdict

import (
	"fmt"
	"math"
	"strings"

	"restbench/internal/metric"
	"restbench/internal/result"
)

// NoiseFloor is a suite's A/A noise floor: the interval of the paired ratio
// of one run to its own twin (an experiment's aa: arm, measured twice in
// every round, each time against a fresh server). Two servers that are the
// same read anywhere inside it, so a claim whose whole band is narrower
// cannot be told from noise. ok is false when no A/A arm among vs was
// measured.
func NoiseFloor(vs []*Verdict) (floor *Verdict, ok bool) {
	for _, v := range vs {
		// An arm whose runs cannot carry their figure (not comparable: a
		// window its cap closed) measures that, not the noise.
		if v.Kind == result.KindAA && v.Pairs > 0 && v.Lo > 0 && v.Outcome != NotComparable {
			return v, true
		}
	}
	return nil, false
}

// WithinNoise turns every decided ratio claim among vs that the suite's A/A
// noise floor (NoiseFloor) could have decided the other way inconclusive,
// and says so. Two runs that are the same read apart by as much as the
// floor's farther end, f = max(fHi, 1 ÷ fLo) (which run is the twin is
// arbitrary, so either way), so no ratio of two runs of the suite is known
// closer than that: a claim's interval Lo–Hi around its estimate E is
// taken as at least E ÷ f to E × f. A claim holds beyond the noise where
// that interval lies inside its band and does not hold where it lies
// outside; in between, the trials cannot tell on which side of the band's
// edge the ratio is. Why: a ratio near an edge (fastify's "over 34 %" at
// 1.3–1.4×) otherwise read holds on one machine and does not hold on the
// next, where nothing but the noise moved (issue 24). The interval is
// widened to the floor, not by it: the floor and the claim's interval are
// both the rounds' noise, and counting it twice would leave decided only
// what lies twice the noise from an edge.
//
// A band narrower than the floor ("a tie of ±5 %" against cells that differ
// from themselves by 0.8–1.4×) has no inside left: a claim that holds there
// never keeps its verdict, one that does not hold keeps it only beyond the
// noise ("Node alone is about as fast as under PM2", a ±5 % tie, read
// 1.24–1.49× against an A/A floor of 0.826–1.04×: at least 1.24×, since
// 1.37 ÷ 1.21 = 1.13). One run's own figure and a trend's fitted change are
// no ratio of two runs, and a claim in another metric than the floor's (a
// CPU or memory claim beside a req/s floor) has a noise the floor did not
// measure: none of them is touched.
func WithinNoise(vs []*Verdict) {
	floor, ok := NoiseFloor(vs)
	if !ok {
		return
	}
	f := max(floor.Hi, 1/floor.Lo, 1)
	for _, v := range vs {
		if v.Kind == result.KindAA || v.B == "" || len(v.Conclusion.Points) > 0 || v.Metric != floor.Metric || v.Outcome != Holds && v.Outcome != DoesNotHold {
			continue
		}
		lo, hi := region(v.Conclusion)
		narrow := hi/lo < f*f // lo 0: never narrow
		nLo, nHi := min(v.Lo, v.Estimate/f), max(v.Hi, v.Estimate*f)
		switch {
		case v.Outcome == Holds && nLo >= lo && nHi <= hi:
			continue
		case v.Outcome == DoesNotHold && (nHi < lo || nLo > hi):
			if narrow {
				v.Why = joinWhy(v.Why, fmt.Sprintf("beyond the noise: the claim's band %s–%s is narrower than this suite's A/A noise floor %s–%s (%s against itself), but the interval, widened to the floor, %s–%s, lies outside it",
					metric.Ratio(lo), metric.Ratio(hi), metric.Ratio(floor.Lo), metric.Ratio(floor.Hi), floor.A, metric.Ratio(nLo), metric.Ratio(nHi)))
			}
			continue
		}
		was := v.Outcome
		v.Outcome, v.Bound, v.BeforeNoise = Inconclusive, "", was
		if narrow {
			v.Why = fmt.Sprintf("the claim's band %s–%s is narrower than this suite's A/A noise floor %s–%s (%s against itself), so the trials cannot tell it from noise; it read %s",
				metric.Ratio(lo), metric.Ratio(hi), metric.Ratio(floor.Lo), metric.Ratio(floor.Hi), floor.A, metric.Ratio(v.Estimate))
			continue
		}
		v.Why = fmt.Sprintf("within the noise of the claim's edge: it read %s (%s–%s), which %s, but two identical runs read %s–%s here (%s against itself), so a ratio read as %s may be anywhere in %s–%s, on either side of %s",
			metric.Ratio(v.Estimate), metric.Ratio(v.Lo), metric.Ratio(v.Hi), map[string]string{Holds: "holds", DoesNotHold: "does not hold"}[was],
			metric.Ratio(floor.Lo), metric.Ratio(floor.Hi), floor.A, metric.Ratio(v.Estimate), metric.Ratio(nLo), metric.Ratio(nHi), crossed(lo, hi, nLo, nHi))
	}
}

// crossed names the edges of the band lo–hi that lie in a–b: "1.34×",
// "0.9× and 1.1×".
func crossed(lo, hi, a, b float64) string {
	var edges, in []string
	for _, e := range []float64{lo, hi} {
		if e <= 0 || math.IsInf(e, 1) {
			continue // an open side has no edge
		}
		edges = append(edges, metric.Ratio(e))
		if a <= e && e <= b {
			in = append(in, metric.Ratio(e))
		}
	}
	if len(in) == 0 { // rounding at an edge: name the band's
		in = edges
	}
	return strings.Join(in, " and ")
}
