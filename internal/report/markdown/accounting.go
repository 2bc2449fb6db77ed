package markdown

import (
	"fmt"
	"strings"

	"restbench/internal/report/model"
)

// writeAccounting writes the load accounting table of e in Markdown.
func writeAccounting(b *strings.Builder, e *model.ExperimentReport) {
	rows := model.AccountingRows(e)
	if rows == nil {
		return
	}
	fmt.Fprintf(b, "Load accounting (ok req/s counts responses that passed validation, all req/s every response; "+
		"latency runs from the intended send, service time from the actual one; unfinished requests were in flight when the window closed; "+
		"see docs/results.md):\n\n")
	writeTable(b, model.AccountingHeader, rows, strings.Repeat("---:|", len(model.AccountingHeader)-2)+"---|")
	if note := model.ListenNote(e); note != "" {
		fmt.Fprintf(b, "%s\n\n", note)
	}
}

// writeColumns writes a table whose first column is left-aligned, and the
// others right-aligned where they hold figures.
func writeColumns(b *strings.Builder, t model.Table) {
	var align strings.Builder
	for _, c := range t.Columns[1:] {
		if c.Figure {
			align.WriteString("---:|")
		} else {
			align.WriteString("---|")
		}
	}
	writeTable(b, t.Titles(), t.Rows, align.String())
}

// writeTable writes a Markdown table whose first column is left-aligned
// and the others as align says (the separator row after its first cell).
func writeTable(b *strings.Builder, header []string, rows [][]string, align string) {
	titles := make([]string, len(header))
	for i, h := range header {
		titles[i] = model.Cell(h)
	}
	fmt.Fprintf(b, "| %s |\n|---|%s\n", strings.Join(titles, " | "), align)
	for _, row := range rows {
		cells := make([]string, len(row))
		for i, c := range row {
			cells[i] = model.Cell(c)
		}
		fmt.Fprintf(b, "| %s |\n", strings.Join(cells, " | "))
	}
	fmt.Fprintf(b, "\n")
}
