package verdict

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"

	"restbench/internal/result"
)

// Resamples is how many bootstrap resamples an interval takes: enough that
// the 2.5th and 97.5th percentiles move by less than the digits the report
// prints.
const Resamples = 4000

// bootstrap returns the 95 % percentile interval of stat over resamples of
// n paired rounds drawn with replacement. stat receives the drawn indices.
// The generator is seeded from the conclusion, so the same trials always
// give the same interval.
func bootstrap(n int, seed uint64, stat func(idx []int) float64) (lo, hi float64) {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	idx := make([]int, n)
	stats := make([]float64, 0, Resamples)
	for range Resamples {
		for i := range idx {
			idx[i] = rng.IntN(n)
		}
		if s := stat(idx); !math.IsNaN(s) && !math.IsInf(s, 0) {
			stats = append(stats, s)
		}
	}
	if len(stats) == 0 {
		return math.NaN(), math.NaN()
	}
	slices.Sort(stats)
	return quantile(stats, 0.025), quantile(stats, 0.975)
}

// quantile of sorted values, interpolated between neighbours.
func quantile(sorted []float64, q float64) float64 {
	pos := q * float64(len(sorted)-1)
	i := int(pos)
	if i+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (pos-float64(i))*(sorted[i+1]-sorted[i])
}

// medianAt is the median of vs at the drawn indices.
func medianAt(vs []float64, idx []int) float64 {
	drawn := make([]float64, len(idx))
	for i, j := range idx {
		drawn[i] = vs[j]
	}
	return median(drawn)
}

func median(vs []float64) float64 { return result.Median(vs) }

func seedOf(c result.Conclusion) uint64 {
	h := fnv.New64a()
	h.Write([]byte(c.Text + "\x00" + c.Metric + "\x00" + c.A + "\x00" + c.B))
	return h.Sum64()
}
