package chart

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg/draw"
)

// TestLegendBesidePlot lays out charts with many runs, as the heysphere
// computation sweep has (ten), and more than one column holds (forty cores),
// and checks that no legend overlaps the plot or leaves the picture.
func TestLegendBesidePlot(t *testing.T) {
	for _, n := range []int{1, 10, 40} {
		c := Spec{Name: "percentiles", Title: "many runs: latency by percentile",
			X: Axis{Label: "percentile", Scale: PercentileScale, Ticks: PercentileTicks()}, Y: Axis{Label: "latency (ms)"}}
		for i := range n {
			s := LineStyle(fmt.Sprintf("node-express work=%d%%", i), i)
			for k := 0.0; k <= 4; k += 0.05 {
				x := math.Pow(10, k)
				s.Points = append(s.Points, Point{X: x, Y: float64(i+1) * 100 * (1 - 1/x)})
			}
			c.Series = append(c.Series, s)
		}
		p, drawn := Plot(c)
		lay := layoutChart(p, drawn)
		if cols := len(lay.legends); (n <= 10) != (cols == 1) {
			t.Errorf("%d runs: %d legend columns", n, cols)
		}
		for i, r := range lay.legendAt {
			if r.Min.X < lay.plot.Max.X {
				t.Errorf("%d runs: legend column %d starts at x=%v, inside the plot (ends at %v)", n, i, r.Min.X, lay.plot.Max.X)
			}
			if r.Max.X > lay.width || r.Min.Y < 0 {
				t.Errorf("%d runs: legend column %d %v leaves the %v×%v picture", n, i, r, lay.width, chartH)
			}
			if h := lay.legends[i].Rectangle(draw.Canvas{Rectangle: r}).Size().Y; h > r.Size().Y+0.01 {
				t.Errorf("%d runs: legend column %d is %v tall in a %v slot", n, i, h, r.Size().Y)
			}
		}
		path := filepath.Join(t.TempDir(), fmt.Sprintf("legend-%d.png", n))
		if err := saveChart(c, path, "png"); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSaveChartIsAtomic: a chart is written beside its path and renamed
// over it, so a write that fails leaves no half chart. The path here is a
// link to /dev/full, which fails every write in place with ENOSPC the way a
// full disk does; the chart replaces the link whole, and no temporary file
// is left beside it.
func TestSaveChartIsAtomic(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "c.png")
	if err := os.Symlink("/dev/full", path); err != nil {
		t.Fatal(err)
	}
	c := Spec{Name: "c", Title: "c", X: Axis{Label: "x"}, Y: Axis{Label: "y"},
		Series: []Series{{Name: "s", Points: []Point{{X: 1, Y: 1}, {X: 2, Y: 3}}}}}
	if err := saveChart(c, path, "png"); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(path); err != nil || !st.Mode().IsRegular() || st.Size() == 0 {
		t.Errorf("chart: %v %v, want a whole regular file", st, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("folder holds %d files, want the chart alone", len(entries))
	}
}

// TestUndrawableChartIsAnError: data gonum cannot draw (x = 0 on a log
// axis) is an error naming the chart, not a panic that ends the report.
func TestUndrawableChartIsAnError(t *testing.T) {
	c := Spec{Name: "bad", Title: "bad: req/s by c", X: Axis{Label: "c", Scale: LogScale}, Y: Axis{Label: "req/s"},
		Series: []Series{{Name: "a", Points: []Point{{X: 0, Y: 1}, {X: 100, Y: 2}}}}}
	err := saveChart(c, filepath.Join(t.TempDir(), "bad.png"), "png")
	if err == nil || !strings.Contains(err.Error(), `"bad: req/s by c"`) {
		t.Fatalf("error = %v, want one naming the chart", err)
	}
}
