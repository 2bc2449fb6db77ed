// Package html renders report.html: every table and chart of a report on one
// interactive page that needs no network.
package html

import (
	_ "embed"
	"fmt"
	"html/template"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/render"

	"restbench/internal/report/chart"
	"restbench/internal/report/model"
	"restbench/internal/report/summary"
	"restbench/internal/result"
)

// echartsJS is Apache ECharts 5.6.0 (dist/echarts.min.js of the npm package,
// Apache-2.0, see assets/ECHARTS-LICENSE). go-echarts would load it from a
// CDN; the page inlines it so that it works with no network.
//
//go:embed assets/echarts.min.js
var echartsJS string

// snippet is one chart in the page: its div and the script that draws it.
type snippet struct {
	Element template.HTML
	Script  template.HTML
}

type htmlExperiment struct {
	ID, Title string
	Verdicts  []htmlVerdict
	Rounds    string
	Header    []string
	Rows      [][]string
	// The load accounting table (accounting.go); empty when no trial has it.
	Machines   []string // runs measured on another machine, and which
	AccHeader  []string
	AccRows    [][]string
	AccNote    string
	CostHeader []string
	CostRows   [][]string
	// The published rows checked by their load's model (publishedcheck.go).
	PubIntro  string
	PubHeader []string
	PubRows   [][]string
	Inside    []string // what the servers said about themselves (model.RuntimeLines)
	Charts    []snippet
}

type htmlSuite struct {
	ID, Title, Source, Dir, Env string
	Others                      []string // the other machines' folders and environments
	Experiments                 []htmlExperiment
}

func envLine(e result.Env) string {
	return fmt.Sprintf("%s, %s, %d cores, %s %s, idle states %s, Go %s, Node %s, restbench %s", model.FirstNonEmpty(e.Host, "unknown host"),
		model.FirstNonEmpty(e.CPUModel, "unknown CPU"), e.Cores, e.OS, e.Kernel, model.FirstNonEmpty(e.Idle, "not recorded"), e.Go, e.Node, e.Restbench)
}

// Write writes report.html: every suite's charts (the specs of cs),
// interactive, on one page that needs no network. The page records script errors and, once the
// charts are drawn, how many rendered, on <body> (data-errors,
// data-charts, data-rendered), which the headless-browser test reads.
func Write(w io.Writer, suites []*model.SuiteReport, cs chart.Specs) error {
	var page []htmlSuite
	n := 0
	for _, s := range suites {
		hs := htmlSuite{ID: model.Anchor(s.Suite.Name), Title: model.FirstNonEmpty(s.Suite.Title, s.Suite.Name), Source: s.Suite.Source, Dir: s.Dir, Env: envLine(s.Env)}
		for _, m := range model.SuiteMachines(s) {
			hs.Others = append(hs.Others, m.Dir+": "+envLine(m.Env))
		}
		for _, e := range s.Experiments {
			he := htmlExperiment{ID: hs.ID + "-" + model.Slug(e.Experiment.Name), Title: model.FirstNonEmpty(e.Experiment.Title, e.Experiment.Name)}
			// The page leaves out what report.md adds: a column per matrix
			// parameter, and the stdev.
			measured := model.MeasuredTable(e).Without(model.ParamColumn, "latency_stdev_ms")
			he.Header, he.Rows = measured.Titles(), measured.Rows
			he.Machines = model.MachineLines(e)
			if he.CostRows = model.CostRows(e); he.CostRows != nil {
				he.CostHeader = model.CostHeader
			}
			he.Inside = model.RuntimeLines(e)
			if he.PubRows = model.PublishedCheckRows(e); he.PubRows != nil {
				he.PubIntro, he.PubHeader = model.PublishedChecksIntro, model.PublishedChecksHeader
			}
			if he.AccRows = model.AccountingRows(e); he.AccRows != nil {
				he.AccHeader, he.AccNote = model.AccountingHeader, model.ListenNote(e)
			}
			he.Verdicts, he.Rounds = htmlVerdicts(s, e), summary.RoundsLine(e)
			for _, c := range echartsFor(cs, e, he.ID) {
				n++
				sn := c.RenderSnippet()
				he.Charts = append(he.Charts, snippet{template.HTML(sn.Element), template.HTML(sn.Script)})
			}
			hs.Experiments = append(hs.Experiments, he)
		}
		page = append(page, hs)
	}
	fs := summary.BuildScreen(suites)
	var forest template.HTML
	if len(fs.Forest) > 0 {
		forest = template.HTML(chart.ForestSVG(fs.Forest)) // built from escaped text (forest.go)
	}
	return pageTemplate.Execute(w, map[string]any{
		"Suites": page, "Count": n, "ECharts": template.JS(echartsJS),
		"First": fs, "Kinds": summary.KindTitles, "LearnedIntro": summary.LearnedIntro, "SummaryIntro": summary.VerdictsIntro,
		"Forest": forest, "ForestCaption": summary.ForestCaption(fs), "NoiseFloors": summary.NoiseFloorsText(suites),
	})
}

