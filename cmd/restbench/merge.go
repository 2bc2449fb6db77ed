package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"restbench/internal/merge"
	"restbench/internal/result"
	"restbench/internal/suite"
)

func newMerge(g *globals) *cobra.Command {
	c := &cobra.Command{
		Use:   "merge [flags] A.json B.json ...",
		Short: "add up the results of generators that ran at the same time",
		Long: "Adds up load results (restbench load --json) that several generators measured at the same time\n" +
			"against one server (restbench load --start-at T --shard i/N): histograms, counts, targets,\n" +
			"timelines and rates. With --trial-dir it files the merge as a suite's trial for restbench report.",
	}
	f := &mergeFlags{}
	fs := c.Flags()
	fs.StringVarP(&f.out, "out", "o", "", "write the merged load result to this `FILE`")
	fs.StringVar(&f.suite, "suite", "", "with --trial-dir: the suite file the cell belongs to")
	fs.StringVar(&f.scale, "scale", "", "with --trial-dir: the suite's scale (default standard)")
	fs.StringVar(&f.run, "run", "", "with --trial-dir: the run id (experiment/label) of the cell")
	fs.IntVar(&f.trial, "trial", 1, "with --trial-dir: the trial number")
	fs.StringVar(&f.trialDir, "trial-dir", "", "write suite.json and the trial file into this results folder")
	c.RunE = func(c *cobra.Command, files []string) error {
		if err := wantArgs("merge", len(files) > 0 && (f.out != "" || f.trialDir != ""), "give the result files and --out merged.json or --trial-dir DIR"); err != nil {
			return err
		}
		if f.trialDir != "" && (f.suite == "" || f.run == "") {
			return usageError("merge: --trial-dir needs --suite FILE and --run ID")
		}
		if err := (rangeCheck{"trial", f.trial < 1, "1 or more"}).check("merge", fs); err != nil {
			return err
		}
		mergeOut, err := openOutput("merge", "--out", f.out)
		if err != nil {
			return err
		}
		defer mergeOut.Abort()
		if f.trialDir != "" {
			if err := checkOutputDir("merge", "--trial-dir", f.trialDir); err != nil {
				return err
			}
		}
		return f.merge(files, mergeOut)
	}
	return c
}

// mergeFlags are restbench merge's flags.
type mergeFlags struct {
	out, suite, scale, run, trialDir string
	trial                            int
}

// merge adds up the load results in files, writing the merge to mergeOut
// (when not nil) and, with --trial-dir, as the suite's trial there.
func (f *mergeFlags) merge(files []string, mergeOut *result.AtomicFile) error {
	loads := make([]*result.Load, len(files))
	for i, file := range files {
		loads[i] = new(result.Load)
		if err := result.ReadJSON(file, loads[i]); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
	}
	m, err := merge.Loads(loads, files)
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	if mergeOut != nil {
		if err := mergeOut.CommitJSON(m); err != nil {
			return fmt.Errorf("merge: --out: %w", err)
		}
	}
	if f.trialDir != "" {
		s, err := suite.Load(f.suite, suite.Options{Scale: f.scale})
		if err != nil {
			return err
		}
		t, err := merge.Trial(s, f.run, f.trial, m, result.PlacementHosts)
		if err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		if err := result.WriteJSON(filepath.Join(f.trialDir, result.SuiteFile), s.Info); err != nil {
			return err
		}
		if err := result.WriteJSON(filepath.Join(f.trialDir, result.TrialFile(t.Run, t.Trial)), t); err != nil {
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
