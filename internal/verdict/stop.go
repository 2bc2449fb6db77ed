package verdict

import (
	"fmt"
	"strings"

	"restbench/internal/result"
)

// StopRule is what the runner asks after each interleaved round of an
// experiment (runner.Options.Enough): given every trial of that experiment
// so far, may it stop adding rounds? It stops once every conclusion is
// decided: its interval no longer straddles a boundary of its claim (or its
// runs cannot run on this machine at all); why says which verdicts settled
// or which are still open. An experiment without conclusions stops at once;
// the runner's minimum trials and time cap still apply.
func StopRule(s result.Suite) func(experiment string, trials []*result.Trial) (stop bool, why string) {
	return func(experiment string, trials []*result.Trial) (bool, string) {
		var e *result.Experiment
		for i := range s.Experiments {
			if s.Experiments[i].Name == experiment {
				e = &s.Experiments[i]
			}
		}
		if e == nil || len(e.Conclusions) == 0 {
			return true, "no conclusion to settle"
		}
		byRun := map[string][]*result.Trial{}
		for _, t := range trials {
			byRun[t.Run] = append(byRun[t.Run], t)
		}
		decided := 0
		var open []string
		for _, v := range EvaluateExperiment(*e, byRun) {
			if v.Decided() {
				decided++
				continue
			}
			open = append(open, fmt.Sprintf("%q is %s (%s)", v.Text, v.Outcome, v.Why))
		}
		if len(open) == 0 {
			return true, fmt.Sprintf("all %d verdicts settled", decided)
		}
		return false, fmt.Sprintf("%d of %d verdicts open: %s", len(open), decided+len(open), strings.Join(open, "; "))
	}
}

// EvaluateExperiment grades every conclusion of an experiment.
func EvaluateExperiment(e result.Experiment, trials map[string][]*result.Trial) []Verdict {
	runs := map[string]result.RunInfo{}
	for _, r := range e.Runs {
		runs[r.ID] = r
	}
	var out []Verdict
	for _, c := range e.Conclusions {
		out = append(out, Evaluate(c, runs, trials, e.Looks))
	}
	return out
}
