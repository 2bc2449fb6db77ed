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
			Monitor: &result.Monitor{ServerCPUMean: 45, ServerCPUPeak: 50, CPUPerResponseUS: &perResp, IdleCPU: &idle,
				Samples: []result.Sample{{ServerCPU: 40}, {ServerCPU: 45}, {ServerCPU: 50}}},
		}
	}
	for _, c := range []struct {
		key          string
		full, halved float64
	}{
		{"cpu_pct", 45, 90},
		{"cpu_peak_pct", 50, 100},
		{CPUMedianKey, 45, 90},
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

// TestCPUMedian: an -n run whose last connections wait on retransmitted
// SYNs (joshuous' Node, 2026-11-25: 17 samples at 96-124 %, then 13 at
// 0-8 % while the server idles) reads 100 % as a meter did during the load;
// the window's mean reads 61 %.
func TestCPUMedian(t *testing.T) {
	cpu := []float64{109, 124, 116, 122, 124, 113, 100, 100, 104, 100, 100, 100, 100, 96, 100, 100, 104, 0, 4, 4, 8, 0, 0, 0, 4, 0, 0, 0, 0, 4}
	m := &result.Monitor{}
	for _, c := range cpu {
		m.Samples = append(m.Samples, result.Sample{ServerCPU: c})
		m.ServerCPUMean += c / float64(len(cpu))
	}
	tr := &result.Trial{Load: &result.Load{}, Monitor: m}
	for _, c := range []struct {
		key  string
		want float64
	}{{CPUMedianKey, 100}, {"cpu_pct", 1836.0 / 30}} {
		if got, ok := Value(tr, nil, nil, c.key); !ok || math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s = %v, %v; want %v", c.key, got, ok, c.want)
		}
	}
	if _, ok := Value(&result.Trial{Load: &result.Load{}, Monitor: &result.Monitor{}}, nil, nil, CPUMedianKey); ok {
		t.Error("no samples: want no value")
	}
}
