package markdown

import (
	"fmt"
	"strings"

	"restbench/internal/report/model"
)

func writeCost(b *strings.Builder, e *model.ExperimentReport) {
	rows := model.CostRows(e)
	if rows == nil {
		return
	}
	fmt.Fprintf(b, "Server CPU cost (CPU time of the server's process tree in the measured part per response that passed validation, or that wrk or ab did not count an error; "+
		"idle: the server at rest after it was ready, before the warm-up; see docs/results.md):\n\n")
	writeTable(b, model.CostHeader, rows, strings.Repeat("---:|", len(model.CostHeader)-1))
}
