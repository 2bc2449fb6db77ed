package suite

import (
	"math"
	"os"
	"path/filepath"
	"restbench/internal/request"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"restbench/internal/capacity"
	"restbench/internal/impl"
)

// TestRealSuites loads the five suite files at every scale, against the real
// manifest, and checks what the runner and the report rely on.
func TestRealSuites(t *testing.T) {
	m, err := impl.Load("../..")
	if err != nil {
		t.Fatal(err)
	}
	echo, err := os.ReadFile("../../fixtures/echo-body.json")
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		runs        int
		trials      int     // of the first run
		maxDuration float64 // seconds, the longest duration cap of a run
	}
	for _, c := range []struct {
		file  string
		scale map[string]want
		check func(t *testing.T, s *Suite)
	}{
		{"dotchev-echo", map[string]want{"quick": {13, 1, 1}, "standard": {12, 5, 1.5}, "full": {14, 3, 20}}, func(t *testing.T, s *Suite) {
			for _, r := range s.Runs {
				if string(r.Load.Body) != string(echo) || r.Load.Method != "POST" || !strings.HasPrefix(r.Load.URL, "/echo") {
					t.Errorf("%s: want POST /echo with the 5,104-byte fixture, got %s %s with %d bytes", r.ID, r.Load.Method, r.Load.URL, len(r.Load.Body))
				}
			}
			q := run(t, s, "quota-1cpu/go-nethttp GOMAXPROCS=4")
			if q.Quota != 1 || q.Pinned || q.Env["GOMAXPROCS"] != "4" {
				t.Errorf("quota cell = quota %v pinned %v env %v, want quota 1, shared, GOMAXPROCS=4 as published", q.Quota, q.Pinned, q.Env)
			}
			// Scaled: the published 4 threads under 1 CPU of 4 cores is
			// GOMAXPROCS = cores under a quarter of the cores anywhere.
			if q := run(t, s, "quota-scaled/go-nethttp GOMAXPROCS=cores"); q.Quota != float64(runtime.NumCPU())/4 || q.Pinned || q.Env["GOMAXPROCS"] != strconv.Itoa(runtime.NumCPU()) {
				t.Errorf("scaled quota cell = quota %v pinned %v env %v, want quota %v (cores ÷ 4), shared, GOMAXPROCS=%d", q.Quota, q.Pinned, q.Env, float64(runtime.NumCPU())/4, runtime.NumCPU())
			}
			if r := run(t, s, "all-cores/go-nethttp GOMAXPROCS=cores"); r.Env["GOMAXPROCS"] != strconv.Itoa(runtime.NumCPU()) {
				t.Errorf("all-cores Go env = %v, want GOMAXPROCS=%d", r.Env, runtime.NumCPU())
			}
			if s.Scale != "standard" { // unset is cut at standard, to fund 5 rounds
				if _, set := run(t, s, "quota-1cpu/go-nethttp GOMAXPROCS=unset").Env["GOMAXPROCS"]; set {
					t.Errorf("GOMAXPROCS=unset must leave GOMAXPROCS out of the environment")
				}
			}
			if r := run(t, s, "single-thread/node-http"); !r.Pinned || r.Published["rps"] != 12618.86 {
				t.Errorf("single-thread/node-http: pinned %v, published %v", r.Pinned, r.Published)
			}
			if r := run(t, s, "all-cores/node-http THREADS=cores"); r.Pinned || r.Env["THREADS"] != "auto" {
				t.Errorf("all-cores node: pinned %v env %v, want shared THREADS=auto", r.Pinned, r.Env)
			}
			if r := run(t, s, "single-thread/node-http wrk"); r.Engine != "wrk" || !r.Pinned {
				t.Errorf("wrk cross-check engine = %q pinned %v, want wrk, pinned like the run it checks", r.Engine, r.Pinned)
			}
		}},
		{"joshuous-sum", map[string]want{"quick": {9, 1, 3}, "standard": {10, 5, 3.5}, "full": {10, 3, 300}}, func(t *testing.T, s *Suite) {
			for _, r := range s.Runs {
				// cpu-at-rate is a window of time at a rate: its request
				// count would only set the window's length.
				counted := r.Load.MaxRequests > 0 || r.Experiment == "cpu-at-rate"
				if r.Load.KeepAlive || !counted || r.Load.URL != "/sum" {
					t.Errorf("%s: want ab-style runs (no keep-alive, a request count) on /sum", r.ID)
				}
			}
			for _, id := range []string{"cpu-at-rate/go-chi", "cpu-at-rate/node-express pm2"} {
				if r := run(t, s, id); r.RateOf != "sum/node-express pm2" || r.RateFraction != 0.5 || r.RateSearch || r.Load.MaxRequests != 0 {
					t.Errorf("%s: rate %v x %q (search %v), %d requests; want 0.5 x the closed-loop req/s of sum/node-express pm2 over a window of time", id, r.RateFraction, r.RateOf, r.RateSearch, r.Load.MaxRequests)
				}
			}
			if r := run(t, s, "sum/node-express pm2"); r.Env["CLUSTER"] != "pm2" || r.Env["THREADS"] != "auto" {
				t.Errorf("pm2 env = %v", r.Env)
			}
			if r := run(t, s, "sum/node-express pm2 x8"); r.Env["CLUSTER"] != "pm2" || r.Env["THREADS"] != "8" {
				t.Errorf("pm2 x8 env = %v, want the published 8 workers", r.Env)
			}
			if run(t, s, "sum-ab/go-chi").Engine != "ab" {
				t.Errorf("no ab cross-check")
			}
			if s.Scale == "full" && run(t, s, "sum/go-chi").Load.MaxRequests != 50000 {
				t.Errorf("full scale must send the published 50000 requests")
			}
		}},
		{"fastify-fasthttp", map[string]want{"quick": {4, 1, 1}, "standard": {5, 5, 3}, "full": {5, 3, 600}}, func(t *testing.T, s *Suite) {
			r := run(t, s, "hello/go-fasthttp c=500")
			if r.Load.Connections != 500 || r.Load.KeepAlive || r.Published["p100_ms"] != 62 {
				t.Errorf("c=500 cell = %d conns, keepalive %v, published %v", r.Load.Connections, r.Load.KeepAlive, r.Published)
			}
			if s.Scale == "full" && r.Load.MaxRequests != 1000000 {
				t.Errorf("full scale must send the published 1,000,000 requests")
			}
			// Server-bound by design: the same quota on both servers, each
			// pinned apart from the generator.
			for _, r := range s.Runs {
				if r.Quota != 0.5 || !r.Pinned {
					t.Errorf("%s: quota %v pinned %v, want the same 0.5-CPU quota on every server, pinned", r.ID, r.Quota, r.Pinned)
				}
			}
		}},
		{"heysphere", map[string]want{"quick": {14, 1, 1}, "standard": {23, 5, 3}, "full": {33, 3, 30}}, func(t *testing.T, s *Suite) {
			capacity := "delay/node-express delay=0ms"
			ref := run(t, s, capacity)
			for _, r := range s.Runs {
				open := strings.HasPrefix(r.ID, "delay/") || strings.HasPrefix(r.ID, "computation/")
				if open && (r.RateOf != capacity || !r.RateSearch || r.RateFraction != 0.78) {
					t.Errorf("%s: rate = %v x %q (search %v), want 0.78 x capacity(%s) for both servers", r.ID, r.RateFraction, r.RateOf, r.RateSearch, capacity)
				}
				// Little's law with a 1.5x margin at the largest delay, for
				// a rate of 0.78 x up to 16.7k req/s (docs/suites.md).
				if open && s.Scale != "quick" && r.Load.Connections != ref.Load.Connections {
					t.Errorf("%s: %d connections, want the capacity search's %d", r.ID, r.Load.Connections, ref.Load.Connections)
				}
			}
			if c := ref.Load.Connections; s.Scale != "quick" && float64(c) < 0.78*16700*0.051*1.5 {
				t.Errorf("%d connections cannot carry 0.78 x 16.7k req/s at 50 ms with a 1.5x margin", c)
			}
			// Scaled to one Go core: (c)'s 0.78 over the write-up's 4 Go cores.
			if r := run(t, s, "computation-scaled/go-gorilla work=25%"); r.RateOf != capacity || !r.RateSearch || r.RateFraction != 0.195 {
				t.Errorf("%s: rate = %v x %q (search %v), want 0.195 x capacity(%s)", r.ID, r.RateFraction, r.RateOf, r.RateSearch, capacity)
			}
			d := run(t, s, "delay/go-gorilla delay=50ms")
			if d.Load.URL != "/time?delay=50" {
				t.Errorf("delay URL = %q", d.Load.URL)
			}
			w := run(t, s, "computation/node-express work=0%")
			if len(w.Load.Mix) != 1 || w.Load.Mix[0].Path != "/time" || w.Load.Mix[0].Name != "light" {
				t.Errorf("work mix = %+v, want the light /time alone", w.Load.Mix)
			}
			if s.Scale != "quick" {
				w := run(t, s, "computation/node-express work=25%")
				if len(w.Load.Mix) != 2 || w.Load.Mix[1].Path != "/time?work=1" || w.Load.Mix[1].Weight != 25 || w.Load.Mix[0].Weight != 75 {
					t.Errorf("work mix = %+v, want light 75 /time and heavy 25 /time?work=1", w.Load.Mix)
				}
			}
		}},
		{"filter-heartbeat", map[string]want{"quick": {8, 1, 3}, "standard": {9, 5, 3}, "full": {9, 3, 3600}}, func(t *testing.T, s *Suite) {
			size := map[string]int{"quick": 256_000, "standard": 5_000_000, "full": 5_000_000}[s.Scale]
			first := s.Runs[0].Load.Body
			for _, r := range s.Runs {
				n := len(r.Load.Body)
				if n < size*9/10 || n > size*11/10 || r.Load.Body[0] != '[' {
					t.Errorf("%s: body of %d bytes, want a JSON array of about %d", r.ID, n, size)
				}
				if &r.Load.Body[0] != &first[0] {
					t.Errorf("%s: the generated body is not shared between runs", r.ID)
				}
				if r.Load.Probe != "/status" {
					t.Errorf("%s: no /status probe", r.ID)
				}
				if (r.Env["THREADS"] == "1") != r.Pinned {
					t.Errorf("%s: THREADS=%s pinned=%v, want only THREADS=1 pinned", r.ID, r.Env["THREADS"], r.Pinned)
				}
			}
			// At least 30 probes a cell over its trials (verdict.MinProbes):
			// shorter runs probe more often.
			for _, r := range s.Runs {
				if probes := float64(r.Trials) * r.Load.Duration.Seconds() / r.Load.ProbeEvery.Seconds(); s.Scale != "full" && probes < 30 {
					t.Errorf("%s: %v probes every %v over %d trials of %v: under 30", r.ID, probes, r.Load.ProbeEvery, r.Trials, r.Load.Duration)
				}
			}
			if every := s.Runs[0].Load.ProbeEvery; (s.Scale == "full") != (every == 5*time.Second) {
				t.Errorf("probe every %v at %s: the published 5s at full scale only", every, s.Scale)
			}
		}},
	} {
		for _, scale := range Scales {
			t.Run(c.file+"/"+scale, func(t *testing.T) {
				path := filepath.Join("../../suites", c.file+".yaml")
				s, err := Load(path, Options{Scale: scale, Impls: m.IDs(), Languages: m.Languages()})
				if err != nil {
					t.Fatal(err)
				}
				w := c.scale[scale]
				if s.Name != c.file || s.Scale != scale || s.Info.Scale != scale || !strings.HasPrefix(s.Source, "seeds/") {
					t.Errorf("suite = name %q scale %q source %q", s.Name, s.Scale, s.Source)
				}
				if len(s.Runs) != w.runs {
					t.Errorf("%d runs, want %d", len(s.Runs), w.runs)
				}
				if s.Runs[0].Trials != w.trials {
					t.Errorf("first run has %d trials, want %d", s.Runs[0].Trials, w.trials)
				}
				checkCommon(t, s, w.maxDuration)
				c.check(t, s)
			})
		}
	}
}

