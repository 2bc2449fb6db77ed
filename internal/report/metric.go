package report

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/HdrHistogram/hdrhistogram-go"

	"restbench/internal/result"
	"restbench/internal/verdict"
)

// measured is one successful trial with its latency histogram decoded once.
type measured struct {
	trial *result.Trial
	hist  *hdrhistogram.Histogram // nil when the trial stored none
	probe *hdrhistogram.Histogram
}

func newMeasured(t *result.Trial) measured {
	m := measured{trial: t}
	m.hist, m.probe = verdict.Histograms(t)
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

// value returns the measured figure of a trial under a published key; see
// verdict.Value.
func (m measured) value(key string) (float64, bool) {
	return verdict.Value(m.trial, m.hist, m.probe, key)
}

// The report reads figures the way the verdicts do.
var (
	statsValue    = verdict.StatsValue
	percentileKey = verdict.PercentileKey
)

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
	"duration_s":       "window (s)",
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
	"p99_p50":          "p99/p50 (tail shape)",
	"cores_busy_pct":   "cores busy (% each, mean)",
	"probe_mean_ms":    "probe mean (ms)",
	"probe_median_ms":  "probe median (ms)",
	"probe_max_ms":     "probe max (ms)",
	"probe_min_ms":     "probe min (ms)",

	// verdict.CPUPerResponseKey: "loads the CPUs less" at one rate.
	"cpu_us_per_response": "server CPU per response (µs)",
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
