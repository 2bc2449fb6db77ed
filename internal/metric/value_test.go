package metric

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
				Samples: []result.Sample{{ServerCPU: 40, ServerThreadCPU: 38}, {ServerCPU: 45, ServerThreadCPU: 40}, {ServerCPU: 50, ServerThreadCPU: 44}}},
		}
	}
	for _, c := range []struct {
		key          string
		full, halved float64
	}{
		{"cpu_pct", 45, 90},
		{"cpu_peak_pct", 50, 100},
		{CPUMedian, 45, 90},
		{CPUThreadMedian, 40, 80},
		{CPUPerResponse, 40, 80},
		{IdleCPU, 1.5, 3},
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

func TestPercentileKey(t *testing.T) {
	for key, want := range map[string]float64{"p50_ms": 50, "p99_ms": 99, "p999_ms": 99.9, "p9999_ms": 99.99, "p100_ms": 100, "p66_ms": 66} {
		if got, ok := PercentileKey(key); !ok || got != want {
			t.Errorf("PercentileKey(%q) = %v, %v; want %v", key, got, ok, want)
		}
	}
	for _, bad := range []string{"rps", "p_ms", "pxx_ms", "p50", "p0_ms", "p101_ms"} {
		if _, ok := PercentileKey(bad); ok {
			t.Errorf("PercentileKey(%q) accepted", bad)
		}
	}
}

// TestStatsValueToolPercentiles: a figure ab or wrk printed is read from
// the summary's percentiles, and a percentile it did not print is unknown.
func TestStatsValueToolPercentiles(t *testing.T) {
	s := &result.Stats{Latency: result.Latency{P50: 57, P99: 66, Max: 84,
		Percentiles: map[string]float64{"66": 57, "95": 62, "98": 64}}}
	for _, c := range []struct {
		key  string
		want float64
		ok   bool
	}{
		{"p50_ms", 57, true},
		{"median_ms", 57, true},
		{"p66_ms", 57, true},
		{"p95_ms", 62, true},
		{"p98_ms", 64, true},
		{"p100_ms", 84, true},
		{"p80_ms", 0, false},
	} {
		got, ok := StatsValue(s, nil, c.key)
		if got != c.want || ok != c.ok {
			t.Errorf("StatsValue(%s) = %v, %v; want %v, %v", c.key, got, ok, c.want, c.ok)
		}
	}
}

// TestLoadValue: the figures a load gives on its own, derived ones
// included; a figure the load cannot give is not made up.
func TestLoadValue(t *testing.T) {
	open := &result.Load{Stats: result.Stats{RPS: 970, OKRPS: 960, Requests: 9700,
		Latency: result.Latency{P50: 2, P99: 7, Mean: 2.5, Max: 30}},
		TargetRPS: 1000,
		Probe:     &result.Stats{Latency: result.Latency{Mean: 1.5}},
		Targets:   map[string]*result.Stats{"light": {Latency: result.Latency{Mean: 0.9, P99: 4}}}}
	closed := &result.Load{Stats: result.Stats{RPS: 970, Latency: result.Latency{P99: 7}}}
	for _, c := range []struct {
		l    *result.Load
		key  string
		want float64
		ok   bool
	}{
		{open, Achieved, 0.97, true},
		{closed, Achieved, 0, false},
		{open, "ok_rps", 960, true},
		{open, "rps", 970, true},
		{open, "requests", 9700, true},
		{open, Shape, 3.5, true},
		{closed, Shape, 0, false}, // no p50
		{open, "latency_mean_ms", 2.5, true},
		{open, "p99_ms", 7, true},
		{open, "probe_mean_ms", 1.5, true},
		{closed, "probe_mean_ms", 0, false},
		{open, "light_latency_mean_ms", 0.9, true},
		{open, "light_p99_ms", 4, true},
		{closed, "light_p99_ms", 0, false},
		{open, "failed", 0, false},
	} {
		got, ok := LoadValue(c.l, nil, nil, c.key)
		if ok != c.ok || math.Abs(got-c.want) > 1e-9 {
			t.Errorf("LoadValue(%s) = %v, %v; want %v, %v", c.key, got, ok, c.want, c.ok)
		}
	}
}

func TestPublishedValue(t *testing.T) {
	p := map[string]float64{"rps": 12900, "p99_ms": 9, "p50_ms": 3, "cpu_pct": 0}
	for _, c := range []struct {
		p    map[string]float64
		key  string
		want float64
		ok   bool
	}{
		{p, "rps", 12900, true},
		{p, "cpu_pct", 0, true}, // printed as 0
		{p, "rss_mb", 0, false},
		{p, Shape, 3, true},
		{map[string]float64{"p99_ms": 9}, Shape, 0, false},
		{map[string]float64{"p99_ms": 9, "p50_ms": 0}, Shape, 0, false},
	} {
		got, ok := PublishedValue(c.p, c.key)
		if got != c.want || ok != c.ok {
			t.Errorf("PublishedValue(%v, %s) = %v, %v; want %v, %v", c.p, c.key, got, ok, c.want, c.ok)
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
	}{{CPUMedian, 100}, {"cpu_pct", 1836.0 / 30}} {
		if got, ok := Value(tr, nil, nil, c.key); !ok || math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s = %v, %v; want %v", c.key, got, ok, c.want)
		}
	}
	if _, ok := Value(&result.Trial{Load: &result.Load{}, Monitor: &result.Monitor{}}, nil, nil, CPUMedian); ok {
		t.Error("no samples: want no value")
	}
}

// TestCPUThreadMedian: one CPU at a meter's reading is the server's busiest
// thread. A saturated event loop reads at most a core where the process
// with its helper threads reads more (joshuous' Node, 2026-11-27: 98-130 %
// a sample); a slower machine's thread is divided by F and still at most a
// core; samples with no thread read (results from before, not Linux) give
// no value rather than 0 %.
func TestCPUThreadMedian(t *testing.T) {
	trial := func(f float64, thread ...float64) *result.Trial {
		m := &result.Monitor{}
		for _, c := range thread {
			m.Samples = append(m.Samples, result.Sample{ServerCPU: 100 + c/10, ServerThreadCPU: c})
		}
		return &result.Trial{Placement: result.Placement{ServerCPU: f}, Load: &result.Load{}, Monitor: m}
	}
	for _, c := range []struct {
		name string
		tr   *result.Trial
		want float64
		ok   bool
	}{
		{"the event loop beside its helpers", trial(0, 93, 95, 100, 91, 2, 1), 92, true},
		{"saturated", trial(0, 100, 100, 100), 100, true},
		{"half the CPU, as the slower machine reads it", trial(0.5, 45, 47, 46), 92, true},
		{"half the CPU, samples over the quota's share (stale clocks)", trial(0.5, 50.4, 50.6, 50.2), 100, true},
		{"no thread read", trial(0, 0, 0, 0), 0, false},
		{"no samples", trial(0), 0, false},
	} {
		got, ok := Value(c.tr, nil, nil, CPUThreadMedian)
		if ok != c.ok || math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: %s = %v, %v; want %v, %v", c.name, CPUThreadMedian, got, ok, c.want, c.ok)
		}
	}
}
