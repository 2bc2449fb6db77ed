package model

import (
	"testing"

	"restbench/internal/result"
)

func TestPlacementNote(t *testing.T) {
	hosts := result.Trial{Placement: result.Placement{Mode: result.PlacementHosts}, Load: &result.Load{Settings: result.Settings{Shard: "merged 3"}}}
	for _, tc := range []struct {
		name   string
		trials []result.Trial
		want   string
	}{
		{"hosts", []result.Trial{hosts}, "placement hosts (3 generators)"},
		{"hosts, failed", []result.Trial{{Placement: result.Placement{Mode: result.PlacementHosts}}}, "placement hosts"},
		{"pinned", []result.Trial{{Placement: result.Placement{Pinned: true}}}, ""},
		{"shared, before modes", []result.Trial{{}}, ""},
	} {
		if got := placementNote(&RunReport{Trials: tc.trials}); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
