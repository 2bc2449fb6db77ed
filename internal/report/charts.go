package report

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/HdrHistogram/hdrhistogram-go"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"restbench/internal/result"
)

// Chart size: wide enough for a dozen runs' labels, 864×432 px in PNG.
const (
	chartW = 9 * vg.Inch
	chartH = 4.5 * vg.Inch
)

var (
	measuredColor  = color.RGBA{R: 31, G: 119, B: 180, A: 255}
	publishedColor = color.RGBA{R: 190, G: 190, B: 190, A: 255}
)

// drawCharts draws every chart of the suites into dir/charts as PNG and
// SVG and says which it drew, for report.md to embed.
func drawCharts(dir string, suites []*SuiteReport) (chartSet, error) {
	set := chartSet{exp: map[*ExperimentReport][]chartRef{}, run: map[*RunReport][]chartRef{}}
	if err := os.MkdirAll(filepath.Join(dir, "charts"), 0o755); err != nil {
		return set, err
	}
	save := func(p *plot.Plot, name string) (chartRef, error) {
		ref := chartRef{Title: p.Title.Text, File: "charts/" + name}
		for _, ext := range []string{".png", ".svg"} {
			if err := p.Save(chartW, chartH, filepath.Join(dir, ref.File+ext)); err != nil {
				return ref, fmt.Errorf("draw %s: %w", ref.File+ext, err)
			}
		}
		return ref, nil
	}
	for _, s := range suites {
		for _, e := range s.Experiments {
			base := slug(s.Suite.Name) + "-" + slug(e.Experiment.Name)
			title := firstNonEmpty(e.Experiment.Title, e.Experiment.Name)
			for _, c := range experimentCharts(e, title) {
				ref, err := save(c.plot, base+"-"+c.name)
				if err != nil {
					return set, err
				}
				set.exp[e] = append(set.exp[e], ref)
			}
			for _, r := range e.Runs {
				for _, c := range runCharts(r) {
					ref, err := save(c.plot, base+"-"+slug(r.label())+"-"+c.name)
					if err != nil {
						return set, err
					}
					set.run[r] = append(set.run[r], ref)
				}
			}
		}
	}
	return set, nil
}

type namedPlot struct {
	name string
	plot *plot.Plot
}

func experimentCharts(e *ExperimentReport, title string) []namedPlot {
	var out []namedPlot
	add := func(name string, p *plot.Plot) {
		if p != nil {
			out = append(out, namedPlot{name, p})
		}
	}
	add("rps", rpsBars(e, title))
	add("percentiles", percentileCurves(e, title))
	if e.Param != "" {
		add("rps-vs-"+slug(e.Param), versusParam(e, title, "rps", "req/s"))
		add("p99-vs-"+slug(e.Param), versusParam(e, title, "p99_ms", "p99 latency (ms)"))
	}
	add("cpu", overTime(e, title+": server CPU", "CPU (% of one core)", func(s result.Sample) float64 { return s.ServerCPU }))
	add("rss", overTime(e, title+": server memory", "RSS (MiB)", func(s result.Sample) float64 { return float64(s.ServerRSS) / mib }))
	return out
}

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.Y.Tick.Marker = niceTicks{}
	p.Add(plotter.NewGrid())
	return p
}

// niceTicks labels a linear axis every 1, 2 or 5 × 10^k, about six labels:
// gonum's default can leave a tall axis with only two.
type niceTicks struct{}

func (niceTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	raw := (max - min) / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, f := range []float64{1, 2, 5, 10} {
		if f*mag >= raw {
			step = f * mag
			break
		}
	}
	var ticks []plot.Tick
	for v := math.Ceil(min/step) * step; v <= max+step*1e-9; v += step {
		v = math.Round(v/step) * step
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
		if half := v + step/2; half < max {
			ticks = append(ticks, plot.Tick{Value: half}) // minor tick
		}
	}
	return ticks
}

