package runner

import (
	"context"
	"os"
	"path/filepath"

	"restbench/internal/hosts"
	"restbench/internal/k8s"
	"restbench/internal/result"
	"restbench/internal/suite"
)

// hostsTrial measures trial t of a run with placement: hosts on this
// machine: the server in a network namespace of its own, run.Hosts
// generators in others, each running its Indexed Job pod's command, their
// results merged (internal/hosts). The server starts, and is recorded, as
// on one machine (startServer), and so are its idle cost, CPU per response
// and GET /runtime readings; the CPUs are shared by all of them, so the
// trial is flagged unpinned (suite.NewTrial).
func (r *Runner) hostsTrial(ctx context.Context, t *result.Trial, run suite.Run) (*result.Trial, error) {
	end := func(status, format string, args ...any) (*result.Trial, error) {
		return finish(ctx, t, status, format, args...)
	}
	if err := hosts.Available(); err != nil {
		return end(result.StatusNotRun, "not run here: placement hosts needs network namespaces: %v", err)
	}
	if run.RateOf != "" {
		// One place sizes a rate and what follows from it (derive); a search's
		// steps run through the local trial, which this placement is not.
		if run.RateSearch {
			return end(result.StatusNotSupported, "%s: rate_of: capacity(...) searches on the local placement only; under placement: hosts give rate_of a closed-loop run or an absolute rate", run.ID)
		}
		cfg, err := r.derive(ctx, run, t.Round, t)
		if err != nil {
			return end(result.StatusFailed, "%s: %v", run.ID, err)
		}
		run.Load, run.RateOf, run.Little, run.Window = cfg, "", nil, nil
	}
	if err := k8s.Supported(run); err != nil {
		return end(result.StatusNotSupported, "%v", err)
	}
	im, done, err := r.resolve(ctx, t, run)
	if done != nil || err != nil {
		return done, err
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
	p, err := r.startServer(ctx, t, im, net.ServerOptions(run.Env))
	if err != nil {
		return end(result.StatusFailed, "%v", err)
	}
	defer p.Stop(r.opt.StopGrace)
	idle, idleMS := measureIdle(ctx, p.Pid(), t.Trial)
	out, err := os.MkdirTemp("", "restbench-hosts-")
	if err != nil {
		return end(result.StatusFailed, "%v", err)
	}
	defer os.RemoveAll(out)
	// The generators' pods target the port the server reported.
	cell := k8s.Cell{Run: run, Impl: im, Trial: t.Trial, Port: p.Port()}
	cell.StartAt = hosts.StartAt(run.Load.Warmup)
	// restbench's own process tree, the server's apart, is the generators.
	// The monitor's GET /runtime goes from a generator host, as the
	// readiness probe: nothing outside the namespaces reaches the server.
	stopWatching := r.watch(p, cell.StartAt, idle, idleMS)
	l, _, err := hosts.Generate(ctx, net, cell, root, out)
	stopWatching(t, len(r.allowed), l)
	if p.Exited() {
		return exitedDuring(ctx, t, im, p)
	}
	if err != nil {
		return end(result.StatusFailed, "load: %v", err)
	}
	t.Load = l
	t.Flags = appendFlag(t.Flags, l.Flags...)
	return end(result.StatusOK, "")
}
