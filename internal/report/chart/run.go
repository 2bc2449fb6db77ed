package chart

import (
	"fmt"

	"restbench/internal/report/model"
	"restbench/internal/result"
)

// runCharts are the charts of one run, drawn from its first successful
// trial: per-core CPU load (does the server use the cores it was given?)
// and latency per second with the probe beside it (does a slow endpoint
// starve the health check?).
func runCharts(r *model.RunReport) []Spec {
	var out []Spec
	for _, c := range []Spec{perCore(r), latencyOverTime(r)} {
		if len(c.Series) > 0 {
			out = append(out, c)
		}
	}
	return out
}

func perCore(r *model.RunReport) Spec {
	t := firstMonitored(r)
	if t == nil || len(t.Monitor.Samples[0].Cores) == 0 {
		return Spec{}
	}
	c := Spec{Name: "cores", Title: r.Label() + ": CPU load per core (trial " + fmt.Sprint(t.Trial) + ")",
		X: Axis{Label: "time (s)"}, Y: Axis{Label: "busy (%)", Max: 100}}
	for core := range t.Monitor.Samples[0].Cores {
		s := Series{Name: fmt.Sprintf("cpu%d%s", core, coreRole(t.Placement, core)), Color: core}
		for _, m := range t.Monitor.Samples {
			if core < len(m.Cores) {
				s.Points = append(s.Points, Point{X: m.T, Y: m.Cores[core]})
			}
		}
		c.Series = append(c.Series, s)
	}
	return c
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

func latencyOverTime(r *model.RunReport) Spec {
	var t *result.Trial
	for _, m := range r.OK {
		if len(m.Trial.Load.Timeline) > 1 {
			t = m.Trial
			break
		}
	}
	if t == nil {
		return Spec{}
	}
	c := Spec{Name: "latency-over-time", Title: r.Label() + ": latency per second (trial " + fmt.Sprint(t.Trial) + ")",
		X: Axis{Label: "time (s)"}, Y: Axis{Label: "latency (ms)"}}
	add := func(tl []result.Second, name string, color, dash int) {
		p50 := Series{Name: name + " p50", Color: color, Dash: dash, Width: 1}
		p99 := Series{Name: name + " p99", Color: color, Dash: dash, Width: 2}
		for _, s := range tl {
			if s.Requests > 0 {
				p50.Points = append(p50.Points, Point{X: float64(s.T), Y: s.P50})
				p99.Points = append(p99.Points, Point{X: float64(s.T), Y: s.P99})
			}
		}
		for _, s := range []Series{p50, p99} {
			if len(s.Points) > 0 {
				c.Series = append(c.Series, s)
			}
		}
	}
	add(t.Load.Timeline, "requests", 0, 0)
	if t.Load.Probe != nil && len(t.Load.Probe.Timeline) > 0 {
		add(t.Load.Probe.Timeline, "probe", 1, 1)
	}
	return c
}
