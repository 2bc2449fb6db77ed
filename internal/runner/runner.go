// Package runner measures a suite, one experiment after another, in
// interleaved rounds: round k measures trial k of every run of the
// experiment. For each trial it builds and starts the server on its own CPUs
// (under a CPU quota when asked), waits until it is ready, generates the load
// with the run's engine while the monitor samples, stops the server, and
// writes the trial atomically into results/<suite>/<timestamp>/. A trial
// this machine cannot run (its engine is missing, it needs more cores) is
// written as not-run with the reason.
package runner

import (
	"context"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"restbench/internal/capacity"
	"restbench/internal/cpu"
	"restbench/internal/impl"
	"restbench/internal/launch"
	"restbench/internal/result"
	"restbench/internal/runtimes"
	"restbench/internal/suite"
)

// Options tune a Runner. Zero values get the documented defaults.
type Options struct {
	Manifest *impl.Manifest // the implementations (required)
	// Runtimes pins what the servers run on; nil starts them as the
	// manifest says, with whatever node and go are on PATH.
	Runtimes *runtimes.Lock
	Out      string // results root; default "results"
	Resume   bool   // reuse the newest folder and skip finished trials
	Only     string // glob or substring of run ids; "" selects every run
	Trials   int    // overrides every run's trial count when > 0
	// ServerCPU, between 0 and 1, runs every server at that fraction of its
	// CPU time (ServerCPU × its CPUs over 10 ms, narrowed to its threads,
	// with a suite's quota nested inside at ServerCPU × the quota), and a
	// generator that shares the server's CPUs at that fraction too
	// (local.slowClient): the stand-in for a slower machine that checks a
	// suite gives the same answers there (issue 24). 0 leaves servers and
	// generators as the suite says.
	ServerCPU float64
	// ServerCores, when > 0, runs a machine of more cores as the published
	// machine of ServerCores, for docs/multicore (serverCores): a pinned
	// server that names no CPUs of its own on the first ServerCores usable
	// CPUs and the generator on the others, a shared run on the first
	// ServerCores. 0: the suite's placement as it stands.
	ServerCores int
	Command     string // the command line, for env.json
	// Idle is cpu.IdlePoll (also ""): hold every CPU in its polling idle
	// state while the suite runs (cpu.HoldPollIdle), or cpu.IdleDefault:
	// leave the machine's idle states. env.json records which held.
	Idle string

	ReadyTimeout time.Duration // how long a server may take to answer /status; default launch.ReadyTimeout
	StopGrace    time.Duration // SIGTERM to SIGKILL; default 3s
	Interval     time.Duration // monitor interval; default 250ms

	Log      io.Writer // one line per finished run, warnings; default io.Discard
	BuildLog io.Writer // build output; default io.Discard
	Bar      bool      // draw a progress bar on Log (a terminal) instead of plain lines

	// Enough, when set, may stop an experiment's rounds early or add rounds
	// beyond the runs' Trials, up to their MaxTrials: it is asked after every
	// round from the Trials-th on. Without it every run gets Trials rounds.
	Enough StopRule

	// Search steers the capacity searches of rate_of: capacity(<run id>)
	// (zero: package capacity's defaults and capacity.MinWarmup of the
	// searched run's connections, what make bench uses).
	Search capacity.Options
}

// Runner runs one suite.
type Runner struct {
	opt     Options
	suite   *suite.Suite
	folder  *folder
	allowed []int                     // CPUs usable by this process when it started
	launch  *launch.Launcher          // installs, builds and starts the servers
	loads   map[string][]*result.Load // finished trials' loads, by run: rate_of a closed-loop run
	// searches are the capacity searches of this invocation, by run and round.
	searches map[string]searched
	prog     *progress
	info     result.Suite // suite.json, rewritten as experiments finish
	idle     string       // the idle states in force, for env.json
}

// Outcome is what a suite run produced.
type Outcome struct {
	Dir     string // the results folder
	OK      int    // trials measured now with status ok
	Failed  int    // trials measured now that failed
	NotRun  int    // trials this machine cannot run (not-run, not-supported): no failure
	Skipped int    // trials found finished (--resume)
}

