package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"golang.org/x/term"

	"restbench/internal/runner"
	"restbench/internal/server"
	"restbench/internal/suite"
	"restbench/internal/verdict"
)

// cmdRun runs suite files: restbench run suites/heysphere.yaml --scale quick.
func cmdRun(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	scale := fs.String("scale", suite.DefaultScale, "run length: "+strings.Join(suite.Scales, ", "))
	out := fs.String("out", "results", "results root: results land in OUT/<suite>/<timestamp>/")
	resume := fs.Bool("resume", false, "continue the newest results folder of each suite, skipping finished trials")
	only := fs.String("only", "", "run only the runs whose id matches this glob or contains this text")
	trials := fs.Int("trials", 0, "trials per run (default: as the suite says, usually 3)")
	ready := fs.Duration("ready-timeout", 20*time.Second, "how long a server may take to answer GET /status")
	maxRuns := fs.Int("max-runs", suite.DefaultMaxRuns, "refuse a suite with more runs than this at any scale, counted before it is expanded (a typo in a matrix can make billions)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: restbench run [flags] SUITE.yaml...\n\n"+
			"Runs benchmark suites (docs/suites.md) and writes one JSON per trial;\n"+
			"restbench report then turns them into tables and charts.\n\nflags:\n")
		fs.PrintDefaults()
	}
	files, err := parseFlagsAndArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageError("run: name at least one suite file, e.g. restbench run suites/dotchev-echo.yaml")
	}
	for _, c := range []rangeCheck{
		{"trials", flagSet(fs, "trials") && *trials < 1, "1 or more trials per run (leave it out for the suite's)"},
		{"ready-timeout", *ready <= 0, "a positive duration, e.g. 20s"},
		{"max-runs", *maxRuns < 1, "1 or more runs"},
		{"scale", !slices.Contains(suite.Scales, *scale), strings.Join(suite.Scales, ", ")},
	} {
		if err := c.check("run", fs); err != nil {
			return err
		}
	}
	if err := checkOutputDir("run", "--out", *out); err != nil {
		return err
	}
	m, lock, err := manifestAndRuntimes()
	if err != nil {
		return err
	}
	// Load every suite first: a typo in the last file should not wait for
	// the first one to finish.
	var suites []*suite.Suite
	for _, f := range files {
		s, err := suite.Load(f, suite.Options{Scale: *scale, Impls: m.IDs(), Languages: m.Languages(), MaxRuns: *maxRuns})
		if err != nil {
			return err
		}
		if _, err := runner.Select(s.Runs, *only); err != nil {
			return usageError("run: %s: %v", f, err)
		}
		suites = append(suites, s)
	}
	// Whatever happens below, no server outlives restbench.
	defer server.StopAll(3 * time.Second)
	bar := term.IsTerminal(int(os.Stderr.Fd()))
	var dirs []string
	failed := 0
	for _, s := range suites {
		fmt.Fprintf(os.Stderr, "== %s (%s) at %s scale: %d runs\n", s.Name, s.File, s.Scale, len(s.Runs))
		o, err := runner.Run(ctx, s, runner.Options{
			Manifest: m, Runtimes: lock, Out: *out, Resume: *resume, Only: *only, Trials: *trials,
			Command: "restbench run " + strings.Join(args, " "), ReadyTimeout: *ready,
			Log: os.Stderr, BuildLog: os.Stderr, Bar: bar,
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
	fmt.Printf("results: %s\nnext: restbench report %s\n", strings.Join(dirs, " "), *out)
	if failed > 0 {
		// The suite went on and kept every result, but a script (make test)
		// must see that something failed.
		return fmt.Errorf("%d trial(s) failed; the report lists each with its error and the server's stderr", failed)
	}
	return nil
}
