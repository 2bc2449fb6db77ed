package load

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"restbench/internal/result"
)

// TestMain turns the test binary into a plain HTTP server when
// RESTBENCH_TEST_SERVER is set, so tests can run a real server process
// that they can SIGSTOP or kill, and into a load under a seccomp filter
// when RESTBENCH_TEST_SECCOMP is set.
func TestMain(m *testing.M) {
	if os.Getenv("RESTBENCH_TEST_SECCOMP") != "" {
		if err := loadUnderSeccomp(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if mode := os.Getenv("RESTBENCH_TEST_SERVER"); mode != "" {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(ln.Addr())
		http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if mode == "sleep10" {
				answerAfter(10 * time.Millisecond)
			}
			io.WriteString(w, "hello")
		}))
		return
	}
	os.Exit(m.Run())
}

// answerAfter returns d after it was called, to within a few microseconds:
// time.Sleep alone overshoots by a timer tick or a scheduling delay, so it
// sleeps most of the time and spins for the rest.
func answerAfter(d time.Duration) {
	deadline := time.Now().Add(d)
	time.Sleep(d - time.Millisecond)
	for time.Now().Before(deadline) {
	}
}

// startChild runs the test binary as a server process (mode "hello" or
// "sleep10") and returns its URL.
func startChild(t *testing.T, mode string) (string, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "RESTBENCH_TEST_SERVER="+mode)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Kill)
		cmd.Process.Signal(os.Interrupt) // no-op if dead; ensures a stopped child is not left behind
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("server process did not start: %v", err)
	}
	return "http://" + strings.TrimSpace(line), cmd
}

// server is an in-process HTTP server that counts what it receives.
type server struct {
	*httptest.Server
	mu      sync.Mutex
	paths   map[string]int64
	accepts atomic.Int64
}

func newServer(t *testing.T, h http.HandlerFunc) *server {
	t.Helper()
	s := &server{paths: map[string]int64{}}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.paths[r.URL.RequestURI()]++
		s.mu.Unlock()
		h(w, r)
	}))
	s.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.accepts.Add(1)
		}
	}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

func (s *server) count(path string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.paths[path]
}

func hello(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello") }

// rawServer answers every request with the same bytes from a reused buffer:
// it allocates nothing per request, so an allocation count of the process
// measures the generator alone.
func rawServer(t testing.TB) string {
	resp := []byte("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\nhello")
	return tcpServer(t, func(c net.Conn, _ *bufio.Reader) {
		buf := make([]byte, 4096)
		for {
			n, err := c.Read(buf)
			if err != nil {
				return
			}
			// One request per read is what the generator sends
			// (no pipelining), so answer each read with one response.
			for i := bytes.Count(buf[:n], []byte("\r\n\r\n")); i > 0; i-- {
				if _, err := c.Write(resp); err != nil {
					return
				}
			}
		}
	})
}

// balanced checks the invariants every result must keep: each request
// the window accounts for got a response, an error, or is unfinished, for
// the total and each target; the timeline adds up to what finished; the
// censored series counts the unfinished (and the open loop's missed); the
// open loop's due = sent + missed; and a time-bounded closed loop passes
// its own Little's-law check or carries the flag that says it did not.
// result.CheckAccounting states the same definitions for every consumer
// (merge, the placement tests); it runs here first, so that every result a test of
// the generator makes passes it, and the checks below say it in the
// generator's own terms.
func balanced(t *testing.T, r *result.Load) {
	t.Helper()
	if err := result.CheckAccounting(r); err != nil {
		t.Errorf("result.CheckAccounting: %v", err)
	}
	check := func(name string, st *result.Stats, missed int64) {
		e := st.Errors
		if st.Requests != st.Responses+e.Connect+e.Timeout+e.Read+st.Unfinished {
			t.Errorf("%s: requests %d != responses %d + connect %d + timeout %d + read %d + unfinished %d",
				name, st.Requests, st.Responses, e.Connect, e.Timeout, e.Read, st.Unfinished)
		}
		var codes int64
		for _, n := range st.StatusCodes {
			codes += n
		}
		if codes != st.Responses {
			t.Errorf("%s: status codes add up to %d, responses %d", name, codes, st.Responses)
		}
		if n := histCount(t, st.CensoredHistogram); n != st.Unfinished+missed {
			t.Errorf("%s: censored histogram holds %d values, want unfinished %d + missed %d", name, n, st.Unfinished, missed)
		}
		if n := histCount(t, st.Histogram); n != st.Responses {
			t.Errorf("%s: latency histogram holds %d values, want %d responses", name, n, st.Responses)
		}
		if st.Service != nil && st.Latency.Mean < st.Service.Mean*0.999 {
			t.Errorf("%s: mean latency %.3f ms below mean service time %.3f ms: latency counts from the intended send, never later than the actual one",
				name, st.Latency.Mean, st.Service.Mean)
		}
	}
	check("total", &r.Stats, r.Missed)
	var sum int64
	for name, st := range r.Targets {
		check(name, st, 0)
		sum += st.Requests
	}
	if sum != r.Requests {
		t.Errorf("targets add up to %d requests, total %d", sum, r.Requests)
	}
	var tl int64
	for _, s := range r.Timeline {
		tl += s.Requests
	}
	if tl != r.FinishedInWindow() {
		t.Errorf("timeline adds up to %d requests, total %d finished in the window", tl, r.FinishedInWindow())
	}
	if r.Due != r.Sent+r.Missed {
		t.Errorf("open loop: due %d != sent %d + missed %d", r.Due, r.Sent, r.Missed)
	}
	if l := r.Little; l != nil {
		off := l.Ratio < 0.9 || l.Ratio > 1.1
		if off != slices.Contains(r.Flags, result.FlagInconsistent) {
			t.Errorf("Little: rps x mean = %.1f in flight for %d connections (ratio %.2f), flags %v", l.InFlight, l.Connections, l.Ratio, r.Flags)
		}
	}
	if p := r.PerConnection; p != nil && (p.Stalled > 0) != slices.Contains(r.Flags, result.FlagStalledConnections) {
		t.Errorf("%d stalled connections, flags %v", p.Stalled, r.Flags)
	}
}

func histCount(t *testing.T, enc string) int64 {
	t.Helper()
	if enc == "" {
		return 0
	}
	h, err := result.DecodeHistogram(enc)
	if err != nil {
		t.Fatal(err)
	}
	return h.TotalCount()
}
