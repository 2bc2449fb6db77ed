package suite

import "testing"

func TestPlacementHosts(t *testing.T) {
	for _, tc := range []struct {
		placement string
		hosts     int
		pinned    bool
	}{{"hosts", DefaultHosts, false}, {"pinned", 0, true}, {"shared", 0, false}} {
		s, err := Load(writeSuite(t, variant(6, "  duration: 1s\n  placement: "+tc.placement)), Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range s.Runs {
			if r.Hosts != tc.hosts || r.Pinned != tc.pinned {
				t.Errorf("placement %s: run %s has hosts %d, pinned %v; want %d, %v", tc.placement, r.ID, r.Hosts, r.Pinned, tc.hosts, tc.pinned)
			}
		}
	}
}
