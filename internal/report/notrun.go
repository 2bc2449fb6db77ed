package report

import (
	"fmt"
	"strings"

	"restbench/internal/result"
)

// notRun says whether a trial was never attempted on the machine that wrote
// it (a missing engine, too few cores, a runtime that cannot do it): it is
// neither measured nor failed, and the report says why instead.
func notRun(t result.Trial) bool {
	return t.Status == result.StatusNotRun || t.Status == result.StatusNotSupported
}

// notRunReasons are the distinct reasons a run's trials were not run, in
// trial order.
func notRunReasons(r *RunReport) []string {
	var out []string
	for _, t := range r.Trials {
		if notRun(t) && !containsString(out, t.Error) {
			out = append(out, t.Error)
		}
	}
	return out
}

// writeNotRun lists, under an experiment's tables, every run with trials that
// were not run and why, so that a skipped cross-check is never mistaken for a
// missing result or a failure.
func writeNotRun(b *strings.Builder, e *ExperimentReport) {
	for _, r := range e.Runs {
		for _, why := range notRunReasons(r) {
			n := 0
			for _, t := range r.Trials {
				if notRun(t) && t.Error == why {
					n++
				}
			}
			fmt.Fprintf(b, "> **%s, %d trial(s):** %s\n\n", cell(r.label()), n, oneLine(why))
		}
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
