package verdict

import (
	"fmt"
	"math"

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

// WithinNoise turns every decided ratio claim among vs whose band is
// narrower than the suite's A/A noise floor (NoiseFloor) inconclusive, and
// says so: a tie of ±5 % (0.95–1.05×, 1.11× wide) cannot be decided on cells
// that differ from themselves by 0.8–1.4× (1.8× wide). A claim open on one
// side (a direction, "at least 5×") has no width, and one run's own figure
// or a trend's fitted change is no ratio of two runs: neither is touched.
//
// Noise hides a difference; it does not make one. So a claim that does not
// hold keeps its verdict where its interval lies outside the band widened by
// the floor, [low × floor's low, high × floor's high]: no ratio inside the
// band, moved as far as two runs that are the same ever moved, reads there
// ("Node alone is about as fast as under PM2", a ±5 % tie, read 1.24–1.49×
// against an A/A floor of 0.826–1.04×: beyond 0.785–1.09×). A claim that
// holds never keeps its verdict: inside a band narrower than the noise, a
// tie and a difference read alike.
func WithinNoise(vs []*Verdict) {
	floor, ok := NoiseFloor(vs)
	if !ok {
		return
	}
	noise := floor.Hi / floor.Lo
	for _, v := range vs {
		if v.Kind == result.KindAA || v.B == "" || len(v.Conclusion.Points) > 0 || v.Outcome != Holds && v.Outcome != DoesNotHold {
			continue
		}
		lo, hi := region(v.Conclusion)
		if lo <= 0 || math.IsInf(hi, 1) || hi/lo >= noise {
			continue
		}
		wideLo, wideHi := lo*floor.Lo, hi*floor.Hi
		if v.Outcome == DoesNotHold && (v.Lo > wideHi || v.Hi < wideLo) {
			beyond := fmt.Sprintf("beyond the noise: the claim's band %s–%s is narrower than this suite's A/A noise floor %s–%s (%s against itself), but the interval lies outside the band widened by it, %s–%s",
				metric.Ratio(lo), metric.Ratio(hi), metric.Ratio(floor.Lo), metric.Ratio(floor.Hi), floor.A, metric.Ratio(wideLo), metric.Ratio(wideHi))
			if v.Why == "" {
				v.Why = beyond
			} else {
				v.Why += "; " + beyond
			}
			continue
		}
		v.Outcome, v.Bound = Inconclusive, ""
		v.Why = fmt.Sprintf("the claim's band %s–%s is narrower than this suite's A/A noise floor %s–%s (%s against itself), so the trials cannot tell it from noise; it read %s",
			metric.Ratio(lo), metric.Ratio(hi), metric.Ratio(floor.Lo), metric.Ratio(floor.Hi), floor.A, metric.Ratio(v.Estimate))
	}
}
