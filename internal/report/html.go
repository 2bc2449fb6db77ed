package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/render"

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
	AccHeader []string
	AccRows   [][]string
	Charts    []snippet
}

type htmlSuite struct {
	ID, Title, Source, Dir, Env string
	Experiments                 []htmlExperiment
}

var htmlHeader = []string{"run", "trials ok", "req/s", "req/s min–max", "published req/s", "mean ms", "p50 ms", "p99 ms", "max ms", "errors", "server CPU %", "RSS MiB", "flags"}

func htmlRow(r *RunReport) []string {
	m := r.Measured
	pub := "—"
	if v, ok := r.Info.Published["rps"]; ok {
		pub = num(v)
	}
	return []string{r.label(), r.trialsCell(), med(m["rps"]), rng(m["rps"]), pub, med(m["latency_mean_ms"]), med(m["p50_ms"]),
		med(m["p99_ms"]), med(m["latency_max_ms"]), med(m["errors"]), med(m["cpu_pct"]), med(m["rss_mb"]), strings.ReplaceAll(flagsCell(r), "\\|", "|")}
}

func envLine(e result.Env) string {
	return fmt.Sprintf("%s, %s, %d cores, %s %s, Go %s, Node %s, restbench %s", firstNonEmpty(e.Host, "unknown host"),
		firstNonEmpty(e.CPUModel, "unknown CPU"), e.Cores, e.OS, e.Kernel, e.Go, e.Node, e.Restbench)
}

// WriteHTML writes report.html: every suite's charts, interactive, on one
// page that needs no network. The page records script errors and, once the
// charts are drawn, how many rendered, on <body> (data-errors,
// data-charts, data-rendered), which the headless-browser test reads.
func WriteHTML(w io.Writer, suites []*SuiteReport) error {
	var page []htmlSuite
	n := 0
	for _, s := range suites {
		hs := htmlSuite{ID: anchor(s.Suite.Name), Title: firstNonEmpty(s.Suite.Title, s.Suite.Name), Source: s.Suite.Source, Dir: s.Dir, Env: envLine(s.Env)}
		for _, e := range s.Experiments {
			he := htmlExperiment{ID: hs.ID + "-" + slug(e.Experiment.Name), Title: firstNonEmpty(e.Experiment.Title, e.Experiment.Name), Header: htmlHeader}
			for _, r := range e.Runs {
				he.Rows = append(he.Rows, htmlRow(r))
			}
			if he.AccRows = accountingRows(e); he.AccRows != nil {
				he.AccHeader = accountingHeader
			}
			he.Verdicts, he.Rounds = htmlVerdicts(s, e), roundsLine(e)
			for _, c := range echartsFor(e) {
				n++
				sn := c.RenderSnippet()
				he.Charts = append(he.Charts, snippet{template.HTML(sn.Element), template.HTML(sn.Script)})
			}
			hs.Experiments = append(hs.Experiments, he)
		}
		page = append(page, hs)
	}
	return pageTemplate.Execute(w, map[string]any{
		"Suites": page, "Count": n, "ECharts": template.JS(echartsJS),
		"Summary": summaryRows(suites), "SummaryIntro": verdictsIntro,
	})
}

// snippetRenderer is what go-echarts charts offer to embed in a page.
type snippetRenderer interface {
	RenderSnippet() render.ChartSnippet
}

