package markdown

import (
	"fmt"
	"strings"

	"restbench/internal/report/model"
)

// writeCalibration writes the work calibration table of e in Markdown.
func writeCalibration(b *strings.Builder, e *model.ExperimentReport) {
	rows := model.CalibrationRows(e)
	if rows == nil {
		return
	}
	fmt.Fprintf(b, "Work calibration (W ms of CPU per heavy request: heavy responses × W against the server's CPU, "+
		"medians over the trials, the last two as median (min–max); see docs/report.md):\n\n")
	writeTable(b, model.CalibrationHeader, rows, strings.Repeat("---:|", len(model.CalibrationHeader)-1))
}
