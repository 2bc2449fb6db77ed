package report

import (
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"restbench/internal/report/model"
	"restbench/internal/result"
)

// go test ./internal/report -update rewrites the results fixture and the
// golden report.md from the generator below.
var update = flag.Bool("update", false, "rewrite testdata (results fixture and golden files)")

const (
	fixtureRoot = "testdata/results"
	fixtureDir  = "testdata/results/mini/20260101-120000"
)

// fixtureRun describes one run of the fixture and the trials to make of it.
type fixtureRun struct {
	info   result.RunInfo
	rps    []float64 // one per trial; 0 makes a failed trial
	meanMS float64   // centre of the latency distribution
	flags  map[int][]string
	mix    bool
	probe  bool
	notRun string // every trial skipped with this error
}

func fixtureSuite() (result.Suite, []fixtureRun) {
	run := func(exp, impl string, params map[string]string, pub map[string]float64) result.RunInfo {
		label := impl
		for _, k := range []string{"connections", "threads"} {
			if v, ok := params[k]; ok {
				label += " " + k + "=" + v
			}
		}
		return result.RunInfo{ID: exp + "/" + label, Impl: impl, Label: label, Params: params, Trials: 2, Published: pub, Connections: 100}
	}
	runs := []fixtureRun{
		{info: run("single-thread", "node-http", nil, map[string]float64{"rps": 14230, "latency_mean_ms": 7.0, "p50_ms": 6.2, "p99_ms": 14.1, "transfer_mb_s": 71.2}),
			rps: []float64{11840, 12110, 11990, 12050, 11900}, meanMS: 8.3, flags: map[int][]string{2: {result.FlagClientBound}}},
		{info: run("single-thread", "go-nethttp", nil, map[string]float64{"rps": 8040, "latency_mean_ms": 12.4, "p50_ms": 11.9, "p99_ms": 21.5}),
			rps: []float64{9310, 9480, 9400, 9350, 9420}, meanMS: 10.6},
		{info: run("connections", "node-http", map[string]string{"connections": "10"}, map[string]float64{"rps": 5100}),
			rps: []float64{6020, 6110}, meanMS: 1.65},
		{info: run("connections", "go-nethttp", map[string]string{"connections": "10"}, map[string]float64{"rps": 7300}),
			rps: []float64{7950, 8010}, meanMS: 1.25},
		{info: run("connections", "node-http", map[string]string{"connections": "100"}, map[string]float64{"rps": 5400}),
			rps: []float64{6300, 6180}, meanMS: 16.0},
		{info: run("connections", "go-nethttp", map[string]string{"connections": "100"}, map[string]float64{"rps": 10200}),
			rps: []float64{9900, 0}, meanMS: 10.1},
		{info: run("heartbeat", "go-nethttp", map[string]string{"threads": "2"}, map[string]float64{"mean_ms": 5918, "median_ms": 5118, "max_ms": 14060, "min_ms": 507, "probe_mean_ms": 597.8, "probe_median_ms": 382.4}),
			rps: []float64{17.2, 16.8}, meanMS: 4200, mix: true, probe: true},
		{info: run("heartbeat", "node-cluster", map[string]string{"threads": "2"}, map[string]float64{"mean_ms": 14275, "median_ms": 14015, "max_ms": 35051, "min_ms": 465, "probe_mean_ms": 2423, "probe_median_ms": 544.5}),
			rps: []float64{7.9, 8.3}, meanMS: 9800, mix: true, probe: true},
		{info: run("heartbeat", "node-cluster", map[string]string{"threads": "12"}, map[string]float64{"mean_ms": 8340, "probe_mean_ms": 3110}),
			rps: []float64{0, 0}, notRun: "not run here: needs 12 cores"},
	}
	var infos = map[string][]result.RunInfo{}
	for i := range runs {
		r := &runs[i]
		r.info.Trials = len(r.rps)
		if strings.HasPrefix(r.info.ID, "heartbeat/") {
			r.info.Note = "published at 100 parallel requests; here 10"
		}
		exp := r.info.ID[:len(r.info.ID)-len(r.info.Label)-1]
		infos[exp] = append(infos[exp], r.info)
	}
	s := result.Suite{
		Name: "mini", Title: "Mini suite (test fixture)", Source: "fixture: values shaped like the published write-ups",
		File: "suites/mini.yaml", Scale: "quick",
		Experiments: []result.Experiment{
			{Name: "single-thread", Title: "Single-thread JSON echo", Description: "POST /echo with a 5 kB body, 100 connections, one core each.",
				Rounds: 5, Stopped: result.StoppedRounds,
				Runs: infos["single-thread"], Conclusions: []result.Conclusion{
					{Text: "single-thread JSON echo: Node faster than Go", Metric: "rps", A: "single-thread/node-http", B: "single-thread/go-nethttp", Published: 1.77},
					{Text: "single-thread JSON echo: Node about 1.77x faster", Metric: "rps", A: "single-thread/node-http", B: "single-thread/go-nethttp",
						Published: 1.77, Claim: result.ClaimBand, Low: 1.42, High: 2.21, Note: "band 1.42–2.21×: about 1.77× ±25 %"},
					{Text: "single-thread JSON echo: both use the same CPU", Metric: "cpu_pct", A: "single-thread/node-http", B: "single-thread/go-nethttp", Published: 1, Claim: result.ClaimTie},
				}},
			{Name: "connections", Title: "Connections sweep", Rounds: 2, Stopped: result.StoppedTimeCap, StoppedWhy: "2 rounds took 31s, the cap is 30s", Looks: 3,
				Runs: infos["connections"], Conclusions: []result.Conclusion{
					{Text: "100 connections: Go faster than Node", Metric: "rps", A: "connections/go-nethttp connections=100", B: "connections/node-http connections=100", Published: 1.89},
					{Text: "10 connections: Node faster than Go", Metric: "rps", A: "connections/node-http connections=10", B: "connections/go-nethttp connections=10", Published: 1.15},
				}},
			{Name: "heartbeat", Title: "Streaming filter with a heartbeat", Runs: infos["heartbeat"], Conclusions: []result.Conclusion{
				{Text: "heartbeat: Go answers the health check faster than Node", Metric: "probe_median_ms", A: "heartbeat/node-cluster threads=2", B: "heartbeat/go-nethttp threads=2", Published: 1.42,
					Note: "100 parallel; here 10"},
				{Text: "heartbeat: Node on 12 threads no faster than on 2", Metric: "mean_ms", A: "heartbeat/node-cluster threads=12", B: "heartbeat/node-cluster threads=2",
					Claim: result.ClaimTie, Tolerance: 0.25},
			}},
		},
	}
	return s, runs
}

