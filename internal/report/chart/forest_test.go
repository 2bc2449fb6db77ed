package chart

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"restbench/internal/report/model"
	"restbench/internal/report/summary"
)

// TestForestSVG: every row is a link to its claim, a claim that is not a
// verdict is drawn dashed, the axis has its 1× tick, and no coordinate is
// not a number (an open region runs to the plot's edge).
func TestForestSVG(t *testing.T) {
	inf := math.Inf(1)
	rows := []summary.ForestRow{
		{ID: "v-s-x-1", Suite: "s", Label: "holds", State: model.Holds, Est: 1.3, Lo: 1.2, Hi: 1.4, Pub: 1.77, RegionLo: 1, RegionHi: inf, Verdict: true},
		{ID: "v-s-x-2", Suite: "s", Label: "flagged", State: model.NotComparable, Est: 0.9, Lo: 0.8, Hi: 1.1, Pub: 1.77, RegionLo: 1.6, RegionHi: 2.5},
	}
	svg := ForestSVG(rows)
	for _, want := range []string{`<a href="#v-s-x-1">`, `<a href="#v-s-x-2">`, `stroke-dasharray="3 2"`, ">1×</text>"} {
		if !strings.Contains(svg, want) {
			t.Errorf("forest.svg lacks %q", want)
		}
	}
	if strings.Contains(svg, "NaN") || strings.Contains(svg, "Inf") {
		t.Errorf("forest.svg has a coordinate that is not a number")
	}
}

// TestForestTicks: at most nine ticks, as fine as that allows, however
// wide or narrow the ratios.
func TestForestTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   []float64
	}{
		{0.2, 1000, []float64{0.3, 1, 3, 10, 30, 100, 300, 1000}},
		{0.01, 1e5, []float64{0.01, 0.1, 1, 10, 100, 1000, 1e4, 1e5}},
		{0.4, 30, []float64{0.5, 1, 2, 5, 10, 20}},
		{0.8, 1.6, []float64{0.8, 0.9, 1, 1.1, 1.2, 1.3, 1.5}},
	} {
		if got := forestTicks(c.lo, c.hi); !reflect.DeepEqual(got, c.want) {
			t.Errorf("ticks %g–%g = %v, want %v", c.lo, c.hi, got, c.want)
		}
	}
}
