package runner

import (
	"fmt"

	"restbench/internal/engine"
	"restbench/internal/suite"
)

// notRun says why this machine cannot run run ("not run: wrk is not
// installed (apt-get install wrk)", "not run here: needs 7 cores"), or ""
// when it can. Such a trial is recorded as not-run, which is no failure: the
// same suite runs it on a machine that has what it needs.
func notRun(run suite.Run, usable int) string {
	if why := engine.Missing(run.Engine); why != "" {
		return "not run: " + why
	}
	// On a one-core machine a one-thread server shares its core with the
	// generator, flagged unpinned, as placement has always done.
	if need := run.CoresNeeded(); need > usable && !(usable == 1 && need == 2 && run.Pinned) {
		return fmt.Sprintf("not run here: needs %d cores (%d usable)", need, usable)
	}
	return ""
}
