package verdict

import (
	"path/filepath"
	"testing"

	"restbench/internal/result"
	"restbench/internal/suite"
)

// TestSampleReportCases grades the eight cases of issue 10's table as the
// suites now state them (suites/*.yaml at standard scale), on trials with
// the figures of docs/sample-report (one standard-scale make bench; its
// trial files are not kept, so each run's min, median and max stand for its
// rounds 1-3, in that order, which pairs like with like).
func TestSampleReportCases(t *testing.T) {
	load := func(name string) result.Suite {
		s, err := suite.Load(filepath.Join("../../suites", name+".yaml"), suite.Options{Scale: "standard"})
		if err != nil {
			t.Fatal(err)
		}
		return s.Info
	}
	suites := map[string]result.Suite{}
	for _, n := range []string{"dotchev-echo", "joshuous-sum", "fastify-fasthttp", "heysphere", "filter-heartbeat"} {
		suites[n] = load(n)
	}
	three := func(f func(v float64) fig, lo, med, hi float64) []fig { return []fig{f(lo), f(med), f(hi)} }
	rps := func(v float64) fig { return fig{rps: v} }
	mean := func(v float64) fig { return fig{mean: v} }
	cases := []struct {
		suite, text string
		trials      map[string][]fig
		was, want   string
	}{
		{"joshuous-sum", "Go handles the sum about 2x faster than Node.js", map[string][]fig{
			"sum/go-chi":       three(rps, 13516, 13723, 15420),
			"sum/node-express": three(rps, 2235, 2575, 2826),
		}, Holds, DoesNotHold},
		{"fastify-fasthttp", "Go is the winner especially with more concurrent requests: its lead grows from 100 to 500", map[string][]fig{
			"hello/go-fasthttp c=100":  three(rps, 15685, 15868, 16297),
			"hello/node-fastify c=100": three(rps, 6753, 8270, 10462),
			"hello/go-fasthttp c=500":  three(rps, 13112, 13589, 16009),
			"hello/node-fastify c=500": three(rps, 6199, 7301, 8450),
		}, Holds, Inconclusive},
		{"fastify-fasthttp", "Go's serving time is still flat at c=500 while Node's tail grows (p99/p50)", map[string][]fig{
			"hello/node-fastify c=500": {{p50: 66.1, p99: 96.0}, {p50: 67.4, p99: 98.0}, {p50: 68.0, p99: 98.9}},
			"hello/go-fasthttp c=500":  {{p50: 31.5, p99: 45.6}, {p50: 32.2, p99: 46.7}, {p50: 33.0, p99: 47.9}},
		}, Holds, DoesNotHold},
		{"heysphere", "At 40 ms delay Node's latency grows 6 times (against its 30 ms figure)", map[string][]fig{
			"delay/node-express delay=40ms": three(mean, 140, 265, 390),
			"delay/node-express delay=30ms": three(mean, 274, 297, 319),
		}, Holds, DoesNotHold},
		{"heysphere", "1 % of computations: Node's latency goes sky high, almost 488 times higher", map[string][]fig{
			"computation/node-express work=1%": three(mean, 12.5, 54.6, 96.8),
			"computation/node-express work=0%": three(mean, 40.2, 146, 251),
		}, Holds, DoesNotHold},
		{"joshuous-sum", "Node.js alone handles requests at about the same speed as under PM2", map[string][]fig{
			"sum/node-express":     three(rps, 2235, 2575, 2826),
			"sum/node-express pm2": three(rps, 2608, 2729, 2815),
		}, Inconclusive, Inconclusive},
		{"dotchev-echo", "1-CPU quota: Go with GOMAXPROCS=4 collapses (579 against 6,210 req/s with GOMAXPROCS=1)", map[string][]fig{
			"quota-1cpu/go-nethttp GOMAXPROCS=1": three(rps, 7473, 7484, 7504),
			"quota-1cpu/go-nethttp GOMAXPROCS=4": three(rps, 7211, 7876, 7957),
		}, Inconclusive, DoesNotHold},
		// The sample probed every 5 s in 15 s trials: 3 probes a trial.
		{"filter-heartbeat", "The heartbeat starves far more under Node (all cores of this machine, 2 threads)", map[string][]fig{
			"filter/node-express THREADS=2": {{probeMean: 61.1, probes: 3}, {probeMean: 80.2, probes: 3}, {probeMean: 99.3, probes: 3}},
			"filter/go-gin THREADS=2":       {{probeMean: 57.4, probes: 3}, {probeMean: 62.6, probes: 3}, {probeMean: 67.8, probes: 3}},
		}, Inconclusive, Inconclusive},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			s := suites[tc.suite]
			var c *result.Conclusion
			runs := map[string]result.RunInfo{}
			for _, e := range s.Experiments {
				for i := range e.Conclusions {
					if e.Conclusions[i].Text == tc.text {
						c = &e.Conclusions[i]
						for _, r := range e.Runs {
							runs[r.ID] = r
						}
					}
				}
			}
			if c == nil {
				t.Fatalf("no conclusion %q in %s", tc.text, tc.suite)
			}
			trials := map[string][]*result.Trial{}
			for id, figs := range tc.trials {
				trials[id] = trialsOf(id, figs...)
			}
			v := Evaluate(*c, runs, trials)
			t.Logf("%s: published %.3g, measured %.3g (%.3g–%.3g), rule %s: %s %s (was %s)", tc.suite, v.Published, v.Estimate, v.Lo, v.Hi, v.Rule, v.Outcome, v.Why, tc.was)
			if v.Outcome != tc.want {
				t.Errorf("outcome %q, want %q (%s)", v.Outcome, tc.want, v.Why)
			}
		})
	}
}
