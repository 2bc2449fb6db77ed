package suite

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"restbench/internal/result"
)

// loadFull loads a real suite at full scale (the published figures, every
// run and conclusion), keyed by run id.
func loadFull(t *testing.T, name string) (*Suite, map[string]*Run) {
	t.Helper()
	m := realManifest(t)
	s, err := Load(filepath.Join("../../suites", name+".yaml"), Options{Scale: "full", Impls: m.IDs(), Languages: m.Languages()})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*Run{}
	for i := range s.Runs {
		byID[s.Runs[i].ID] = &s.Runs[i]
	}
	return s, byID
}

// seedText is the write-up a suite reproduces (source.write_up, in the
// shared folder beside the repository), or "" where this checkout has none.
func seedText(t *testing.T, s *Suite) string {
	t.Helper()
	first, _, _ := strings.Cut(s.Source, ",")
	b, err := os.ReadFile(filepath.Join("../../../shared", strings.TrimSpace(first)))
	if err != nil {
		t.Logf("%s: no write-up at ../shared/%s (%v): the figures are checked against the table only", s.Name, first, err)
		return ""
	}
	return string(b)
}

// near: |got/want − 1| ≤ rel.
func near(got, want, rel float64) bool { return math.Abs(got/want-1) <= rel }

// TestPublishedRates recomputes every published req/s the write-ups print
// beside its own count and seconds (wrk's "N requests in T s", ab's
// "Complete requests" and "Time taken for tests"): a count is exact, so a
// figure that disagrees is a transcription error. The strings are the
// write-up's, checked against it where the checkout has it.
func TestPublishedRates(t *testing.T) {
	for _, c := range []struct {
		suite, run string
		requests   float64
		seconds    float64
		seed       []string // as printed
	}{
		{"dotchev-echo", "single-thread/node-http", 253629, 20.10, []string{"253629 requests in 20.10s", "Requests/sec:  12618.86"}},
		{"dotchev-echo", "single-thread/node-http wrk", 253629, 20.10, nil},
		{"dotchev-echo", "single-thread/go-nethttp GOMAXPROCS=1", 143198, 20.10, []string{"143198 requests in 20.10s", "Requests/sec:   7124.41"}},
		{"dotchev-echo", "single-thread/go-nethttp GOMAXPROCS=1 wrk", 143198, 20.10, nil},
		{"dotchev-echo", "single-thread/go-nethttp any GOMAXPROCS=1", 98894, 20.01, []string{"98894 requests in 20.01s", "Requests/sec:   4943.11"}},
		{"dotchev-echo", "quota-1cpu/node-http", 181603, 20.00, []string{"181603 requests in 20.00s", "Requests/sec:   9078.68"}},
		{"dotchev-echo", "quota-1cpu/go-nethttp GOMAXPROCS=4", 11614, 20.03, []string{"11614 requests in 20.03s", "Requests/sec:    579.77"}},
		{"dotchev-echo", "quota-1cpu/go-nethttp GOMAXPROCS=1", 124807, 20.10, []string{"124807 requests in 20.10s", "Requests/sec:   6209.90"}},
		{"dotchev-echo", "all-cores/node-http THREADS=cores", 439361, 20.03, []string{"439361 requests in 20.03s", "Requests/sec:  21938.23"}},
		{"dotchev-echo", "all-cores/go-nethttp GOMAXPROCS=cores", 256084, 20.10, []string{"256084 requests in 20.10s", "Requests/sec:  12740.96"}},
		{"joshuous-sum", "sum/go-chi", 50000, 2.893, []string{"Time taken for tests:   2.893 seconds", "Requests per second:    17280.86"}},
		{"joshuous-sum", "sum/go-chi THREADS=8", 50000, 2.893, nil},
		{"joshuous-sum", "sum/go-chi ab", 50000, 2.893, nil},
		{"joshuous-sum", "sum/node-express", 50000, 6.766, []string{"Time taken for tests:   6.766 seconds", "Requests per second:    7390.41"}},
		{"joshuous-sum", "sum/node-express ab", 50000, 6.766, nil},
		{"joshuous-sum", "sum/node-express pm2", 50000, 6.931, []string{"Time taken for tests:   6.931 seconds", "Requests per second:    7213.76"}},
		{"joshuous-sum", "sum/node-express pm2 x8", 50000, 6.931, nil},
	} {
		t.Run(c.run, func(t *testing.T) {
			s, byID := loadFull(t, c.suite)
			r := byID[c.run]
			if r == nil {
				t.Fatalf("no run %q in %s", c.run, c.suite)
			}
			// The seconds are printed to 0.01 s (wrk) or 1 ms (ab): the
			// rate from them is good to half that over the window.
			rel := 0.005/c.seconds + 0.0005
			if got, rate := r.Published["rps"], c.requests/c.seconds; !near(got, rate, rel) {
				t.Errorf("published rps %v, but %v requests in %v s is %.2f req/s", got, c.requests, c.seconds, rate)
			}
			if n, ok := r.Published["requests"]; ok && n != c.requests {
				t.Errorf("published requests %v, the write-up counted %v", n, c.requests)
			}
			if seed := seedText(t, s); seed != "" {
				for _, want := range c.seed {
					if !strings.Contains(seed, want) {
						t.Errorf("the write-up does not print %q", want)
					}
				}
			}
		})
	}
}

