package metric

import "testing"

func TestSpread(t *testing.T) {
	for _, c := range []struct {
		name string
		vs   []float64
		want Spread
	}{
		{"none", nil, Spread{}},
		{"one", []float64{5}, Spread{Median: 5, Min: 5, Max: 5, N: 1}},
		{"odd", []float64{110, 90, 100}, Spread{Median: 100, Min: 90, Max: 110, N: 3}},
		{"even: the middle two's mean", []float64{4, 1, 3, 2}, Spread{Median: 2.5, Min: 1, Max: 4, N: 4}},
	} {
		if got := SpreadOf(c.vs); got != c.want {
			t.Errorf("%s: SpreadOf(%v) = %+v, want %+v", c.name, c.vs, got, c.want)
		}
	}
}
