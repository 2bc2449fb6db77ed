package metric

import (
	"math"
	"testing"
)

func TestSpread(t *testing.T) {
	for _, c := range []struct {
		name string
		vs   []float64
		want Spread
		rel  float64
	}{
		{"none", nil, Spread{}, 0},
		{"one", []float64{5}, Spread{Median: 5, Min: 5, Max: 5, N: 1}, 0},
		{"odd", []float64{110, 90, 100}, Spread{Median: 100, Min: 90, Max: 110, N: 3}, 0.2},
		{"even: the middle two's mean", []float64{4, 1, 3, 2}, Spread{Median: 2.5, Min: 1, Max: 4, N: 4}, 1.2},
		{"median 0", []float64{-1, 0, 1}, Spread{Median: 0, Min: -1, Max: 1, N: 3}, 0},
	} {
		got := SpreadOf(c.vs)
		if got != c.want || math.Abs(got.RelSpread()-c.rel) > 1e-12 {
			t.Errorf("%s: SpreadOf(%v) = %+v (rel %v), want %+v (rel %v)", c.name, c.vs, got, got.RelSpread(), c.want, c.rel)
		}
	}
}
