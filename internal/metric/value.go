package metric

import (
	"slices"
	"strconv"
	"strings"

	"github.com/HdrHistogram/hdrhistogram-go"

	"restbench/internal/result"
)

const mib = 1 << 20

// Histograms decodes a trial's latency and probe histograms once; either is
// nil when the trial stored none.
func Histograms(t *result.Trial) (hist, probe *hdrhistogram.Histogram) {
	if t.Load != nil && t.Load.Histogram != "" {
		hist, _ = result.DecodeHistogram(t.Load.Histogram)
	}
	if t.Load != nil && t.Load.Probe != nil && t.Load.Probe.Histogram != "" {
		probe, _ = result.DecodeHistogram(t.Load.Probe.Histogram)
	}
	return hist, probe
}

// Value returns the measured figure of a trial under key (see Lookup).
// hist and probe are the trial's decoded histograms (Histograms), nil when
// it stored none: percentiles come from them when they exist, since the
// summary keeps only a few. ok is false for a key the trial cannot answer.
func Value(t *result.Trial, hist, probe *hdrhistogram.Histogram, key string) (float64, bool) {
	if t.Load == nil {
		return 0, false
	}
	m := t.Monitor
	switch key {
	case "cpu_pct":
		if m == nil {
			return 0, false
		}
		return m.ServerCPUMean / slower(t), true
	case "cpu_peak_pct":
		if m == nil {
			return 0, false
		}
		return m.ServerCPUPeak / slower(t), true
	case CPUMedian:
		if m == nil || len(m.Samples) == 0 {
			return 0, false
		}
		return result.Median(perSample(m, func(s result.Sample) float64 { return s.ServerCPU })) / slower(t), true
	case CPUThreadMedian:
		if m == nil {
			return 0, false
		}
		cpu := perSample(m, func(s result.Sample) float64 { return s.ServerThreadCPU })
		if !slices.ContainsFunc(cpu, func(c float64) bool { return c > 0 }) {
			return 0, false // threads not read (not Linux, or results from before 2026-11-27)
		}
		// Under run --server-cpu F a thread gets at most F of a core: the
		// slower machine's meter reads it divided by F, and still no more
		// than a core.
		return min(100, result.Median(cpu)/slower(t)), true
	case "rss_mb":
		if m == nil || m.ServerRSSPeak == 0 {
			return 0, false
		}
		return float64(m.ServerRSSPeak) / mib, true
	case "cores_busy_pct":
		// System-wide load as a CPU meter shows it: every core's busy
		// percent, averaged over the cores and the samples. It counts the
		// generator too, as the published per-core figures did.
		if m == nil {
			return 0, false
		}
		var sum float64
		n := 0
		for _, s := range m.Samples {
			for _, c := range s.Cores {
				sum += c
				n++
			}
		}
		if n == 0 {
			return 0, false
		}
		return sum / float64(n), true
	case "client_cpu_share":
		if m == nil {
			return 0, false
		}
		return m.ClientCPUShare, true
	case CPUPerResponse:
		if m == nil || m.CPUPerResponseUS == nil {
			return 0, false
		}
		return *m.CPUPerResponseUS / slower(t), true
	case IdleCPU:
		if m == nil || m.IdleCPU == nil {
			return 0, false
		}
		return *m.IdleCPU / slower(t), true
	}
	return LoadValue(t.Load, hist, probe, key)
}