func writeFixture(t *testing.T, dir string) {
	t.Helper()
	suite, runs := fixtureSuite()
	writeResults(t, dir, fixtureEnv(), suite, runs)
}

func fixtureEnv() result.Env {
	return result.Env{Created: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC), Host: "fixture-host", CPUModel: "Fixture CPU @ 2.60GHz", Cores: 2,
		Kernel: "6.1.0", OS: "linux", Go: "go1.26.0", Node: "v20.19.0", Restbench: "0123abc",
		Frameworks: map[string]string{"go-nethttp": "net/http go1.26", "node-http": "node:http v20"}, Scale: "quick",
		Command: "restbench run suites/mini.yaml --scale quick"}
}

// writeResults writes a results folder as restbench run does: env.json,
// suite.json and one file per trial of runs.
func writeResults(t *testing.T, dir string, env result.Env, suite result.Suite, runs []fixtureRun) {
	t.Helper()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	started := env.Created
	must(t, result.WriteJSON(filepath.Join(dir, result.EnvFile), env))
	must(t, result.WriteJSON(filepath.Join(dir, result.SuiteFile), suite))
	rng := rand.New(rand.NewPCG(1, 2))
	// Third trials draw from their own generator, so that adding one leaves
	// the figures of every other trial as they were.
	rng3 := rand.New(rand.NewPCG(3, 4))
	for _, r := range runs {
		exp := r.info.ID[:len(r.info.ID)-len(r.info.Label)-1]
		for i, rps := range r.rps {
			n := i + 1
			rng := rng
			if i >= 2 {
				rng = rng3
			}
			tr := result.Trial{Suite: suite.Name, Experiment: exp, Run: r.info.ID, Impl: r.info.Impl, Params: r.info.Params,
				Trial: n, Round: n, Started: started, Finished: started.Add(6 * time.Second), Status: result.StatusOK, Flags: r.flags[n],
				Placement: result.Placement{ServerCPUs: "0", ClientCPUs: "1", Pinned: true}}
			if r.notRun != "" {
				tr.Status, tr.Error = result.StatusNotRun, r.notRun
			} else if rps == 0 {
				tr.Status, tr.Flags = result.StatusFailed, []string{result.FlagFailed}
				tr.Error = "server exited during the load: signal: killed (out of memory?); see stderr_tail"
				tr.StderrTail = "fatal error: runtime: out of memory\n\ngoroutine 1 [running]:\nmain.main()"
			} else {
				tr.Load = fixtureLoad(t, rng, r, rps)
				tr.Monitor = fixtureMonitor(rng, r)
			}
			must(t, result.WriteJSON(filepath.Join(dir, result.TrialFile(r.info.ID, n)), tr))
		}
	}
}

