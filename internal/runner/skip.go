package runner

import (
	"fmt"

	"restbench/internal/cpu"
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

// serverCores places run as on the published machine of n cores, on a
// machine of more (run --server-cores): a pinned run that names no CPUs of
// its own gets the first n usable CPUs for its server and the others for
// the generator, which then outruns it (heysphere's "Go uses parallelism"
// on its author's 4 cores, on a 16-core VM); an unpinned one (placement:
// shared, as published) shares the first n with its generator, as the
// published server shared its machine with wrk. A run whose server asks for
// more threads than n is not run ("needs"), never squeezed onto n; runs
// that name their own CPUs, and n = 0, keep theirs.
func serverCores(run suite.Run, n int, allowed []int) (suite.Run, string) {
	if n <= 0 || run.ServerCPUs != "" || run.ClientCPUs != "" || run.ServerCores > 0 {
		return run, ""
	}
	need := run.CoresNeeded()
	if run.Pinned {
		need-- // the generator's core
	}
	if need > n {
		return run, fmt.Sprintf("not run here: needs %d cores for the server (run --server-cores %d)", need, n)
	}
	if run.Pinned {
		run.ServerCores = n
		return run, ""
	}
	if n > len(allowed) {
		return run, fmt.Sprintf("not run here: needs %d cores (%d usable; run --server-cores %d)", n, len(allowed), n)
	}
	run.ServerCPUs = cpu.FormatList(allowed[:n])
	run.ClientCPUs = run.ServerCPUs
	return run, ""
}
