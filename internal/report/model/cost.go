package model

import (
	"restbench/internal/metric"
)

// The cost table says what each response cost the server in CPU time, the
// efficiency figure that stays comparable when the generator or the
// machine, not the server, limited the throughput; and what the server
// costs at rest. Trials from before the figures leave the table out.

// CostHeader are the titles of CostRows' columns.
var CostHeader = []string{"run", "ok req/s", "server CPU % of a core", "CPU µs per response", "min–max", "idle CPU % of a core"}

// CostRows returns the table's rows, or nil when no trial of the experiment
// carries CPU per response.
func CostRows(e *ExperimentReport) [][]string {
	any := false
	var rows [][]string
	for _, r := range e.Runs {
		per := r.spread(func(m Measured) (float64, bool) { return m.Value(metric.CPUPerResponse) })
		idle := r.spread(func(m Measured) (float64, bool) { return m.Value(metric.IdleCPU) })
		// wrk and ab validate nothing: no ok count to show.
		okRPS := r.spread(func(m Measured) (float64, bool) { return m.Trial.Load.OKRPS, m.Trial.Load.Settings.OwnGenerator() })
		any = any || per.N > 0
		rows = append(rows, []string{r.Label(), Med(okRPS), Med(r.Measured["cpu_pct"]), Med(per), Rng(per), Med(idle)})
	}
	if !any {
		return nil
	}
	return rows
}

// spread is a figure over r's successful trials, where each can tell it.
func (r *RunReport) spread(f func(Measured) (float64, bool)) metric.Spread {
	var vs []float64
	for _, m := range r.OK {
		if v, ok := f(m); ok {
			vs = append(vs, v)
		}
	}
	return metric.SpreadOf(vs)
}
