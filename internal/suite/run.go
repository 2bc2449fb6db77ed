// Package suite reads suite files (suites/*.yaml, documented in
// docs/suites.md) and expands each experiment's matrix into the list of runs
// the runner measures.
package suite

import (
	"math"
	"strconv"
	"time"

	"restbench/internal/load"
	"restbench/internal/result"
)

// DefaultHosts is the number of generator hosts of placement: hosts.
const DefaultHosts = 2

// Run is one cell of an experiment's matrix after expansion: one
// implementation with one set of parameters, measured Trials times. The
// runner needs nothing else to measure it.
type Run struct {
	ID         string            // unique in the suite: "<experiment>/<label>"
	Experiment string            // experiment name
	Impl       string            // implementation id (servers/implementations.yaml)
	Label      string            // human label, e.g. "go-nethttp GOMAXPROCS=1"
	Params     map[string]string // the matrix values of this cell, for tables
	Env        map[string]string // server environment: THREADS, GOMAXPROCS, CLUSTER

	// Runtime is what runs the server: node@20 .. node@26, bun or deno for a
	// Node implementation, go@1.22 .. go@1.26 for a Go one
	// (settings.Runtimes); "" is the implementation's default.
	Runtime string
	// RuntimeFlags is settings.FlagsManifest ("", the manifest's start
	// command and the runtime's flags in servers/runtimes.yaml) or
	// settings.FlagsDefault (none: the runtime's defaults).
	RuntimeFlags string

	Quota      float64 // CPU quota in CPUs (docker --cpus); 0: none
	Pinned     bool    // server and generator on disjoint CPU sets (the default)
	ServerCPUs string  // explicit CPU list for the server; "" lets the runner choose
	ClientCPUs string  // explicit CPU list for the generator; "" lets the runner choose
	// ServerCores (placement: {cores: N}) gives the server N CPUs of its
	// own and the generator the others: a claim whose premise is a machine
	// of N cores (filter's 6-core laptop) on a machine of more. 0: the
	// runner's default (the generator on the last CPU, the server on the
	// rest).
	ServerCores int
	// Hosts, when > 0 (placement: hosts), puts the server on a host of its
	// own and the load on this many generator hosts, their results merged:
	// network namespaces locally (internal/hosts), pods on a cluster
	// (restbench k8s).
	Hosts int

	Engine string // "restbench" (default), "wrk" or "ab"
	// Load is the load to generate. Its URL holds only the path and query
	// ("/echo"); the runner puts the server's address in front. Mix targets
	// hold paths too.
	Load load.Config
	// RateOf, when set, makes the open-loop rate a fraction of the capacity
	// (median req/s) measured by the run with this id earlier in the suite:
	// Load.Rate = RateFraction × capacity. With RateSearch (rate_of:
	// capacity(<id>)) the capacity is instead an open-loop capacity search
	// (package capacity) of run RateOf's load, once per round, against a
	// fresh server of that run.
	RateOf       string
	RateFraction float64
	RateSearch   bool
	// RateSearchOnce (rate_search: once) searches RateOf's capacity once
	// for the whole run of the suite, in the first round that needs it,
	// instead of once per round.
	RateSearchOnce bool
	// Prewarm (prewarm:), when > 0, runs a closed loop of this long on the
	// run's connections against the fresh server before Load starts, not
	// measured: a server still compiling (V8's tiers) then falls behind no
	// schedule, and an open loop's warm-up carries no backlog into its
	// window that its rate leaves no spare capacity to work off.
	Prewarm time.Duration `json:",omitempty"`
	// PrewarmRequests (prewarm_requests:), when > 0, ends the prewarm after
	// this many responses, Prewarm being then its cap: a warm-up counted in
	// requests follows the machine, where one counted in seconds does not
	// (V8 tiers a function up by how often it ran, and the compiling costs
	// CPU: a server at half the speed needs twice the seconds for the same
	// warmth, and serves the same number of requests in them).
	PrewarmRequests int64 `json:",omitempty"`
	// RateCheck (rate_search: checked) searches once, as RateSearchOnce,
	// and checks the answer before it stands: capacity.Options.Confirm, a
	// window of capacity.ConfirmWindows search steps.
	RateCheck bool `json:",omitempty"`
	// Little, when set (connections: little(M)), sizes Load.Connections at
	// run time, from the rate and the service time the capacity search of
	// RateOf measured; Load.Connections is 0 until then.
	Little *Little `json:",omitempty"`
	// Window, when set, lengthens Load.Duration at run time to what the
	// cell's claims need (window: {requests, latencies, max}).
	Window *Window `json:",omitempty"`

	// Trials is how many interleaved rounds measure this run at least;
	// MaxTrials how many a stop rule (runner.Options.Enough) may add rounds
	// up to (0: Trials); TimeCap stops adding rounds to the run's experiment
	// once the experiment has run that long (0: no cap). The runner reads the
	// experiment's cap and maximum from its runs (the largest of each).
	Trials    int
	MaxTrials int
	TimeCap   time.Duration
	Published map[string]float64 // published figures for this cell (see result.RunInfo)
	// PublishedLoad is the load the write-up measured Published with
	// (published_load:, see result.RunInfo); nil where the suite says none.
	PublishedLoad *result.PublishedLoad
	Note          string // beside the published figures (see result.RunInfo)
}

