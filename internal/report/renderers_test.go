package report

import (
	"reflect"
	"testing"

	"github.com/go-echarts/go-echarts/v2/charts"
	"gonum.org/v1/plot/plotter"

	"restbench/internal/report/chart"
	"restbench/internal/report/html"
	"restbench/internal/report/model"
)

// drawnSeries is what a renderer put in a chart: a series' name and how
// many values it drew.
type drawnSeries struct {
	Name   string
	Points int
}

// gonumSeries reads the series back from the plotters the PNG renderer made.
func gonumSeries(t *testing.T, c chart.Spec) []drawnSeries {
	_, drawn := chart.Plot(c)
	var out []drawnSeries
	for _, d := range drawn {
		switch p := d.Plotters[0].(type) {
		case *plotter.Line:
			out = append(out, drawnSeries{d.Name, len(p.XYs)})
		case *plotter.BarChart:
			out = append(out, drawnSeries{d.Name, len(p.Values)})
		default:
			t.Fatalf("%s: series %q drawn by a %T", c.Title, d.Name, p)
		}
	}
	return out
}

// echartsSeries reads the series back from the ECharts chart.
func echartsSeries(t *testing.T, c chart.Spec) []drawnSeries {
	var ss []charts.SingleSeries
	switch ch := html.EChart(c, "chart").(type) {
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
	all, err := model.LoadAll(fixtureRoot)
	if err != nil {
		t.Fatal(err)
	}
	var suites []*model.SuiteReport
	for _, r := range all {
		suites = append(suites, model.Build(r))
	}
	cs := chart.Build(suites)
	var specs []chart.Spec
	for _, s := range suites {
		for _, e := range s.Experiments {
			specs = append(specs, cs.Exp[e]...)
			for _, r := range e.Runs {
				specs = append(specs, cs.Run[r]...)
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