func echartsFor(e *ExperimentReport) []snippetRenderer {
	var out []snippetRenderer
	title := firstNonEmpty(e.Experiment.Title, e.Experiment.Name)
	if c := rpsBarEChart(e, title); c != nil {
		out = append(out, c)
	}
	if c := percentileEChart(e, title); c != nil {
		out = append(out, c)
	}
	if e.Param != "" {
		names, runs := e.series()
		for _, m := range []struct{ key, label string }{{"rps", "req/s"}, {"p99_ms", "p99 latency (ms)"}} {
			var series []xySeries
			for _, name := range names {
				var xy [][2]float64
				for _, r := range runs[name] {
					if s := r.Measured[m.key]; s.N > 0 {
						x, _ := paramNumber(r.Info.Params[e.Param])
						xy = append(xy, [2]float64{x, s.Median})
					}
				}
				series = append(series, xySeries{name, xy})
			}
			out = append(out, xyEChart(fmt.Sprintf("%s: %s by %s", title, m.label, e.Param), e.Param, m.label, "value", series))
		}
	}
	for _, m := range []struct {
		title, y string
		f        func(result.Sample) float64
	}{
		{": server CPU", "CPU (% of one core)", func(s result.Sample) float64 { return s.ServerCPU }},
		{": server memory", "RSS (MiB)", func(s result.Sample) float64 { return float64(s.ServerRSS) / mib }},
	} {
		var series []xySeries
		for _, r := range e.Runs {
			if t := firstMonitored(r); t != nil {
				xy := make([][2]float64, len(t.Monitor.Samples))
				for i, s := range t.Monitor.Samples {
					xy[i] = [2]float64{s.T, m.f(s)}
				}
				series = append(series, xySeries{r.label(), xy})
			}
		}
		if len(series) > 0 {
			out = append(out, xyEChart(title+m.title, "time (s)", m.y, "value", series))
		}
	}
	for _, r := range e.Runs {
		if t := firstMonitored(r); t != nil && len(t.Monitor.Samples[0].Cores) > 0 {
			var series []xySeries
			for c := range t.Monitor.Samples[0].Cores {
				var xy [][2]float64
				for _, s := range t.Monitor.Samples {
					if c < len(s.Cores) {
						xy = append(xy, [2]float64{s.T, s.Cores[c]})
					}
				}
				series = append(series, xySeries{fmt.Sprintf("cpu%d%s", c, coreRole(t.Placement, c)), xy})
			}
			out = append(out, xyEChart(r.label()+": CPU load per core", "time (s)", "busy (%)", "value", series))
		}
		if c := latencyEChart(r); c != nil {
			out = append(out, c)
		}
	}
	return out
}

type xySeries struct {
	name string
	xy   [][2]float64
}

func baseOpts(title, x, y, xType string) []charts.GlobalOpts {
	return []charts.GlobalOpts{
		charts.WithInitializationOpts(opts.Initialization{Width: "900px", Height: "420px"}),
		charts.WithTitleOpts(opts.Title{Title: title}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "28", Type: "scroll"}),
		charts.WithXAxisOpts(opts.XAxis{Name: x, Type: xType, NameLocation: "middle", NameGap: 28}),
		charts.WithYAxisOpts(opts.YAxis{Name: y}),
	}
}

func xyEChart(title, x, y, xType string, series []xySeries) *charts.Line {
	c := charts.NewLine()
	c.SetGlobalOptions(baseOpts(title, x, y, xType)...)
	for _, s := range series {
		data := make([]opts.LineData, len(s.xy))
		for i, p := range s.xy {
			data[i] = opts.LineData{Value: []float64{p[0], p[1]}}
		}
		c.AddSeries(s.name, data, charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(len(s.xy) < 30)}))
	}
	return c
}

func rpsBarEChart(e *ExperimentReport, title string) *charts.Bar {
	if len(e.Runs) == 0 {
		return nil
	}
	c := charts.NewBar()
	c.SetGlobalOptions(baseOpts(title+": throughput", "", "req/s", "category")...)
	var labels []string
	var meas, pub []opts.BarData
	anyPub := false
	for _, r := range e.Runs {
		labels = append(labels, r.label())
		s := r.Measured["rps"]
		meas = append(meas, opts.BarData{Value: math.Round(s.Median), Name: fmt.Sprintf("%s (%s)", med(s), rng(s))})
		v, ok := r.Info.Published["rps"]
		anyPub = anyPub || ok
		pub = append(pub, opts.BarData{Value: v})
	}
	c.SetXAxis(labels).AddSeries("measured (median)", meas)
	if anyPub {
		c.AddSeries("published", pub)
	}
	return c
}

