package report

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"restbench/internal/result"
)

// runCharts are the charts of one run, drawn from its first successful
// trial: per-core CPU load (does the server use the cores it was given?)
// and latency per second with the probe beside it (does a slow endpoint
// starve the health check?).
func runCharts(r *RunReport) []namedPlot {
	var out []namedPlot
	if p := perCore(r); p != nil {
		out = append(out, namedPlot{"cores", p})
	}
	if p := latencyOverTime(r); p != nil {
		out = append(out, namedPlot{"latency-over-time", p})
	}
	return out
}

func perCore(r *RunReport) *plot.Plot {
	t := firstMonitored(r)
	if t == nil || len(t.Monitor.Samples[0].Cores) == 0 {
		return nil
	}
	p := newPlot(r.label()+": CPU load per core (trial "+fmt.Sprint(t.Trial)+")", "time (s)", "busy (%)")
	cores := len(t.Monitor.Samples[0].Cores)
	for c := 0; c < cores; c++ {
		var xys plotter.XYs
		for _, s := range t.Monitor.Samples {
			if c < len(s.Cores) {
				xys = append(xys, plotter.XY{X: s.T, Y: s.Cores[c]})
			}
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			continue
		}
		l.Color = plotutil.Color(c)
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("cpu%d%s", c, coreRole(t.Placement, c)), l)
	}
	p.Y.Min, p.Y.Max = 0, 100
	legendRoom(p, cores)
	return p
}

// coreRole says whose core it is when the run was pinned.
func coreRole(pl result.Placement, c int) string {
	switch {
	case cpuListHas(pl.ServerCPUs, c):
		return " (server)"
	case cpuListHas(pl.ClientCPUs, c):
		return " (client)"
	}
	return ""
}

// cpuListHas reads a Linux CPU list ("0", "0-3", "0,2-3").
func cpuListHas(list string, c int) bool {
	for i := 0; i < len(list); {
		var a, b int
		n, _ := fmt.Sscanf(list[i:], "%d-%d", &a, &b)
		if n == 0 {
			return false
		}
		if n == 1 {
			b = a
		}
		if c >= a && c <= b {
			return true
		}
		for i < len(list) && list[i] != ',' {
			i++
		}
		i++
	}
	return false
}

func latencyOverTime(r *RunReport) *plot.Plot {
	var t *result.Trial
	for _, m := range r.OK {
		if len(m.trial.Load.Timeline) > 1 {
			t = m.trial
			break
		}
	}
	if t == nil {
		return nil
	}
	p := newPlot(r.label()+": latency per second (trial "+fmt.Sprint(t.Trial)+")", "time (s)", "latency (ms)")
	add := func(tl []result.Second, name string, i int, dashed bool) {
		for _, q := range []struct {
			label string
			v     func(result.Second) float64
			width vg.Length
		}{{"p50", func(s result.Second) float64 { return s.P50 }, 1}, {"p99", func(s result.Second) float64 { return s.P99 }, 2}} {
			var xys plotter.XYs
			for _, s := range tl {
				if s.Requests > 0 {
					xys = append(xys, plotter.XY{X: float64(s.T), Y: q.v(s)})
				}
			}
			l, err := plotter.NewLine(xys)
			if err != nil {
				continue
			}
			l.Color, l.Width = plotutil.Color(i), vg.Points(float64(q.width))
			if dashed {
				l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			}
			p.Add(l)
			p.Legend.Add(name+" "+q.label, l)
		}
	}
	add(t.Load.Timeline, "requests", 0, false)
	entries := 2
	if t.Load.Probe != nil && len(t.Load.Probe.Timeline) > 0 {
		add(t.Load.Probe.Timeline, "probe", 1, true)
		entries += 2
	}
	p.Y.Min = 0
	legendRoom(p, entries)
	return p
}
