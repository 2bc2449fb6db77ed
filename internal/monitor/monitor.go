// Package monitor watches a running trial: the server's whole process tree
// (CPU and RSS), the generator's own CPU, and every core of the machine,
// every 250 ms, and summarises what it saw into result.Monitor.
package monitor

import (
	"sync"
	"time"

	"restbench/internal/result"
)

// DefaultInterval is how often the monitor samples.
const DefaultInterval = 250 * time.Millisecond

// ClientBoundShare is the share of its CPU budget above which the generator,
// not the server, is probably what limited the throughput.
const ClientBoundShare = 0.90

// Monitor samples in the background between Start and Stop.
type Monitor struct {
	sampler  Sampler
	interval time.Duration
	zero     time.Time
	stop     chan struct{}
	done     chan struct{}
	polls    sync.WaitGroup

	mu         sync.Mutex
	samples    []result.Sample
	errs       int
	runtime    []result.RuntimeSample
	runtimeErr string
}

// Start samples s every interval (DefaultInterval when 0). Sample times are
// relative to zero, the start of the measured part: samples taken before it
// (the warm-up) are dropped.
func Start(s Sampler, interval time.Duration, zero time.Time) *Monitor {
	if interval <= 0 {
		interval = DefaultInterval
	}
	m := &Monitor{sampler: s, interval: interval, zero: zero, stop: make(chan struct{}), done: make(chan struct{})}
	s.Sample() // the baseline: CPU figures are deltas from here
	go m.loop()
	return m
}

func (m *Monitor) loop() {
	defer close(m.done)
	tick := time.NewTicker(m.interval)
	defer tick.Stop()
	last := time.Now()
	for {
		select {
		case <-m.stop:
			// A last reading covers the end of the load since the last
			// tick, and gives a load shorter than one interval a sample.
			// One that covers only a sliver of an interval is left out:
			// it falls mostly after the load ended, reads as an idle
			// server, and would drag the mean down as much as a full one.
			now := time.Now()
			if m.count() == 0 || now.Sub(last) >= m.interval/2 {
				m.take(now)
			}
			return
		case now := <-tick.C:
			m.take(now)
			last = now
		}
	}
}

func (m *Monitor) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.samples)
}

func (m *Monitor) take(now time.Time) {
	s, err := m.sampler.Sample()
	m.mu.Lock()
	defer m.mu.Unlock()
	if err != nil {
		m.errs++
	} else if t := now.Sub(m.zero).Seconds(); t >= 0 {
		s.T = t
		m.samples = append(m.samples, s)
	}
}

// Stop ends sampling and summarises the samples. clientCPUs is the
// generator's CPU budget in CPUs (those it can use of the ones it was
// pinned to, or its quota under run --server-cpu).
func (m *Monitor) Stop(clientCPUs float64) *result.Monitor {
	close(m.stop)
	<-m.done
	m.polls.Wait()
	m.mu.Lock()
	defer m.mu.Unlock()
	out := Summarize(m.samples, int(m.interval/time.Millisecond), clientCPUs)
	out.Runtime, out.RuntimeError = m.runtime, m.runtimeErr
	return out
}

// Summarize computes the means and peaks of samples.
func Summarize(samples []result.Sample, intervalMS int, clientCPUs float64) *result.Monitor {
	out := &result.Monitor{IntervalMS: intervalMS, Samples: samples}
	if out.Samples == nil {
		out.Samples = []result.Sample{}
	}
	if len(samples) == 0 {
		return out
	}
	var server, client float64
	for i, s := range samples {
		out.ServerCPUS += s.ServerCPU / 100 * result.Covers(samples, i, intervalMS)
		server += s.ServerCPU
		client += s.ClientCPU
		out.ServerCPUPeak = max(out.ServerCPUPeak, s.ServerCPU)
		out.ServerRSSPeak = max(out.ServerRSSPeak, s.ServerRSS)
	}
	n := float64(len(samples))
	out.ServerCPUMean = server / n
	out.ClientCPUMean = client / n
	if clientCPUs > 0 {
		out.ClientCPUShare = out.ClientCPUMean / 100 / clientCPUs
	}
	return out
}

// ClientBound says whether the generator used at least ClientBoundShare of
// its CPU budget: then the figures measure the client as much as the server.
func ClientBound(m *result.Monitor) bool {
	return m != nil && len(m.Samples) > 0 && m.ClientCPUShare >= ClientBoundShare
}
