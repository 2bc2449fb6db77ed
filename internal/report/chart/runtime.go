package chart

import (
	"restbench/internal/report/model"
)

// RuntimeChart draws each run's p99 wait over the measured part of its
// first monitored trial, where the trial has readings to draw a line
// through: results written before the monitor read GET /runtime once a
// trial (monitor.ReadRuntime) have one every 250 ms; today's have one,
// which the report's runtime lines quote instead.
func RuntimeChart(e *model.ExperimentReport, title string) Spec {
	c := Spec{Name: "runtime", Title: title + ": event-loop delay (Node) and scheduling latency (Go), p99 per 250 ms",
		X: Axis{Label: "time (s)"}, Y: Axis{Label: "p99 wait (ms)"}}
	for i, r := range e.Runs {
		t := firstMonitored(r)
		if t == nil || len(t.Monitor.Runtime) == 0 {
			continue
		}
		s := LineStyle(r.Label(), i)
		for _, rs := range t.Monitor.Runtime {
			if v, _, ok := model.PauseOf(rs); ok {
				s.Points = append(s.Points, Point{X: rs.T, Y: v})
			}
		}
		if len(s.Points) > 1 {
			c.Series = append(c.Series, s)
		}
	}
	return c
}
