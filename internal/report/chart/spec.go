// Package chart specifies each chart of a report once (Spec), for both
// renderers, and draws the specs and the forest plot as PNG and SVG files.
package chart

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/HdrHistogram/hdrhistogram-go"

	"restbench/internal/report/model"
	"restbench/internal/result"
)

// The report decides what each chart shows once, as a chart spec, and two
// renderers draw the specs: gonum/plot for the PNG and SVG files that
// report.md embeds (charts.go), go-echarts for report.html (html.go).
// Neither renderer reads results, so the two cannot show different data.

// Scale is how an axis maps its values.
type Scale int

const (
	LinearScale Scale = iota
	LogScale
	// PercentileScale is a log axis of x = 1/(1-p), the HdrHistogram way:
	// 90%, 99%, 99.9% are evenly spaced, so the tail is as visible as the
	// median. Points on it carry x, not p; its ticks are labelled in percent.
	PercentileScale
)

// Axis is one axis of a chart.
type Axis struct {
	Label string
	Scale Scale
	// Ticks are the labelled values when the data decide them (a parameter
	// sweep, the percentiles); nil lets the renderer choose.
	Ticks []Tick
	// Categories makes a category axis: point X = i sits at Categories[i].
	Categories []string
	// Max fixes the top of the axis (100 for a busy %); 0 fits the data.
	// Value axes start at zero: every figure here is a magnitude.
	Max float64
}

// Tick is a labelled value on an axis.
type Tick struct {
	Value float64
	Label string
}

// Point is one value, with the range it spanned over the trials when its
// series is Ranged (drawn as a min–max error bar).
type Point struct {
	X, Y   float64
	Lo, Hi float64
}

// Series is one named line or set of bars.
type Series struct {
	Name   string
	Points []Point
	Ranged bool
	// Published marks the figures of the source, drawn apart from ours
	// (grey bars, dashed lines).
	Published bool
	// Color indexes the palette both renderers share; Dash > 0 picks a
	// dash pattern, for the eighth series on, whose colour repeats.
	Color, Dash int
	// Width is the line width in points; 0 is the default.
	Width float64
}

// Spec is one chart: what the report shows, not how a library draws it.
type Spec struct {
	// Name is the chart's part of its file name: "rps", "percentiles"...
	Name, Title string
	// Bars draws the series as grouped bars over X's categories.
	Bars   bool
	X, Y   Axis
	Series []Series
}

// Specs are the specs of every chart of a report, per experiment and per
// run, in the order the report shows them.
type Specs struct {
	Exp map[*model.ExperimentReport][]Spec
	Run map[*model.RunReport][]Spec
}

// Build makes the specs of every chart of the suites.
func Build(suites []*model.SuiteReport) Specs {
	cs := Specs{Exp: map[*model.ExperimentReport][]Spec{}, Run: map[*model.RunReport][]Spec{}}
	for _, s := range suites {
		for _, e := range s.Experiments {
			cs.Exp[e] = experimentCharts(e)
			for _, r := range e.Runs {
				cs.Run[r] = runCharts(r)
			}
		}
	}
	return cs
}

// experimentCharts are the charts that compare the runs of an experiment;
// a chart with nothing to draw is left out.
func experimentCharts(e *model.ExperimentReport) []Spec {
	title := model.FirstNonEmpty(e.Experiment.Title, e.Experiment.Name)
	var out []Spec
	add := func(c Spec) {
		if len(c.Series) > 0 {
			out = append(out, c)
		}
	}
	add(rpsBars(e, title))
	add(percentileCurves(e, title))
	if e.Param != "" {
		add(versusParam(e, title, "rps", "rps", "req/s"))
		add(versusParam(e, title, "p99", "p99_ms", "p99 latency (ms)"))
	}
	add(overTime(e, "cpu", title+": server CPU", "CPU (% of one core)", func(s result.Sample) float64 { return s.ServerCPU }))
	add(overTime(e, "rss", title+": server memory", "RSS (MiB)", func(s result.Sample) float64 { return float64(s.ServerRSS) / model.MiB }))
	add(RuntimeChart(e, title))
	return out
}

// rpsBars sets measured req/s (median, with the trials' min–max) beside
// the published figure for each run.
func rpsBars(e *model.ExperimentReport, title string) Spec {
	c := Spec{Name: "rps", Title: title + ": throughput", Bars: true, Y: Axis{Label: "req/s"}}
	if len(e.Runs) == 0 {
		return c
	}
	measured := Series{Name: "measured (median, min–max)", Ranged: true, Color: 2} // blue
	published := Series{Name: "published", Published: true}
	for i, r := range e.Runs {
		c.X.Categories = append(c.X.Categories, r.Label())
		s := r.Measured["rps"]
		p := Point{X: float64(i), Y: s.Median, Lo: s.Median, Hi: s.Median}
		if s.N > 0 {
			p.Lo, p.Hi = s.Min, s.Max
		}
		measured.Points = append(measured.Points, p)
		if v, ok := r.Info.Published["rps"]; ok {
			published.Points = append(published.Points, Point{X: float64(i), Y: v})
		}
	}
	c.Series = append(c.Series, measured)
	if len(published.Points) > 0 {
		c.Series = append(c.Series, published)
	}
	return c
}