// checkCommon checks what every suite must satisfy: unique ids, runs
// described in Info, published figures named, conclusions on real runs.
func checkCommon(t *testing.T, s *Suite, maxDuration float64) {
	t.Helper()
	ids := map[string]bool{}
	longest := 0.0
	for _, r := range s.Runs {
		if ids[r.ID] {
			t.Errorf("run id %q twice", r.ID)
		}
		ids[r.ID] = true
		if !strings.HasPrefix(r.ID, r.Experiment+"/") || r.Label == "" || r.Impl == "" {
			t.Errorf("run %q: experiment %q impl %q label %q", r.ID, r.Experiment, r.Impl, r.Label)
		}
		if r.Trials < 1 || r.Load.Connections < 1 || !strings.HasPrefix(r.Load.URL, "/") {
			t.Errorf("run %q: trials %d connections %d url %q", r.ID, r.Trials, r.Load.Connections, r.Load.URL)
		}
		if r.Load.Body != nil && !request.HasHeader(r.Load.Headers, "Content-Type") {
			t.Errorf("run %q: a body without Content-Type", r.ID)
		}
		longest = max(longest, r.Load.Duration.Seconds())
	}
	if longest != maxDuration {
		t.Errorf("longest duration cap = %vs, want %vs", longest, maxDuration)
	}
	n, published := 0, 0
	for _, e := range s.Info.Experiments {
		for _, ri := range e.Runs {
			n++
			if !ids[ri.ID] {
				t.Errorf("Info has run %q that Runs has not", ri.ID)
			}
			if len(ri.Published) > 0 {
				published++
			}
		}
		for _, c := range e.Conclusions {
			if len(c.Points) > 0 {
				for _, p := range c.Points {
					if !ids[p.A] || (p.B != "" && !ids[p.B]) {
						t.Errorf("conclusion %q: point %+v names a missing run", c.Text, p)
					}
				}
				continue
			}
			if !ids[c.A] || (c.B != "" && !ids[c.B]) || c.Published <= 0 {
				t.Errorf("conclusion %+v: runs missing or no published ratio", c)
			}
		}
	}
	if n != len(s.Runs) {
		t.Errorf("Info lists %d runs, Runs has %d", n, len(s.Runs))
	}
	if published == 0 {
		t.Errorf("no run carries published figures")
	}
}

