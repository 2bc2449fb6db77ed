package monitor

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"restbench/internal/result"
)

type noSampler struct{}

func (noSampler) Sample() (result.Sample, error) { return result.Sample{}, nil }

// TestReadRuntime reads a real server's GET /runtime once, at Stop and not
// while the load runs (every answer costs a Node server throughput), and
// records why a server without the endpoint gave none.
func TestReadRuntime(t *testing.T) {
	var calls, missing atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/runtime" {
			missing.Add(1)
			http.NotFound(w, r)
			return
		}
		calls.Add(1)
		w.Write([]byte(`{"runtime":"node v24.21.0","event_loop_delay_p99_ms":12.5,"gc":{"minor":{"count":3,"total_ms":1.5}}}`))
	}))
	defer srv.Close()

	m := Start(noSampler{}, 20*time.Millisecond, time.Now())
	m.ReadRuntime(srv.URL+"/runtime", nil)
	time.Sleep(150 * time.Millisecond) // seven sampling intervals of load
	if n := calls.Load(); n != 0 {
		t.Errorf("%d GET /runtime while the load ran, want none", n)
	}
	got := m.Stop(1)
	if n := calls.Load(); n != 1 || len(got.Runtime) != 1 || got.RuntimeError != "" {
		t.Fatalf("%d calls, %d readings (error %q), want one of each", n, len(got.Runtime), got.RuntimeError)
	}
	r := got.Runtime[0]
	if r.Runtime != "node v24.21.0" || r.EventLoopDelayP99MS == nil || *r.EventLoopDelayP99MS != 12.5 || r.GC["minor"].Count != 3 || r.T < 0.1 {
		t.Errorf("reading %+v, want the answer taken at Stop (t >= 0.1 s)", r)
	}

	m = Start(noSampler{}, 20*time.Millisecond, time.Now())
	m.ReadRuntime(srv.URL+"/nothing", nil)
	got = m.Stop(1)
	if len(got.Runtime) != 0 || missing.Load() != 1 || !strings.Contains(got.RuntimeError, "status 404") {
		t.Errorf("a server without /runtime: %d readings, %d asks, error %q", len(got.Runtime), missing.Load(), got.RuntimeError)
	}
}

// TestReadRuntimeHung: a server that does not answer once its load is over
// costs Stop lastTimeout, not runtimeTimeout, and says why it has no reading.
func TestReadRuntimeHung(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	m := Start(noSampler{}, 20*time.Millisecond, time.Now())
	m.ReadRuntime(srv.URL+"/runtime", nil)
	start := time.Now()
	got := m.Stop(1)
	if took := time.Since(start); took > runtimeTimeout/2 {
		t.Errorf("Stop took %v on a hung server, want about %v", took, lastTimeout)
	}
	if len(got.Runtime) != 0 || got.RuntimeError == "" {
		t.Errorf("a hung server: %d readings, error %q", len(got.Runtime), got.RuntimeError)
	}
}

// TestArmRuntime: one GET, and a server without the endpoint is no error.
func TestArmRuntime(t *testing.T) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.URL.Path != "/runtime" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(`{"runtime":"go1.27.4"}`))
	}))
	defer srv.Close()
	ctx := context.Background()
	if err := ArmRuntime(ctx, srv.URL+"/runtime", nil); err != nil || calls.Load() != 1 {
		t.Errorf("ArmRuntime: %v after %d calls, want nil after 1", err, calls.Load())
	}
	if err := ArmRuntime(ctx, srv.URL+"/nothing", nil); err != nil {
		t.Errorf("ArmRuntime on a server without /runtime: %v, want nil", err)
	}
	srv.Close()
	if err := ArmRuntime(ctx, srv.URL+"/runtime", nil); err == nil {
		t.Error("ArmRuntime on a closed server: nil, want the connection's error")
	}
}
