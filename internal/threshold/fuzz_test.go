package threshold

import (
	"io"
	"testing"

	"restbench/internal/result"
)

// FuzzParse feeds Parse what a user may type after --threshold: it returns
// a threshold or an error, never panics; a threshold it accepts parses the
// same again from its own text, and checks and prints against a result.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"p99<50ms", "errors<0.1%", "achieved>95%", "p(99)<=2s", "rps>1000", "ok_rps>=10", "p99.9<100us", "mean<1", "errors<5"} {
		f.Add(s)
	}
	l := &result.Load{Stats: result.Stats{Requests: 10, Responses: 9, RPS: 9, Errors: result.Errors{Read: 1}, Latency: result.Latency{P99: 3}}, TargetRPS: 10}
	f.Fuzz(func(t *testing.T, s string) {
		th, err := Parse(s)
		if err != nil {
			return
		}
		again, err := Parse(th.Text)
		if err != nil || again != th {
			t.Errorf("%q parses to %+v, its text %q to %+v (%v)", s, th, th.Text, again, err)
		}
		Print(io.Discard, Check([]Threshold{th}, l, false))
	})
}