// Little is Little's law with a margin: an open loop at rate λ keeps λ × W
// requests in flight, W the time each holds its connection, and sends at
// most one request per connection at a time. The runner opens
//
//	ceil(λ × (HoldMS + service p99) / 1000 × Margin)
//
// connections, at most Cap: the service p99 is the server's at about λ (the
// capacity search's step at or above λ), HoldMS what the cell adds to every
// request (its delay, and in a work mix the work).
type Little struct {
	Margin float64
	HoldMS float64
	Cap    int // max_connections; 0: none
}

// Connections is the count the rule gives at rate rps with service p99 p99ms.
func (l Little) Connections(rps, p99ms float64) int {
	n := int(math.Ceil(rps * (l.HoldMS + p99ms) / 1000 * l.Margin))
	n = max(n, 1)
	if l.Cap > 0 {
		n = min(n, l.Cap)
	}
	return n
}

// Window sizes a measured window at run time: at least Load.Duration (the
// scale's), at least Requests requests per connection (Requests ×
// connections ÷ rate), and at least Latencies times the latency the cell's
// claims are about, but never more than Max (what the time budget counts).
// That latency is the cell's published latency_mean_ms, or, without one, the
// cell's hold time plus the service p99 (Little).
type Window struct {
	Requests  int
	Latencies float64
	Max       time.Duration
}

// Length is the window for a floor, a rate, a connection count and a
// latency; capped says the rule asked for more than Max.
func (w Window) Length(floor time.Duration, rps float64, conns int, latencyMS float64) (d, forRequests, forLatency time.Duration, capped bool) {
	if rps > 0 && w.Requests > 0 {
		forRequests = time.Duration(float64(w.Requests*conns) / rps * float64(time.Second))
	}
	forLatency = time.Duration(w.Latencies * latencyMS * float64(time.Millisecond))
	d = max(floor, forRequests, forLatency)
	if w.Max > 0 && d > w.Max {
		return max(floor, w.Max), forRequests, forLatency, true
	}
	return d.Round(time.Millisecond), forRequests, forLatency, false
}

// CoresNeeded is how many cores a run asks for: as many as the server's
// threads, GOMAXPROCS or workers (whichever is largest), plus one for the
// generator when the two are pinned to disjoint cores. Under a CPU quota the
// server needs only the quota, rounded up: more threads than the quota is
// the experiment itself (GOMAXPROCS=4 under a 1-CPU quota runs on 2 cores),
// not a request for parallelism. THREADS=auto and an unset GOMAXPROCS take
// what there is, and explicit CPU lists are checked where they are placed.
// Asking for more than the machine has is never quietly turned into "all
// cores": the runner does not run the trial, and says what it needs.
func (r Run) CoresNeeded() int {
	if r.ServerCPUs != "" || r.ClientCPUs != "" {
		return 0
	}
	if r.ServerCores > 0 {
		return r.ServerCores + 1
	}
	server := 0
	for _, k := range []string{"THREADS", "GOMAXPROCS"} {
		if n, err := strconv.Atoi(r.Env[k]); err == nil {
			server = max(server, n)
		}
	}
	if r.Quota > 0 {
		server = int(math.Ceil(r.Quota))
	}
	if server == 0 {
		return 0
	}
	if r.Pinned {
		return server + 1
	}
	return server
}