// rpsBars draws measured req/s (median, with the trials' min–max as an
// error bar) beside the published figure for each run.
func rpsBars(e *ExperimentReport, title string) *plot.Plot {
	n := len(e.Runs)
	if n == 0 {
		return nil
	}
	p := newPlot(title+": throughput", "", "req/s")
	measured, published := make(plotter.Values, n), make(plotter.Values, n)
	errs := make(plotter.XYs, 0, n)
	var lows, highs []float64
	labels := make([]string, n)
	anyPublished := false
	for i, r := range e.Runs {
		labels[i] = r.label()
		s := r.Measured["rps"]
		measured[i] = s.Median
		if s.N > 0 {
			errs = append(errs, plotter.XY{X: float64(i) - 0.2, Y: s.Median})
			lows, highs = append(lows, s.Median-s.Min), append(highs, s.Max-s.Median)
		}
		if v, ok := r.Info.Published["rps"]; ok {
			published[i], anyPublished = v, true
		}
	}
	// About 600 pt of plot for n categories spaced 1 apart, plus margins:
	// each bar takes a little under 0.4 of its category.
	width := vg.Points(math.Min(90, 0.36*600/(float64(n)+0.4)))
	mb, _ := plotter.NewBarChart(measured, width)
	mb.XMin, mb.Color, mb.LineStyle.Width = -0.2, measuredColor, 0
	p.Add(mb)
	p.Legend.Add("measured (median, min–max)", mb)
	if anyPublished {
		pb, _ := plotter.NewBarChart(published, width)
		pb.XMin, pb.Color, pb.LineStyle.Width = 0.2, publishedColor, 0
		p.Add(pb)
		p.Legend.Add("published", pb)
	}
	if len(errs) > 0 {
		eb, err := plotter.NewYErrorBars(errorBars{errs, lows, highs})
		if err == nil {
			p.Add(eb)
		}
	}
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.7, float64(n)-0.3
	top := 0.0
	for i := range measured {
		top = math.Max(top, math.Max(measured[i], published[i]))
	}
	for i := range highs {
		top = math.Max(top, errs[i].Y+highs[i])
	}
	p.Y.Max = top * 1.18 // room for the legend
	chars := 0
	for _, l := range labels {
		chars += len(l) + 4
	}
	if chars > 90 { // about what fits side by side at the default font
		p.X.Tick.Label.Rotation = math.Pi / 8
		p.X.Tick.Label.XAlign = draw.XRight
	}
	p.Y.Min = 0
	return p
}

// legendRoom raises the top of the Y axis so that the legend, drawn in the
// top corner, sits above the data instead of on it.
func legendRoom(p *plot.Plot, entries int) {
	p.Y.Max = p.Y.Min + (p.Y.Max-p.Y.Min)*(1.05+0.075*float64(entries))
}

type errorBars struct {
	plotter.XYs
	low, high []float64
}

func (e errorBars) YError(i int) (float64, float64) { return e.low[i], e.high[i] }

// percentileCurves draws latency by percentile with the percentile on a log
// axis of 1/(1-p), the HdrHistogram way: 90%, 99%, 99.9% are evenly spaced,
// so the tail is as visible as the median. The trials of a run are merged.
func percentileCurves(e *ExperimentReport, title string) *plot.Plot {
	p := newPlot(title+": latency by percentile", "percentile", "latency (ms)")
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = nineTicks{}
	p.Legend.Left = true
	drawn := 0
	for i, r := range e.Runs {
		h := mergedHist(r)
		if h == nil {
			continue
		}
		l, err := plotter.NewLine(percentileXYs(h))
		if err != nil {
			continue
		}
		seriesStyle(l, i)
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(r.label(), l)
		drawn++
	}
	if drawn == 0 {
		return nil
	}
	p.Y.Min = 0
	legendRoom(p, drawn)
	return p
}

func mergedHist(r *RunReport) *hdrhistogram.Histogram {
	var h *hdrhistogram.Histogram
	for _, m := range r.OK {
		if m.hist == nil {
			continue
		}
		if h == nil {
			h = result.NewHistogram()
		}
		h.Merge(m.hist)
	}
	if h == nil || h.TotalCount() == 0 {
		return nil
	}
	return h
}

// percentileXYs samples a histogram at 20 points per "nine", up to the
// percentile its count can resolve: x = 1/(1-p).
func percentileXYs(h *hdrhistogram.Histogram) plotter.XYs {
	var xys plotter.XYs
	maxX := float64(h.TotalCount())
	for k := 0.0; ; k += 0.05 {
		x := math.Pow(10, k)
		if x > maxX {
			break
		}
		q := 100 * (1 - 1/x)
		xys = append(xys, plotter.XY{X: x, Y: float64(h.ValueAtQuantile(q)) / 1000})
	}
	xys = append(xys, plotter.XY{X: math.Max(maxX, 1), Y: float64(h.Max()) / 1000})
	return xys
}

// nineTicks labels the 1/(1-p) axis in percentiles: 1 is 0%, 10 is 90%...
type nineTicks struct{}

