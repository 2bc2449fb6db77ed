package report

import (
	"math"
	"slices"

	"github.com/HdrHistogram/hdrhistogram-go"

	"restbench/internal/metric"
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
	m.hist, m.probe = metric.Histograms(t)
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
// metric.Value.
func (m measured) value(key string) (float64, bool) {
	return metric.Value(m.trial, m.hist, m.probe, key)
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