// Chart is what go-echarts charts offer to embed in a page.
type Chart interface {
	RenderSnippet() render.ChartSnippet
}

// echartsFor draws an experiment's chart specs, then its runs', in the
// order report.md shows them. expID is the experiment's HTML id, which the
// charts' ids are made from (chartID).
func echartsFor(cs chart.Specs, e *model.ExperimentReport, expID string) []Chart {
	var specs []chart.Spec
	specs = append(specs, cs.Exp[e]...)
	for _, r := range e.Runs {
		specs = append(specs, cs.Run[r]...)
	}
	out := make([]Chart, len(specs))
	for i, c := range specs {
		out[i] = EChart(c, chartID(expID, i+1))
	}
	return out
}

// chartID names the i-th chart of the experiment whose HTML id is expID,
// e.g. suite_mini_connections_2. go-echarts would draw a random id, so that
// two renderings of the same results differed; this one is the same every
// time. It is also a JavaScript name (the page declares goecharts_<id>):
// model.Slug leaves only a-z, 0-9 and '-', and '-' becomes '_'.
func chartID(expID string, i int) string {
	return strings.ReplaceAll(expID, "-", "_") + "_" + strconv.Itoa(i)
}

// EChart turns a chart spec into an ECharts chart whose div has the given id.
func EChart(c chart.Spec, id string) Chart {
	if c.Bars {
		return barEChart(c, id)
	}
	return lineEChart(c, id)
}

func baseOpts(c chart.Spec, id string) []charts.GlobalOpts {
	x := opts.XAxis{Name: c.X.Label, Type: "value", NameLocation: "middle", NameGap: 28}
	switch {
	case len(c.X.Categories) > 0:
		x.Type = "category"
	case c.X.Scale != chart.LinearScale:
		x.Type = "log"
	}
	if len(c.X.Ticks) > 0 {
		x.AxisLabel = &opts.AxisLabel{Formatter: opts.FuncOpts(tickFormatter(c.X.Ticks))}
	}
	y := opts.YAxis{Name: c.Y.Label, Min: 0}
	if c.Y.Max > 0 {
		y.Max = c.Y.Max
	}
	tooltip := opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}
	if c.X.Scale == chart.PercentileScale {
		tooltip = opts.Tooltip{Show: opts.Bool(true), Trigger: "item",
			Formatter: opts.FuncOpts(`function (p) { return p.seriesName + '<br>p' + +(100 - 100 / p.value[0]).toPrecision(6) + ': ' + p.value[1].toFixed(3) + ' ms'; }`)}
	}
	return []charts.GlobalOpts{
		charts.WithInitializationOpts(opts.Initialization{ChartID: id, Width: "900px", Height: "420px"}),
		charts.WithTitleOpts(opts.Title{Title: c.Title}),
		charts.WithTooltipOpts(tooltip),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "28", Type: "scroll"}),
		charts.WithXAxisOpts(x),
		charts.WithYAxisOpts(y),
	}
}

// tickFormatter labels the axis with the spec's ticks, and leaves the
// values that are not among them blank, as the PNG does. ECharts places
// log ticks at powers of ten, which every percentile tick list holds.
func tickFormatter(ticks []chart.Tick) string {
	// Single quotes: go-echarts escapes double quotes inside a function.
	quote := strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace
	var pairs []string
	for _, t := range ticks {
		pairs = append(pairs, fmt.Sprintf("'%s': '%s'", strconv.FormatFloat(t.Value, 'f', -1, 64), quote(t.Label)))
	}
	return `function (v) { var l = {` + strings.Join(pairs, ", ") + `}, k = String(+v.toPrecision(12)); return l.hasOwnProperty(k) ? l[k] : ''; }`
}

func lineEChart(c chart.Spec, id string) *charts.Line {
	ch := charts.NewLine()
	ch.SetGlobalOptions(baseOpts(c, id)...)
	for _, s := range c.Series {
		data := make([]opts.LineData, len(s.Points))
		for i, p := range s.Points {
			data[i] = opts.LineData{Value: []float64{p.X, p.Y}, Name: rangeText(s, p)}
		}
		col := hexColor(chart.Palette[s.Color%len(chart.Palette)])
		style := opts.LineStyle{Color: col, Width: float32(s.Width)}
		if chart.DashOf(s) > 0 {
			style.Type = "dashed"
		}
		ch.AddSeries(s.Name, data,
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(len(s.Points) < 30 || s.Ranged)}),
			charts.WithLineStyleOpts(style), charts.WithItemStyleOpts(opts.ItemStyle{Color: col}))
	}
	return ch
}

