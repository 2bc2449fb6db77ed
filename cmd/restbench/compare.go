package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"restbench/internal/report/compare"
	"restbench/internal/report/model"
)

// newCompare prints, run by run, how req/s and p99 moved between two
// results folders, marking the changes beyond the trials' noise.
func newCompare(*globals) *cobra.Command {
	return &cobra.Command{
		Use:   "compare [flags] OLD NEW",
		Short: "compare two results folders run by run",
		Long: "OLD and NEW are results folders, suite folders or results roots (as for report).\n" +
			"Runs are matched by suite and run id. A change is marked when the interval of the\n" +
			"median NEW/OLD, paired by round, lies wholly outside ±5% (verdicts' interval rule;\n" +
			"5 rounds in both at least).",
		RunE: func(c *cobra.Command, args []string) error {
			if err := wantArgs("compare", len(args) == 2, "name two results folders: OLD NEW"); err != nil {
				return err
			}
			oldResults, err := model.LoadAll(args[0])
			if err != nil {
				return fmt.Errorf("compare: OLD: %w", err)
			}
			newResults, err := model.LoadAll(args[1])
			if err != nil {
				return fmt.Errorf("compare: NEW: %w", err)
			}
			for _, r := range append(oldResults, newResults...) {
				warnLeftOut(r.LeftOut)
			}
			cmp := compare.Compare(oldResults, newResults)
			if len(cmp.Changes) == 0 {
				return fmt.Errorf("compare: no run is in both %s and %s (compare results of the same suite)", args[0], args[1])
			}
			return cmp.WriteText(os.Stdout)
		},
	}
}