// percentileCurves is latency by percentile, one line per run, the trials
// of a run merged.
func percentileCurves(e *model.ExperimentReport, title string) Spec {
	c := Spec{Name: "percentiles", Title: title + ": latency by percentile",
		X: Axis{Label: "percentile", Scale: PercentileScale, Ticks: PercentileTicks()}, Y: Axis{Label: "latency (ms)"}}
	for i, r := range e.Runs {
		h := mergedHist(r)
		if h == nil {
			continue
		}
		s := LineStyle(r.Label(), i)
		s.Points, s.Width = percentilePoints(h), 1.5
		c.Series = append(c.Series, s)
	}
	return c
}

func mergedHist(r *model.RunReport) *hdrhistogram.Histogram {
	var h *hdrhistogram.Histogram
	for _, m := range r.OK {
		if m.Hist == nil {
			continue
		}
		if h == nil {
			h = result.NewHistogram()
		}
		h.Merge(m.Hist)
	}
	if h == nil || h.TotalCount() == 0 {
		return nil
	}
	return h
}

// percentilePoints samples a histogram at 20 points per "nine", up to the
// percentile its count can resolve: x = 1/(1-p).
func percentilePoints(h *hdrhistogram.Histogram) []Point {
	var pts []Point
	maxX := float64(h.TotalCount())
	for k := 0.0; ; k += 0.05 {
		x := math.Pow(10, k)
		if x > maxX {
			break
		}
		q := 100 * (1 - 1/x)
		pts = append(pts, Point{X: x, Y: float64(h.ValueAtQuantile(q)) / 1000})
	}
	return append(pts, Point{X: math.Max(maxX, 1), Y: float64(h.Max()) / 1000})
}

// PercentileTicks label the 1/(1-p) axis in percent: 1 is 0%, 2 is 50%, 10
// is 90%, 100 is 99%... with no digit beyond the last nine.
func PercentileTicks() []Tick {
	ticks := []Tick{{1, "0%"}, {2, "50%"}}
	for k := 1; k <= 6; k++ {
		x := math.Pow(10, float64(k))
		ticks = append(ticks, Tick{x, strconv.FormatFloat(100-100/x, 'f', max(0, k-2), 64) + "%"})
	}
	return ticks
}

// versusParam is a figure against the experiment's matrix parameter: one
// line per implementation, its published figures beside it.
func versusParam(e *model.ExperimentReport, title, name, key, ylabel string) Spec {
	c := Spec{Name: name + "-vs-" + model.Slug(e.Param), Title: fmt.Sprintf("%s: %s by %s", title, ylabel, e.Param),
		X: Axis{Label: e.Param}, Y: Axis{Label: ylabel}}
	names, runs := e.Series()
	for i, name := range names {
		meas := Series{Name: name, Ranged: true, Color: i}
		pub := Series{Name: name + " (published)", Published: true, Color: i}
		for _, r := range runs[name] {
			x, _ := model.ParamNumber(r.Info.Params[e.Param])
			if s := r.Measured[key]; s.N > 0 {
				meas.Points = append(meas.Points, Point{X: x, Y: s.Median, Lo: s.Min, Hi: s.Max})
			}
			if v, ok := r.Info.Published[key]; ok {
				pub.Points = append(pub.Points, Point{X: x, Y: v})
			}
		}
		for _, s := range []Series{meas, pub} {
			if len(s.Points) > 0 {
				c.Series = append(c.Series, s)
			}
		}
	}
	if xs := paramValues(e); len(xs) > 1 && xs[0] > 0 && xs[len(xs)-1]/xs[0] >= 20 {
		// A sweep over decades (10 to 1000 connections) reads best on a log axis.
		c.X.Scale = LogScale
		for _, x := range xs {
			c.X.Ticks = append(c.X.Ticks, Tick{x, strconv.FormatFloat(x, 'g', -1, 64)})
		}
	}
	return c
}

// overTime is one monitor figure over the measured part of a trial, one
// line per run (its first monitored trial).
func overTime(e *model.ExperimentReport, name, title, ylabel string, f func(result.Sample) float64) Spec {
	c := Spec{Name: name, Title: title, X: Axis{Label: "time (s)"}, Y: Axis{Label: ylabel}}
	for i, r := range e.Runs {
		t := firstMonitored(r)
		if t == nil {
			continue
		}
		s := LineStyle(r.Label(), i)
		for _, m := range t.Monitor.Samples {
			s.Points = append(s.Points, Point{X: m.T, Y: f(m)})
		}
		c.Series = append(c.Series, s)
	}
	return c
}

// LineStyle gives series i its own look: the palette has seven colours, so
// from the eighth series on the colours repeat with a dash pattern, and no
// two runs in one chart look the same.
func LineStyle(name string, i int) Series {
	return Series{Name: name, Color: i, Dash: i / len(Palette)}
}

func firstMonitored(r *model.RunReport) *result.Trial {
	for _, m := range r.OK {
		if m.Trial.Monitor != nil && len(m.Trial.Monitor.Samples) > 1 {
			return m.Trial
		}
	}
	return nil
}

// paramValues are the distinct x of the experiment's runs, sorted, each
// where versusParam places it: a run whose parameter is no number sits at
// x = 0, which then keeps the sweep off a log axis (gonum panics on x <= 0).
func paramValues(e *model.ExperimentReport) []float64 {
	seen := map[float64]bool{}
	var xs []float64
	for _, r := range e.Runs {
		if x, _ := model.ParamNumber(r.Info.Params[e.Param]); !seen[x] {
			seen[x] = true
			xs = append(xs, x)
		}
	}
	sort.Float64s(xs)
	return xs
}
