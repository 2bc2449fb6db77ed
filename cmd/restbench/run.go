package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"restbench/internal/cpu"
	"restbench/internal/launch"
	"restbench/internal/runner"
	"restbench/internal/server"
	"restbench/internal/suite"
	"restbench/internal/verdict"
)

// newRun runs suite files: restbench run suites/heysphere.yaml --scale quick.
func newRun(g *globals) *cobra.Command {
	c := &cobra.Command{
		Use:   "run [flags] SUITE.yaml...",
		Short: "run benchmark suites (suites/*.yaml)",
		Long: "Runs benchmark suites (docs/suites.md) and writes one JSON per trial;\n" +
			"restbench report then turns them into tables and charts.",
	}
	f := &runFlags{}
	fs := c.Flags()
	fs.StringVar(&f.scale, "scale", suite.DefaultScale, "run length: "+strings.Join(suite.Scales, ", "))
	fs.StringVar(&f.out, "out", "results", "results root: results land in OUT/<suite>/<timestamp>/")
	fs.BoolVar(&f.resume, "resume", false, "continue the newest results folder of each suite, skipping finished trials")
	fs.StringVar(&f.only, "only", "", "run only the runs whose id matches this glob or contains this text")
	fs.IntVar(&f.trials, "trials", 0, "trials per run, exactly: no rounds added while a conclusion is undecided (default: as the suite says, usually 3)")
	fs.DurationVar(&f.ready, "ready-timeout", launch.ReadyTimeout, "how long a server may take to answer GET /status")
	fs.Float64Var(&f.serverCPU, "server-cpu", 0, "run every server at this fraction of its CPU time (a cgroup quota over 10 ms periods), and a generator that shares its cores too: the stand-in for a slower machine, e.g. 0.5 (docs/results.md, placement.server_cpu)")
	fs.IntVar(&f.serverCores, "server-cores", 0, "run as on the published machine of N cores, on a machine of more (e.g. 4 on 16, docs/multicore): a pinned server that names no CPUs of its own on the first N usable CPUs and the generator on the rest, a shared run on the first N, gomaxprocs: cores read as N; a server asking for more threads is not run")
	fs.StringVar(&f.idle, "idle", cpu.IdlePoll, "the CPUs' idle states while the suites run: poll (hold /dev/cpu_dma_latency at 0 µs, as tuned's latency-performance profile does: a halted vCPU wakes through the hypervisor, which on small VMs slowed and scattered every load; needs root, else a warning) or default (as the machine sets them); env.json records which held")
	fs.IntVar(&f.maxRuns, "max-runs", suite.DefaultMaxRuns, "refuse a suite with more runs than this at any scale, counted before it is expanded (a typo in a matrix can make billions)")
	c.RunE = func(c *cobra.Command, files []string) error {
		return runSuites(c.Context(), g, files, f, fs)
	}
	return c
}

// runFlags are restbench run's flags.
type runFlags struct {
	scale, out, only string
	idle             string
	resume           bool
	trials, maxRuns  int
	serverCores      int
	ready            time.Duration
	serverCPU        float64
}

func runSuites(ctx context.Context, g *globals, files []string, f *runFlags, fs *pflag.FlagSet) error {
	if err := wantArgs("run", len(files) > 0, "name at least one suite file, e.g. restbench run suites/dotchev-echo.yaml"); err != nil {
		return err
	}
	if err := checkRanges("run", fs,
		rangeCheck{"trials", fs.Changed("trials") && f.trials < 1, "1 or more trials per run (leave it out for the suite's)"},
		rangeCheck{"ready-timeout", f.ready <= 0, "a positive duration, e.g. 20s"},
		rangeCheck{"max-runs", f.maxRuns < 1, "1 or more runs"},
		rangeCheck{"server-cpu", f.serverCPU < 0 || f.serverCPU > 1 || fs.Changed("server-cpu") && f.serverCPU == 0, "a fraction above 0 and at most 1, e.g. 0.5"},
		rangeCheck{"server-cores", fs.Changed("server-cores") && f.serverCores < 1, "1 or more CPUs for the server, one fewer than the machine has at most"},
		rangeCheck{"scale", !slices.Contains(suite.Scales, f.scale), strings.Join(suite.Scales, ", ")},
		rangeCheck{"idle", f.idle != cpu.IdlePoll && f.idle != cpu.IdleDefault, cpu.IdlePoll + " or " + cpu.IdleDefault},
	); err != nil {
		return err
	}
	if err := checkOutputDir("run", "--out", f.out); err != nil {
		return err
	}
	m, lock, err := manifestAndRuntimes()
	if err != nil {
		return err
	}
	// Load every suite first: a typo in the last file should not wait for
	// the first one to finish.
	var suites []*suite.Suite
	for _, file := range files {
		s, err := suite.Load(file, suite.Options{Scale: f.scale, Impls: m.IDs(), Languages: m.Languages(), MaxRuns: f.maxRuns, Cores: f.serverCores})
		if err != nil {
			return err
		}
		if _, err := runner.Select(s.Runs, f.only); err != nil {
			return usageError("run: %s: %v", file, err)
		}
		suites = append(suites, s)
	}
	// Whatever happens below, no server outlives restbench.
	defer server.StopAll(3 * time.Second)
	bar := !g.quiet && term.IsTerminal(int(os.Stderr.Fd()))
	var dirs []string
	failed := 0
	for _, s := range suites {
		fmt.Fprintf(os.Stderr, "== %s (%s) at %s scale: %d runs\n", s.Name, s.File, s.Scale, len(s.Runs))
		o, err := runner.Run(ctx, s, runner.Options{
			Manifest: m, Runtimes: lock, Out: f.out, Resume: f.resume, Only: f.only, Trials: f.trials, ServerCPU: f.serverCPU, ServerCores: f.serverCores, Idle: f.idle,
			Command: "restbench " + strings.Join(g.args, " "), ReadyTimeout: f.ready,
			Log: os.Stderr, BuildLog: logTo(g), Bar: bar,
			// Rounds go on past the suite's trials, up to max_trials and
			// time_cap, while a published conclusion is still undecided.
			Enough: verdict.StopRule(s.Info),
		})
		if o != nil {
			dirs = append(dirs, o.Dir)
			failed += o.Failed
			notRun := ""
			if o.NotRun > 0 {
				// Not run is no failure: this machine lacks a tool or cores.
				notRun = fmt.Sprintf(", %d not run here", o.NotRun)
			}
			fmt.Fprintf(os.Stderr, "%s: %d trials ok, %d failed%s, %d done before; results in %s\n", s.Name, o.OK, o.Failed, notRun, o.Skipped, o.Dir)
		}
		if err != nil {
			if ctx.Err() != nil {
				server.StopAll(3 * time.Second)
				return ctx.Err()
			}
			return err
		}
	}
	fmt.Printf("results: %s\nnext: restbench report %s\n", strings.Join(dirs, " "), f.out)
	if failed > 0 {
		// The suite went on and kept every result, but a script (make test)
		// must see that something failed.
		return fmt.Errorf("%d trial(s) failed; the report lists each with its error and the server's stderr", failed)
	}
	return nil
}