// Run measures every selected run of s. It returns the outcome and, when
// ctx was cancelled, ctx's error: the servers are stopped and every trial
// written so far is kept.
func Run(ctx context.Context, s *suite.Suite, opt Options) (*Outcome, error) {
	if opt.Manifest == nil {
		return nil, fmt.Errorf("runner: no manifest")
	}
	if opt.Out == "" {
		opt.Out = "results"
	}
	if opt.Idle != "" && opt.Idle != cpu.IdlePoll && opt.Idle != cpu.IdleDefault {
		return nil, fmt.Errorf("runner: idle %q: want %s or %s", opt.Idle, cpu.IdlePoll, cpu.IdleDefault)
	}
	if opt.StopGrace <= 0 {
		opt.StopGrace = 3 * time.Second
	}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	if opt.BuildLog == nil {
		opt.BuildLog = io.Discard
	}
	// A restbench killed mid-trial (SIGKILL) could not remove its quota
	// cgroup; the first run after it does.
	removed, kept := cpu.SweepQuotas()
	for _, d := range removed {
		fmt.Fprintf(opt.Log, "removed %s, the quota cgroup of a restbench that was killed\n", d)
	}
	for _, d := range kept {
		fmt.Fprintf(opt.Log, "warning: a restbench that was killed left the quota cgroup %s; remove it once its processes are gone\n", d)
	}
	runs, err := Select(s.Runs, opt.Only)
	if err != nil {
		return nil, err
	}
	for i := range runs {
		if _, err := opt.Manifest.Get(runs[i].Impl); err != nil {
			return nil, fmt.Errorf("%s: run %s: %w", s.File, runs[i].ID, err)
		}
		if opt.Trials > 0 {
			// Exactly that many: the stop rule adds no rounds past it
			// (asked for 2, a standard fastify run measured 5).
			runs[i].Trials, runs[i].MaxTrials = opt.Trials, opt.Trials
		}
		runs[i].Trials = max(runs[i].Trials, 1)
	}
	allowed, err := usableCPUs()
	if err != nil {
		return nil, err
	}
	// Whatever the trials pin, restbench ends with the CPUs it began with.
	defer cpu.PinSelf(allowed)

	f, resumed, err := openFolder(opt.Out, s.Name, opt.Resume, time.Now())
	if err != nil {
		return nil, err
	}
	r := &Runner{opt: opt, suite: s, folder: f, allowed: allowed, loads: map[string][]*result.Load{}, searches: map[string]searched{}}
	r.launch = &launch.Launcher{Manifest: opt.Manifest, Runtimes: opt.Runtimes, Log: opt.Log, BuildLog: opt.BuildLog, ReadyTimeout: opt.ReadyTimeout}
	if err := r.installRuntimes(ctx, runs); err != nil {
		return nil, err
	}
	// Every trial, search and cross-check of the suite runs with the same
	// idle states: a request's wake-ups cross between the generator's CPUs
	// and the server's, and a halted vCPU wakes through the hypervisor.
	// Held from here, not while runtimes download: a polling CPU spins.
	r.idle = cpu.DefaultIdle()
	if opt.Idle != cpu.IdleDefault {
		release, state := cpu.HoldPollIdle()
		defer release()
		r.idle = state
		if cpu.ModeOf(state) != cpu.IdlePoll {
			fmt.Fprintf(opt.Log, "warning: %s\n", state)
		}
	}
	if err := r.writeHeader(runs, resumed); err != nil {
		return nil, err
	}
	out := &Outcome{Dir: f.dir}
	total := 0
	for _, run := range runs {
		total += run.Trials
	}
	r.prog = newProgress(opt.Log, opt.Bar, total)
	defer r.prog.finish()
	for _, e := range experiments(runs) {
		stopped, why, rounds, err := r.measure(ctx, e, out)
		if err != nil {
			return out, err
		}
		if stopped != result.StoppedRounds {
			r.logf("%s: stopped after %d rounds: %s (%s)", e.name, rounds, stopped, why)
		}
		if err := r.stopped(e.name, stopped, why, rounds); err != nil {
			return out, err
		}
	}
	return out, nil
}

// stopped records in suite.json why an experiment stopped, rewriting the
// file atomically.
func (r *Runner) stopped(name, stopped, why string, rounds int) error {
	for i := range r.info.Experiments {
		if x := &r.info.Experiments[i]; x.Name == name {
			x.Stopped, x.StoppedWhy, x.Rounds = stopped, why, rounds
		}
	}
	return result.WriteJSON(path.Join(r.folder.dir, result.SuiteFile), r.info)
}