func run(t *testing.T, s *Suite, id string) Run {
	t.Helper()
	for _, r := range s.Runs {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no run %q in %s at %s (runs: %s)", id, s.Name, s.Scale, strings.Join(runIDs(s.Runs), ", "))
	return Run{}
}

// TestRuntimesSuite: every case runs on every runtime of its language, and
// the Go server a toolchain cannot build is there (reported not supported).
func TestRuntimesSuite(t *testing.T) {
	full, err := Load("../../suites/runtimes.yaml", Options{Scale: "full", Languages: languages(t)})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"echo/node-http node@20", "echo/node-http deno", "echo/go-nethttp go@1.22", "hello/node-fastify deno", "work/node-express node@26 work=1%", "work/node-express deno work=0%"} {
		run(t, full, id)
	}
	s, err := Load("../../suites/runtimes.yaml", Options{Scale: "standard", Languages: languages(t)})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"echo/node-http bun", "echo/node-http deno", "hello/node-fastify bun", "hello/go-fasthttp go@1.27", "work/node-express node@24 work=1%", "work/node-express bun work=0%", "work/go-gorilla go@1.27 work=0%"} {
		run(t, s, id)
	}
	// The flags experiment: two published cases, each with the manifest's
	// flags and without, in one experiment so that rounds pair them.
	for id, want := range map[string]string{"node-flags/node-http flags=default": "/echo", "node-flags/node-fastify flags=default": "/hello", "node-flags/node-fastify flags=manifest": "/hello"} {
		r := run(t, s, id)
		if r.Runtime != "node@24" || !strings.HasSuffix(r.Load.URL, want) || (r.RuntimeFlags == FlagsDefault) != strings.HasSuffix(id, "default") {
			t.Errorf("%s: runtime %q url %q flags %q", id, r.Runtime, r.Load.URL, r.RuntimeFlags)
		}
	}
	if r := run(t, s, "echo/go-nethttp go@1.27"); r.Runtime != "go@1.27" || r.Env["GOMAXPROCS"] != "1" {
		t.Errorf("echo/go-nethttp go@1.27: runtime %q env %v, want go@1.27 with GOMAXPROCS=1", r.Runtime, r.Env)
	}
	if n := len(s.Runs); n != 4+1+3+1+4*2+4 {
		t.Errorf("%d runs, want 21 at standard (echo on 4 runtimes and its A/A twin, hello on 3, the capacity run, work and its 0 %% control on 4, node-flags' 4)", n)
	}
}

