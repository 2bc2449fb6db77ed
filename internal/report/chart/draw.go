package chart

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"restbench/internal/report/model"
	"restbench/internal/result"
)

// The plot frame is 9×4.5 in (864×432 px in PNG), wide enough for a dozen
// runs' labels; the legend widens the picture to its right.
const (
	chartW = 9 * vg.Inch
	chartH = 4.5 * vg.Inch
	// legendPad separates the legend from the plot and the picture's edge.
	legendPad = vg.Length(8)
)

// Draw draws every chart spec into dir/charts as PNG and SVG and says
// which it drew, for report.md to embed.
func Draw(dir string, suites []*model.SuiteReport, cs Specs) (Drawn, error) {
	set := Drawn{Exp: map[*model.ExperimentReport][]Ref{}, Run: map[*model.RunReport][]Ref{}}
	if err := os.MkdirAll(filepath.Join(dir, "charts"), 0o755); err != nil {
		return set, err
	}
	save := func(c Spec, name string) (Ref, error) {
		ref := Ref{Title: c.Title, File: "charts/" + name}
		for _, ext := range []string{"png", "svg"} {
			if err := saveChart(c, filepath.Join(dir, ref.File+"."+ext), ext); err != nil {
				return ref, fmt.Errorf("draw %s.%s: %w", ref.File, ext, err)
			}
		}
		return ref, nil
	}
	for _, s := range suites {
		for _, e := range s.Experiments {
			base := model.Slug(s.Suite.Name) + "-" + model.Slug(e.Experiment.Name)
			for _, c := range cs.Exp[e] {
				ref, err := save(c, base+"-"+c.Name)
				if err != nil {
					return set, err
				}
				set.Exp[e] = append(set.Exp[e], ref)
			}
			for _, r := range e.Runs {
				for _, c := range cs.Run[r] {
					ref, err := save(c, base+"-"+model.Slug(r.Label())+"-"+c.Name)
					if err != nil {
						return set, err
					}
					set.Run[r] = append(set.Run[r], ref)
				}
			}
		}
	}
	return set, nil
}

// Plotted is one series as gonum draws it: the plotters (the line or bars,
// then any error bars) and the legend's thumbnails.
type Plotted struct {
	Name     string
	Plotters []plot.Plotter
	thumbs   []plot.Thumbnailer
}

// Plot turns a spec into a gonum plot, without a legend, and the
// series it drew, for the legend beside it.
func Plot(c Spec) (*plot.Plot, []Plotted) {
	p := plot.New()
	p.Title.Text = c.Title
	p.X.Label.Text = c.X.Label
	p.Y.Label.Text = c.Y.Label
	p.Y.Tick.Marker = niceTicks{}
	p.Add(plotter.NewGrid())
	var drawn []Plotted
	if c.Bars {
		drawn = plotBars(p, c)
	} else {
		drawn = plotLines(c)
	}
	for _, d := range drawn {
		p.Add(d.Plotters...)
	}
	if c.X.Scale != LinearScale {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = specTicks(c.X.Ticks)
	}
	p.Y.Min = 0
	if c.Y.Max > 0 {
		p.Y.Max = c.Y.Max
	}
	return p, drawn
}

func plotLines(c Spec) []Plotted {
	var out []Plotted
	for _, s := range c.Series {
		xys := make(plotter.XYs, len(s.Points))
		for i, pt := range s.Points {
			xys[i] = plotter.XY{X: pt.X, Y: pt.Y}
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			continue // NaN or Inf: nothing sensible to draw
		}
		l.Color = Palette[s.Color%len(Palette)]
		l.Dashes = plotutil.Dashes(DashOf(s))
		if s.Width > 0 {
			l.Width = vg.Points(s.Width)
		}
		d := Plotted{Name: s.Name, Plotters: []plot.Plotter{l}, thumbs: []plot.Thumbnailer{l}}
		if s.Ranged {
			sc, _ := plotter.NewScatter(xys)
			sc.Color = l.Color
			d.Plotters, d.thumbs = append(d.Plotters, sc), append(d.thumbs, sc)
			d.Plotters = append(d.Plotters, rangeBars(s, 0)...)
		}
		out = append(out, d)
	}
	return out
}

// plotBars groups the series' bars over the categories: each series takes a
// slot of 0.4 of a category, centred together on it.
func plotBars(p *plot.Plot, c Spec) []Plotted {
	n, k := len(c.X.Categories), len(c.Series)
	// About 600 pt of plot for n categories spaced 1 apart, plus margins.
	width := vg.Points(math.Min(90, 0.36*600/(float64(n)+0.4)))
	var out []Plotted
	for j, s := range c.Series {
		vals := make(plotter.Values, n)
		for _, pt := range s.Points {
			vals[int(pt.X)] = pt.Y
		}
		b, err := plotter.NewBarChart(vals, width)
		if err != nil {
			continue
		}
		off := (float64(j) - float64(k-1)/2) * 0.4
		b.XMin, b.Color, b.LineStyle.Width = off, Palette[s.Color%len(Palette)], 0
		if s.Published {
			b.Color = PublishedColor
		}
		out = append(out, Plotted{Name: s.Name, Plotters: append([]plot.Plotter{b}, rangeBars(s, off)...), thumbs: []plot.Thumbnailer{b}})
	}
	p.NominalX(c.X.Categories...)
	p.X.Min, p.X.Max = -0.7, float64(n)-0.3
	chars := 0
	for _, l := range c.X.Categories {
		chars += len(l) + 4
	}
	if chars > 90 { // about what fits side by side at the default font
		p.X.Tick.Label.Rotation = math.Pi / 8
		p.X.Tick.Label.XAlign = draw.XRight
	}
	return out
}

