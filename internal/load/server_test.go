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

	"restbench/internal/result"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestMain turns the test binary into a plain HTTP server when
// RESTBENCH_TEST_SERVER is set, so tests can run a real server process
// that they can SIGSTOP or kill.
func TestMain(m *testing.M) {
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
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	resp := []byte("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\nhello")
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
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
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

// balanced checks the invariant every result must keep: each request sent
// got a response or an error, for the total and each target, and the
// timeline adds up to the total.
func balanced(t *testing.T, r *result.Load) {
	t.Helper()
	check := func(name string, st *result.Stats) {
		e := st.Errors
		if st.Requests != st.Responses+e.Connect+e.Timeout+e.Read {
			t.Errorf("%s: requests %d != responses %d + connect %d + timeout %d + read %d",
				name, st.Requests, st.Responses, e.Connect, e.Timeout, e.Read)
		}
		var codes int64
		for _, n := range st.StatusCodes {
			codes += n
		}
		if codes != st.Responses {
			t.Errorf("%s: status codes add up to %d, responses %d", name, codes, st.Responses)
		}
	}
	check("total", &r.Stats)
	var sum int64
	for name, st := range r.Targets {
		check(name, st)
		sum += st.Requests
	}
	if sum != r.Requests {
		t.Errorf("targets add up to %d requests, total %d", sum, r.Requests)
	}
	var tl int64
	for _, s := range r.Timeline {
		tl += s.Requests
	}
	if tl != r.Requests {
		t.Errorf("timeline adds up to %d requests, total %d", tl, r.Requests)
	}
}
