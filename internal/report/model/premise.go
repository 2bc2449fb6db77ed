package model

import (
	"restbench/internal/result"
	"restbench/internal/verdict"
)

// premiseRatios gives a "not run here" verdict whose cells ran, short of
// the claim's premise (cores, requests in flight), the ratio they measured:
// the first screen shows it beside the state, as no verdict.
func premiseRatios(er *ExperimentReport, r *Results, trials map[string][]*result.Trial) {
	runs := suiteRuns(r.Suite)
	for i := range er.Verdicts {
		v := &er.Verdicts[i]
		if v.Outcome != NotRun || v.Requires == nil || v.From != nil || i >= len(er.Experiment.Conclusions) {
			continue
		}
		c := er.Experiment.Conclusions[i]
		c.Requires = nil
		w := verdict.Evaluate(c, runs, trials, er.Experiment.Looks)
		if w.Pairs == 0 {
			continue
		}
		v.Estimate, v.Lo, v.Hi, v.Interval, v.Pairs, v.Points = w.Estimate, w.Lo, w.Hi, w.Interval, w.Pairs, w.Points
	}
}
