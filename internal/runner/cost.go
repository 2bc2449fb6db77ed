package runner

import (
	"context"
	"time"

	"restbench/internal/result"
	"restbench/internal/server"
)

// IdleWindow is how long a run's first trial watches its server at rest
// before the warm-up: long enough for schedstat's nanoseconds to show a
// server that polls or collects while idle, short enough for the suites'
// time budget (one window a run, not a trial).
const IdleWindow = 200 * time.Millisecond

// measureIdle measures the server at rest in trial n: percent of one core,
// and over how many milliseconds; nil where the run time cannot be read.
// The idle cost is the server's, not the round's: the first trial
// measures it, and the others keep their time for the load (nil).
func measureIdle(ctx context.Context, pid, n int) (pct *float64, ms int) {
	if n != 1 {
		return nil, 0
	}
	v, ok := server.IdleCPU(ctx, pid, IdleWindow)
	if !ok {
		return nil, 0
	}
	return &v, int(IdleWindow / time.Millisecond)
}

// costPerResponse divides the server's CPU in the measured part among the
// responses that passed validation: a failed request's CPU is the cost of
// the ones that succeeded. nil when none succeeded or nothing was sampled.
// An external tool (wrk, ab) runs its warm-up and its window as two
// processes whose start-up, and wrk's whole seconds, the monitor cannot
// see: its samples then span more than the tool's window (2.9 s for wrk's
// 2.1 s in the dotchev cell, 72 µs per response where the rate says 52).
// The CPU is then the monitor's mean rate over the tool's own window. A
// tool that does not validate bodies counts the responses it did not call
// errors.
func costPerResponse(m *result.Monitor, l *result.Load) *float64 {
	if m == nil || l == nil || len(m.Samples) == 0 {
		return nil
	}
	ok := l.Responses - l.Errors.Status - l.Errors.Body
	if ok <= 0 {
		return nil
	}
	cpu := m.ServerCPUS
	first := m.Samples[0].T - min(m.Samples[0].T, float64(m.IntervalMS)/1000)
	if covered := m.Samples[len(m.Samples)-1].T - first; l.DurationS > 0 && covered > l.DurationS {
		cpu *= l.DurationS / covered
	}
	us := cpu / float64(ok) * 1e6
	return &us
}