func (nineTicks) Ticks(min, max float64) []plot.Tick {
	ticks := []plot.Tick{{Value: 1, Label: "0%"}, {Value: 2, Label: "50%"}}
	labels := []string{"90%", "99%", "99.9%", "99.99%", "99.999%", "99.9999%"}
	for i, l := range labels {
		ticks = append(ticks, plot.Tick{Value: math.Pow(10, float64(i+1)), Label: l})
	}
	var in []plot.Tick
	for _, t := range ticks {
		if t.Value >= min && t.Value <= max*1.0001 {
			in = append(in, t)
		}
	}
	return in
}

// versusParam draws a figure against the experiment's matrix parameter, one
// line per implementation, with the published figures dashed.
func versusParam(e *ExperimentReport, title, key, ylabel string) *plot.Plot {
	p := newPlot(fmt.Sprintf("%s: %s by %s", title, ylabel, e.Param), e.Param, ylabel)
	names, runs := e.series()
	drawn := 0
	for i, name := range names {
		var meas, pub plotter.XYs
		for _, r := range runs[name] {
			x, _ := paramNumber(r.Info.Params[e.Param])
			if s := r.Measured[key]; s.N > 0 {
				meas = append(meas, plotter.XY{X: x, Y: s.Median})
			}
			if v, ok := r.Info.Published[key]; ok {
				pub = append(pub, plotter.XY{X: x, Y: v})
			}
		}
		if len(meas) > 0 {
			l, s, err := plotter.NewLinePoints(meas)
			if err == nil {
				l.Color, s.Color = plotutil.Color(i), plotutil.Color(i)
				p.Add(l, s)
				p.Legend.Add(name, l, s)
				drawn++
			}
		}
		if len(pub) > 0 {
			l, err := plotter.NewLine(pub)
			if err == nil {
				l.Color, l.Dashes = plotutil.Color(i), []vg.Length{vg.Points(4), vg.Points(3)}
				p.Add(l)
				p.Legend.Add(name+" (published)", l)
				drawn++
			}
		}
	}
	if drawn == 0 {
		return nil
	}
	p.Y.Min = 0
	legendRoom(p, drawn)
	if xs := paramValues(e); len(xs) > 1 && xs[0] > 0 && xs[len(xs)-1]/xs[0] >= 20 {
		// A sweep over decades (10 to 1000 connections) reads best on a log axis.
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.ConstantTicks(paramTicks(xs))
	}
	return p
}

// overTime draws one monitor figure over the measured part of a trial, one
// line per run (its first successful trial).
func overTime(e *ExperimentReport, title, ylabel string, f func(result.Sample) float64) *plot.Plot {
	p := newPlot(title, "time (s)", ylabel)
	drawn := 0
	for i, r := range e.Runs {
		t := firstMonitored(r)
		if t == nil {
			continue
		}
		xys := make(plotter.XYs, len(t.Monitor.Samples))
		for j, s := range t.Monitor.Samples {
			xys[j] = plotter.XY{X: s.T, Y: f(s)}
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			continue
		}
		seriesStyle(l, i)
		p.Add(l)
		p.Legend.Add(r.label(), l)
		drawn++
	}
	if drawn == 0 {
		return nil
	}
	p.Y.Min = 0
	legendRoom(p, drawn)
	return p
}

func firstMonitored(r *RunReport) *result.Trial {
	for _, m := range r.OK {
		if m.trial.Monitor != nil && len(m.trial.Monitor.Samples) > 1 {
			return m.trial
		}
	}
	return nil
}

// paramValues are the distinct values of the experiment's parameter, sorted.
func paramValues(e *ExperimentReport) []float64 {
	seen := map[float64]bool{}
	var xs []float64
	for _, r := range e.Runs {
		if x, ok := paramNumber(r.Info.Params[e.Param]); ok && !seen[x] {
			seen[x] = true
			xs = append(xs, x)
		}
	}
	sort.Float64s(xs)
	return xs
}

func paramTicks(xs []float64) []plot.Tick {
	ticks := make([]plot.Tick, len(xs))
	for i, x := range xs {
		ticks[i] = plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'g', -1, 64)}
	}
	return ticks
}

// seriesStyle gives line i its own look: plotutil's palette has seven
// colours, so from the eighth series on the colours repeat with a dash
// pattern, and no two runs in one chart look the same.
func seriesStyle(l *plotter.Line, i int) {
	l.Color = plotutil.Color(i)
	l.Dashes = plotutil.Dashes(i / len(plotutil.DefaultColors))
}