// fixtureStats draws n latencies around mean (ms) with a long right tail,
// the shape real servers show.
func fixtureStats(t *testing.T, rng *rand.Rand, n int, mean, rps float64, seconds int) result.Stats {
	h := result.NewHistogram()
	for range n {
		v := mean * math.Exp(0.35*rng.NormFloat64()-0.06)
		if rng.IntN(100) == 0 {
			v *= 3
		}
		h.RecordValue(int64(v * 1000))
	}
	enc, err := result.EncodeHistogram(h)
	must(t, err)
	total := int64(rps * float64(seconds))
	s := result.Stats{Requests: total, Responses: total, StatusCodes: map[string]int64{"200": total},
		BytesRead: total * 5104, RPS: rps, Latency: result.Summarize(h), Histogram: enc}
	for sec := range seconds {
		l := mean * (0.9 + 0.2*rng.Float64())
		s.Timeline = append(s.Timeline, result.Second{T: sec, Requests: total / int64(seconds), P50: l, P99: l * 2.1})
	}
	return s
}

func fixtureLoad(t *testing.T, rng *rand.Rand, r fixtureRun, rps float64) *result.Load {
	l := &result.Load{DurationS: 5, ClientCPUS: 2.1,
		Settings: result.Settings{Engine: "restbench", URL: "http://127.0.0.1:8080/echo", Connections: 100, DurationS: 5, KeepAlive: true}}
	l.Stats = fixtureStats(t, rng, 2000, r.meanMS, rps, 5)
	if strings.HasPrefix(r.info.ID, "heartbeat/") {
		// As the filter suite: a fixed count of requests, every one waited for.
		l.Settings.MaxRequests = int64(rps * 5)
	}
	if r.mix {
		l.Settings.Mix = "/filter:1"
		l.Targets = map[string]*result.Stats{}
		st := l.Stats
		st.Histogram, st.Timeline = "", nil
		l.Targets["/filter"] = &st
	}
	if r.probe {
		l.Settings.Probe = "/status@5s"
		probeMean := r.meanMS / 9
		p := fixtureStats(t, rng, 50, probeMean, 10, 5)
		l.Probe = &p
	}
	return l
}

func fixtureMonitor(rng *rand.Rand, r fixtureRun) *result.Monitor {
	m := &result.Monitor{IntervalMS: 500}
	for i := range 11 {
		cpu := 92 + 8*rng.Float64()
		if r.mix {
			cpu = 150 + 40*rng.Float64()
		}
		rss := int64((60 + 2*float64(i) + 4*rng.Float64()) * model.MiB)
		m.Samples = append(m.Samples, result.Sample{T: float64(i) * 0.5, ServerCPU: cpu, ServerRSS: rss, Procs: 1,
			ClientCPU: 70 + 10*rng.Float64(), Cores: []float64{math.Min(cpu, 100), 65 + 15*rng.Float64()}})
	}
	var cpuSum float64
	for _, s := range m.Samples {
		cpuSum += s.ServerCPU
		m.ServerCPUPeak = math.Max(m.ServerCPUPeak, s.ServerCPU)
		m.ServerRSSPeak = max(m.ServerRSSPeak, s.ServerRSS)
	}
	m.ServerCPUMean = cpuSum / float64(len(m.Samples))
	m.ClientCPUMean, m.ClientCPUShare = 75, 0.75
	return m
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
