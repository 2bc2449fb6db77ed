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
	t := r.suite.NewTrial(run, n, time.Now())
	if run.Hosts > 0 {
		return r.hostsTrial(ctx, t, run)
	}
	if why := notRun(run, len(r.allowed)); why != "" {
		t.Status, t.Error = result.StatusNotRun, why
		t.Finished = t.Started
		return t, nil
	}
	fail := func(format string, args ...any) (*result.Trial, error) {
		return finish(ctx, t, result.StatusFailed, format, args...)
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
		return finish(ctx, t, result.StatusNotSupported, "%s", why)
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

	p, err := r.startServer(ctx, t, im, server.Options{Env: run.Env, Wrap: wrap})
	if err != nil {
		return fail("%v", err)
	}
	defer p.Stop(r.opt.StopGrace)

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
	endListen := r.watchListen(p.Pid(), p.Port())
	mon := monitor.Start(monitor.NewTree(p.Pid()), r.opt.Interval, time.Now().Add(cfg.Warmup))
	res, lerr := eng.Run(lctx, cfg)
	t.Monitor = mon.Stop(len(pl.client))
	endListen(t)
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

// finish files t with status and why (a failed trial carries the failed
// flag). It returns nil, with ctx's error, when ctx was cancelled: a
// half-measured trial is not written.
func finish(ctx context.Context, t *result.Trial, status, format string, args ...any) (*result.Trial, error) {
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	t.Status, t.Error, t.Finished = status, fmt.Sprintf(format, args...), time.Now().UTC()
	if status == result.StatusFailed {
		t.Flags = appendFlag(t.Flags, result.FlagFailed)
	}
	return t, nil
}

// startServer starts im from the repository root as opt says and waits
// until it is ready, on every placement: t records what the server
// reported, or its stderr when it did not start. The caller stops p.
func (r *Runner) startServer(ctx context.Context, t *result.Trial, im impl.Impl, opt server.Options) (*server.Process, error) {
	opt.Dir = r.opt.Manifest.Root
	p, err := server.Start(im, opt)
	if err != nil {
		return nil, err
	}
	if err := p.WaitReady(ctx, r.opt.ReadyTimeout); err != nil {
		t.StderrTail = p.StderrTail(stderrTail)
		p.Stop(r.opt.StopGrace)
		return nil, fmt.Errorf("start %s: %v (see stderr_tail)", im.ID, firstLine(err))
	}
	t.Server = p.Reported()
	return p, nil
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
