package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"restbench/internal/report"
)

// cmdReport renders report.md, PNG/SVG charts and report.html from results.
func cmdReport(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: restbench report RESULTS_DIR [--out DIR]\n\n"+
			"RESULTS_DIR is a results folder (results/<suite>/<timestamp>), a suite folder\n"+
			"(its newest results) or the results root (the newest results of every suite).\n"+
			"Writes report.md, charts/*.png and *.svg and report.html (works offline).\n\n")
		fs.PrintDefaults()
	}
	out := fs.String("out", "", "write the report into DIR (default RESULTS_DIR/report)")
	rest, err := parseFlagsAndArgs(fs, args)
	if err == flag.ErrHelp {
		return nil
	} else if err != nil {
		return err
	}
	if len(rest) != 1 {
		fs.Usage()
		return usageError("report: name one results folder, e.g. restbench report results")
	}
	if *out == "" {
		*out = filepath.Join(rest[0], "report")
	}
	w, err := report.Write(rest[0], *out)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	fmt.Fprintf(os.Stdout, "report of %d suite(s) %v: %s, %s, %d charts (PNG and SVG) in %s\n",
		len(w.Suites), w.Suites, w.Markdown, w.HTML, w.Charts, filepath.Join(*out, "charts"))
	return nil
}
