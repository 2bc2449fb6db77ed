package suite

import (
	"maps"
	"slices"
	"testing"
	"time"

	"restbench/internal/result"
)

func TestNewTrial(t *testing.T) {
	s := &Suite{Name: "s"}
	at := time.Date(2026, 11, 23, 23, 0, 0, 0, time.FixedZone("CET", 3600))
	env := map[string]string{"THREADS": "1"}
	for _, c := range []struct {
		name      string
		run       Run
		wantMode  string
		wantFlags []string
	}{
		{"one machine: the runner places it later", Run{ID: "e/a", Experiment: "e", Impl: "a", Env: env, Quota: 1, Pinned: true}, "", nil},
		{"hosts: shares CPUs with its generators", Run{ID: "e/b", Experiment: "e", Impl: "b", Env: env, Hosts: 2}, result.PlacementHosts, []string{result.FlagUnpinned}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := s.NewTrial(c.run, 3, at)
			if tr.Suite != "s" || tr.Run != c.run.ID || tr.Experiment != "e" || tr.Impl != c.run.Impl || tr.Trial != 3 || tr.Round != 3 ||
				!tr.Started.Equal(at) || tr.Started.Location() != time.UTC || !maps.Equal(tr.Env, env) {
				t.Errorf("trial %+v", tr)
			}
			if tr.Placement.Mode != c.wantMode || tr.Placement.Pinned || tr.Placement.Quota != c.run.Quota || !slices.Equal(tr.Flags, c.wantFlags) {
				t.Errorf("placement %+v, flags %v; want mode %q, flags %v", tr.Placement, tr.Flags, c.wantMode, c.wantFlags)
			}
		})
	}
}
