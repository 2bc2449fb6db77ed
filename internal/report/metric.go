package report

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/HdrHistogram/hdrhistogram-go"

	"restbench/internal/result"
)

// measured is one successful trial with its latency histogram decoded once.
type measured struct {
	trial *result.Trial
	hist  *hdrhistogram.Histogram // nil when the trial stored none
	probe *hdrhistogram.Histogram
}

func newMeasured(t *result.Trial) measured {
	m := measured{trial: t}
	if t.Load != nil && t.Load.Histogram != "" {
		m.hist, _ = result.DecodeHistogram(t.Load.Histogram)
	}
	if t.Load != nil && t.Load.Probe != nil && t.Load.Probe.Histogram != "" {
		m.probe, _ = result.DecodeHistogram(t.Load.Probe.Histogram)
	}
	return m
}

const mib = 1 << 20

// probeStream names the probe among a run's streams.
const probeStream = "probe"

// stream returns the stats of one mix target, or of the probe.
func (m measured) stream(name string) *result.Stats {
	if name == probeStream {
		return m.trial.Load.Probe
	}
	return m.trial.Load.Targets[name]
}

// value returns the measured figure of a trial under a published key (see
// result.RunInfo.Published). Percentiles come from the histogram when there
// is one, since the summary keeps only a few of them. ok is false for a key
// the trial cannot answer; the report then shows the published figure alone.
func (m measured) value(key string) (float64, bool) {
	l := m.trial.Load
	if l == nil {
		return 0, false
	}
	if rest, ok := strings.CutPrefix(key, "probe_"); ok {
		if l.Probe == nil {
			return 0, false
		}
		return statsValue(l.Probe, m.probe, rest)
	}
	switch key {
	case "cpu_pct":
		if m.trial.Monitor == nil {
			return 0, false
		}
		return m.trial.Monitor.ServerCPUMean, true
	case "cpu_peak_pct":
		if m.trial.Monitor == nil {
			return 0, false
		}
		return m.trial.Monitor.ServerCPUPeak, true
	case "rss_mb":
		if m.trial.Monitor == nil || m.trial.Monitor.ServerRSSPeak == 0 {
			return 0, false
		}
		return float64(m.trial.Monitor.ServerRSSPeak) / mib, true
	case "client_cpu_share":
		if m.trial.Monitor == nil {
			return 0, false
		}
		return m.trial.Monitor.ClientCPUShare, true
	}
	return statsValue(&l.Stats, m.hist, strings.TrimPrefix(key, "latency_"))
}

// statsValue answers the keys that apply to any stream of requests: the
// whole load, a target or the probe. The "latency_" and "probe_" prefixes
// are already cut.
func statsValue(s *result.Stats, h *hdrhistogram.Histogram, key string) (float64, bool) {
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
	p, ok := percentileKey(key)
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

// percentileKey parses "p99_ms" as 99 and "p999_ms" as 99.9, the way the
// result summary names its fields.
func percentileKey(key string) (float64, bool) {
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

// Spread is a figure over the successful trials of a run: the median, which
// the report quotes, and the range, which tells how far to trust it.
type Spread struct {
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	N      int     `json:"n"`
}

func spreadOf(vs []float64) Spread {
	if len(vs) == 0 {
		return Spread{}
	}
	return Spread{Median: result.Median(vs), Min: slices.Min(vs), Max: slices.Max(vs), N: len(vs)}
}

// RelSpread is (max-min)/median: 0.04 means the trials lie within 4%.
func (s Spread) RelSpread() float64 {
	if s.N == 0 || s.Median == 0 {
		return 0
	}
	return (s.Max - s.Min) / math.Abs(s.Median)
}

// Metric labels for the tables; keys not listed are shown as they are.
var metricLabels = map[string]string{
	"rps":              "req/s",
	"latency_mean_ms":  "latency mean (ms)",
	"latency_stdev_ms": "latency stdev (ms)",
	"latency_max_ms":   "latency max (ms)",
	"latency_min_ms":   "latency min (ms)",
	"mean_ms":          "mean (ms)",
	"median_ms":        "median (ms)",
	"min_ms":           "min (ms)",
	"max_ms":           "max (ms)",
	"cpu_pct":          "server CPU (% of a core)",
	"rss_mb":           "server RSS (MiB)",
	"errors":           "errors",
	"probe_mean_ms":    "probe mean (ms)",
	"probe_median_ms":  "probe median (ms)",
	"probe_max_ms":     "probe max (ms)",
	"probe_min_ms":     "probe min (ms)",
}

func metricLabel(key string) string {
	if l, ok := metricLabels[key]; ok {
		return l
	}
	if p, ok := percentileKey(key); ok {
		return "p" + strconv.FormatFloat(p, 'f', -1, 64) + " (ms)"
	}
	return key
}

// metricOrder sorts published keys the way the sources print them:
// throughput, then latency summary, then percentiles, then resources.
func metricOrder(key string) (int, float64) {
	switch key {
	case "rps":
		return 0, 0
	case "latency_mean_ms", "mean_ms":
		return 1, 0
	case "latency_stdev_ms":
		return 1, 1
	case "median_ms":
		return 1, 2
	case "latency_min_ms", "min_ms":
		return 1, 3
	case "latency_max_ms", "max_ms":
		return 1, 4
	}
	if p, ok := percentileKey(key); ok {
		return 2, p
	}
	if strings.HasPrefix(key, "probe_") {
		return 4, 0
	}
	if key == "cpu_pct" || key == "rss_mb" {
		return 3, 0
	}
	return 5, 0
}
