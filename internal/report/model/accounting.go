package model

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"restbench/internal/metric"
	"restbench/internal/result"
)

// The load accounting table says how far each run's figures can be
// trusted: throughput that passed validation beside all of it, the open
// loop's target against what it achieved and what it never sent, service
// time beside the latency from the intended send, the requests still in
// flight at the close, how evenly the connections were served, and the
// closed loop's Little's-law check. Only the built-in generator records
// these; for wrk, ab and older results the table is left out.

// AccountingHeader are the titles of AccountingRows' columns.
var AccountingHeader = []string{"run", "ok req/s", "all req/s", "target req/s", "achieved/target", "missed",
	"mean ms", "service mean ms", "service p99 ms", "unfinished", "oldest unfinished ms",
	"per connection min / median / max", "stalled", "in flight (Little) / connections", "flags"}

// AccountingRows returns the table's rows, or nil when no trial of the
// experiment carries the figures.
func AccountingRows(e *ExperimentReport) [][]string {
	any := false
	var rows [][]string
	for _, r := range e.Runs {
		if !hasAccounting(r) {
			rows = append(rows, nil)
			continue
		}
		any = true
		get := func(f func(l *result.Load) (float64, bool)) metric.Spread {
			var vs []float64
			for _, m := range r.OK {
				if v, ok := f(m.Trial.Load); ok {
					vs = append(vs, v)
				}
			}
			return metric.SpreadOf(vs)
		}
		open := func(f func(l *result.Load) float64) func(*result.Load) (float64, bool) {
			return func(l *result.Load) (float64, bool) { return f(l), l.TargetRPS > 0 }
		}
		target := get(open(func(l *result.Load) float64 { return l.TargetRPS }))
		achieved := get(open(func(l *result.Load) float64 { return l.RPS / l.TargetRPS }))
		missed := get(open(func(l *result.Load) float64 { return float64(l.Missed) }))
		service := get(func(l *result.Load) (float64, bool) {
			return field(l.Service, func(s *result.Latency) float64 { return s.Mean })
		})
		serviceP99 := get(func(l *result.Load) (float64, bool) {
			return field(l.Service, func(s *result.Latency) float64 { return s.P99 })
		})
		unfinished := get(func(l *result.Load) (float64, bool) { return float64(l.Unfinished), true })
		oldest := get(func(l *result.Load) (float64, bool) {
			if l.Unfinished == 0 {
				return 0, false
			}
			return field(l.Censored, func(s *result.Latency) float64 { return s.Max })
		})
		per := func(f func(p *result.PerConnection) int64) metric.Spread {
			return get(func(l *result.Load) (float64, bool) {
				if l.PerConnection == nil {
					return 0, false
				}
				return float64(f(l.PerConnection)), true
			})
		}
		stalled := per(func(p *result.PerConnection) int64 { return int64(p.Stalled) })
		conns := fmt.Sprintf("%s / %s / %s", count(per(func(p *result.PerConnection) int64 { return p.Min })),
			count(per(func(p *result.PerConnection) int64 { return p.Median })), count(per(func(p *result.PerConnection) int64 { return p.Max })))
		little := get(func(l *result.Load) (float64, bool) {
			return field(l.Little, func(l *result.Little) float64 { return l.InFlight })
		})
		littleCell := "—"
		if little.N > 0 {
			littleCell = Med(little) + " / " + fmt.Sprint(r.OK[0].Trial.Load.Settings.Connections)
		}
		oldestCell := "—"
		if oldest.N > 0 {
			oldestCell = "≥ " + Med(oldest)
		}
		achievedCell := "—"
		if achieved.N > 0 {
			achievedCell = fmt.Sprintf("%.0f %%", achieved.Median*100)
		}
		okRPS := get(func(l *result.Load) (float64, bool) { return l.OKRPS, true })
		rows = append(rows, []string{r.Label(), Med(okRPS), Med(r.Measured["rps"]), Med(target), achievedCell, count(missed),
			Med(r.Measured["latency_mean_ms"]), Med(service), Med(serviceP99), count(unfinished), oldestCell,
			conns, count(stalled), littleCell, strings.Join(validityFlags(r), ", ")})
	}
	if !any {
		return nil
	}
	return slices.DeleteFunc(rows, func(row []string) bool { return row == nil })
}

