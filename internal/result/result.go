// Package result defines the files that restbench writes and reads: the
// outcome of one load (what `restbench load --json` prints), one trial of a
// suite run (load + monitor timeline), the environment of a results folder,
// and the suite as it was run (with the published figures it reproduces).
//
// It is the boundary between measuring (load, runner) and reporting (report):
// the report is rebuilt from these files alone.
package result

import (
	"time"
)

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
// Requests counts every request the window accounts for, one way or the
// other: Requests == Responses + Errors.Connect + Errors.Timeout +
// Errors.Read + Unfinished. Status and body errors are responses too (they
// are counted in Responses). wrk and ab leave Unfinished at 0.
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

	// OKRPS is throughput: responses that passed validation (status and
	// body) per second of the measured window. RPS counts every response.
	OKRPS float64 `json:"ok_rps"`
	// Service is the uncorrected latency (wrk2 -U): from the moment a request
	// was actually written, not from when it was due. In a closed loop the
	// two are the same; in an open loop Latency minus Service is queueing.
	Service          *Latency `json:"service_ms,omitempty"`
	ServiceHistogram string   `json:"service_histogram,omitempty"`
	// Unfinished counts requests still in flight when the window closed:
	// neither completed nor timed out. Censored summarises their ages at
	// that moment (each a lower bound of its latency: print as ">= X ms");
	// for a whole open-loop load it also holds the Missed requests' waits
	// (end of the window - intended send), so it counts Unfinished + Missed.
	Unfinished        int64    `json:"unfinished"`
	Censored          *Latency `json:"censored_ms,omitempty"`
	CensoredHistogram string   `json:"censored_histogram,omitempty"`
	// Drained counts the responses of an open loop that came after its
	// window closed, while it waited for what was in flight then (its
	// drain, Settings.DrainS): they are among the Responses, in the
	// histograms and status codes (and status or body errors) with their
	// whole latency, but not in RPS, OKRPS, the timeline or the
	// per-connection counts, which are the window's. A request that failed
	// in the drain (connect, timeout, read), or was still in flight at its
	// end, is Unfinished with its age then.
	Drained int64 `json:"drained,omitempty"`
}

// WindowResponses are the responses that completed within the window,
// which the rates count: all but the drained.
func (s *Stats) WindowResponses() int64 { return s.Responses - s.Drained }

// FinishedInWindow are the requests that finished (a response or an error)
// within the window, which the timeline and the per-connection counts
// hold: all but the unfinished and the drained.
func (s *Stats) FinishedInWindow() int64 { return s.Requests - s.Unfinished - s.Drained }

// OwnGenerator says whether restbench's generator made the load: it keeps
// the schedule (due, sent, missed) and validates every response; wrk and
// ab do neither.
func (s Settings) OwnGenerator() bool { return s.Engine == "" || s.Engine == "restbench" }

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
	// MaxConnections: open loop may open connections beyond Connections, up
	// to this many, when every connection is busy (k6's remedy).
	MaxConnections int    `json:"max_connections,omitempty"`
	Shard          string `json:"shard,omitempty"`    // "i/N": this generator's share of a distributed load
	StartAt        string `json:"start_at,omitempty"` // RFC 3339: the shared instant the window opened at
	KeepAlive      bool   `json:"keepalive"`
	Mix            string `json:"mix,omitempty"`
	// MixTargets are the mix's targets, so that a report can tell what each
	// of Load.Targets asked for (the heavy target's work=W, say).
	MixTargets []MixTarget `json:"mix_targets,omitempty"`
	Probe      string      `json:"probe,omitempty"`
	Expect     int         `json:"expect,omitempty"`
	ExpectJSON bool        `json:"expect_json,omitempty"`
	TimeoutS   float64     `json:"timeout_s,omitempty"`
	// DrainS is the longest an open loop waited after its window for the
	// requests in flight (load.Config.Drain); 0: it did not wait.
	DrainS float64 `json:"drain_s,omitempty"`
	CPUs   string  `json:"cpus,omitempty"`
}

// MixTarget is one target of a mix, as sent.
type MixTarget struct {
	Name   string  `json:"name"`
	Method string  `json:"method,omitempty"`
	Path   string  `json:"path"`
	Weight float64 `json:"weight"`
}

