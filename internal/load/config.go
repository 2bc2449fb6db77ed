// Package load is restbench's HTTP/1.1 load generator: closed loop (wrk, ab)
// or open loop at a constant rate with latency measured from each request's
// intended send time (wrk2), weighted target mixes, a heartbeat probe, and
// validation of every response.
package load

import (
	"context"
	"io"
	"time"
)

// Target is one kind of request in a mix. Path is relative to Config.URL's
// host (it starts with "/"); a zero Weight counts as 1.
type Target struct {
	Name    string
	Method  string
	Path    string
	Headers []string // "Name: value"
	Body    []byte
	Weight  float64
}

// Config is one load. Run fills in defaults for zero values where a default
// is documented.
type Config struct {
	URL         string        // http://127.0.0.1:8080/path
	Method      string        // default GET, POST when Body is set
	Headers     []string      // "Name: value"
	Body        []byte        // request body
	Connections int           // default 10
	Duration    time.Duration // measured part; default 10s unless MaxRequests is set
	MaxRequests int64         // stop after this many requests (like ab -n); 0: no limit
	Warmup      time.Duration // before the measured part, reported separately
	Rate        float64       // requests/s, open loop; 0: closed loop
	// MaxConnections lets the open loop open connections beyond
	// Connections, up to this many, when an arrival is due and every
	// connection is busy (k6's remedy for a rate the connections cannot
	// carry). Default Connections: wrk2's fixed set, so that results stay
	// comparable; arrivals then wait, and what is never sent is Missed.
	MaxConnections int
	// Drain is how long an open loop waits, once its window has closed,
	// for the requests still in flight to respond: each that does is filed
	// with its whole latency and counted as drained (vegeta waits for every
	// request in flight, k6 for its gracefulStop), so that a short window
	// censors no more of the tail than a long one. Zero: DefaultDrain of
	// the window; NoDrain: the window closes on what is in flight, as
	// wrk2's does. A closed loop never drains (wrk's close).
	Drain     time.Duration
	KeepAlive bool // false: a new connection per request (ab without -k)
	// MaxDialing bounds the TCP handshakes in flight while a keep-alive
	// load opens its connections, before the clock starts; default
	// DefaultMaxDialing (why that number: pool.go).
	MaxDialing  int
	Mix         []Target      // weighted targets; empty: one target from URL/Method/Body
	MixFile     string        // where Mix came from, for the record
	Probe       string        // path of the heartbeat request, e.g. /status; "" for none
	ProbeEvery  time.Duration // interval of the probe; default 1s
	Expect      int           // expected status; default 200
	ExpectJSON  bool          // every response body must be valid JSON
	Timeout     time.Duration // per request; default 30s
	CPUs        []int         // pin the generator to these CPUs: every thread of this process (cpu.PinSelf)
	AllowRemote bool          // permit a target that is not loopback
	Threads     int           // event loops (OS threads); default one per usable CPU, at most Connections

	// Begin, when set, is called once the connections are open, just
	// before the clock starts (warm-up, then window), and the load waits for
	// it: --start-at waits there for a shared instant, so that the pool's
	// opening does not make the window late. An error stops the load.
	Begin func(context.Context) error

	// Progress, when set, is called about once a second from a separate
	// goroutine with the requests completed so far (warm-up excluded) and the
	// elapsed measured time.
	Progress func(done int64, elapsed time.Duration)
	// Hlog, when set, receives the latency of each second of the window as
	// an HdrHistogram interval log (result.HlogWriter), written as
	// each second ends: the generator keeps no second longer than it must.
	Hlog io.Writer `json:"-"`
}

// NoDrain, as Config.Drain, closes an open loop's window on the requests in
// flight, as wrk2 does: their ages then are lower bounds (unfinished).
const NoDrain time.Duration = -1

// DefaultDrain is the longest an open loop of window w and per-request
// timeout waits for its requests in flight after the window closes: a
// tenth of the window, at least 100 ms, at most the timeout. A server that
// keeps its schedule has them all back within about one latency, and one
// that fell behind within its connections ÷ its capacity (the rest of its
// backlog was never sent: missed). In the standard bench of 2026-11-27
// 11:00 heysphere (c)'s overloaded cells drained their 291 in 76-104 ms of
// their 1.6 s; computation-scaled's Go at 25 %, ~1,250 in flight at 3,400
// req/s, reached its 100 ms and left ~930 unfinished. The tenth is for a
// stall near the close (25-75 ms in heysphere (b)'s 2-4 s windows, which
// without a drain left 1.2-1.9 % of the responses unfinished and the cells
// flagged censored), and keeps a cell at most 10 % longer than its window.
func DefaultDrain(w, timeout time.Duration) time.Duration {
	return min(timeout, max(100*time.Millisecond, w/10))
}

// drain is how long this load waits after its window for what is in
// flight: Drain where it drains (an open loop with a window), else 0.
func (c *Config) drain() time.Duration {
	if c.Rate > 0 && c.Duration > 0 && c.Drain > 0 {
		return c.Drain
	}
	return 0
}
