package runner

import (
	"context"
	"time"

	"restbench/internal/cpu"
	"restbench/internal/monitor"
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

// watch starts what every trial records around its load, on every
// placement: the server's listen queue, its monitor from start on, and its
// GET /runtime (through p.Transport, so from a generator host under
// placement hosts). The func it returns stops them and files them into t,
// with the idle reading taken before and the CPU per response of l.
func (r *Runner) watch(p *server.Process, start time.Time, idle *float64, idleMS int) func(t *result.Trial, clientCPUs float64, l *result.Load) {
	endListen := r.watchListen(p.Pid(), p.Port())
	mon := monitor.Start(monitor.NewTree(p.Pid()), r.opt.Interval, start)
	mon.ReadRuntime(p.URL()+"/runtime", p.Transport())
	return func(t *result.Trial, clientCPUs float64, l *result.Load) {
		t.Monitor = mon.Stop(clientCPUs)
		endListen(t)
		t.Monitor.IdleCPU, t.Monitor.IdleMS = idle, idleMS
		t.Monitor.CPUPerResponseUS = costPerResponse(t.Monitor, l)
		if l != nil && l.TargetRPS > 0 {
			l.SetServerCPUShare(serverCPUShare(t))
		}
	}
}

// serverCPUShare is the server's mean CPU in the measured part as a share
// of the CPUs it could use: its cores, at most its applied quota, at most
// the threads it reports (parallelism, as run --server-cpu narrows its
// quota: Node's 1 on two cores is saturated at 100 %). 0 when nothing was
// sampled.
func serverCPUShare(t *result.Trial) float64 {
	m := t.Monitor
	if m == nil || len(m.Samples) == 0 {
		return 0
	}
	list, err := cpu.ParseList(t.Placement.ServerCPUs)
	if err != nil || len(list) == 0 {
		return 0
	}
	budget := float64(len(list))
	if q := t.Placement.Quota; q > 0 && t.Placement.QuotaApplied {
		budget = min(budget, q)
	}
	if n := parallelism(t.Server); n > 0 {
		budget = min(budget, float64(n))
	}
	if f := t.Placement.ServerCPU; f > 0 {
		budget *= f // run --server-cpu: its cgroup holds it to f of that
	}
	return m.ServerCPUMean / 100 / budget
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
	// The window's: an open loop's drained responses came after it, and so
	// did the CPU they cost.
	ok := l.WindowResponses() - l.Errors.Status - l.Errors.Body
	if ok <= 0 {
		return nil
	}
	cpu, covered := m.ServerCPUS, 0.0
	for i := range m.Samples {
		covered += result.Covers(m.Samples, i, m.IntervalMS)
	}
	if l.DurationS > 0 && covered > l.DurationS {
		cpu *= l.DurationS / covered
	}
	us := cpu / float64(ok) * 1e6
	return &us
}
