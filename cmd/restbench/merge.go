package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"restbench/internal/merge"
	"restbench/internal/result"
	"restbench/internal/suite"
)

func cmdMerge(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: restbench merge [flags] A.json B.json ...\n\n"+
			"Adds up load results (restbench load --json) that several generators measured at the same time\n"+
			"against one server (restbench load --start-at T --shard i/N): histograms, counts, targets,\n"+
			"timelines and rates. With --trial-dir it files the merge as a suite's trial for restbench report.\n\n")
		fs.PrintDefaults()
	}
	out := fs.String("o", "", "write the merged load result here")
	suiteFile := fs.String("suite", "", "with --trial-dir: the suite file the cell belongs to")
	scale := fs.String("scale", "", "with --trial-dir: the suite's scale (default standard)")
	runID := fs.String("run", "", "with --trial-dir: the run id (experiment/label) of the cell")
	trialN := fs.Int("trial", 1, "with --trial-dir: the trial number")
	trialDir := fs.String("trial-dir", "", "write suite.json and the trial file into this results folder")
	files, err := parseFlagsAndArgs(fs, args)
	if err == flag.ErrHelp {
		return nil
	}
	if err != nil {
		return err
	}
	if len(files) == 0 || *out == "" && *trialDir == "" {
		return usageError("merge: give the result files and -o merged.json or --trial-dir DIR (restbench merge -h)")
	}
	if *trialDir != "" && (*suiteFile == "" || *runID == "") {
		return usageError("merge: --trial-dir needs --suite FILE and --run ID")
	}
	if err := (rangeCheck{"trial", *trialN < 1, "1 or more"}).check("merge", fs); err != nil {
		return err
	}
	mergeOut, err := openOutput("merge", "-o", *out)
	if err != nil {
		return err
	}
	defer mergeOut.Abort()
	if *trialDir != "" {
		if err := checkOutputDir("merge", "--trial-dir", *trialDir); err != nil {
			return err
		}
	}
	loads := make([]*result.Load, len(files))
	for i, f := range files {
		loads[i] = new(result.Load)
		if err := result.ReadJSON(f, loads[i]); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
	}
	m, err := merge.Loads(loads, files)
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	if mergeOut != nil {
		if err := mergeOut.CommitJSON(m); err != nil {
			return fmt.Errorf("merge: -o: %w", err)
		}
	}
	if *trialDir != "" {
		s, err := suite.Load(*suiteFile, suite.Options{Scale: *scale})
		if err != nil {
			return err
		}
		t, err := merge.Trial(s, *runID, *trialN, m, result.PlacementHosts)
		if err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		if err := result.WriteJSON(filepath.Join(*trialDir, result.SuiteFile), s.Info); err != nil {
			return err
		}
		if err := result.WriteJSON(filepath.Join(*trialDir, result.TrialFile(t.Run, t.Trial)), t); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stdout, "merged %d generators: %d requests, %.1f req/s, p50 %.2f ms, p99 %.2f ms%s\n",
		len(loads), m.Requests, m.RPS, m.Latency.P50, m.Latency.P99, flagNote(m.Flags))
	return nil
}

func flagNote(flags []string) string {
	if len(flags) == 0 {
		return ""
	}
	return fmt.Sprintf(" (flags: %v)", flags)
}
