package result

import "testing"

// timeline is a Load of per-second completions over d seconds.
func timeline(d float64, per ...int64) *Load {
	l := &Load{}
	l.DurationS = d
	for t, n := range per {
		l.Timeline = append(l.Timeline, Second{T: t, Requests: n})
	}
	return l
}

// Idle seconds are whole seconds before the last under 5 % of the mean
// rate; only a run whose listen queue overflowed is retransmission-bound.
// The timelines are joshuous' node-express, 50,000 requests without
// keep-alive (standard benches of 2026-11-27).
func TestIdleSeconds(t *testing.T) {
	overflowed := &Listen{Backlog: 511, Overflows: 4000}
	cases := []struct {
		name   string
		l      *Load
		listen *Listen
		idle   int
		bound  int
	}{
		{"full speed: a short last second is no idle one", timeline(4.54, 12076, 14699, 13945, 8887, 393), overflowed, 0, 0},
		{"half the CPU: four idle seconds before the last re-sent SYN", timeline(14.53, 3140, 4040, 3131, 5029, 6276, 6627, 6479, 7069, 6286, 1491, 22, 0, 0, 0, 410), overflowed, 4, 4},
		{"a second under 5 % of the mean rate is idle (136 of 5,064 a second)", timeline(9.87, 5014, 4976, 7099, 8151, 8463, 8218, 7593, 136, 2, 348), overflowed, 2, 2},
		{"a missing second completed none", &Load{Stats: Stats{Timeline: []Second{{T: 0, Requests: 5000}, {T: 1, Requests: 5000}, {T: 4, Requests: 300}}}, DurationS: 4.5}, overflowed, 2, 2},
		{"idle without an overflow: not the queue's", timeline(14.53, 3140, 4040, 3131, 5029, 6276, 6627, 6479, 7069, 6286, 1491, 22, 0, 0, 0, 410), &Listen{Backlog: 4096}, 4, 0},
		{"no timeline (ab, wrk)", &Load{DurationS: 14.5}, overflowed, 0, 0},
		{"one second", timeline(0.8, 40000), overflowed, 0, 0},
	}
	for _, c := range cases {
		if got := IdleSeconds(c.l); got != c.idle {
			t.Errorf("%s: %d idle seconds, want %d", c.name, got, c.idle)
		}
		if got := RetransmissionBound(&Trial{Load: c.l, Listen: c.listen}); got != c.bound {
			t.Errorf("%s: retransmission-bound %d, want %d", c.name, got, c.bound)
		}
	}
	if RetransmissionBound(nil) != 0 || IdleSeconds(nil) != 0 {
		t.Error("nil: want 0")
	}
}
