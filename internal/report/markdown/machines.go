package markdown

import (
	"fmt"
	"strings"

	"restbench/internal/report/model"
)

func writeMachines(b *strings.Builder, er *model.ExperimentReport) {
	for _, l := range model.MachineLines(er) {
		fmt.Fprintf(b, "> **%s:** %s\n\n", model.FlagOtherMachine, model.Cell(l))
	}
}
