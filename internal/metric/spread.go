package metric

import (
	"math"
	"slices"

	"restbench/internal/result"
)

// Spread is a figure over the successful trials of a run: the median, which
// a report quotes, and the range, which tells how far to trust it.
type Spread struct {
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	N      int     `json:"n"`
}

// SpreadOf summarises vs; N == 0 when there is none.
func SpreadOf(vs []float64) Spread {
	if len(vs) == 0 {
		return Spread{}
	}
	return Spread{Median: result.Median(vs), Min: slices.Min(vs), Max: slices.Max(vs), N: len(vs)}
}

// RelSpread is the one definition of a run's spread, (max-min)/median:
// 0.04 means the trials lie within 4 % (±2 %).
func (s Spread) RelSpread() float64 {
	if s.N == 0 || s.Median == 0 {
		return 0
	}
	return (s.Max - s.Min) / math.Abs(s.Median)
}
