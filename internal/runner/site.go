package runner

import (
	"context"
	"fmt"
	"os"
	"time"

	"restbench/internal/cpu"
	"restbench/internal/engine"
	"restbench/internal/impl"
	"restbench/internal/load"
	"restbench/internal/result"
	"restbench/internal/server"
	"restbench/internal/suite"
)

// A site is where a trial's server and generator run: this machine's CPUs
// (local: pinned or shared, under quotas), or network namespaces standing
// in for a cluster's hosts (placement: hosts). trialOn asks it the same
// questions in the same order on every placement.
type site interface {
	// prepare is how the server starts there, once the run's load is
	// derived (cfg): its environment and the command prefix that places
	// it. A run the site cannot measure is filed instead: done is t, or nil
	// with ctx's error.
	prepare(ctx context.Context, t *result.Trial, run suite.Run, im impl.Impl, cfg load.Config) (opt server.Options, done *result.Trial, err error)
	// started runs once the server is ready (the stand-in's quota narrowed
	// to the threads it reported).
	started(t *result.Trial) error
	// generate runs the load against p. It calls watch once, when the
	// measured part is about to start, and the function watch returns once
	// the load is over, with the CPUs the generator could use. Its error
	// says which part failed ("prewarm: ...", "load: ...").
	generate(ctx context.Context, t *result.Trial, run suite.Run, cfg load.Config, p *server.Process, watch watcher) (*result.Load, error)
	// keep commits what the site wrote beside the trial (the .hlog of
	// res) once the trial is ok.
	keep(res *result.Load) error
	close()
}

// watcher starts watching the server from start (monitor, listen queue)
// and returns what stops it and records it in the trial.
type watcher func(start time.Time) (stop func(clientCPUs float64, l *result.Load))

// site is the place run's trial t runs: network namespaces for placement
// hosts, else this machine's CPUs. A run that cannot run here is filed
// instead (done is t, or nil with ctx's error).
func (r *Runner) site(ctx context.Context, t *result.Trial, run suite.Run, eng engine.Engine) (site, *result.Trial, error) {
	if run.Hosts > 0 {
		return r.hostsSite(ctx, t, run)
	}
	run, why := serverCores(run, r.opt.ServerCores, r.allowed)
	if why == "" {
		why = notRun(run, len(r.allowed))
	}
	if why != "" {
		t.Status, t.Error = result.StatusNotRun, why
		t.Finished = t.Started
		return nil, t, nil
	}
	pl, err := place(run, r.allowed)
	if err != nil {
		done, err := finish(ctx, t, result.StatusFailed, "%s: %v", run.ID, err)
		return nil, done, err
	}
	t.Flags = append(t.Flags, pl.flags...)
	t.Placement = result.Placement{ServerCPUs: cpu.FormatList(pl.server), ClientCPUs: cpu.FormatList(pl.client), Pinned: pl.pinned, Quota: run.Quota}
	return &local{r: r, pl: pl, eng: eng, remove: func() {}}, nil, nil
}

// local is this machine: the server on its CPUs of the placement (under
// the suite's quota and run --server-cpu's stand-in), the generator, and
// restbench with it, on the client's.
type local struct {
	r    *Runner
	pl   placement
	eng  engine.Engine // nil: the run's own
	slow *cpu.Quota    // run --server-cpu's group, narrowed once the server is ready
	// machine holds slow and the generator's group under run --server-cpu
	// where they share CPUs (placement shared); nil otherwise.
	machine *cpu.Quota
	remove  func() // removes the quota groups
	hlog    *result.AtomicFile
}

func (s *local) prepare(ctx context.Context, t *result.Trial, run suite.Run, _ impl.Impl, _ load.Config) (server.Options, *result.Trial, error) {
	fail := func(format string, args ...any) (server.Options, *result.Trial, error) {
		done, err := finish(ctx, t, result.StatusFailed, format, args...)
		return server.Options{}, done, err
	}
	wrap, slow, machine, remove, err := s.r.quota(run, s.pl, t)
	s.remove = remove
	if err != nil {
		return fail("%s: --server-cpu %g: %v", run.ID, s.r.opt.ServerCPU, err)
	}
	s.slow, s.machine = slow, machine
	// The server always goes through taskset: restbench itself may be
	// pinned to the client CPUs by now, and a child inherits that.
	wrap = append(wrap, "taskset", "-c", cpu.FormatList(s.pl.server))
	// Pin restbench too (the monitor, and the generator when it is built
	// in), so that nothing of the client side runs on the server's CPUs.
	if err := cpu.PinSelf(s.pl.client); err != nil {
		return fail("%v", err)
	}
	if s.eng == nil {
		if s.eng, err = engine.New(run.Engine); err != nil {
			return fail("%v", err)
		}
	}
	// The built-in generator writes each second's latency to the .hlog
	// as the second ends (wrk and ab write none).
	if s.hlog, err = result.CreateAtomic(s.r.folder.hlogPath(run.ID, t.Trial)); err != nil {
		return fail("hlog: %v", err)
	}
	return server.Options{Env: run.Env, Wrap: wrap}, nil, nil
}

