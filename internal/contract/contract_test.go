package contract

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"restbench/internal/impl"
	"restbench/internal/launch"
	"restbench/internal/payload"
	"restbench/internal/server"

	"golang.org/x/sys/unix"
)

// root is the repository root, for fixtures/ and the manifest.
func root(t *testing.T) string {
	t.Helper()
	r, err := impl.FindRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestVerifyGoNetHTTP runs every check against the reference go-nethttp
// server: a conforming server passes them all.
func TestVerifyGoNetHTTP(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real servers")
	}
	m, err := impl.Load(root(t))
	if err != nil {
		t.Fatal(err)
	}
	im, err := m.Get("go-nethttp")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// The reference server is part of the repository: one that is missing
	// or does not build is a failure, not a reason to verify nothing.
	if err := m.Build(ctx, im, io.Discard); err != nil {
		t.Fatalf("build go-nethttp: %v", err)
	}
	defer server.StopAll(time.Second)
	v := &Verifier{Launcher: &launch.Launcher{Manifest: m}, FilterSize: 20_000_000}
	results := v.Verify(ctx, im)
	if len(results) != len(CheckNames()) {
		t.Fatalf("%d results, want one per row (%d)", len(results), len(CheckNames()))
	}
	for _, r := range results {
		want := Pass
		switch r.Check {
		case "time-blocking":
			want = Info // recorded for Go, not judged
		case "pm2":
			want = Skip // Node only
		}
		if r.Status != want {
			t.Errorf("%s: %s, want %s: %s", r.Check, r.Status, want, r.Detail)
		}
	}
}

