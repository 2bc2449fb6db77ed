package markdown

import (
	"fmt"
	"strings"

	"restbench/internal/report/model"
)

// writeRuntime quotes model.RuntimeLines under the experiment's tables.
func writeRuntime(b *strings.Builder, e *model.ExperimentReport) {
	lines := model.RuntimeLines(e)
	if len(lines) > 0 {
		fmt.Fprintf(b, "From inside the servers:\n\n- %s\n\n", strings.Join(lines, "\n- "))
	}
}
