package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"restbench/internal/load/summary"
	"restbench/internal/report"
	"restbench/internal/result"
)

const reportUsage = `RESULTS_DIR is a results folder (results/<suite>/<timestamp>), a suite folder
(its newest results) or the results root (the newest results of every suite).
Writes report.md, charts/*.png and *.svg and report.html (works offline).
--with names another machine's results, found the same way: a run whose trials
here were all not run (too few cores) takes its trials from there, marked as such.

A FILE.json that restbench load or capacity wrote (--json; merge --out), or - for
stdin, is printed again as those commands printed it, as vegeta report reads
what vegeta attack wrote: restbench load --json - URL | restbench report -`

// newReport renders report.md, PNG/SVG charts and report.html from results,
// or prints a saved load or capacity result again.
func newReport(g *globals) *cobra.Command {
	var out string
	var with []string
	c := &cobra.Command{
		Use:   "report [flags] RESULTS_DIR | FILE.json",
		Short: "render tables and charts from a results folder; print a saved load result",
		Long:  reportUsage,
	}
	fs := c.Flags()
	fs.StringVar(&out, "out", "", "write the report into `DIR` (default RESULTS_DIR/report)")
	fs.StringArrayVar(&with, "with", nil, "another machine's results `DIR` for the runs not run here (repeatable)")
	c.RunE = func(c *cobra.Command, args []string) error {
		if err := wantArgs("report", len(args) == 1, "name one results folder or result file, e.g. restbench report results"); err != nil {
			return err
		}
		if st, err := os.Stat(args[0]); args[0] == "-" || err == nil && !st.IsDir() {
			return printSaved(os.Stdout, args[0])
		}
		if out == "" {
			out = filepath.Join(args[0], "report")
		} else if err := checkOutputDir("report", "--out", out); err != nil {
			return err
		}
		w, err := report.Write(args[0], out, with...)
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		warnLeftOut(w.LeftOut)
		if !g.quiet {
			fmt.Fprintf(os.Stdout, "report of %d suite(s) %v: %s, %s, %d charts (PNG and SVG) in %s\n",
				len(w.Suites), w.Suites, w.Markdown, w.HTML, w.Charts, filepath.Join(out, "charts"))
		}
		return nil
	}
	return c
}

// printSaved prints a load or capacity result that --json saved (path, or
// stdin for "-") as restbench load or capacity printed it.
func printSaved(w io.Writer, path string) error {
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(os.Stdin)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	var kind struct {
		Steps    json.RawMessage `json:"steps"`
		Requests *int64          `json:"requests"`
	}
	if err := json.Unmarshal(data, &kind); err != nil {
		return fmt.Errorf("report: %s: %v (name a results folder, or a file restbench load --json wrote)", path, err)
	}
	switch {
	case kind.Steps != nil:
		var c result.Capacity
		if err := json.Unmarshal(data, &c); err != nil {
			return fmt.Errorf("report: %s: %w", path, err)
		}
		s := c.Settings
		fmt.Fprintf(w, "Capacity search of %s: %d connections, %s per step after %s of warm-up\n", s.URL, s.Connections,
			time.Duration(s.DurationS*float64(time.Second)), time.Duration(s.WarmupS*float64(time.Second)))
		fmt.Fprintf(w, "%4s %10s %10s %9s %9s %8s  %s\n", "step", "target/s", "achieved/s", "p50 ms", "p99 ms", "missed", "result")
		for i, st := range c.Steps {
			printStep(w, i+1, st)
		}
		if c.CapacityRPS > 0 {
			fmt.Fprintf(w, "Capacity: %.0f req/s (the highest sustained target of %d steps)\n", c.CapacityRPS, len(c.Steps))
		}
	case kind.Requests != nil:
		var l result.Load
		if err := json.Unmarshal(data, &l); err != nil {
			return fmt.Errorf("report: %s: %w", path, err)
		}
		summary.Print(w, &l)
	default:
		return usageError("report: %s is neither a load nor a capacity result (restbench load --json or capacity --json writes one), nor a results folder", path)
	}
	return nil
}

// warnLeftOut names, on stderr, each trial file a report left out.
func warnLeftOut(files []string) {
	for _, f := range files {
		fmt.Fprintf(os.Stderr, "restbench: warning: left out %s (move it to its own suite's folder or delete it)\n", f)
	}
}
