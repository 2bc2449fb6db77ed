package engine

import (
	"context"
	"fmt"
	"io"
	"maps"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"restbench/internal/load"
	"restbench/internal/result"
)

func readSample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6*math.Max(1, math.Abs(b)) }

func TestParseWrk(t *testing.T) {
	// wrk prints a socket-error line only when there were some; the third
	// case adds one to a real output, in wrk's own format.
	withSocket := strings.Replace(readSample(t, "wrk-errors.txt"), "  Non-2xx",
		"  Socket errors: connect 1, read 2, write 3, timeout 4\n  Non-2xx", 1)
	for _, c := range []struct {
		name      string
		out       string
		responses int64
		errs      result.Errors
		rps       float64
		mean, p50 float64
		p99, max  float64
		durationS float64
	}{
		{"keepalive", readSample(t, "wrk-keepalive.txt"), 68875, result.Errors{}, 33974.55, 2.84, 0.173, 52.39, 78.30, 2.03},
		{"non-2xx", readSample(t, "wrk-errors.txt"), 6674, result.Errors{Status: 6674}, 6615.33, 2.72, 0.291, 56.66, 73.40, 1.01},
		{"socket errors", withSocket, 6674, result.Errors{Connect: 1, Read: 5, Timeout: 4, Status: 6674}, 6615.33, 2.72, 0.291, 56.66, 73.40, 1.01},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := ParseWrk(c.out)
			if err != nil {
				t.Fatal(err)
			}
			if r.Responses != c.responses || r.Errors != c.errs || r.Requests != c.responses+c.errs.Connect+c.errs.Read+c.errs.Timeout {
				t.Errorf("responses %d requests %d errors %+v, want %d and %+v", r.Responses, r.Requests, r.Errors, c.responses, c.errs)
			}
			got := []float64{r.RPS, r.Latency.Mean, r.Latency.P50, r.Latency.P99, r.Latency.Max, r.DurationS}
			want := []float64{c.rps, c.mean, c.p50, c.p99, c.max, c.durationS}
			for i := range got {
				if !near(got[i], want[i]) {
					t.Errorf("rps, mean, p50, p99, max, duration = %v, want %v", got, want)
					break
				}
			}
		})
	}
	if _, err := ParseWrk("unable to connect to 127.0.0.1:1 Connection refused\n"); err == nil {
		t.Error("ParseWrk accepted an output without results")
	}
}

func TestParseAB(t *testing.T) {
	// ab prints the breakdown of failures only when there were some; the
	// second case puts one into a real output, in ab's own format.
	failed := strings.Replace(readSample(t, "ab-errors.txt"), "Failed requests:        0\n",
		"Failed requests:        17\n   (Connect: 2, Receive: 3, Length: 10, Exceptions: 2)\n", 1)
	for _, c := range []struct {
		name     string
		out      string
		requests int64
		errs     result.Errors
		rps      float64
		mean     float64
		p50, max float64
	}{
		{"hello", readSample(t, "ab-hello.txt"), 2000, result.Errors{}, 9652.88, 1.036, 1, 4},
		{"failures", failed, 500, result.Errors{Connect: 2, Read: 5}, 8089.44, 0, 0, 0},
		{"non-2xx keep-alive", readSample(t, "ab-404.txt"), 300, result.Errors{Status: 300}, 0, 0, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := ParseAB(c.out)
			if err != nil {
				t.Fatal(err)
			}
			if r.Requests != c.requests || r.Errors != c.errs || r.Responses != c.requests-c.errs.Connect-c.errs.Read {
				t.Errorf("requests %d responses %d errors %+v, want %d and %+v", r.Requests, r.Responses, r.Errors, c.requests, c.errs)
			}
			if c.rps > 0 && !near(r.RPS, c.rps) {
				t.Errorf("rps = %v, want %v", r.RPS, c.rps)
			}
			if c.mean > 0 && (!near(r.Latency.Mean, c.mean) || r.Latency.P50 != c.p50 || r.Latency.Max != c.max) {
				t.Errorf("latency = %+v, want mean %v p50 %v max %v", r.Latency, c.mean, c.p50, c.max)
			}
			// The percentiles without a field of their own are kept too.
			if c.name == "hello" {
				want := map[string]float64{"66": 1, "80": 1, "95": 2, "98": 2}
				if !maps.Equal(r.Latency.Percentiles, want) {
					t.Errorf("percentiles = %v, want %v", r.Latency.Percentiles, want)
				}
			}
		})
	}
	if _, err := ParseAB("apr_socket_connect(): Connection refused (111)\n"); err == nil {
		t.Error("ParseAB accepted an output without results")
	}
}

// echoServer answers every request with 200 and counts the body bytes it
// received and the connections it accepted.
func echoServer(t *testing.T) (*httptest.Server, *atomic.Int64, *atomic.Int64) {
	var body, conns atomic.Int64
	s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		body.Add(n)
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.Write([]byte(`{"ok":true}`))
	}))
	s.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			conns.Add(1)
		}
	}
	s.Start()
	t.Cleanup(s.Close)
	return s, &body, &conns
}

