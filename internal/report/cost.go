package report

import (
	"fmt"
	"strings"

	"restbench/internal/metric"
)

// The cost table says what each response cost the server in CPU time, the
// efficiency figure that stays comparable when the generator or the
// machine, not the server, limited the throughput; and what the server
// costs at rest. Trials from before the figures leave the table out.

var costHeader = []string{"run", "ok req/s", "server CPU % of a core", "CPU µs per response", "min–max", "idle CPU % of a core"}

// costRows returns the table's rows, or nil when no trial of the experiment
// carries CPU per response.
func costRows(e *ExperimentReport) [][]string {
	any := false
	var rows [][]string
	for _, r := range e.Runs {
		per := r.spread(func(m measured) (float64, bool) { return m.value(metric.CPUPerResponse) })
		idle := r.spread(func(m measured) (float64, bool) { return m.value(metric.IdleCPU) })
		// wrk and ab validate nothing: no ok count to show.
		okRPS := r.spread(func(m measured) (float64, bool) { return m.trial.Load.OKRPS, m.trial.Load.Settings.OwnGenerator() })
		any = any || per.N > 0
		rows = append(rows, []string{r.label(), med(okRPS), med(r.Measured["cpu_pct"]), med(per), rng(per), med(idle)})
	}
	if !any {
		return nil
	}
	return rows
}

// spread is a figure over r's successful trials, where each can tell it.
func (r *RunReport) spread(f func(measured) (float64, bool)) metric.Spread {
	var vs []float64
	for _, m := range r.OK {
		if v, ok := f(m); ok {
			vs = append(vs, v)
		}
	}
	return metric.SpreadOf(vs)
}

func writeCost(b *strings.Builder, e *ExperimentReport) {
	rows := costRows(e)
	if rows == nil {
		return
	}
	fmt.Fprintf(b, "Server CPU cost (CPU time of the server's process tree in the measured part per response that passed validation, or that wrk or ab did not count an error; "+
		"idle: the server at rest after it was ready, before the warm-up; see docs/results.md):\n\n")
	writeTable(b, costHeader, rows, strings.Repeat("---:|", len(costHeader)-1))
}
