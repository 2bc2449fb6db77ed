package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"restbench/internal/hosts"
	"restbench/internal/impl"
	"restbench/internal/k8s"
	"restbench/internal/load"
	"restbench/internal/result"
	"restbench/internal/server"
	"restbench/internal/suite"
)

// hostsSite is placement: hosts on this machine: the server in a network
// namespace of its own, run.Hosts generators in others, each running its
// Indexed Job pod's command, their results merged (internal/hosts). The
// server starts, is watched and is filed as on one machine; the CPUs are
// shared by all of them, so the trial is flagged unpinned
// (suite.NewTrial).
type hostsSite struct {
	r   *Runner
	run suite.Run // as derived: what the generators' pods carry
	im  impl.Impl // on its runtime, built
	net *hosts.Net
	out string // the generators' shard results
}

// hostsSite is run's site under placement: hosts, or t filed when this
// machine cannot give it one.
func (r *Runner) hostsSite(ctx context.Context, t *result.Trial, run suite.Run) (site, *result.Trial, error) {
	file := func(status, format string, args ...any) (site, *result.Trial, error) {
		done, err := finish(ctx, t, status, format, args...)
		return nil, done, err
	}
	switch {
	case r.opt.ServerCPU > 0:
		// Measured at full speed it would pass for the slower machine.
		return file(result.StatusFailed, "%s: --server-cpu does not apply to placement hosts; run this experiment without it", run.ID)
	case run.RateSearch:
		// A search's steps run on the local placement only (capacity.go).
		return file(result.StatusNotSupported, "%s: rate_of: capacity(...) searches on the local placement only; under placement: hosts give rate_of a closed-loop run or an absolute rate", run.ID)
	}
	if err := hosts.Available(); err != nil {
		return file(result.StatusNotRun, "not run here: placement hosts needs network namespaces: %v", err)
	}
	return &hostsSite{r: r}, nil, nil
}

func (s *hostsSite) prepare(ctx context.Context, t *result.Trial, run suite.Run, im impl.Impl, cfg load.Config) (server.Options, *result.Trial, error) {
	file := func(status, format string, args ...any) (server.Options, *result.Trial, error) {
		done, err := finish(ctx, t, status, format, args...)
		return server.Options{}, done, err
	}
	// The cell as derived (a rate from another run's figure is absolute
	// by now) is what the generators' pods carry.
	run.Load, run.RateOf, run.Little, run.Window = cfg, "", nil, nil
	s.run, s.im = run, im
	if err := k8s.Supported(run); err != nil {
		return file(result.StatusNotSupported, "%v", err)
	}
	if _, err := os.Stat(filepath.Join(s.r.opt.Manifest.Root, k8s.Binary)); err != nil {
		return file(result.StatusFailed, "placement hosts runs %s in each generator namespace: %v (make restbench builds it)", k8s.Binary, err)
	}
	var err error
	if s.net, err = hosts.New(run.Hosts); err != nil {
		return file(result.StatusFailed, "%v", err)
	}
	if s.out, err = os.MkdirTemp("", "restbench-hosts-"); err != nil {
		return file(result.StatusFailed, "%v", err)
	}
	return s.net.ServerOptions(run.Env), nil, nil
}

func (s *hostsSite) started(*result.Trial) error { return nil }

func (s *hostsSite) generate(ctx context.Context, t *result.Trial, _ suite.Run, cfg load.Config, p *server.Process, watch watcher) (*result.Load, error) {
	// The generators' pods target the port the server reported.
	cell := k8s.Cell{Run: s.run, Impl: s.im, Trial: t.Trial, Port: p.Port()}
	cell.StartAt = hosts.StartAt(cfg.Warmup)
	// restbench's own process tree, the server's apart, is the generators.
	// The monitor's GET /runtime goes from a generator host, as the
	// readiness probe: nothing outside the namespaces reaches the server.
	stop := watch(cell.StartAt)
	l, _, err := hosts.Generate(ctx, s.net, cell, s.r.opt.Manifest.Root, s.out)
	stop(float64(len(s.r.allowed)), l)
	if err != nil {
		return l, fmt.Errorf("load: %w", err)
	}
	return l, nil
}

func (s *hostsSite) keep(*result.Load) error { return nil }

func (s *hostsSite) close() {
	if s.out != "" {
		os.RemoveAll(s.out)
	}
	if s.net != nil {
		if err := s.net.Close(); err != nil {
			s.r.logf("warning: %v", err)
		}
	}
}
