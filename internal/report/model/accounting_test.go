package model

import (
	"strings"
	"testing"

	"restbench/internal/result"
)

// The accept-queue line counts a run's retransmission-bound trials (an
// overflow, then a whole idle second before the last response) beside its
// overflows, and says nothing of them where none idled.
func TestListenNoteRetransmissionBound(t *testing.T) {
	trial := func(idle bool) Measured {
		l := &result.Load{DurationS: 7.8}
		for s, n := range []int64{7600, 7500, 11100, 12150, 11180, 40, 55, 370} {
			if !idle && n < 1000 {
				n = 6000
			}
			l.Timeline = append(l.Timeline, result.Second{T: s, Requests: n})
		}
		return Measured{Trial: &result.Trial{Load: l, Listen: &result.Listen{Backlog: 511, Overflows: 4000}}}
	}
	for _, c := range []struct {
		name  string
		idle  []bool
		want  string
		wants bool
	}{
		{"two of three idled", []bool{true, false, true}, "retransmission-bound in 2 of 3 trials (the server idle up to 2 s before the last response", true},
		{"none idled", []bool{false, false}, "retransmission-bound", false},
	} {
		rr := &RunReport{Info: result.RunInfo{ID: "sum/node-express", Label: "node-express"}}
		for _, i := range c.idle {
			rr.OK = append(rr.OK, trial(i))
		}
		got := ListenNote(&ExperimentReport{Runs: []*RunReport{rr}})
		if strings.Contains(got, c.want) != c.wants || !strings.Contains(got, "overflowed in") {
			t.Errorf("%s: %q; want %q in it: %v", c.name, got, c.want, c.wants)
		}
	}
}
