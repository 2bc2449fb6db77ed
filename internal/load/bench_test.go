package load

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// steadyLoop prepares a loop with one keep-alive connection to a
// zero-allocation server that will send n requests. Everything it allocates
// (histograms, buffers) is allocated here, before the measurement.
func steadyLoop(tb testing.TB, n int64) (*generator, *loop) {
	cfg := withDefaults(Config{URL: rawServer(tb) + "/", Connections: 1, MaxRequests: n, KeepAlive: true, ExpectJSON: false})
	ep, err := resolve(cfg.URL, false)
	if err != nil {
		tb.Fatal(err)
	}
	targets, err := buildTargets(&cfg, ep)
	if err != nil {
		tb.Fatal(err)
	}
	r := newGenerator(&cfg, ep, targets, new(atomic.Bool))
	loops, err := r.newLoops(1)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(reserveProcs(1)) // as Run does: the production path
	r.base = time.Now()
	return r, loops[0]
}

// BenchmarkRoundTrip measures one keep-alive request and response through
// the event loop: serialised request out, parse, validate, record.
func BenchmarkRoundTrip(b *testing.B) {
	r, l := steadyLoop(b, int64(b.N))
	b.ReportAllocs()
	b.ResetTimer()
	l.run()
	b.StopTimer()
	if got := l.measured[0].responses; got != int64(b.N) {
		b.Fatalf("%d responses, want %d", got, b.N)
	}
	_ = r
}

// TestRoundTripAllocations asserts what BenchmarkRoundTrip shows: the hot
// path allocates nothing. The whole run of 5000 requests may allocate a
// few objects (a timeline merge per second), never one per request.
func TestRoundTripAllocations(t *testing.T) {
	const n = 5000
	_, l := steadyLoop(t, n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	l.run()
	runtime.ReadMemStats(&after)
	if got := l.measured[0].responses; got != n {
		t.Fatalf("%d responses, want %d", got, n)
	}
	if allocs := after.Mallocs - before.Mallocs; allocs > n/100 {
		t.Errorf("%d allocations for %d requests: the hot path allocates", allocs, n)
	}
}
