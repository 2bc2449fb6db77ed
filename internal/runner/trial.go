package runner

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"restbench/internal/cpu"
	"restbench/internal/engine"
	"restbench/internal/impl"
	"restbench/internal/monitor"
	"restbench/internal/result"
	"restbench/internal/server"
	"restbench/internal/suite"
)

// stderrTail is how much of a failed server's stderr a trial keeps.
const stderrTail = 4000

// trial measures trial n of run once: start the server where place says,
// wait until it is ready, run the load while the monitor samples, stop the
// server. It returns nil, with ctx's error, when ctx was cancelled: a
// half-measured trial is not written. Every other failure is a trial with
// status failed, and the suite goes on.
func (r *Runner) trial(ctx context.Context, run suite.Run, n int) (*result.Trial, error) {
	if run.Hosts > 0 {
		return r.hostsTrial(ctx, run, n)
	}
	t := &result.Trial{
		Suite: r.suite.Name, Experiment: run.Experiment, Run: run.ID, Impl: run.Impl,
		Params: run.Params, Trial: n, Round: n, Started: time.Now().UTC(), Env: run.Env,
	}
	if why := notRun(run, len(r.allowed)); why != "" {
		t.Status, t.Error = result.StatusNotRun, why
		t.Finished = t.Started
		return t, nil
	}
	fail := func(format string, args ...any) (*result.Trial, error) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		t.Status, t.Error = result.StatusFailed, fmt.Sprintf(format, args...)
		t.Flags = appendFlag(t.Flags, result.FlagFailed)
		t.Finished = time.Now().UTC()
		return t, nil
	}

	pl, err := place(run, r.allowed)
	if err != nil {
		return fail("%s: %v", run.ID, err)
	}
	t.Flags = append(t.Flags, pl.flags...)
	t.Placement = result.Placement{ServerCPUs: cpu.FormatList(pl.server), ClientCPUs: cpu.FormatList(pl.client), Pinned: pl.pinned, Quota: run.Quota}

	im, err := r.opt.Manifest.Get(run.Impl)
	if err != nil {
		return fail("%v", err)
	}
	var why string
	im, t.Runtime, why, err = r.onRuntime(im, run)
	if err != nil {
		return fail("%s: %v", run.ID, err)
	}
	if why != "" {
		t.Status, t.Error, t.Finished = result.StatusNotSupported, why, time.Now().UTC()
		return t, nil
	}
	if err := r.build(ctx, im); err != nil {
		return fail("%v", err)
	}
	cfg := run.Load
	if run.RateOf != "" {
		capacity, err := r.capacity(run.RateOf)
		if err != nil {
			return fail("%s: rate: %v", run.ID, err)
		}
		cfg.Rate = run.RateFraction * capacity
	}

	var wrap []string
	if run.Quota > 0 {
		q, err := cpu.NewQuota(run.ID, run.Quota)
		if err != nil {
			// The trial still runs, without the quota, and says so.
			r.logf("warning: %s: %v; measuring without the quota", run.ID, err)
			t.Flags = appendFlag(t.Flags, result.FlagQuotaNotApplied)
		} else {
			defer func() {
				if err := q.Remove(); err != nil {
					r.logf("warning: %v", err)
				}
			}()
			wrap = q.Wrap()
			t.Placement.QuotaApplied, t.Placement.QuotaMechanism = true, q.Mechanism
		}
	}
	// The server always goes through taskset: restbench itself may be
	// pinned to the client CPUs by now, and a child inherits that.
	wrap = append(wrap, "taskset", "-c", cpu.FormatList(pl.server))
	// Pin restbench too (the monitor, and the generator when it is built
	// in), so that nothing of the client side runs on the server's CPUs.
	if err := cpu.PinSelf(pl.client); err != nil {
		return fail("%v", err)
	}

	p, err := server.Start(im, server.Options{Dir: r.opt.Manifest.Root, Env: run.Env, Wrap: wrap})
	if err != nil {
		return fail("%v", err)
	}
	defer p.Stop(r.opt.StopGrace)
	if err := p.WaitReady(ctx, r.opt.ReadyTimeout); err != nil {
		t.StderrTail = p.StderrTail(stderrTail)
		return fail("start %s: %v (see stderr_tail)", im.ID, firstLine(err))
	}
	t.Server = p.Reported()
	idle, idleMS := measureIdle(ctx, p.Pid())

	eng, err := engine.New(run.Engine)
	if err != nil {
		return fail("%v", err)
	}
	cfg.URL = p.URL() + cfg.URL
	cfg.CPUs = pl.client

	// The load stops at once when the server dies: its results would only
	// count connection errors.
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	died := make(chan struct{})
	go func() {
		select {
		case <-p.Done():
			close(died)
			cancel()
		case <-lctx.Done():
		}
	}()
	mon := monitor.Start(monitor.NewTree(p.Pid()), r.opt.Interval, time.Now().Add(cfg.Warmup))
	mon.PollRuntime(p.URL() + "/runtime")
	res, lerr := eng.Run(lctx, cfg)
	t.Monitor = mon.Stop(len(pl.client))
	t.Monitor.IdleCPU, t.Monitor.IdleMS = idle, idleMS
	t.Monitor.CPUPerResponseUS = costPerResponse(t.Monitor, res)
	t.Load = res
	select {
	case <-died:
		t.StderrTail = p.StderrTail(stderrTail)
		return fail("%s exited during the load (%v); see stderr_tail", im.ID, p.ExitErr())
	default:
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if lerr != nil && !errors.Is(lerr, context.Canceled) || res == nil {
		t.StderrTail = p.StderrTail(stderrTail)
		return fail("load: %v", lerr)
	}
	if monitor.ClientBound(t.Monitor) {
		t.Flags = appendFlag(t.Flags, result.FlagClientBound)
	}
	// The load's own flags (stalled-connections, inconsistent,
	// behind-schedule) travel with the trial, so the report shows them.
	for _, f := range res.Flags {
		t.Flags = appendFlag(t.Flags, f)
	}
	t.Status = result.StatusOK
	t.Finished = time.Now().UTC()
	return t, nil
}

// build builds an implementation once per invocation.
func (r *Runner) build(ctx context.Context, im impl.Impl) error {
	// The build command differs per runtime (a Go toolchain of its own).
	key := im.ID + " " + im.Build
	if err, done := r.built[key]; done {
		return err
	}
	err := r.opt.Manifest.Build(ctx, im, r.opt.BuildLog)
	if ctx.Err() == nil {
		r.built[key] = err
	}
	return err
}

func appendFlag(flags []string, f string) []string {
	if slices.Contains(flags, f) {
		return flags
	}
	return append(flags, f)
}

func firstLine(err error) string {
	s := err.Error()
	for i, c := range s {
		if c == '\n' {
			return s[:i]
		}
	}
	return s
}
