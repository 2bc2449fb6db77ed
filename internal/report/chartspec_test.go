package report

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/go-echarts/go-echarts/v2/charts"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
)

// drawnSeries is what a renderer put in a chart: a series' name and how
// many values it drew.
type drawnSeries struct {
	Name   string
	Points int
}

// gonumSeries reads the series back from the plotters the PNG renderer made.
func gonumSeries(t *testing.T, c ChartSpec) []drawnSeries {
	_, drawn := plotChart(c)
	var out []drawnSeries
	for _, d := range drawn {
		switch p := d.plotters[0].(type) {
		case *plotter.Line:
			out = append(out, drawnSeries{d.name, len(p.XYs)})
		case *plotter.BarChart:
			out = append(out, drawnSeries{d.name, len(p.Values)})
		default:
			t.Fatalf("%s: series %q drawn by a %T", c.Title, d.name, p)
		}
	}
	return out
}

// echartsSeries reads the series back from the ECharts chart.
func echartsSeries(t *testing.T, c ChartSpec) []drawnSeries {
	var ss []charts.SingleSeries
	switch ch := echart(c, "chart").(type) {
	case *charts.Line:
		ss = ch.MultiSeries
	case *charts.Bar:
		ss = ch.MultiSeries
	default:
		t.Fatalf("%s: drawn as a %T", c.Title, ch)
	}
	var out []drawnSeries
	for _, s := range ss {
		out = append(out, drawnSeries{s.Name, reflect.ValueOf(s.Data).Len()})
	}
	return out
}

// TestRenderersDrawOneSpec draws every chart of the fixture with both
// renderers and checks that they drew the same series, with as many values,
// as the spec holds: the PNG and the HTML page cannot show different data.
func TestRenderersDrawOneSpec(t *testing.T) {
	all, err := LoadAll(fixtureRoot)
	if err != nil {
		t.Fatal(err)
	}
	var suites []*SuiteReport
	for _, r := range all {
		suites = append(suites, Build(r))
	}
	cs := BuildCharts(suites)
	var specs []ChartSpec
	for _, s := range suites {
		for _, e := range s.Experiments {
			specs = append(specs, cs.exp[e]...)
			for _, r := range e.Runs {
				specs = append(specs, cs.run[r]...)
			}
		}
	}
	if len(specs) < 20 {
		t.Fatalf("%d chart specs from the fixture, want at least 20", len(specs))
	}
	published := map[string]bool{}
	for _, c := range specs {
		var want []drawnSeries
		for _, s := range c.Series {
			n := len(s.Points)
			if c.Bars {
				n = len(c.X.Categories) // one bar slot per category, empty where unpublished
			}
			want = append(want, drawnSeries{s.Name, n})
			if s.Published {
				published[c.Name] = true
			}
		}
		if got := gonumSeries(t, c); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: PNG renderer drew %v, spec has %v", c.Title, got, want)
		}
		if got := echartsSeries(t, c); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: HTML renderer drew %v, spec has %v", c.Title, got, want)
		}
	}
	// The by-parameter charts once lacked the published series in HTML.
	for _, name := range []string{"rps", "rps-vs-connections"} {
		if !published[name] {
			t.Errorf("no %s chart of the fixture has a published series; the fixture publishes req/s", name)
		}
	}
}

// TestPercentileTicks: the percentile axis is labelled with no digit beyond
// its last nine (99.99%, not 99.990%).
func TestPercentileTicks(t *testing.T) {
	want := []string{"0%", "50%", "90%", "99%", "99.9%", "99.99%", "99.999%", "99.9999%"}
	ticks := percentileTicks()
	for i, w := range want {
		if i >= len(ticks) || ticks[i].Label != w {
			t.Fatalf("ticks %v, want labels %v", ticks, want)
		}
		if p := 100 - 100/ticks[i].Value; math.Abs(p-mustFloat(t, w[:len(w)-1])) > 1e-9 {
			t.Errorf("tick %q sits at x=%g, which is p=%g", w, ticks[i].Value, p)
		}
	}
}

func mustFloat(t *testing.T, s string) float64 {
	var f float64
	if _, err := fmt.Sscan(s, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestLegendBesidePlot lays out charts with many runs, as the heysphere
// computation sweep has (ten), and more than one column holds (forty cores),
// and checks that no legend overlaps the plot or leaves the picture.
func TestLegendBesidePlot(t *testing.T) {
	for _, n := range []int{1, 10, 40} {
		c := ChartSpec{Name: "percentiles", Title: "many runs: latency by percentile",
			X: Axis{Label: "percentile", Scale: PercentileScale, Ticks: percentileTicks()}, Y: Axis{Label: "latency (ms)"}}
		for i := range n {
			s := lineStyle(fmt.Sprintf("node-express work=%d%%", i), i)
			for k := 0.0; k <= 4; k += 0.05 {
				x := math.Pow(10, k)
				s.Points = append(s.Points, Point{X: x, Y: float64(i+1) * 100 * (1 - 1/x)})
			}
			c.Series = append(c.Series, s)
		}
		p, drawn := plotChart(c)
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

// TestHTMLPercentileLabels runs the axis-label function the page gives
// ECharts, in Node, on the values ECharts puts ticks at on a log axis: the
// labels must be the spec's (99.99%, not 99.990%), blank between them.
func TestHTMLPercentileLabels(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH to run the page's label function")
	}
	script := "const f = " + tickFormatter(percentileTicks()) + ";\n" +
		"console.log(JSON.stringify([1, 2, 10, 100, 1000, 10000, 100000, 1000.0000000001, 3].map(f)));"
	out, err := exec.Command(node, "-e", script).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	want := `["0%","50%","90%","99%","99.9%","99.99%","99.999%","99.9%",""]`
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("labels %s, want %s", got, want)
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
	c := ChartSpec{Name: "c", Title: "c", X: Axis{Label: "x"}, Y: Axis{Label: "y"},
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
