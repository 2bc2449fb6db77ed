package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"restbench/internal/report"
)

// cmdCompare prints, run by run, how req/s and p99 moved between two
// results folders, marking the changes beyond the trials' noise.
func cmdCompare(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: restbench compare OLD NEW\n\n"+
			"OLD and NEW are results folders, suite folders or results roots (as for report).\n"+
			"Runs are matched by suite and run id. A change is marked when\n"+
			"|change| > max(5%%, 2 × the larger (max−min)/median of the two sets of trials).\n\n")
		fs.PrintDefaults()
	}
	rest, err := parseFlagsAndArgs(fs, args)
	if err == flag.ErrHelp {
		return nil
	} else if err != nil {
		return err
	}
	if len(rest) != 2 {
		fs.Usage()
		return usageError("compare: name two results folders: OLD NEW")
	}
	oldResults, err := report.LoadAll(rest[0])
	if err != nil {
		return fmt.Errorf("compare: OLD: %w", err)
	}
	newResults, err := report.LoadAll(rest[1])
	if err != nil {
		return fmt.Errorf("compare: NEW: %w", err)
	}
	for _, r := range append(oldResults, newResults...) {
		warnLeftOut(r.LeftOut)
	}
	c := report.Compare(oldResults, newResults)
	if len(c.Changes) == 0 {
		return fmt.Errorf("compare: no run is in both %s and %s (compare results of the same suite)", rest[0], rest[1])
	}
	return c.WriteText(os.Stdout)
}