// TestChecksFail runs each check against a server with one realistic bug
// that the check exists to catch: every one must fail.
func TestChecksFail(t *testing.T) {
	dir := root(t)
	tests := []struct {
		check    string
		language string
		handler  http.HandlerFunc
	}{
		{"status", "go", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, "ok") // text/plain
		}},
		{"echo", "go", func(w http.ResponseWriter, r *http.Request) {
			// A typed struct that forgot the nested code objects.
			var v struct {
				Colors []struct {
					Color, Category, Type string
				} `json:"colors"`
			}
			json.NewDecoder(r.Body).Decode(&v)
			writeJSON(w, 200, v)
		}},
		{"echo-any", "go", func(w http.ResponseWriter, r *http.Request) {
			var v map[string]any // objects only: arrays fail
			if err := json.NewDecoder(r.Body).Decode(&v); err != nil {
				writeJSON(w, 400, map[string]string{"error": err.Error()})
				return
			}
			writeJSON(w, 200, v)
		}},
		{"sum", "go", func(w http.ResponseWriter, r *http.Request) {
			var v struct{ A, B float64 }
			json.NewDecoder(r.Body).Decode(&v) // missing fields become 0
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"result":%.1f}`, v.A+v.B)
		}},
		{"hello", "go", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, map[string]string{"result": "Hello World"})
		}},
		{"gzip", "go", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, map[string]string{"result": "Hello world"}) // never compressed
		}},
		{"bad-json", "go", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "bad request", 400) // text/plain, not {"error": ...}
		}},
		{"bad-params", "go", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, map[string]int64{"now": time.Now().UnixMilli()}) // ignores the query
		}},
		{"too-large", "go", func(w http.ResponseWriter, r *http.Request) {
			io.Copy(w, r.Body) // no limit
		}},
		{"not-found", "go", http.NotFound},
		{"runtime", "node", func(w http.ResponseWriter, r *http.Request) {
			// Heap only: no event-loop figures, and no word that they are missing.
			writeJSON(w, 200, map[string]any{"runtime": "node v24.21.0", "heap_used_bytes": 1, "heap_total_bytes": 2, "gc": map[string]any{}})
		}},
		{"runtime", "go", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, map[string]any{"gomaxprocs": 1}) // no runtime name
		}},
		{"bad-method", "go", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 404, map[string]string{"error": "not found"}) // 404 instead of 405
		}},
		{"time-delay", "go", func(w http.ResponseWriter, r *http.Request) {
			// A quarter of the delay: a loaded machine once stretched a
			// 100 ms sleep to 161 ms, inside the check's 160-240 ms band.
			time.Sleep(50 * time.Millisecond)
			writeJSON(w, 200, map[string]int64{"now": time.Now().UnixMilli()})
		}},
		{"time-work", "go", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, map[string]int64{"now": time.Now().UnixMilli()}) // no work
		}},
		// Node's servers before their clock was fixed: a thread clock that
		// advances in ms steps made work=1 cost 3.7 ms (work=200 was right).
		{"time-work", "go", coarseWork(2700 * time.Microsecond)},
		{"time-parallel", "go", serialDelay()},
		{"time-blocking", "node", func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/time" {
				time.Sleep(300 * time.Millisecond) // sleeps instead of computing
			}
			writeJSON(w, 200, map[string]any{"now": time.Now().UnixMilli(), "status": "ok"})
		}},
		{"filter", "go", filterHandler(func(v, min float64) bool { return v >= min })},
		{"filter-memory", "go", func(w http.ResponseWriter, r *http.Request) {
			filterHandler(func(v, min float64) bool { return v > min })(w, r) // holds the whole body

		}},
		{"robust", "go", wedging()},
	}
	for _, tt := range tests {
		t.Run(tt.check, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			target := &Target{
				Impl: impl.Impl{ID: "broken", Language: tt.language}, URL: srv.URL, Root: dir,
				Client: NewClient(), Pid: os.Getpid(), FilterSize: 50_000_000, MaxRSS: 40_000_000,
			}
			c, ok := Find(tt.check)
			if !ok {
				t.Fatalf("no check %q", tt.check)
			}
			r := target.Run(context.Background(), c)
			if r.Status != Fail {
				t.Errorf("%s passed a server with its bug: %s %s", tt.check, r.Status, r.Detail)
			}
			t.Logf("%s: %s", r.Status, r.Detail)
		})
	}
}

// coarseWork does the work asked for plus extra of CPU, one request at a
// time, as a server that reads a coarse clock does. The CPU is this test
// process's, which verify reads from /proc as it reads a server's.
func coarseWork(extra time.Duration) http.HandlerFunc {
	var mu sync.Mutex
	return func(w http.ResponseWriter, r *http.Request) {
		work, err := strconv.Atoi(r.URL.Query().Get("work"))
		if err == nil && work > 0 {
			mu.Lock()
			spin(time.Duration(work)*time.Millisecond + extra)
			mu.Unlock()
		}
		writeJSON(w, 200, map[string]int64{"now": time.Now().UnixMilli()})
	}
}

// spin keeps this goroutine's OS thread busy for d of its CPU time.
func spin(d time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu := func() time.Duration {
		var ts unix.Timespec
		unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
		return time.Duration(ts.Nano())
	}
	for end := cpu() + d; cpu() < end; {
	}
}

// serialDelay waits the delay under a lock, as a server that blocks its only
// thread in a sleep would.
func serialDelay() http.HandlerFunc {
	var mu sync.Mutex
	return func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		time.Sleep(300 * time.Millisecond)
		mu.Unlock()
		writeJSON(w, 200, map[string]int64{"now": time.Now().UnixMilli()})
	}
}

// filterHandler filters the whole body (small bodies only) with keep.
func filterHandler(keep func(v, min float64) bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var all []payload.Record
		if err := json.NewDecoder(r.Body).Decode(&all); err != nil {
			writeJSON(w, 400, map[string]string{"error": err.Error()})
			return
		}
		out := []payload.Record{}
		for _, rec := range all {
			if keep(rec.Version, 5) {
				out = append(out, rec)
			}
		}
		writeJSON(w, 200, out)
	}
}

// wedging answers /status with 503 once it has seen a malformed body.
func wedging() http.HandlerFunc {
	var mu sync.Mutex
	wedged := false
	return func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		if r.URL.Path != "/status" && !json.Valid(body) {
			wedged = true
		}
		if wedged {
			writeJSON(w, 503, map[string]string{"error": "wedged"})
			return
		}
		writeJSON(w, 200, map[string]string{"status": "ok"})
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func TestReadyLine(t *testing.T) {
	tests := []struct {
		line string
		lang string
		ok   bool
	}{
		{"restbench-server id=x pid=12 threads=1 gomaxprocs=1 listening=127.0.0.1:9", "go", true},
		{"restbench-server id=x pid=12 threads=1 gomaxprocs=- listening=127.0.0.1:9", "node", true},
		{"restbench-server id=x pid=12 threads=1 gomaxprocs=2 listening=127.0.0.1:9", "go", false},
		{"restbench-server id=y pid=12 threads=1 gomaxprocs=1 listening=127.0.0.1:9", "go", false},
		{"restbench-server id=x pid=12 threads=2 gomaxprocs=1 listening=127.0.0.1:9", "go", false},
		{"restbench-server id=x pid=12 threads=1 gomaxprocs=1 listening=0.0.0.0:9", "go", false},
		{"restbench-server id=x pid=me threads=1 gomaxprocs=1 listening=127.0.0.1:9", "go", false},
		{"restbench-server id=x pid=12 threads=1 listening=127.0.0.1:9", "node", false},
	}
	for _, tt := range tests {
		ready, ok := server.ParseReady(tt.line)
		if !ok {
			t.Fatalf("ParseReady(%q) failed", tt.line)
		}
		target := &Target{Impl: impl.Impl{ID: "x", Language: tt.lang}, URL: "http://127.0.0.1:9", Ready: ready}
		_, err := checkReadyLine(context.Background(), target)
		if (err == nil) != tt.ok {
			t.Errorf("%s (%s): error %v, want ok=%v", tt.line, tt.lang, err, tt.ok)
		}
	}
	if _, ok := server.ParseReady("listening on 8080"); ok {
		t.Error("ParseReady accepted a line that is not a readiness line")
	}
}

func TestWriteTable(t *testing.T) {
	results := []Result{
		{Impl: "a", Check: "status", Status: Pass},
		{Impl: "b", Check: "status", Status: Fail, Detail: "status 500, want 200\nsecond line"},
	}
	var out strings.Builder
	WriteTable(&out, results, false)
	for _, want := range []string{"CHECK", "a", "b", "PASS", "FAIL", "1 failed:", "FAIL b status: status 500, want 200\n    second line"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
	if Passed(results) {
		t.Error("Passed: true with a failure")
	}
}