func barEChart(c chart.Spec, id string) *charts.Bar {
	ch := charts.NewBar()
	ch.SetGlobalOptions(baseOpts(c, id)...)
	ch.SetXAxis(c.X.Categories)
	for _, s := range c.Series {
		data := make([]opts.BarData, len(c.X.Categories))
		for _, p := range s.Points {
			data[int(p.X)] = opts.BarData{Value: math.Round(p.Y), Name: rangeText(s, p)}
		}
		col := hexColor(chart.Palette[s.Color%len(chart.Palette)])
		if s.Published {
			col = hexColor(chart.PublishedColor)
		}
		ch.AddSeries(s.Name, data, charts.WithItemStyleOpts(opts.ItemStyle{Color: col}))
	}
	return ch
}

// rangeText names a point of a ranged series by its median and min–max,
// which the tooltip shows: ECharts has no error bars of its own.
func rangeText(s chart.Series, p chart.Point) string {
	if !s.Ranged || !(p.Hi > p.Lo) {
		return ""
	}
	return fmt.Sprintf("%s (%s–%s)", model.Num(p.Y), model.Num(p.Lo), model.Num(p.Hi))
}

func hexColor(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{"stateColor": summary.StateColor}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>restbench report</title>
<script>
"use strict";
window.__errors = [];
window.addEventListener("error", function (e) { window.__errors.push(String(e.message)); });
(function () { var orig = console.error; console.error = function () { window.__errors.push(Array.prototype.join.call(arguments, " ")); orig.apply(console, arguments); }; })();
</script>
<script>{{.ECharts}}</script>
<style>
body { font-family: system-ui, sans-serif; margin: 0; display: flex; }
nav { position: sticky; top: 0; height: 100vh; overflow-y: auto; width: 260px; flex: none; background: #f4f4f4; padding: 12px; box-sizing: border-box; font-size: 14px; }
nav a { display: block; color: #1f4e79; text-decoration: none; padding: 2px 0; }
nav a.exp { padding-left: 12px; color: #444; }
main { padding: 16px 24px; flex: 1; min-width: 0; }
.item { margin: 16px 0; }
.verdicts { background: #fbf7e6; padding: 8px 24px; }
table { border-collapse: collapse; font-size: 13px; }
section section > table { display: block; max-width: 100%; overflow-x: auto; } /* a wide measured table scrolls by itself, not the page */
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
th:first-child, td:first-child, td:last-child { text-align: left; }
table.summary td { text-align: left; vertical-align: top; }
table.summary { max-width: 1100px; }
table.summary td:first-child { min-width: 220px; }
table.summary td:last-child { min-width: 240px; }
table.summary td:nth-child(2), table.summary td:nth-child(3) { min-width: 130px; }
table.summary tr.group td { background: #eef3f8; font-weight: bold; border-left: none; border-right: none; }
table.summary td.num { text-align: right; white-space: nowrap; }
.nv { color: #a33; font-size: 12px; }
.note { color: #444; font-size: 13px; max-width: 1100px; }
.learned h3 { margin: 14px 0 4px; font-size: 16px; }
.learned .title { font-weight: normal; color: #555; font-size: 14px; }
.learned ul { margin: 4px 0; }
.learned .state { font-weight: bold; }
.rest { margin: 2px 0 0 40px; color: #555; font-size: 14px; }
figure.forest { margin: 16px 0; overflow-x: auto; }
figure.forest figcaption { font-size: 13px; color: #444; max-width: 1100px; }
</style>
</head>
<body data-charts="{{.Count}}">
<nav>
<strong>restbench report</strong>
{{if .First.Rows}}<a href="#verdicts">What was learned, verdicts</a>
{{end}}{{range .Suites}}<a href="#{{.ID}}">{{.Title}}</a>
{{range .Experiments}}<a class="exp" href="#{{.ID}}">{{.Title}}</a>
{{end}}{{end}}</nav>
<main>
{{if .First.Rows}}<section id="verdicts">
{{if .First.Learned}}<h1>What was learned</h1>
<p class="note">{{.LearnedIntro}}</p>
{{range .First.Learned}}<div class="learned"><h3><a href="#{{.SuiteID}}">{{.Suite}}</a> <span class="title">{{.Title}}</span></h3>
{{if .Lines}}<ul>{{range .Lines}}<li><span class="state" style="color:{{stateColor .State}}">{{.State}}</span>: <a href="#{{.ID}}">{{.Claim}}</a>: <strong>{{.Ratio}}</strong> ({{.Interval}})</li>{{end}}</ul>{{end}}
{{if .Rest}}<p class="rest">{{.Rest}}</p>{{end}}</div>
{{end}}{{end}}<h1>Verdicts</h1>
<ul class="counts">{{range .First.Counts}}<li><strong>{{.Title}}, {{.Total}}:</strong> {{range $i, $p := .Parts}}{{if $i}}, {{end}}{{$p}}{{end}}; {{.Answers}}.</li>{{end}}</ul>
{{if .Forest}}<figure class="forest">{{.Forest}}<figcaption>{{.ForestCaption}}</figcaption></figure>{{end}}
{{if .First.Windows}}<p>Windows (how long each load ran; a short window cannot show a slow drift or a long latency):</p><ul>{{range .First.Windows}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{range $k := .Kinds}}{{$n := 0}}{{range $.First.Rows}}{{if eq .Kind $k.Kind}}{{$n = 1}}{{end}}{{end}}{{if $n}}<h2>{{$k.Title}}</h2>
<table class="summary"><tr><th>claim</th><th>published</th><th>claim's region</th><th>state</th><th>here</th><th>interval</th><th>why (the claim's line has the full reasoning)</th></tr>
{{range $.First.Rows}}{{if eq .Kind $k.Kind}}{{if .SuiteStart}}<tr class="group"><td colspan="7"><a href="#{{.SuiteID}}">{{.Suite}}</a></td></tr>
{{end}}<tr><td><a href="#{{.ID}}">{{.Claim}}</a></td><td>{{.Published}}</td><td>{{.Region}}</td><td><strong style="color:{{stateColor .State}}">{{.State}}</strong></td><td class="num">{{if .Ratio}}{{.Ratio}}{{if .NotVerdict}}<br><em class="nv">not a verdict</em>{{end}}{{else}}—{{end}}</td><td class="num">{{if .Interval}}{{.Interval}}{{else}}—{{end}}</td><td>{{.Reason}}</td></tr>
{{end}}{{end}}</table>
{{end}}{{end}}{{if .NoiseFloors}}<p>A/A noise floors (one run measured twice in every round; a ratio between two servers inside this band is noise):</p><ul>{{range .NoiseFloors}}<li>{{.}}</li>{{end}}</ul>{{end}}
<p class="note">How the claims are graded: {{.SummaryIntro}}</p>
</section>
{{end}}{{range .Suites}}<section id="{{.ID}}">
<h1>{{.Title}}</h1>
<p>{{if .Source}}Source: {{.Source}}<br>{{end}}Results: <code>{{.Dir}}</code><br>Environment: {{.Env}}{{range .Others}}<br>Runs not run here, measured on another machine: {{.}}{{end}}</p>
{{range .Experiments}}<section id="{{.ID}}">
<h2>{{.Title}}</h2>
{{if .Verdicts}}<ul class="verdicts">{{range .Verdicts}}<li id="{{.ID}}"><strong>{{.Outcome}}</strong>: {{.Text}}</li>{{end}}</ul>{{end}}
{{if .Rounds}}<p>{{.Rounds}}</p>{{end}}
<table><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{range .Machines}}<p><strong>other-machine:</strong> {{.}}</p>
{{end}}{{if .CostRows}}<p>Server CPU cost</p>
<table><tr>{{range .CostHeader}}<th>{{.}}</th>{{end}}</tr>
{{range .CostRows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{end}}{{if .PubRows}}<p>{{.PubIntro}}</p>
<table><tr>{{range .PubHeader}}<th>{{.}}</th>{{end}}</tr>
{{range .PubRows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{end}}{{if .Inside}}<p>From inside the servers:</p><ul>{{range .Inside}}<li>{{.}}</li>{{end}}</ul>
{{end}}{{if .AccRows}}<p>Load accounting</p>
<table><tr>{{range .AccHeader}}<th>{{.}}</th>{{end}}</tr>
{{range .AccRows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{if .AccNote}}<p>{{.AccNote}}</p>{{end}}
{{end}}{{range .Charts}}{{.Element}}
{{.Script}}
{{end}}</section>
{{end}}</section>
{{end}}</main>
<script>
"use strict";
window.addEventListener("load", function () {
  var items = document.querySelectorAll(".item"), rendered = 0;
  items.forEach(function (el) { if (el.querySelector("canvas")) { rendered++; } });
  document.body.setAttribute("data-rendered", String(rendered));
  document.body.setAttribute("data-errors", window.__errors.join(" | "));
});
</script>
</body>
</html>
`))
