package model

import (
	"fmt"
	"strings"

	"restbench/internal/result"
)

// placementNote says, in a run's flags cell, when its figures come from the
// hosts placement (a server host of its own, N generator hosts, results
// merged) rather than from one machine; "" otherwise. Pinned is the default
// and shared trials carry the unpinned flag already.
func placementNote(r *RunReport) string {
	for _, t := range r.Trials {
		if t.Placement.Kind() != result.PlacementHosts {
			continue
		}
		if t.Load != nil {
			if n, ok := strings.CutPrefix(t.Load.Settings.Shard, "merged "); ok {
				return fmt.Sprintf("placement hosts (%s generators)", n)
			}
		}
		return "placement hosts"
	}
	return ""
}
