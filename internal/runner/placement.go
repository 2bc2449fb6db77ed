package runner

import (
	"fmt"
	"slices"

	"restbench/internal/cpu"
	"restbench/internal/result"
	"restbench/internal/suite"
)

// placement is where one trial's server and generator run.
type placement struct {
	server, client []int
	pinned         bool
	flags          []string
}

// place chooses the CPUs of a run on a machine whose usable CPUs are
// allowed. By default the server and the generator get disjoint sets: the
// generator on the last CPU, the server on the others. Sharing cores would
// make the two compete, and a fast generator would then look like a slow
// server. An experiment may ask for the published, unpinned set-up
// (Run.Pinned false): both get every CPU and the trial says so.
func place(run suite.Run, allowed []int) (placement, error) {
	if run.ServerCPUs != "" || run.ClientCPUs != "" {
		server, client := allowed, allowed
		var err error
		if run.ServerCPUs != "" {
			if server, err = cpu.ParseList(run.ServerCPUs); err != nil {
				return placement{}, fmt.Errorf("placement: server: %w", err)
			}
		}
		if run.ClientCPUs != "" {
			if client, err = cpu.ParseList(run.ClientCPUs); err != nil {
				return placement{}, fmt.Errorf("placement: client: %w", err)
			}
		}
		for _, c := range append(slices.Clone(server), client...) {
			if !slices.Contains(allowed, c) {
				return placement{}, fmt.Errorf("CPU %d is not usable here (usable: %s); change the lists of placement: {server: ..., client: ...}, or use placement: pinned and let the runner choose", c, cpu.FormatList(allowed))
			}
		}
		p := placement{server: server, client: client, pinned: disjoint(server, client)}
		if !p.pinned {
			p.flags = append(p.flags, result.FlagUnpinned)
		}
		return p, nil
	}
	if k := run.ServerCores; k > 0 {
		if k >= len(allowed) {
			return placement{}, fmt.Errorf("placement: {cores: %d} needs %d usable CPUs, one for the generator (usable: %s)", k, k+1, cpu.FormatList(allowed))
		}
		return placement{server: slices.Clone(allowed[:k]), client: slices.Clone(allowed[k:]), pinned: true}, nil
	}
	if !run.Pinned || len(allowed) < 2 {
		return placement{server: allowed, client: allowed, flags: []string{result.FlagUnpinned}}, nil
	}
	n := len(allowed)
	return placement{server: slices.Clone(allowed[:n-1]), client: []int{allowed[n-1]}, pinned: true}, nil
}

func disjoint(a, b []int) bool {
	for _, c := range a {
		if slices.Contains(b, c) {
			return false
		}
	}
	return true
}
