package model

import (
	"github.com/HdrHistogram/hdrhistogram-go"

	"restbench/internal/metric"
	"restbench/internal/result"
)

// Measured is one successful trial with its latency histogram decoded once.
type Measured struct {
	Trial *result.Trial
	Hist  *hdrhistogram.Histogram // nil when the trial stored none
	probe *hdrhistogram.Histogram
}

// NewMeasured decodes a successful trial's histograms.
func NewMeasured(t *result.Trial) Measured {
	m := Measured{Trial: t}
	m.Hist, m.probe = metric.Histograms(t)
	return m
}

// MiB is a mebibyte, the unit RSS is shown in.
const MiB = 1 << 20

// probeStream names the probe among a run's streams.
const probeStream = "probe"

// Stream returns the stats of one mix target, or of the probe.
func (m Measured) Stream(name string) *result.Stats {
	if name == probeStream {
		return m.Trial.Load.Probe
	}
	return m.Trial.Load.Targets[name]
}

// Value returns the measured figure of a trial under a published key; see
// metric.Value.
func (m Measured) Value(key string) (float64, bool) {
	return metric.Value(m.Trial, m.Hist, m.probe, key)
}
