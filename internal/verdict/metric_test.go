package verdict

import (
	"math"
	"testing"

	"restbench/internal/result"
)

// TestSlowerMachine: a trial of run --server-cpu F stands in for a machine
// whose server is F as fast, and its CPU figures read as there: the same
// samples at F = 0.5 show twice the share of a core and twice the CPU per
// response; throughput and latency are measured as they are.
func TestSlowerMachine(t *testing.T) {
	perResp, idle := 40.0, 1.5
	trial := func(f float64) *result.Trial {
		return &result.Trial{
			Placement: result.Placement{ServerCPUs: "1", ServerCPU: f},
			Load:      &result.Load{Stats: result.Stats{RPS: 1000}},
			Monitor:   &result.Monitor{ServerCPUMean: 45, ServerCPUPeak: 50, CPUPerResponseUS: &perResp, IdleCPU: &idle},
		}
	}
	for _, c := range []struct {
		key          string
		full, halved float64
	}{
		{"cpu_pct", 45, 90},
		{"cpu_peak_pct", 50, 100},
		{CPUPerResponseKey, 40, 80},
		{IdleCPUKey, 1.5, 3},
		{"rps", 1000, 1000},
	} {
		for _, f := range []struct {
			f, want float64
		}{{0, c.full}, {0.5, c.halved}} {
			got, ok := Value(trial(f.f), nil, nil, c.key)
			if !ok || math.Abs(got-f.want) > 1e-9 {
				t.Errorf("%s at server_cpu %g = %v, %v; want %v", c.key, f.f, got, ok, f.want)
			}
		}
	}
}
