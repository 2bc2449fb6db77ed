package result

// RuntimeSample is what the server said about its own runtime at one
// monitor sample (GET /runtime, docs/contract.md#get-runtime). Histograms
// (event-loop delay, scheduling latency, GC pauses) cover the time since the
// previous sample; a field the runtime cannot give is absent, and
// NotAvailable names it.
type RuntimeSample struct {
	T float64 `json:"t"` // seconds since the measured part began, when the answer came

	Runtime string `json:"runtime"` // node v24.21.0, bun 1.4.5, deno 2.9.6, go1.27.4

	// Node, Bun, Deno.
	EventLoopDelayP50MS  *float64          `json:"event_loop_delay_p50_ms,omitempty"`
	EventLoopDelayP99MS  *float64          `json:"event_loop_delay_p99_ms,omitempty"`
	EventLoopDelayMaxMS  *float64          `json:"event_loop_delay_max_ms,omitempty"`
	EventLoopUtilization *float64          `json:"event_loop_utilization,omitempty"`
	HeapUsedBytes        *int64            `json:"heap_used_bytes,omitempty"`
	HeapTotalBytes       *int64            `json:"heap_total_bytes,omitempty"`
	GC                   map[string]GCKind `json:"gc,omitempty"` // totals since the first sample, by kind
	NotAvailable         []string          `json:"not_available,omitempty"`

	// Go.
	GOMAXPROCS        *int     `json:"gomaxprocs,omitempty"`
	SchedLatencyP50MS *float64 `json:"sched_latency_p50_ms,omitempty"`
	SchedLatencyP99MS *float64 `json:"sched_latency_p99_ms,omitempty"`
	GCPauses          *uint64  `json:"gc_pauses,omitempty"`
	GCPauseP99MS      *float64 `json:"gc_pause_p99_ms,omitempty"`
	GCCPUS            *float64 `json:"gc_cpu_s,omitempty"` // total since start
	Goroutines        *uint64  `json:"goroutines,omitempty"`
	HeapObjectsBytes  *uint64  `json:"heap_objects_bytes,omitempty"`
}

// GCKind counts one kind of garbage collection (Node's minor, major,
// incremental, weakcb) and the time it took.
type GCKind struct {
	Count   int64   `json:"count"`
	TotalMS float64 `json:"total_ms"`
}
