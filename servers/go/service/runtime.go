package service

import (
	"math"
	"net/http"
	"runtime"
	"runtime/metrics"
	"sync"
)

// RuntimeStats is the GET /runtime answer (docs/contract.md#get-runtime):
// what the Go runtime says about itself. Histograms cover the time since the
// previous call, so that the monitor, calling before and after a trial's load,
// sees the load on its own; counters are totals since start.
type RuntimeStats struct {
	Runtime    string `json:"runtime"` // runtime.Version()
	GOMAXPROCS int    `json:"gomaxprocs"`
	// Scheduling latency: time goroutines spent runnable before running.
	SchedLatencyP50MS float64 `json:"sched_latency_p50_ms"`
	SchedLatencyP99MS float64 `json:"sched_latency_p99_ms"`
	// Stop-the-world GC pauses in the interval: how many, and their p99.
	GCPauses     uint64  `json:"gc_pauses"`
	GCPauseP99MS float64 `json:"gc_pause_p99_ms"`
	GCCPUSeconds float64 `json:"gc_cpu_s"` // total since start (/cpu/classes/gc/total)
	Goroutines   uint64  `json:"goroutines"`
	HeapObjectsB uint64  `json:"heap_objects_bytes"`
}

var runtimeMetrics = []string{
	"/sched/latencies:seconds",
	"/sched/pauses/total/gc:seconds",
	"/cpu/classes/gc/total:cpu-seconds",
	"/sched/goroutines:goroutines",
	"/memory/classes/heap/objects:bytes",
}

// runtimeReader keeps the previous histograms to report each interval.
var runtimeReader struct {
	mu      sync.Mutex
	samples []metrics.Sample
	last    map[string][]uint64
}

// ReadRuntime reads the runtime's metrics, as of the previous call.
func ReadRuntime() RuntimeStats {
	rr := &runtimeReader
	rr.mu.Lock()
	defer rr.mu.Unlock()
	if rr.samples == nil {
		rr.samples = make([]metrics.Sample, len(runtimeMetrics))
		for i, name := range runtimeMetrics {
			rr.samples[i].Name = name
		}
		rr.last = map[string][]uint64{}
	}
	metrics.Read(rr.samples)
	s := RuntimeStats{Runtime: runtime.Version(), GOMAXPROCS: runtime.GOMAXPROCS(0)}
	for _, m := range rr.samples {
		switch m.Value.Kind() {
		case metrics.KindFloat64Histogram:
			h := m.Value.Float64Histogram()
			delta := make([]uint64, len(h.Counts))
			prev := rr.last[m.Name]
			var n uint64
			for i, c := range h.Counts {
				delta[i] = c
				if len(prev) == len(h.Counts) {
					delta[i] -= prev[i]
				}
				n += delta[i]
			}
			rr.last[m.Name] = append(prev[:0], h.Counts...)
			switch m.Name {
			case "/sched/latencies:seconds":
				s.SchedLatencyP50MS = 1000 * quantile(h.Buckets, delta, n, 0.50)
				s.SchedLatencyP99MS = 1000 * quantile(h.Buckets, delta, n, 0.99)
			case "/sched/pauses/total/gc:seconds":
				s.GCPauses = n
				s.GCPauseP99MS = 1000 * quantile(h.Buckets, delta, n, 0.99)
			}
		case metrics.KindFloat64:
			s.GCCPUSeconds = m.Value.Float64()
		case metrics.KindUint64:
			if m.Name == "/sched/goroutines:goroutines" {
				s.Goroutines = m.Value.Uint64()
			} else {
				s.HeapObjectsB = m.Value.Uint64()
			}
		}
	}
	return s
}

// quantile is the upper bound of the bucket holding quantile q of counts
// (buckets has one more edge than counts); 0 for an empty interval.
func quantile(buckets []float64, counts []uint64, n uint64, q float64) float64 {
	if n == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(n)))
	var seen uint64
	for i, c := range counts {
		seen += c
		if seen >= rank {
			if hi := buckets[i+1]; !math.IsInf(hi, 1) {
				return hi
			}
			return buckets[i]
		}
	}
	return 0
}

// Runtime answers GET /runtime.
func Runtime(w http.ResponseWriter, r *http.Request) {
	WriteJSON(w, http.StatusOK, ReadRuntime())
}