// writeHeader writes env.json (kept when resuming) and suite.json, and
// points latest at the folder.
func (r *Runner) writeHeader(runs []suite.Run, resumed bool) error {
	var ids []string
	for _, run := range runs {
		if !slices.Contains(ids, run.Impl) {
			ids = append(ids, run.Impl)
		}
	}
	envPath := path.Join(r.folder.dir, result.EnvFile)
	var old result.Env
	if !resumed || result.ReadJSON(envPath, &old) != nil {
		env := environment(r.opt.Manifest, ids, r.suite.Scale, r.opt.Command)
		env.Runtimes = r.runtimeRecords()
		env.Idle = r.idle
		if err := result.WriteJSON(envPath, env); err != nil {
			return err
		}
	} else if old.Idle != "" && cpu.ModeOf(old.Idle) != cpu.ModeOf(r.idle) {
		// env.json stays the first invocation's: say that these trials differ.
		fmt.Fprintf(r.opt.Log, "warning: resuming %s, whose trials ran with idle states %q, with %q: pass --idle as it was\n", r.folder.dir, old.Idle, r.idle)
	}
	info := r.suite.Info
	info.Experiments = slices.Clone(info.Experiments)
	// Resuming keeps what earlier invocations recorded of the experiments
	// this one does not finish (--only).
	var before result.Suite
	if resumed && result.ReadJSON(path.Join(r.folder.dir, result.SuiteFile), &before) == nil {
		for i := range info.Experiments {
			for _, o := range before.Experiments {
				if o.Name == info.Experiments[i].Name {
					info.Experiments[i].Stopped, info.Experiments[i].StoppedWhy, info.Experiments[i].Rounds = o.Stopped, o.StoppedWhy, o.Rounds
				}
			}
		}
	}
	if r.opt.Trials > 0 {
		for i := range info.Experiments {
			info.Experiments[i].Runs = slices.Clone(info.Experiments[i].Runs)
			for j := range info.Experiments[i].Runs {
				info.Experiments[i].Runs[j].Trials = r.opt.Trials
			}
			info.Experiments[i].Looks = 0 // the rounds are fixed: no look to correct for
		}
	}
	r.info = info
	if err := result.WriteJSON(path.Join(r.folder.dir, result.SuiteFile), info); err != nil {
		return err
	}
	return result.LinkLatest(r.folder.dir)
}

// record keeps the load of a finished trial for rates relative to it.
func (r *Runner) record(t *result.Trial) {
	if t.Status == result.StatusOK && t.Load != nil {
		r.loads[t.Run] = append(r.loads[t.Run], t.Load)
	}
}

// measured is the median req/s of the run id's finished trials, measured
// now or found in the folder (--resume, or a run that --only left out),
// and their median p99 (the service time of connections: little(M)): the
// figure a rate_of without a search is a fraction of (a closed loop's
// req/s; package capacity's searches are another thing, Runner.search).
func (r *Runner) measured(id string) (rps, p99 float64, err error) {
	v := r.loads[id]
	if len(v) == 0 {
		for n := 1; n <= 100; n++ {
			t, ok := r.folder.finished(id, n)
			if !ok {
				break
			}
			v = append(v, t.Load)
		}
	}
	if len(v) == 0 {
		return 0, 0, fmt.Errorf("it is a fraction of the capacity measured by %q, which has no successful trial (it failed, or --only left it out: include it)", id)
	}
	var rs, ps []float64
	for _, l := range v {
		rs, ps = append(rs, l.RPS), append(ps, l.Latency.P99)
	}
	return result.Median(rs), result.Median(ps), nil
}

// Select keeps the runs whose id ("experiment/label") matches pattern:
// a glob on the whole id, on the experiment or on the label (so "quota*"
// selects an experiment although "*" stops at "/"), or else a substring.
func Select(runs []suite.Run, pattern string) ([]suite.Run, error) {
	if pattern == "" {
		return slices.Clone(runs), nil
	}
	match := func(id string) bool {
		exp, label, _ := strings.Cut(id, "/")
		for _, s := range []string{id, exp, label} {
			if ok, _ := path.Match(pattern, s); ok {
				return true
			}
		}
		return strings.Contains(id, pattern)
	}
	var out []suite.Run
	for _, run := range runs {
		if match(run.ID) {
			out = append(out, run)
		}
	}
	if len(out) == 0 {
		// A few ids show the shape of a match; a big matrix's every id
		// would be one line of hundreds of kilobytes.
		var ids []string
		for _, run := range runs[:min(len(runs), 5)] {
			ids = append(ids, run.ID)
		}
		if more := len(runs) - len(ids); more > 0 {
			ids = append(ids, fmt.Sprintf("and %d more", more))
		}
		return nil, fmt.Errorf("--only %q matches none of the %d runs (%s)", pattern, len(runs), strings.Join(ids, ", "))
	}
	return out, nil
}

func (r *Runner) logf(format string, args ...any) { r.prog.printf(format, args...) }

// usableCPUs is this process's CPU affinity: inside a container with a
// cpuset it is not 0..NumCPU-1.
func usableCPUs() ([]int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil, fmt.Errorf("read CPU affinity: %w", err)
	}
	var cpus []int
	for c := 0; c < 1024 && len(cpus) < set.Count(); c++ {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}
