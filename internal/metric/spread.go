package metric

import (
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