// LoadValue answers the keys a load's result holds on its own, without
// the monitor's: the threshold's, and Value's when it is not a resource.
func LoadValue(l *result.Load, hist, probe *hdrhistogram.Histogram, key string) (float64, bool) {
	if key == Shape {
		p99, ok1 := StatsValue(&l.Stats, hist, "p99_ms")
		p50, ok2 := StatsValue(&l.Stats, hist, "p50_ms")
		if !ok1 || !ok2 || p50 <= 0 {
			return 0, false
		}
		return p99 / p50, true
	}
	if rest, ok := strings.CutPrefix(key, "light_"); ok {
		st := l.Targets["light"]
		if st == nil {
			return 0, false
		}
		var h *hdrhistogram.Histogram
		if st.Histogram != "" {
			h, _ = result.DecodeHistogram(st.Histogram)
		}
		return StatsValue(st, h, strings.TrimPrefix(rest, "latency_"))
	}
	if rest, ok := strings.CutPrefix(key, "probe_"); ok {
		if l.Probe == nil {
			return 0, false
		}
		return StatsValue(l.Probe, probe, rest)
	}
	switch key {
	case Achieved:
		if l.TargetRPS <= 0 {
			return 0, false
		}
		return l.RPS / l.TargetRPS, true
	case "ok_rps":
		return l.OKRPS, true
	}
	return StatsValue(&l.Stats, hist, strings.TrimPrefix(key, "latency_"))
}

// slower is the speed of the machine a trial stands in for, as a fraction
// of this one's (run --server-cpu F: the server held to F of its CPU time).
// The server's CPU figures are read as that machine would show them: a
// core at full use there is F of one here, and a response costs 1/F the
// CPU time. 1 for a trial run as the suite says.
func slower(t *result.Trial) float64 {
	if f := t.Placement.ServerCPU; f > 0 {
		return f
	}
	return 1
}

// StatsValue answers the keys that apply to any stream of requests: the
// whole load, a target or the probe. The "latency_" and "probe_" prefixes
// are already cut.
func StatsValue(s *result.Stats, h *hdrhistogram.Histogram, key string) (float64, bool) {
	switch key {
	case "rps":
		return s.RPS, true
	case "requests":
		return float64(s.Requests), true
	case "errors":
		return float64(s.Errors.Total()), true
	case "mean_ms":
		return s.Latency.Mean, true
	case "stdev_ms":
		return s.Latency.Stdev, true
	case "min_ms":
		return s.Latency.Min, true
	case "max_ms", "p100_ms":
		return s.Latency.Max, true
	case "median_ms":
		key = "p50_ms"
	}
	p, ok := PercentileKey(key)
	if !ok {
		return 0, false
	}
	if h != nil && h.TotalCount() > 0 {
		return float64(h.ValueAtQuantile(p)) / 1000, true
	}
	switch p {
	case 50:
		return s.Latency.P50, true
	case 75:
		return s.Latency.P75, true
	case 90:
		return s.Latency.P90, true
	case 99:
		return s.Latency.P99, true
	case 99.9:
		return s.Latency.P999, true
	case 99.99:
		return s.Latency.P9999, true
	}
	v, ok := s.Latency.Percentiles[strconv.FormatFloat(p, 'f', -1, 64)]
	return v, ok
}

// PercentileKey parses "p99_ms" as 99 and "p999_ms" as 99.9, the way the
// result summary names its fields.
func PercentileKey(key string) (float64, bool) {
	digits, ok := strings.CutSuffix(strings.TrimPrefix(key, "p"), "_ms")
	if !ok || !strings.HasPrefix(key, "p") || digits == "" {
		return 0, false
	}
	if len(digits) > 2 && strings.HasPrefix(digits, "99") {
		digits = "99." + digits[2:]
	}
	p, err := strconv.ParseFloat(digits, 64)
	if err != nil || p <= 0 || p > 100 {
		return 0, false
	}
	return p, true
}

// PublishedValue reads key from a write-up's figures (result.RunInfo.
// Published): the figure itself, or the tail's shape from its p99 and
// p50. ok is false, and the value 0, when the write-up did not print it.
func PublishedValue(p map[string]float64, key string) (float64, bool) {
	if key == Shape {
		p99, ok1 := p["p99_ms"]
		p50, ok2 := p["p50_ms"]
		if !ok1 || !ok2 || p50 == 0 {
			return 0, false
		}
		return p99 / p50, true
	}
	v, ok := p[key]
	return v, ok
}

// perSample is one figure of each of m's samples, in order.
func perSample(m *result.Monitor, of func(result.Sample) float64) []float64 {
	out := make([]float64, len(m.Samples))
	for i, s := range m.Samples {
		out[i] = of(s)
	}
	return out
}
