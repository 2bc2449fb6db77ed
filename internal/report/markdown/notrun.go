package markdown

import (
	"fmt"
	"strings"

	"restbench/internal/report/model"
)

// writeNotRun lists, under an experiment's tables, every run with trials that
// were not run and why, so that a skipped cross-check is never mistaken for a
// missing result or a failure.
func writeNotRun(b *strings.Builder, e *model.ExperimentReport) {
	for _, r := range e.Runs {
		for _, why := range model.NotRunReasons(r) {
			n := 0
			for _, t := range r.Trials {
				if model.TrialNotRun(t) && t.Error == why {
					n++
				}
			}
			fmt.Fprintf(b, "> **%s, %d trial(s):** %s\n\n", model.Cell(r.Label()), n, model.OneLine(why))
		}
	}
}