// count prints the median of a count as a whole number (the median of an
// even number of trials may fall between two).
func count(s metric.Spread) string {
	if s.N == 0 {
		return "—"
	}
	return metric.Thousands(math.Round(s.Median))
}

// field reads f of p, when there is a p.
func field[T any](p *T, f func(*T) float64) (float64, bool) {
	if p == nil {
		return 0, false
	}
	return f(p), true
}

// hasAccounting says whether a trial of r was measured by a generator that
// records the accounting (the built-in one, since it has service times).
func hasAccounting(r *RunReport) bool {
	for _, m := range r.OK {
		if m.Trial.Load.Service != nil || m.Trial.Load.PerConnection != nil {
			return true
		}
	}
	return false
}

// validityFlags is the union of the flags r's trials and their loads
// raised (the load's whether or not the runner copied them), but for
// unpinned: where the server ran is the measured table's business, and
// this column says whether the load did what was asked.
func validityFlags(r *RunReport) []string {
	var fs []string
	for _, m := range r.OK {
		for _, f := range slices.Concat(m.Trial.Flags, m.Trial.Load.Flags) {
			if f != result.FlagUnpinned && !slices.Contains(fs, f) {
				fs = append(fs, f)
			}
		}
	}
	slices.Sort(fs)
	return fs
}

// ListenNote says, when a run of e overflowed its accept queue, left
// connections in it unaccepted, or had a connection wait a second or more
// for its first response, every run's backlog, how often it overflowed,
// how many connections it never accepted and how long its connections
// waited for their first response: the causes of multi-second latencies and
// of stalled connections. "" otherwise.
func ListenNote(e *ExperimentReport) string {
	var parts []string
	show := false
	for _, r := range e.Runs {
		var backlog, overflows, queued, firstP99, firstMax []float64
		n := 0
		for _, m := range r.OK {
			if l := m.Trial.Listen; l != nil {
				backlog = append(backlog, float64(l.Backlog))
				overflows = append(overflows, float64(l.Overflows))
				queued = append(queued, float64(l.Queued))
				if l.Overflowed() {
					n++
				}
			}
			if pc := m.Trial.Load.PerConnection; pc != nil && pc.FirstResponseMS != nil {
				firstP99 = append(firstP99, pc.FirstResponseMS.P99)
				firstMax = append(firstMax, pc.FirstResponseMS.Max)
			}
		}
		var p []string
		if len(backlog) > 0 {
			p = append(p, "backlog "+count(metric.SpreadOf(backlog)))
		}
		if n > 0 {
			show = true
			p = append(p, fmt.Sprintf("overflowed in %d of %d trials (median %s listen overflows a trial)", n, len(overflows), count(metric.SpreadOf(overflows))))
		}
		if bound, idle := r.RetransmissionBound(); bound > 0 {
			p = append(p, fmt.Sprintf("%s in %d of %d trials (the server idle up to %d s before the last response, which waited for a re-sent SYN)", result.FlagRetransmissionBound, bound, len(r.OK), idle))
		}
		if q := metric.SpreadOf(queued); q.Max > 0 {
			show = true
			p = append(p, fmt.Sprintf("%s connections never accepted (median at the close)", count(q)))
		}
		if len(firstMax) > 0 {
			mx := metric.SpreadOf(firstMax)
			show = show || mx.Max >= 1000
			p = append(p, fmt.Sprintf("first response p99 %s ms, max %s ms", Med(metric.SpreadOf(firstP99)), Med(mx)))
		}
		if len(p) > 0 {
			parts = append(parts, r.Label()+": "+strings.Join(p, ", "))
		}
	}
	if !show {
		return ""
	}
	return "Accept queue (accept-queue-overflow: a dropped connection request waits for TCP's SYN retransmission, 1 s, then 3 s, …, " +
		"and the latencies measure that wait; the first response counts from a connection's first connect attempt; medians over the trials; " +
		"see docs/results.md): " + strings.Join(parts, "; ") + "."
}