// rangeBars are the min–max error bars of a ranged series, shifted by off.
func rangeBars(s Series, off float64) []plot.Plotter {
	if !s.Ranged {
		return nil
	}
	var eb errorBars
	for _, pt := range s.Points {
		if pt.Hi > pt.Lo {
			eb.XYs = append(eb.XYs, plotter.XY{X: pt.X + off, Y: pt.Y})
			eb.low, eb.high = append(eb.low, pt.Y-pt.Lo), append(eb.high, pt.Hi-pt.Y)
		}
	}
	if len(eb.XYs) == 0 {
		return nil
	}
	bars, err := plotter.NewYErrorBars(eb)
	if err != nil {
		return nil
	}
	return []plot.Plotter{bars}
}

type errorBars struct {
	plotter.XYs
	low, high []float64
}

func (e errorBars) YError(i int) (float64, float64) { return e.low[i], e.high[i] }

// DashOf is the dash pattern of a series' line: published figures are
// dashed, ours solid unless their colour repeats.
func DashOf(s Series) int {
	if s.Published && s.Dash == 0 {
		return 1
	}
	return s.Dash
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

// specTicks labels an axis with the spec's ticks that fall on it.
type specTicks []Tick

func (st specTicks) Ticks(min, max float64) []plot.Tick {
	var in []plot.Tick
	for _, t := range st {
		if t.Value >= min && t.Value <= max*1.0001 {
			in = append(in, plot.Tick{Value: t.Value, Label: t.Label})
		}
	}
	return in
}

// saveChart draws a spec into a PNG or SVG file (ext) with its legend to
// the right of the plot, where it covers no data however many runs there are.
func saveChart(c Spec, path, ext string) (err error) {
	// gonum panics on data it cannot draw (a log axis given x <= 0): that
	// is a bug of the spec, said as an error that names the chart, not a
	// stack trace that loses the whole report.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("chart %q cannot be drawn (a bug in restbench's chart spec: please report it): %v", c.Title, r)
		}
	}()
	p, drawn := Plot(c)
	lay := layoutChart(p, drawn)
	cv, err := draw.NewFormattedCanvas(lay.width, chartH, ext)
	if err != nil {
		return err
	}
	dc := draw.New(cv)
	// The plot fills its own background; the legend's strip needs one too.
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	p.Draw(draw.Canvas{Canvas: dc.Canvas, Rectangle: lay.plot})
	for i := range lay.legends {
		lay.legends[i].Draw(draw.Canvas{Canvas: dc.Canvas, Rectangle: lay.legendAt[i]})
	}
	// Written beside path and renamed over it, so a full disk or Ctrl-C
	// leaves the old chart or none, never half of one.
	f, err := result.CreateAtomic(path)
	if err != nil {
		return err
	}
	if _, err := cv.WriteTo(f); err != nil {
		f.Abort()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}

// chartLayout places the plot and its legend, in as many columns as the
// picture's height needs, side by side in one picture.
type chartLayout struct {
	width    vg.Length
	plot     vg.Rectangle
	legends  []plot.Legend
	legendAt []vg.Rectangle
}

func layoutChart(p *plot.Plot, drawn []Plotted) chartLayout {
	lay := chartLayout{width: chartW, plot: vg.Rectangle{Max: vg.Point{X: chartW, Y: chartH}}}
	if len(drawn) == 0 {
		return lay
	}
	// The legend starts level with the top of the plot frame, under the title.
	top := chartH - p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y - p.Title.Padding - legendPad
	probe := plot.NewLegend()
	probe.Add("x")
	first := probe.Rectangle(draw.Canvas{}).Size().Y
	probe.Add("x")
	step := probe.Rectangle(draw.Canvas{}).Size().Y - first
	rows := 1 + int(math.Max(0, math.Floor(float64((top-legendPad-first)/step))))
	x := chartW + legendPad
	for start := 0; start < len(drawn); start += rows {
		leg := plot.NewLegend()
		leg.Top, leg.Left = true, true
		for _, d := range drawn[start:min(start+rows, len(drawn))] {
			leg.Add(d.Name, d.thumbs...)
		}
		w := leg.Rectangle(draw.Canvas{}).Size().X
		lay.legends = append(lay.legends, leg)
		lay.legendAt = append(lay.legendAt, vg.Rectangle{Min: vg.Point{X: x, Y: legendPad}, Max: vg.Point{X: x + w, Y: top}})
		x += w + legendPad
	}
	lay.width = x
	return lay
}
