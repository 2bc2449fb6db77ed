package html

import (
	"restbench/internal/result"

	"restbench/internal/report/model"
)

// htmlVerdict is one verdict line of report.html.
type htmlVerdict struct {
	ID, Outcome, Text string
}

func htmlVerdicts(s *model.SuiteReport, e *model.ExperimentReport) []htmlVerdict {
	var out []htmlVerdict
	for i, v := range e.Verdicts {
		o := model.OutcomeCell(v)
		if v.Kind == result.KindAA {
			o = "A/A noise floor"
		}
		out = append(out, htmlVerdict{ID: model.VerdictID(s, e, i), Outcome: o, Text: model.VerdictDetail(v)})
	}
	return out
}