// TestABDerivedLatency: ab's "Time per request" (mean) is concurrency ÷
// req/s by construction, not a measured latency. Every published ab row
// must keep that identity with its run's connections: a row that breaks
// it was copied wrong.
func TestABDerivedLatency(t *testing.T) {
	for _, name := range []string{"joshuous-sum", "fastify-fasthttp"} {
		_, byID := loadFull(t, name)
		for id, r := range byID {
			rps, mean := r.Published["rps"], r.Published["latency_mean_ms"]
			if rps == 0 || mean == 0 {
				continue
			}
			// ab prints the mean to 1 µs: 0.0005 ms.
			if derived := float64(r.Load.Connections) * 1000 / rps; math.Abs(derived-mean) > 0.0015 {
				t.Errorf("%s %s: published mean %v ms, but ab's mean is %d connections ÷ %v req/s = %.4f ms", name, id, mean, r.Load.Connections, rps, derived)
			}
		}
	}
}

// TestStatedRatios recomputes every ratio a conclusion's sentence or note
// states from the write-up's own figures, and the band the suite reads
// from the words (docs/suites.md): "about N×" is N/1.25–N×1.25, "at least
// N×" is N and up, "over N %" 1+N/100 and up, with N as the write-up
// wrote it. It also checks that the published ratio the report prints is
// those figures' ratio.
func TestStatedRatios(t *testing.T) {
	const (
		about  = "about"  // a band N/1.25–N×1.25 around the stated N
		least  = "least"  // a band from N up; the figures at least N
		over   = "over"   // "over N %": a band from 1+N/100 up
		figure = "figure" // a number in a note: the figures' ratio, at the stated digits
	)
	for _, c := range []struct {
		suite, text string
		form        string
		stated      string  // as the write-up (or the note) writes it
		a, b        float64 // the write-up's figures whose ratio it is
	}{
		{"heysphere", "Go can handle at least 3-4 times more req/s than Node, because it uses parallelism (100 connections)", least, "3", 39000, 12900},
		{"heysphere", "10 to 100 connections made Node's latency 5 times better", about, "5", 37.4, 7},
		{"heysphere", "10 to 100 connections made Go's latency 82 times better", about, "82", 164, 2}, // the text's 2 ms; the table's 3 ms gives 55
		{"heysphere", "At 40 ms delay Node's latency grows 6 times (against its 30 ms figure)", about, "6", 241, 42.6},
		{"heysphere", "At 50 ms delay Node has serious response-time problems", figure, "65", 2774, 42.6},
		{"heysphere", "At 50 ms delay Go has serious response-time problems too", figure, "48", 1550, 32.6},
		{"heysphere", "1 % of computations: Node's latency goes sky high, almost 488 times higher", about, "488", 8830, 18.1},
		{"heysphere", "Only at 25 % computations Go's latency reaches 3.5 s", figure, "260", 3409, 13.1},
		{"heysphere", "Go at 25 % is still much better than Node at 1 % (3.4 against 8.8 s)", figure, "2.6", 8830, 3409},
		{"joshuous-sum", "Go handles the sum about 2x faster than Node.js", about, "2", 17280.86, 7390.41},
		{"joshuous-sum", "Go handles the sum about 2x faster than Node.js (8 CPUs, as published)", about, "2", 17280.86, 7390.41},
		{"joshuous-sum", "CPU: Go loads the CPUs far less than Node.js under PM2 (20–40 % against 80–90 %)", figure, "0.35", 30, 85},
		{"fastify-fasthttp", "With 100 concurrent requests, Go delivers over 18 % more requests", over, "18", 15847.80, 12925.33},
		{"fastify-fasthttp", "500 concurrent requests increased the gain to over 34 %", over, "34", 14682.27, 9673.37},
		{"fastify-fasthttp", "At 500 connections Node hits the CPU limit and starts struggling", figure, "0.75", 9673.37, 12925.33},
		{"fastify-fasthttp", "Go's serving time is still flat at c=500 while Node's tail grows (p99/p50)", figure, "2.7", 156.0 / 48, 41.0 / 34},
		{"fastify-fasthttp", "With 100 concurrent requests Go's requests served within a certain time are almost flat (p99/p50)", figure, "1.33", 8, 6},
		{"dotchev-echo", "Node.js is faster at HTTP and JSON handling (single thread)", figure, "1.77", 12618.86, 7124.41},
		{"dotchev-echo", "1-CPU quota: Go with GOMAXPROCS=4 collapses (579 against 6,210 req/s with GOMAXPROCS=1)", figure, "10.7", 6209.90, 579.77},
		{"dotchev-echo", "Node uses several times Go's memory (~70 MB against ~10 MB)", figure, "7", 70, 10},
		{"dotchev-echo", "All cores: Go used ~360 % CPU for 58 % of Node's req/s", about, "360", 360, 1},
		{"filter-heartbeat", "The difference between 12 and 6 threads is minimal for Go (6 physical cores)", figure, "0.81", 1867.34146, 2305.342424},
		{"filter-heartbeat", "The difference between 12 and 6 threads is minimal for Node (6 physical cores)", figure, "0.87", 8340.175742, 9591.364943},
		{"runtimes", "Node 24: Node is faster than Go at single-thread JSON echo", figure, "1.77", 12618.86, 7124.41},
		{"runtimes", "Node 24: fasthttp serves more than fastify (c=100, no keep-alive)", figure, "1.23", 15847.80, 12925.33},
		{"runtimes", "Node 24: 1 % of 1 ms computations sends Node's latency sky high (488× its 0 % figure)", figure, "488", 8830, 18.1},
	} {
		t.Run(c.suite+": "+c.text, func(t *testing.T) {
			s, _ := loadFull(t, c.suite)
			var got *result.Conclusion
			for _, e := range s.Info.Experiments {
				for i := range e.Conclusions {
					// A scaled twin restates the claim in its own cells'
					// metric (docs/suites.md, scaled:): the published one is checked.
					if e.Conclusions[i].Text == c.text && e.Conclusions[i].Scaled == "" {
						got = &e.Conclusions[i]
					}
				}
			}
			if got == nil {
				t.Fatalf("no conclusion %q in %s", c.text, c.suite)
			}
			n, err := strconv.ParseFloat(c.stated, 64)
			if err != nil {
				t.Fatal(err)
			}
			ratio := c.a / c.b
			// Half a unit of the stated number's last digit.
			half := 0.5
			if _, frac, ok := strings.Cut(c.stated, "."); ok {
				half = 0.5 * math.Pow(10, -float64(len(frac)))
			}
			switch c.form {
			case figure, about:
				// "5 times" is 37.4/7 = 5.34 rounded: the stated digits.
				if math.Abs(ratio-n) > half {
					t.Errorf("the write-up's figures give %.4g, which does not round to the stated %s", ratio, c.stated)
				}
			case least:
				if ratio < n {
					t.Errorf("the write-up's figures give %.4g, below the stated %s", ratio, c.stated)
				}
			case over:
				if ratio < 1+n/100 {
					t.Errorf("the write-up's figures give %.4g, not over %s %%", ratio, c.stated)
				}
			}
			// The band read from the words (to the 2 or 3 digits a suite writes).
			lo, hi := 0.0, 0.0
			switch c.form {
			case about:
				lo, hi = n/1.25, n*1.25
			case least:
				lo = n
			case over:
				lo = 1 + n/100
			}
			if lo != 0 && (got.Claim != result.ClaimBand || !near(got.Low, lo, 0.011) || hi != 0 && !near(got.High, hi, 0.011) || hi == 0 && got.High != 0) {
				t.Errorf("band %v–%v (%s), the words give %.3g–%.3g", got.Low, got.High, got.Claim, lo, hi)
			}
			// The published ratio the report prints is the figures' ratio
			// (a band on one run's own figure prints that figure).
			if got.Published != 0 && got.B != "" && !near(got.Published, ratio, 0.01) && !near(got.Published, n, 0.01) {
				t.Errorf("published ratio %v, the write-up's figures give %.4g", got.Published, ratio)
			}
		})
	}
}