// Load is the full outcome of one load: `restbench load --json` writes it,
// the runner embeds it in each trial.
type Load struct {
	Stats
	DurationS float64 `json:"duration_s"`
	// WindowStart is the wall-clock instant the measured window opened;
	// merge uses it to check that several generators measured the same
	// seconds.
	WindowStart time.Time `json:"window_start,omitzero"`
	// Open loop: the rate asked for, and requests that were due within the
	// window but never sent (every connection was busy). Achieved rate is RPS.
	TargetRPS float64 `json:"target_rps,omitempty"`
	Missed    int64   `json:"missed,omitempty"`
	// Due and Sent complete the open loop's balance, Due = Sent + Missed:
	// Due counts the arrivals the window owed (due in it, or due before
	// and still waiting when it opened), Sent those that went out in it.
	Due  int64 `json:"due,omitempty"`
	Sent int64 `json:"sent,omitempty"`
	// DrainMS is how long the open loop waited after the window closed
	// for its requests in flight (Stats.Drained): until the last came
	// back, or Settings.DrainS; 0: nothing was in flight, or no drain.
	DrainMS float64 `json:"drain_ms,omitempty"`
	// Pool is how the keep-alive connections were opened before the
	// clock started; nil where each request opens its own (no keep-alive)
	// or the engine opens them itself (wrk, ab).
	Pool *Pool `json:"pool,omitempty"`
	// PerConnection is how evenly the connections were served.
	PerConnection *PerConnection `json:"per_connection,omitempty"`
	// Little is the closed loop's self-check: connections ~= rps x mean.
	Little *Little `json:"little,omitempty"`
	// ConnectionsNeeded is an open loop's target × mean service time: the
	// requests in flight the rate needs (Little's law). At 90 % of the
	// connections or more the generator, not the server, limits the rate
	// (FlagConnectionBound).
	ConnectionsNeeded float64 `json:"connections_needed,omitempty"`
	// ServerCPUShare is the server's mean CPU over the window as a share of
	// the CPUs it could use (its cores, its applied quota, its threads when
	// it reports fewer): the runner sets it from its monitor
	// (SetServerCPUShare); 0 where unknown (an external load, several
	// hosts). At ServerBound or more the server was saturated: a rate that
	// needed the connections was its own overload filling them, not too
	// few connections, and the load is not connection-bound.
	ServerCPUShare float64 `json:"server_cpu_share,omitempty"`
	// Flags say whether the load did what was asked: ValidityFlags.
	Flags   []string          `json:"flags,omitempty"`
	Targets map[string]*Stats `json:"targets,omitempty"`
	Probe   *Stats            `json:"probe,omitempty"`
	Warmup  *Stats            `json:"warmup,omitempty"`
	// ClientCPUS is the CPU time (user+system, seconds) the generator used
	// during the measured part, where the engine can tell (0 otherwise).
	ClientCPUS float64  `json:"client_cpu_s,omitempty"`
	Settings   Settings `json:"settings"`
}

// Flags a load result can carry (a trial copies them into its own Flags).
// ValidityFlags derives every one of them from the counts; docs/results.md
// says what each means and what to change.
const (
	FlagStalledConnections = "stalled-connections" // some connection completed nothing in the window
	FlagInconsistent       = "inconsistent"        // Little's law is off by more than 10 %: an accounting bug or a stall
	FlagBehindSchedule     = "behind-schedule"     // open loop: achieved < 95 % of the target rate
	FlagAheadOfSchedule    = "ahead-of-schedule"   // open loop: achieved > 105 %: a backlog from before the window was worked off
	FlagConnectionBound    = "connection-bound"    // open loop: target × mean service time needs >= 90 % of the connections, and the server was not saturated
	FlagCensored           = "censored"            // unfinished requests older than the median are > 1 % of the responses
)

// Pool is the opening of a keep-alive load's connections, before its warm-up
// and its window: none of it counts in either, nor in any latency.
type Pool struct {
	Connections int     `json:"connections"`      // opened before the clock started
	Failed      int     `json:"failed,omitempty"` // not opened (refused, timed out): each dials at its first request
	OpenS       float64 `json:"open_s"`           // seconds the opening took
	MaxDialing  int     `json:"max_dialing"`      // connections on their way in at most: dialing, or in the accept queue where watched
	// AcceptQueue says the pool read the server's accept queue (a loopback
	// target in restbench's network namespace) and kept what waited in it
	// within the bound too; false: handshakes in flight alone were bounded.
	AcceptQueue bool `json:"accept_queue,omitempty"`
}

// PerConnection counts completions per connection within the window.
type PerConnection struct {
	Min     int64 `json:"min"`
	Median  int64 `json:"median"`
	Max     int64 `json:"max"`
	Stalled int   `json:"stalled"` // connections that completed nothing in the window
	// FirstResponseMS is how long the connections waited for their first
	// response, from their first connect attempt; nil when none got one.
	FirstResponseMS *FirstResponse `json:"first_response_ms,omitempty"`
}

// FirstResponse summarises, over the connections that got a response, the
// time from a connection's first connect attempt to its first response
// (warm-up included): a connect that waited for SYN retransmissions (a full
// accept queue) shows as a first response after 1 s, 3 s, ...
type FirstResponse struct {
	Connections int     `json:"connections"` // connections that got a response
	Min         float64 `json:"min"`
	Median      float64 `json:"median"`
	P99         float64 `json:"p99"`
	Max         float64 `json:"max"`
}

// Little is a closed loop's Little's-law check: with C connections always
// busy, C = throughput x mean time in the system. InFlight is the requests
// that spent time in the window (completed, failed and unfinished) per
// second x their mean time in flight within the window: the mean number in
// flight. See docs/results.md.
type Little struct {
	Connections int     `json:"connections"`
	InFlight    float64 `json:"in_flight"`
	Ratio       float64 `json:"ratio"` // InFlight / Connections; consistent within 0.9..1.1
}
