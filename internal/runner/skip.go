package runner

import (
	"fmt"
	"math"
	"strconv"

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
	if need := coresNeeded(run); need > usable && !(usable == 1 && need == 2 && run.Pinned) {
		return fmt.Sprintf("not run here: needs %d cores (%d usable)", need, usable)
	}
	return ""
}

// coresNeeded is how many cores a run asks for: as many as the server's
// threads, GOMAXPROCS or workers (whichever is largest), plus one for the
// generator when the two are pinned to disjoint cores. Under a CPU quota the
// server needs only the quota, rounded up: more threads than the quota is
// the experiment itself (GOMAXPROCS=4 under a 1-CPU quota runs on 2 cores),
// not a request for parallelism. THREADS=auto and an unset GOMAXPROCS take
// what there is, and explicit CPU lists are checked where they are placed.
// Asking for more than the machine has is never quietly turned into "all
// cores": the trial is not run, and says what it needs.
func coresNeeded(run suite.Run) int {
	if run.ServerCPUs != "" || run.ClientCPUs != "" {
		return 0
	}
	server := 0
	for _, k := range []string{"THREADS", "GOMAXPROCS"} {
		if n, err := strconv.Atoi(run.Env[k]); err == nil {
			server = max(server, n)
		}
	}
	if run.Quota > 0 {
		server = int(math.Ceil(run.Quota))
	}
	if server == 0 {
		return 0
	}
	if run.Pinned {
		return server + 1
	}
	return server
}
