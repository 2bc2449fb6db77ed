package model

import (
	"fmt"

	"restbench/internal/result"
)

// The servers' own view of a run (GET /runtime, docs/contract.md): how late
// Node's event loop ran, how long Go's goroutines waited to be scheduled.
// The write-ups argue from these mechanisms; the report shows them beside
// the latency they explain.

// PauseOf is the p99 wait a reading reports: Node's event-loop delay, or Go's
// scheduling latency; ok is false for a reading with neither.
func PauseOf(r result.RuntimeSample) (ms float64, node, ok bool) {
	switch {
	case r.EventLoopDelayP99MS != nil:
		return *r.EventLoopDelayP99MS, true, true
	case r.SchedLatencyP99MS != nil:
		return *r.SchedLatencyP99MS, false, true
	}
	return 0, false, false
}

// RuntimeLines says, per run, what its server said about itself: the
// median over the trials of each trial's worst p99 wait and its GC time.
func RuntimeLines(e *ExperimentReport) []string {
	var lines []string
	for _, r := range e.Runs {
		var worst, gcMS []float64
		node, once := false, true
		for _, m := range r.OK {
			mon := m.Trial.Monitor
			if mon == nil || len(mon.Runtime) == 0 {
				continue
			}
			once = once && len(mon.Runtime) == 1
			w, seen := 0.0, false
			for _, rs := range mon.Runtime {
				if v, isNode, ok := PauseOf(rs); ok {
					w, seen, node = max(w, v), true, isNode
				}
			}
			if seen {
				worst = append(worst, w)
			}
			if g, ok := gcTime(mon.Runtime); ok {
				gcMS = append(gcMS, g)
			}
		}
		if len(worst) == 0 {
			continue
		}
		what := "Go's goroutines waited to be scheduled up to p99"
		if node {
			what = "the event loop was blocked up to p99"
		}
		over := "over one reading (they come every 250 ms)" // results written before monitor.ReadRuntime
		if once {
			over = "over the trial's load (one reading at its end)"
		}
		line := fmt.Sprintf("%s: %s %s ms %s", Cell(r.Label()), what, Num(result.Median(worst)), over)
		switch {
		case len(gcMS) > 0 && node:
			line += fmt.Sprintf("; GC paused it %s ms in all", Num(result.Median(gcMS)))
		case len(gcMS) > 0:
			line += fmt.Sprintf("; GC used %s ms of CPU", Num(result.Median(gcMS)))
		}
		lines = append(lines, line+" (median of the trials; GET /runtime, docs/contract.md).")
	}
	return lines
}

// gcTime is the GC time within the readings: Node's pauses of every kind
// (totals since the server's first answer), or Go's GC CPU time (total
// since start), last minus first; a single reading (monitor.ReadRuntime)
// counts from the server's first answer, before the trial's load.
func gcTime(rs []result.RuntimeSample) (float64, bool) {
	first, last := rs[0], rs[len(rs)-1]
	if len(rs) == 1 {
		first = result.RuntimeSample{GCCPUS: new(float64)} // zero totals
	}
	switch {
	case last.GCCPUS != nil && first.GCCPUS != nil:
		return 1000 * (*last.GCCPUS - *first.GCCPUS), true
	case last.GC != nil:
		var total, before float64
		for k, g := range last.GC {
			total += g.TotalMS
			before += first.GC[k].TotalMS
		}
		return total - before, true
	}
	return 0, false
}