// percentileEChart is the 1/(1-p) log axis of the PNG, labelled in percent.
func percentileEChart(e *ExperimentReport, title string) *charts.Line {
	var series []xySeries
	for _, r := range e.Runs {
		h := mergedHist(r)
		if h == nil {
			continue
		}
		var xy [][2]float64
		for _, p := range percentileXYs(h) {
			xy = append(xy, [2]float64{p.X, p.Y})
		}
		series = append(series, xySeries{r.label(), xy})
	}
	if len(series) == 0 {
		return nil
	}
	c := xyEChart(title+": latency by percentile", "percentile", "latency (ms)", "log", series)
	c.SetGlobalOptions(
		charts.WithXAxisOpts(opts.XAxis{Name: "percentile", Type: "log", NameLocation: "middle", NameGap: 28,
			AxisLabel: &opts.AxisLabel{Formatter: opts.FuncOpts(`function (v) { return (100 - 100 / v).toPrecision(Math.max(2, Math.round(Math.log10(v)) + 1)) + '%'; }`)}}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item",
			Formatter: opts.FuncOpts(`function (p) { return p.seriesName + '<br>p' + (100 - 100 / p.value[0]).toPrecision(6) + ': ' + p.value[1].toFixed(3) + ' ms'; }`)}),
	)
	return c
}

func latencyEChart(r *RunReport) *charts.Line {
	for _, m := range r.OK {
		l := m.trial.Load
		if len(l.Timeline) < 2 {
			continue
		}
		var series []xySeries
		add := func(name string, tl []result.Second) {
			var p50, p99 [][2]float64
			for _, s := range tl {
				if s.Requests > 0 {
					p50 = append(p50, [2]float64{float64(s.T), s.P50})
					p99 = append(p99, [2]float64{float64(s.T), s.P99})
				}
			}
			series = append(series, xySeries{name + " p50", p50}, xySeries{name + " p99", p99})
		}
		add("requests", l.Timeline)
		if l.Probe != nil && len(l.Probe.Timeline) > 0 {
			add("probe", l.Probe.Timeline)
		}
		return xyEChart(r.label()+": latency per second", "time (s)", "latency (ms)", "value", series)
	}
	return nil
}

var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
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
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
th:first-child, td:first-child, td:last-child { text-align: left; }
table.summary td { text-align: left; }
</style>
</head>
<body data-charts="{{.Count}}">
<nav>
<strong>restbench report</strong>
{{if .Summary}}<a href="#verdicts">Verdicts</a>
{{end}}{{range .Suites}}<a href="#{{.ID}}">{{.Title}}</a>
{{range .Experiments}}<a class="exp" href="#{{.ID}}">{{.Title}}</a>
{{end}}{{end}}</nav>
<main>
{{if .Summary}}<section id="verdicts">
<h1>Verdicts</h1>
<p>{{.SummaryIntro}}</p>
<table class="summary"><tr><th>suite</th><th>claim</th><th>published</th><th>measured (95 % interval)</th><th>verdict</th></tr>
{{range .Summary}}<tr><td><a href="#{{.SuiteID}}">{{.Suite}}</a></td><td><a href="#{{.ID}}">{{.Claim}}</a></td><td>{{.Published}}</td><td>{{.Measured}}</td><td><strong>{{.Outcome}}</strong></td></tr>
{{end}}</table>
</section>
{{end}}{{range .Suites}}<section id="{{.ID}}">
<h1>{{.Title}}</h1>
<p>{{if .Source}}Source: {{.Source}}<br>{{end}}Results: <code>{{.Dir}}</code><br>Environment: {{.Env}}</p>
{{range .Experiments}}<section id="{{.ID}}">
<h2>{{.Title}}</h2>
{{if .Verdicts}}<ul class="verdicts">{{range .Verdicts}}<li id="{{.ID}}"><strong>{{.Outcome}}</strong>: {{.Text}}</li>{{end}}</ul>{{end}}
{{if .Rounds}}<p>{{.Rounds}}</p>{{end}}
<table><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{if .AccRows}}<p>Load accounting</p>
<table><tr>{{range .AccHeader}}<th>{{.}}</th>{{end}}</tr>
{{range .AccRows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
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
