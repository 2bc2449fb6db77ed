package markdown

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"restbench/internal/report/model"
)

// writeRuntimeFlags lists, under the environment table, the flags each
// runtime was started with and the runs that used them: the Node servers'
// V8 flags (chosen for /filter's memory bound) are a setting of the
// measurement, and a run without them (runtime_flags: default) says so.
// Trials from before the record carry no flags and are left out.
func writeRuntimeFlags(b *strings.Builder, suites []*model.SuiteReport) {
	runs := map[string][]string{} // "node@24: flags" -> run ids
	for _, s := range suites {
		for _, e := range s.Experiments {
			for _, r := range e.Runs {
				if key, ok := model.RunFlags(r); ok && !slices.Contains(runs[key], r.Info.ID) {
					runs[key] = append(runs[key], r.Info.ID)
				}
			}
		}
	}
	if len(runs) == 0 {
		return
	}
	fmt.Fprintf(b, "Runtime flags (as each server was started; docs/results.md):\n\n")
	for _, key := range slices.Sorted(maps.Keys(runs)) {
		ids := runs[key]
		list := strings.Join(ids, ", ")
		if len(ids) > 6 {
			list = fmt.Sprintf("%s and %d more", strings.Join(ids[:6], ", "), len(ids)-6)
		}
		fmt.Fprintf(b, "- %s: %s\n", key, model.Cell(list))
	}
	fmt.Fprintf(b, "\n")
}
