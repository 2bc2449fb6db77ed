// Package result defines the files that restbench writes and reads: the
// outcome of one load (what `restbench load --json` prints), one trial of a
// suite run (load + monitor timeline), the environment of a results folder,
// and the suite as it was run (with the published figures it reproduces).
//
// It is the boundary between measuring (load, runner) and reporting (report):
// the report is rebuilt from these files alone.
package result

// Errors counts failed requests by class. connect, timeout and read are
// requests that got no complete response; status and body are responses that
// failed validation (--expect, --expect-json).
type Errors struct {
	Connect int64 `json:"connect"`
	Timeout int64 `json:"timeout"`
	Read    int64 `json:"read"`
	Status  int64 `json:"status"`
	Body    int64 `json:"body"`
}

// Total is the number of requests that failed for any reason.
func (e Errors) Total() int64 { return e.Connect + e.Timeout + e.Read + e.Status + e.Body }

// Add adds o to e.
func (e *Errors) Add(o Errors) {
	e.Connect += o.Connect
	e.Timeout += o.Timeout
	e.Read += o.Read
	e.Status += o.Status
	e.Body += o.Body
}

// Latency summarises a latency distribution in milliseconds.
type Latency struct {
	Min   float64 `json:"min"`
	Mean  float64 `json:"mean"`
	Stdev float64 `json:"stdev"`
	P50   float64 `json:"p50"`
	P75   float64 `json:"p75"`
	P90   float64 `json:"p90"`
	P99   float64 `json:"p99"`
	P999  float64 `json:"p999"`
	P9999 float64 `json:"p9999"`
	Max   float64 `json:"max"`
	// Percentiles holds percentiles a tool printed beyond the fields above,
	// keyed by percent as printed ("66", "95"), in milliseconds. Only
	// engines without a histogram fill it (ab prints 66, 80, 95 and 98).
	Percentiles map[string]float64 `json:"percentiles,omitempty"`
}

// Second is one entry of a timeline: what completed during second T of the
// measured run (T=0 is the first second).
type Second struct {
	T        int     `json:"t"`
	Requests int64   `json:"requests"`
	Errors   int64   `json:"errors"`
	P50      float64 `json:"p50"`
	P99      float64 `json:"p99"`
}

// Stats is the outcome of one stream of requests: the whole run, one target
// of a mix, or the probe.
//
// Requests counts every request that was sent and finished, one way or the
// other: Requests == Responses + Errors.Connect + Errors.Timeout + Errors.Read.
// Status and body errors are responses too (they are counted in Responses).
type Stats struct {
	Requests    int64            `json:"requests"`
	Responses   int64            `json:"responses"`
	Errors      Errors           `json:"errors"`
	StatusCodes map[string]int64 `json:"status_codes"`
	BytesRead   int64            `json:"bytes_read"`
	RPS         float64          `json:"rps"`
	Latency     Latency          `json:"latency_ms"`
	// Histogram is the latency HdrHistogram in microseconds, in the
	// compressed, base64 V2 encoding of hdrhistogram-go (Encode/Decode), so
	// that several runs can be merged without loss.
	Histogram string   `json:"histogram,omitempty"`
	Timeline  []Second `json:"timeline,omitempty"`
}

// Settings is how a load was generated.
type Settings struct {
	Engine      string   `json:"engine"` // restbench, wrk or ab
	URL         string   `json:"url"`
	Method      string   `json:"method,omitempty"`
	Headers     []string `json:"headers,omitempty"`
	BodyBytes   int      `json:"body_bytes,omitempty"`
	Connections int      `json:"connections"`
	DurationS   float64  `json:"duration_s,omitempty"`
	MaxRequests int64    `json:"max_requests,omitempty"`
	WarmupS     float64  `json:"warmup_s,omitempty"`
	Rate        float64  `json:"rate,omitempty"` // 0: closed loop
	KeepAlive   bool     `json:"keepalive"`
	Mix         string   `json:"mix,omitempty"`
	Probe       string   `json:"probe,omitempty"`
	Expect      int      `json:"expect,omitempty"`
	ExpectJSON  bool     `json:"expect_json,omitempty"`
	TimeoutS    float64  `json:"timeout_s,omitempty"`
	CPUs        string   `json:"cpus,omitempty"`
}

// Load is the full outcome of one load: `restbench load --json` writes it,
// the runner embeds it in each trial.
type Load struct {
	Stats
	DurationS float64           `json:"duration_s"`
	Unsent    int64             `json:"unsent,omitempty"` // open loop: scheduled but never sent before the end
	Targets   map[string]*Stats `json:"targets,omitempty"`
	Probe     *Stats            `json:"probe,omitempty"`
	Warmup    *Stats            `json:"warmup,omitempty"`
	// ClientCPUS is the CPU time (user+system, seconds) the generator used
	// during the measured part, where the engine can tell (0 otherwise).
	ClientCPUS float64  `json:"client_cpu_s,omitempty"`
	Settings   Settings `json:"settings"`
}
