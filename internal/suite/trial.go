package suite

import (
	"time"

	"restbench/internal/result"
)

// NewTrial is trial n of run, measured in round n, as every path files it:
// the runner's local and hosts trials and `restbench merge --trial-dir`. A
// run with placement hosts shares CPUs with its generators: its trial says
// hosts and unpinned from the start. The caller fills in what it measured.
func (s *Suite) NewTrial(run Run, n int, started time.Time) *result.Trial {
	t := &result.Trial{
		Suite: s.Name, Experiment: run.Experiment, Run: run.ID, Impl: run.Impl,
		Params: run.Params, Trial: n, Round: n, Started: started.UTC(), Env: run.Env,
		Placement: result.Placement{Quota: run.Quota},
	}
	if run.Hosts > 0 {
		t.Placement.Mode = result.PlacementHosts
		t.Flags = []string{result.FlagUnpinned}
	}
	return t
}
