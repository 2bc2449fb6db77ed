package model

import (
	"slices"

	"restbench/internal/result"
)

// TrialNotRun says whether a trial was never attempted on the machine that wrote
// it (a missing engine, too few cores, a runtime that cannot do it): it is
// neither measured nor failed, and the report says why instead.
func TrialNotRun(t result.Trial) bool {
	return t.Status == result.StatusNotRun || t.Status == result.StatusNotSupported
}

// NotRunReasons are the distinct reasons a run's trials were not run, in
// trial order.
func NotRunReasons(r *RunReport) []string {
	var out []string
	for _, t := range r.Trials {
		if TrialNotRun(t) && !slices.Contains(out, t.Error) {
			out = append(out, t.Error)
		}
	}
	return out
}