func (s *local) started(t *result.Trial) error {
	if s.slow == nil {
		return nil
	}
	if err := narrowQuota(s.slow, s.r.opt.ServerCPU, t); err != nil {
		return fmt.Errorf("--server-cpu %g: %v", s.r.opt.ServerCPU, err)
	}
	return nil
}

// maxAcceptWait bounds the wait for a prewarm's queued connections: a
// server that accepts none in this long is stuck, and its load will say so.
const maxAcceptWait = 2 * time.Second

func (s *local) generate(ctx context.Context, t *result.Trial, run suite.Run, cfg load.Config, p *server.Process, watch watcher) (*result.Load, error) {
	cfg.URL = p.URL() + cfg.URL
	cfg.CPUs = s.pl.client
	cfg.Hlog = s.hlog
	budget, back, err := s.slowClient(t, run)
	if err != nil {
		return nil, fmt.Errorf("--server-cpu %g: %v", s.r.opt.ServerCPU, err)
	}
	defer back()
	if run.Prewarm > 0 {
		// restbench's own generator, whatever engine then measures: the
		// prewarm warms the server, and wrk cannot count requests (no -n).
		took, got, err := prewarm(ctx, engine.Builtin{}, cfg, run.Prewarm, run.PrewarmRequests)
		if err != nil {
			return nil, fmt.Errorf("prewarm: %w", err)
		}
		t.PrewarmS = took.Seconds()
		if run.PrewarmRequests > 0 {
			t.PrewarmRequests = got
		}
		if !cfg.KeepAlive {
			// Its last connections must be accepted before the load
			// opens its own (awaitAccepted).
			if n, empty := awaitAccepted(ctx, p.Pid(), p.Port(), maxAcceptWait); !empty {
				s.r.logf("warning: %s: the prewarm left %d connections in the accept queue, not all accepted within %v", run.ID, n, maxAcceptWait)
			} else if n > 0 {
				t.PrewarmQueued = n
			}
		}
	}
	stop := watch(time.Now().Add(cfg.Warmup))
	res, err := s.eng.Run(ctx, cfg)
	stop(budget, res)
	if err != nil {
		return res, fmt.Errorf("load: %w", err)
	}
	return res, nil
}

// slowClient holds the generator of a run that shares the server's CPUs
// (placement shared) to run --server-cpu F of its CPU time, as the server
// is: on a machine F as fast, the generator is slower too, and where the
// two compete for the same cores, a generator at full speed beside a
// server at F takes a larger share of them than it would there (joshuous'
// "about 2x" read 3.6x with the servers alone slowed, 2.1x with the whole
// machine at half its speed; docs/benchmarks.md). restbench itself joins a
// quota of F × the CPUs its generator can use (clientBudget: ab is one
// thread) inside the machine's group (Runner.quota), with ab or wrk, which
// it forks, and its monitor. A pinned generator has a core of its own,
// kept at full speed so that it stays clear of the server. It returns the
// generator's CPU budget, which client-bound is a share of, and what moves
// restbench back.
func (s *local) slowClient(t *result.Trial, run suite.Run) (budget float64, back func(), err error) {
	budget = float64(clientBudget(run.Engine, len(s.pl.client)))
	f := s.r.opt.ServerCPU
	if f <= 0 || s.machine == nil {
		return budget, func() {}, nil
	}
	q, err := s.machine.Nest("client", f*budget, cpu.SlowPeriod)
	if err != nil {
		return 0, nil, err
	}
	leave, err := q.Join(os.Getpid())
	if err != nil {
		q.Remove()
		return 0, nil, err
	}
	t.Placement.ClientCPUQuota = q.CPUs
	return q.CPUs, func() {
		// Left in it, restbench would run the rest of the suite at F.
		if err := leave(); err != nil {
			s.r.logf("warning: %v", err)
		}
		if err := q.Remove(); err != nil {
			s.r.logf("warning: %v", err)
		}
	}, nil
}

func (s *local) keep(res *result.Load) error {
	if len(res.Timeline) == 0 {
		return nil // wrk and ab write no .hlog
	}
	return s.hlog.Commit()
}

func (s *local) close() {
	if s.hlog != nil {
		s.hlog.Abort()
	}
	s.remove()
}
