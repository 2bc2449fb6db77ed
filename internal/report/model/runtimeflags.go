package model

import (
	"strings"
)

// RunFlags is "runtime: `flags`" for the run's first trial that recorded a
// runtime, "runtime: defaults" when it ran without flags.
func RunFlags(r *RunReport) (string, bool) {
	for _, t := range r.Trials {
		rt := t.Runtime
		if rt == nil || rt.Name == "" || strings.HasPrefix(rt.Name, "go@") {
			continue
		}
		if len(rt.Flags) == 0 {
			return rt.Name + ": defaults (no flags)", true
		}
		return rt.Name + ": `" + strings.Join(rt.Flags, " ") + "`", true
	}
	return "", false
}
