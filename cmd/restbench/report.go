package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"restbench/internal/report"
)

// cmdReport renders report.md, PNG/SVG charts and report.html from results.
func cmdReport(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: restbench report RESULTS_DIR [--with DIR]... [--out DIR]\n\n"+
			"RESULTS_DIR is a results folder (results/<suite>/<timestamp>), a suite folder\n"+
			"(its newest results) or the results root (the newest results of every suite).\n"+
			"Writes report.md, charts/*.png and *.svg and report.html (works offline).\n"+
			"--with names another machine's results, found the same way: a run whose trials\n"+
			"here were all not run (too few cores) takes its trials from there, marked as such.\n\n")
		fs.PrintDefaults()
	}
	out := fs.String("out", "", "write the report into DIR (default RESULTS_DIR/report)")
	var with stringList
	fs.Var(&with, "with", "another machine's results `DIR` for the runs not run here (repeatable)")
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
	} else if err := checkOutputDir("report", "--out", *out); err != nil {
		return err
	}
	w, err := report.Write(rest[0], *out, with...)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	warnLeftOut(w.LeftOut)
	fmt.Fprintf(os.Stdout, "report of %d suite(s) %v: %s, %s, %d charts (PNG and SVG) in %s\n",
		len(w.Suites), w.Suites, w.Markdown, w.HTML, w.Charts, filepath.Join(*out, "charts"))
	return nil
}

// warnLeftOut names, on stderr, each trial file a report left out.
func warnLeftOut(files []string) {
	for _, f := range files {
		fmt.Fprintf(os.Stderr, "restbench: warning: left out %s (move it to its own suite's folder or delete it)\n", f)
	}
}

// stringList is a flag that may be given more than once.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }
