package verdict

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Confidence is the coverage an interval aims for, MinCoverage the least a
// verdict accepts. Fewer rounds cannot reach them: the widest interval n
// rounds give, their min–max, covers the median with 1 − 2^(1−n): 75 % at
// 3 rounds, 87.5 % at 4, 93.75 % at 5. So a verdict needs 5 rounds.
const (
	Confidence  = 0.95
	MinCoverage = 0.90
)

// Interval is a distribution-free confidence interval of a median: the k-th
// smallest and k-th largest of n values cover the population median with
// probability 1 − 2·P(Bin(n, ½) ≤ k−1), whatever the distribution. That
// exact coverage is what the report prints: no resampling that pretends a
// min–max of three rounds is a 95 % interval.
type Interval struct {
	Lo, Hi float64
	// K is the order statistic taken from each end (1: min–max), N the
	// number of values, Coverage its exact coverage for one look.
	K, N     int
	Coverage float64
}

// MedianInterval returns the narrowest order-statistic interval of the
// median of vs whose coverage reaches conf, or the min–max with the
// coverage it has when no interval reaches conf.
func MedianInterval(vs []float64, conf float64) Interval {
	n := len(vs)
	if n == 0 {
		return Interval{Lo: math.NaN(), Hi: math.NaN()}
	}
	s := slices.Clone(vs)
	slices.Sort(s)
	k := 1
	for k+1 <= (n+1)/2 && coverage(n, k+1) >= conf {
		k++
	}
	return Interval{Lo: s[k-1], Hi: s[n-k], K: k, N: n, Coverage: coverage(n, k)}
}

// coverage of the interval from the k-th smallest to the k-th largest of n.
func coverage(n, k int) float64 {
	if n == 0 {
		return 0
	}
	if 2*k > n+1 {
		return 0
	}
	b := distuv.Binomial{N: float64(n), P: 0.5}
	return 1 - 2*b.CDF(float64(k-1))
}

// PerLook is the coverage each of looks looks must aim for so that all of
// them together still reach conf (Bonferroni).
func PerLook(conf float64, looks int) float64 {
	if looks <= 1 {
		return conf
	}
	return 1 - (1-conf)/float64(looks)
}

// Corrected is the coverage left when an interval of coverage c was looked
// at looks times, each time free to stop (Bonferroni: each look may be
// wrong with 1 − c, so all of them together at most looks × (1 − c)).
func Corrected(c float64, looks int) float64 {
	if looks <= 1 {
		return c
	}
	return max(0, 1-float64(looks)*(1-c))
}

// Describe says what an interval is in words: "min–max of 3 rounds, 75 %",
// "2nd–9th of 10 rounds, 97.9 %".
func (iv Interval) Describe(looks int) string {
	what := fmt.Sprintf("min–max of %d rounds", iv.N)
	if iv.N == 1 {
		what = "1 round"
	}
	if iv.K > 1 {
		what = fmt.Sprintf("%s–%s of %d rounds", ordinal(iv.K), ordinal(iv.N-iv.K+1), iv.N)
	}
	c := Corrected(iv.Coverage, looks)
	s := fmt.Sprintf("%s, %s", what, Percent(c))
	if looks > 1 {
		s += fmt.Sprintf(" after %d looks", looks)
	}
	return s
}

// Percent prints a coverage the way the report does: 75 %, 93.8 %.
func Percent(c float64) string {
	p := c * 100
	if math.Abs(p-math.Round(p)) < 0.05 {
		return fmt.Sprintf("%.0f %%", p)
	}
	return fmt.Sprintf("%.1f %%", p)
}

func ordinal(k int) string {
	switch {
	case k%100 >= 11 && k%100 <= 13:
		return fmt.Sprintf("%dth", k)
	case k%10 == 1:
		return fmt.Sprintf("%dst", k)
	case k%10 == 2:
		return fmt.Sprintf("%dnd", k)
	case k%10 == 3:
		return fmt.Sprintf("%drd", k)
	}
	return fmt.Sprintf("%dth", k)
}
