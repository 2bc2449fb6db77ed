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
		if v.Kind == result.KindAA && v.Pairs > 0 && v.Lo > 0 {
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
		v.Outcome, v.Bound = Inconclusive, ""
		v.Why = fmt.Sprintf("the claim's band %s–%s is narrower than this suite's A/A noise floor %s–%s (%s against itself), so the trials cannot tell it from noise; it read %s",
			metric.Ratio(lo), metric.Ratio(hi), metric.Ratio(floor.Lo), metric.Ratio(floor.Hi), floor.A, metric.Ratio(v.Estimate))
	}
}