// TestToolsAgainstServer runs the real tools, when installed, and checks
// that the flags reach the server: method, body and keep-alive.
func TestToolsAgainstServer(t *testing.T) {
	for _, c := range []struct {
		tool      string
		cfg       load.Config
		keepAlive bool
	}{
		{"wrk", load.Config{Method: "POST", Body: []byte(`{"a":1}`), Connections: 2, Duration: time.Second, KeepAlive: true}, true},
		{"wrk", load.Config{Method: "POST", Body: []byte(`{"a":1}`), Connections: 2, Duration: time.Second}, false},
		{"ab", load.Config{Method: "POST", Body: []byte(`{"a":1}`), Connections: 2, MaxRequests: 200, Headers: []string{"Content-Type: application/json"}}, false},
		{"ab", load.Config{Method: "POST", Body: []byte(`{"a":1}`), Connections: 2, MaxRequests: 200, KeepAlive: true}, true},
		{"ab", load.Config{Method: "POST", Body: []byte(`{"a":1}`), Connections: 2, Duration: time.Second, KeepAlive: true}, true},
	} {
		t.Run(fmt.Sprintf("%s keepalive=%v n=%d", c.tool, c.keepAlive, c.cfg.MaxRequests), func(t *testing.T) {
			if _, err := exec.LookPath(c.tool); err != nil {
				t.Skipf("%s is not installed (CI installs wrk and apache2-utils)", c.tool)
			}
			s, body, conns := echoServer(t)
			c.cfg.URL = s.URL + "/echo"
			e, _ := New(c.tool)
			r, err := e.Run(context.Background(), c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if r.Responses == 0 || r.Errors.Total() != 0 || r.RPS <= 0 {
				t.Fatalf("responses %d errors %+v rps %v: want answers, no errors", r.Responses, r.Errors, r.RPS)
			}
			if c.cfg.MaxRequests > 0 && r.Requests != c.cfg.MaxRequests {
				t.Errorf("requests = %d, want %d", r.Requests, c.cfg.MaxRequests)
			}
			if got := body.Load(); got < r.Responses*int64(len(c.cfg.Body)) {
				t.Errorf("server received %d body bytes for %d responses: the body did not reach it", got, r.Responses)
			}
			// With keep-alive, a handful of connections; without, about
			// one per request.
			if n := conns.Load(); c.keepAlive && n > 10 || !c.keepAlive && n < r.Responses/2 {
				t.Errorf("%d connections for %d responses with keep-alive=%v", n, r.Responses, c.keepAlive)
			}
			if r.Settings.Engine != c.tool {
				t.Errorf("settings.engine = %q", r.Settings.Engine)
			}
		})
	}
}

// TestABCapsCountedLoad: ab takes no cap with -n, so a suite's requests
// capped by a duration interrupt it at the cap, as restbench's generator
// closes an -n window there, and what it completed by then is the result.
// 1,000 requests of 50 ms on 2 connections take 25 s; the cap is 1 s.
func TestABCapsCountedLoad(t *testing.T) {
	if _, err := exec.LookPath("ab"); err != nil {
		t.Skip("ab is not installed (CI installs apache2-utils)")
	}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(50 * time.Millisecond)
		io.WriteString(w, "ok")
	}))
	t.Cleanup(s.Close)
	e, _ := New("ab")
	start := time.Now()
	r, err := e.Run(context.Background(), load.Config{URL: s.URL + "/", Connections: 2, MaxRequests: 1000, Duration: time.Second, KeepAlive: true})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 15*time.Second {
		t.Errorf("ab ran %v: want it stopped at the 1 s cap, not after its 1,000 requests", took)
	}
	if r.Responses == 0 || r.Requests >= 1000 {
		t.Errorf("%d requests, %d responses: want the ones done by the cap", r.Requests, r.Responses)
	}
	if r.DurationS < 0.5 || r.DurationS > 10 {
		t.Errorf("duration %.2f s: want about the 1 s cap", r.DurationS)
	}
}

func TestUnsupported(t *testing.T) {
	for _, c := range []struct {
		e   Engine
		cfg load.Config
	}{
		{Wrk{}, load.Config{URL: "http://127.0.0.1:1/", Rate: 100}},
		{Wrk{}, load.Config{URL: "http://127.0.0.1:1/", MaxRequests: 100}},
		{AB{}, load.Config{URL: "http://127.0.0.1:1/", Rate: 100}},
		{AB{}, load.Config{URL: "http://127.0.0.1:1/", Probe: "/status"}},
	} {
		if _, err := c.e.Run(context.Background(), c.cfg); err == nil || !strings.Contains(err.Error(), "engine: restbench") {
			t.Errorf("%T %+v: err = %v, want a hint to use the built-in engine", c.e, c.cfg, err)
		}
	}
	if _, err := New("hey"); err == nil {
		t.Error("New(hey) succeeded")
	}
}

// TestSweepWrkDirs: a wrk load removes the temporary folders that a killed
// restbench left (its pid gone), never a live one's nor another program's.
func TestSweepWrkDirs(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	keep := []string{fmt.Sprintf("%s%d-123", wrkDirPrefix, os.Getpid()), "restbench-wrk456", "other"}
	dead := fmt.Sprintf("%s%d-789", wrkDirPrefix, 999999999)
	for _, n := range append(keep, dead) {
		os.MkdirAll(filepath.Join(tmp, n, "inside"), 0o755)
	}
	sweepWrkDirs()
	if _, err := os.Stat(filepath.Join(tmp, dead)); !os.IsNotExist(err) {
		t.Errorf("%s is still there (%v): its restbench is gone", dead, err)
	}
	for _, n := range keep {
		if _, err := os.Stat(filepath.Join(tmp, n)); err != nil {
			t.Errorf("%s was removed: %v", n, err)
		}
	}
}
