package monitor

import (
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

// TestPollRuntime reads a real server's GET /runtime every interval until
// Stop, and stops asking a server that does not serve it.
func TestPollRuntime(t *testing.T) {
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
	m.PollRuntime(srv.URL+"/runtime", nil)
	// The monitor asks one request at a time: once the server saw a 4th,
	// the 3rd reading was recorded.
	for i := 0; i < 500 && calls.Load() < 4; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	got := m.Stop(1)
	if len(got.Runtime) < 3 || got.RuntimeError != "" {
		t.Fatalf("%d readings (error %q), want at least 3", len(got.Runtime), got.RuntimeError)
	}
	r := got.Runtime[0]
	if r.Runtime != "node v24.21.0" || r.EventLoopDelayP99MS == nil || *r.EventLoopDelayP99MS != 12.5 || r.GC["minor"].Count != 3 || r.T < 0 {
		t.Errorf("reading %+v", r)
	}
	for i := 1; i < len(got.Runtime); i++ {
		if got.Runtime[i].T < got.Runtime[i-1].T {
			t.Errorf("readings out of order: %v then %v", got.Runtime[i-1].T, got.Runtime[i].T)
		}
	}

	m = Start(noSampler{}, 20*time.Millisecond, time.Now())
	m.PollRuntime(srv.URL+"/nothing", nil)
	for i := 0; i < 500 && missing.Load() < 1; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // for the 404 to be read after the server wrote it
	got = m.Stop(1)
	if len(got.Runtime) != 0 || !strings.Contains(got.RuntimeError, "status 404") {
		t.Errorf("a server without /runtime: %d readings, error %q", len(got.Runtime), got.RuntimeError)
	}
}