// TestTimeBudget bounds the time of all six suites from their settings:
// every trial at its full duration cap plus warm-up, plus 1.5 s to start and
// stop the server, every extra round an open verdict may add (up to
// max_trials, and the round that starts before time_cap runs out), and the
// capacity searches of rate_of: capacity(...), at their most steps. Runs
// that need more cores than make bench's 2 are not run there (the runner's
// rule: as many cores as THREADS or GOMAXPROCS, plus one when pinned; under
// a quota, the quota). Standard must fit `make bench` in 30 minutes (issue
// 24: windows long enough for the claims, scaled cells), quick
// must keep CI to about 3.
func TestTimeBudget(t *testing.T) {
	files, err := filepath.Glob("../../suites/*.yaml")
	if err != nil || len(files) != 6 {
		t.Fatalf("suite files = %v (%v), want 6", files, err)
	}
	const cores = 2
	needs := func(r Run) int {
		n := 0
		for _, k := range []string{"THREADS", "GOMAXPROCS"} {
			if v, err := strconv.Atoi(r.Env[k]); err == nil {
				n = max(n, v)
			}
		}
		if r.Quota > 0 {
			n = int(math.Ceil(r.Quota))
		}
		if r.Pinned && n > 0 {
			n++
		}
		return n
	}
	langs := languages(t)
	for _, c := range []struct {
		scale string
		limit time.Duration
	}{{"quick", 3 * time.Minute}, {"standard", 30 * time.Minute}} {
		var total time.Duration
		for _, f := range files {
			s, err := Load(f, Options{Scale: c.scale, Languages: langs})
			if err != nil {
				t.Fatal(err)
			}
			type exp struct {
				round, least, most, limit, idle time.Duration
				search                          string // the run whose capacity it searches once per round
			}
			exps := map[string]*exp{}
			byID := map[string]Run{}
			for _, r := range s.Runs {
				byID[r.ID] = r
			}
			var order []string
			for _, r := range s.Runs {
				if needs(r) > cores {
					continue // "not run here: needs n cores"
				}
				e := exps[r.Experiment]
				if e == nil {
					e = &exp{}
					exps[r.Experiment] = e
					order = append(order, r.Experiment)
				}
				// 1 s per trial for starting and stopping the server and
				// writing the result: what every suite stayed under in the
				// standard make bench of 2026-11-22 on the 2-vCPU VM (per
				// suite, first trial's start to last trial's end against this
				// estimate for the same suite files: dotchev 136 s / 185 s,
				// fastify 65 / 96, filter 122 / 132, heysphere 243 / 315,
				// joshuous 82 / 132, runtimes 160 / 216; 1.5 s gave 19m49s for
				// a bench that took 13m23s).
				trial := r.Load.Warmup + r.Load.Duration + time.Second
				idle := 200 * time.Millisecond // the first trial's idle window (runner.IdleWindow)
				e.round += trial
				e.least += time.Duration(r.Trials) * trial
				e.most += time.Duration(max(r.Trials, r.MaxTrials)) * trial
				e.idle += idle
				e.limit = max(e.limit, r.TimeCap)
				if r.RateSearch {
					e.search = r.RateOf
				}
			}
			// A capacity search runs once per round, before the round's
			// first trial that needs it, and later experiments reuse it
			// for as many rounds as it ran: every step at most, each its
			// warm-up, duration and pause, plus the server's start.
			searched := map[string]int{}
			for _, name := range order {
				// The first `trials` rounds always run; after them a new
				// round starts while the experiment has run less than its cap.
				e := exps[name]
				worst := e.most
				if e.limit > 0 {
					worst = min(e.most, max(e.least, e.limit+e.round))
					if e.least >= e.limit {
						worst = e.least
					}
				}
				if e.search != "" {
					ref := byID[e.search].Load
					step := max(ref.Warmup, capacity.SuiteWarmup) + ref.Duration + capacity.DefaultPause
					search := time.Duration(capacity.DefaultMaxSteps)*step + time.Second
					rounds := int((worst + e.round - 1) / e.round)
					if n := rounds - searched[e.search]; n > 0 {
						t.Logf("%s %s/%s: %d capacity searches of %s, at most %v each", c.scale, s.Name, name, n, e.search, search)
						worst += time.Duration(n) * search
						searched[e.search] = rounds
					}
				}
				worst += e.idle
				t.Logf("%s %s/%s: %v to %v", c.scale, s.Name, name, e.least+e.idle, worst)
				total += worst
			}
		}
		t.Logf("%s: at most %v", c.scale, total)
		if total > c.limit {
			t.Errorf("%s scale takes up to %v, over its %v budget", c.scale, total, c.limit)
		}
	}
}

// languages is the real manifest's language per implementation, which the
// runtime key is checked against.
func languages(t *testing.T) map[string]string {
	t.Helper()
	m, err := impl.Load("../..")
	if err != nil {
		t.Fatal(err)
	}
	return m.Languages()
}
