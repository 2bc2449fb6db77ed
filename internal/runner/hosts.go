package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"restbench/internal/hosts"
	"restbench/internal/k8s"
	"restbench/internal/monitor"
	"restbench/internal/result"
	"restbench/internal/suite"
)

// hostsTrial measures trial n of a run with placement: hosts on this
// machine: the server in a network namespace of its own, run.Hosts
// generators in others, each running its Indexed Job pod's command, their
// results merged (internal/hosts). The CPUs are shared by all of them, so
// the trial is flagged unpinned; its placement mode says hosts.
func (r *Runner) hostsTrial(ctx context.Context, run suite.Run, n int) (*result.Trial, error) {
	t := &result.Trial{
		Suite: r.suite.Name, Experiment: run.Experiment, Run: run.ID, Impl: run.Impl,
		Params: run.Params, Trial: n, Started: time.Now().UTC(), Env: run.Env,
		Placement: result.Placement{Mode: result.PlacementHosts},
		Flags:     []string{result.FlagUnpinned},
	}
	end := func(status, format string, args ...any) (*result.Trial, error) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		t.Status, t.Error, t.Finished = status, fmt.Sprintf(format, args...), time.Now().UTC()
		if status == result.StatusFailed {
			t.Flags = appendFlag(t.Flags, result.FlagFailed)
		}
		return t, nil
	}
	if err := hosts.Available(); err != nil {
		return end(result.StatusNotRun, "not run here: placement hosts needs network namespaces: %v", err)
	}
	if run.RateOf != "" {
		capacity, err := r.capacity(run.RateOf)
		if err != nil {
			return end(result.StatusFailed, "%s: rate: %v", run.ID, err)
		}
		run.Load.Rate, run.RateOf = run.RateFraction*capacity, ""
	}
	if err := k8s.Supported(run); err != nil {
		return end(result.StatusNotSupported, "%v", err)
	}
	im, err := r.opt.Manifest.Get(run.Impl)
	if err != nil {
		return end(result.StatusFailed, "%v", err)
	}
	if err := r.build(ctx, im); err != nil {
		return end(result.StatusFailed, "%v", err)
	}
	root := r.opt.Manifest.Root
	if _, err := os.Stat(filepath.Join(root, k8s.Binary)); err != nil {
		return end(result.StatusFailed, "placement hosts runs %s in each generator namespace: %v (make restbench builds it)", k8s.Binary, err)
	}
	net, err := hosts.New(run.Hosts)
	if err != nil {
		return end(result.StatusFailed, "%v", err)
	}
	defer func() {
		if err := net.Close(); err != nil {
			r.logf("warning: %v", err)
		}
	}()
	cell := k8s.Cell{Run: run, Impl: im, Trial: n}
	srv, err := hosts.StartServer(ctx, net, cell, root)
	if err != nil {
		return end(result.StatusFailed, "%v", err)
	}
	defer srv.Stop()
	out, err := os.MkdirTemp("", "restbench-hosts-")
	if err != nil {
		return end(result.StatusFailed, "%v", err)
	}
	defer os.RemoveAll(out)
	cell.StartAt = hosts.StartAt(run.Load.Warmup)
	// restbench's own process tree, the server's apart, is the generators.
	endListen := r.watchListen(srv.Pid(), srv.Port())
	mon := monitor.Start(monitor.NewTree(srv.Pid()), r.opt.Interval, cell.StartAt)
	l, _, err := hosts.Generate(ctx, net, cell, root, out)
	t.Monitor = mon.Stop(len(r.allowed))
	endListen(t)
	if err != nil {
		return end(result.StatusFailed, "load: %v", err)
	}
	t.Load = l
	t.Flags = append(t.Flags, l.Flags...)
	t.Status, t.Finished = result.StatusOK, time.Now().UTC()
	return t, nil
}
