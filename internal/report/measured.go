package report

import (
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
