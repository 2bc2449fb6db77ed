package runner

import (
	"math"
	"testing"

	"restbench/internal/monitor"
	"restbench/internal/result"
)

// TestCostPerResponse: the server's CPU over the load's own window, per
// response that was not an error.
func TestCostPerResponse(t *testing.T) {
	// A server at 100 % of a core, sampled every 0.25 s for span seconds.
	sampled := func(span float64) *result.Monitor {
		var samples []result.Sample
		for ts := 0.25; ts <= span+1e-9; ts += 0.25 {
			samples = append(samples, result.Sample{T: ts, ServerCPU: 100})
		}
		return monitor.Summarize(samples, 250, 1)
	}
	load := func(seconds float64, responses, errs int64) *result.Load {
		l := &result.Load{}
		l.DurationS, l.Responses, l.Errors.Status = seconds, responses, errs
		return l
	}
	tests := []struct {
		name string
		m    *result.Monitor
		l    *result.Load
		want float64 // µs; NaN: no figure
	}{
		{"the monitor saw the window", sampled(2), load(2, 20000, 0), 100},
		// wrk's warm-up rounded up and its start-up: the samples span 3 s,
		// the window 2 s at the same rate.
		{"the monitor saw more than an external tool's window", sampled(3), load(2, 20000, 0), 100},
		{"errors cost the successes", sampled(2), load(2, 20000, 10000), 200},
		{"nothing succeeded", sampled(2), load(2, 100, 100), math.NaN()},
		{"nothing sampled", monitor.Summarize(nil, 250, 1), load(2, 100, 0), math.NaN()},
	}
	for _, tt := range tests {
		got := costPerResponse(tt.m, tt.l)
		switch {
		case math.IsNaN(tt.want) && got != nil:
			t.Errorf("%s: %.1f µs, want none", tt.name, *got)
		case !math.IsNaN(tt.want) && (got == nil || math.Abs(*got-tt.want) > 0.01*tt.want):
			t.Errorf("%s: %v, want %.1f µs", tt.name, got, tt.want)
		}
	}
}

// TestServerCPUShare: the server's CPU over what it could use, which
// decides whether a load that needed every connection was the server's own
// overload (result.ServerBound) or too few connections.
func TestServerCPUShare(t *testing.T) {
	trial := func(cpuPct float64, cpus string, quota float64, applied bool, threads int) *result.Trial {
		tr := &result.Trial{Placement: result.Placement{ServerCPUs: cpus, Quota: quota, QuotaApplied: applied}}
		tr.Server = &result.Server{Threads: threads}
		tr.Monitor = monitor.Summarize([]result.Sample{{T: 0.25, ServerCPU: cpuPct}, {T: 0.5, ServerCPU: cpuPct}}, 250, 1)
		return tr
	}
	slow := func(tr *result.Trial, f float64) *result.Trial {
		tr.Placement.ServerCPU = f
		return tr
	}
	tests := []struct {
		name string
		t    *result.Trial
		want float64
	}{
		{"pinned to one core, saturated", trial(99, "0", 0, false, 1), 0.99},
		{"Go on two cores at one core's worth", trial(100, "0-1", 0, false, 0), 0.5},
		{"Node's one thread on two cores", trial(97, "0-1", 0, false, 1), 0.97},
		{"a half-CPU quota, used", trial(48, "0", 0.5, true, 0), 0.96},
		{"a quota not applied is no budget", trial(48, "0", 0.5, false, 0), 0.48},
		{"run --server-cpu 0.5, used", slow(trial(49, "0", 0, false, 1), 0.5), 0.98},
		{"run --server-cpu 0.5 of a half-CPU quota", slow(trial(24, "0", 0.5, true, 0), 0.5), 0.96},
		{"run --server-cpu 0.5, Node's one thread on two cores", slow(trial(49, "0-1", 0, false, 1), 0.5), 0.98},
		{"nothing sampled", &result.Trial{Placement: result.Placement{ServerCPUs: "0"}}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := serverCPUShare(tc.t); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("share %.3f, want %.3f", got, tc.want)
			}
		})
	}
}
