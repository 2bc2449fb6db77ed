package html

import (
	"restbench/internal/report/model"
	"restbench/internal/report/summary"
	"restbench/internal/result"
)

// htmlVerdict is one verdict line of report.html.
type htmlVerdict struct {
	ID, Outcome, Text string
}

func htmlVerdicts(s *model.SuiteReport, e *model.ExperimentReport) []htmlVerdict {
	var out []htmlVerdict
	for i, v := range e.Verdicts {
		o := summary.OutcomeCell(v)
		if v.Kind == result.KindAA {
			o = "A/A noise floor"
		}
		out = append(out, htmlVerdict{ID: summary.VerdictID(s, e, i), Outcome: o, Text: summary.VerdictDetail(v)})
	}
	return out
}
