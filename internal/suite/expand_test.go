package suite

import (
	"reflect"
	"restbench/internal/request"
	"restbench/internal/suite/settings"
	"runtime"
	"strings"
	"testing"
	"time"
)

const featureSuite = `
name: f
source: {write_up: seeds/f.md, url: https://example.org/f}
defaults:
  duration: 10s
  warmup: 1s
  trials: 3
scales:
  quick: {duration: 1s, trials: 1, max_connections: 50}
experiments:
  - name: grid
    title: cross product, cells, labels
    impls: [a, b]
    path: /time
    matrix:
      connections: [10, 100]
      delay: [0, 20]
    scales:
      quick: {matrix: {delay: [20]}}
    cells:
      - when: {impl: b, connections: 100, delay: 0}
        exclude: true
      - when: {impl: a}
        set: {gomaxprocs: 2, quota: 0.5}
      - when: {impl: a, connections: 10, delay: 20}
        label: a-special
        published: {rps: 1000}
  - name: req
    impls: [a]
    request: {path: /echo, body: "@body.json", headers: ["X-Test: 1"]}
    placement: {server: "0", client: "1"}
    probe: /status@250ms
    keepalive: false
    requests: 500
    threads: auto
    cluster: pm2
    quota: 0.5x
  - name: mix
    impls: [a]
    mix:
      - {name: read, path: /status, weight: 3}
      - {name: write, path: /echo, body: "@body.json", weight: 1}
  - name: gen
    impls: [a, b]
    request: {path: /filter, body: {generate: filter, size: 20KB, seed: 7}}
    scales:
      quick: {body_size: 10KB}
`

func TestExpansion(t *testing.T) {
	path := writeSuite(t, featureSuite)
	for _, scale := range []string{"full", "quick"} {
		s, err := Load(path, Options{Scale: scale})
		if err != nil {
			t.Fatal(err)
		}
		ids := strings.Join(runIDs(s.Runs), " | ")
		want := map[string]string{
			// The first axis varies slowest, implementations fastest. At
			// quick only connections vary, so only c= is in the labels.
			"full": "grid/a c=10 delay=0ms | grid/b c=10 delay=0ms | grid/a-special | grid/b c=10 delay=20ms | grid/a c=100 delay=0ms | " +
				"grid/a c=100 delay=20ms | grid/b c=100 delay=20ms | req/a | mix/a | gen/a | gen/b",
			"quick": "grid/a-special | grid/b c=10 | grid/a c=100 | grid/b c=100 | req/a | mix/a | gen/a | gen/b",
		}[scale]
		if ids != want {
			t.Errorf("%s: ids\n got %s\nwant %s", scale, ids, want)
		}
		if s.Source != "seeds/f.md (https://example.org/f)" {
			t.Errorf("source = %q", s.Source)
		}

		a := run(t, s, map[string]string{"full": "grid/a c=100 delay=20ms", "quick": "grid/a c=100"}[scale])
		wantConns, wantTrials, wantDur := 100, 3, 10*time.Second
		if scale == "quick" {
			wantConns, wantTrials, wantDur = 50, 1, time.Second
		}
		if a.Load.Connections != wantConns || a.Trials != wantTrials || a.Load.Duration != wantDur || a.Load.Warmup != time.Second {
			t.Errorf("%s: conns %d trials %d duration %v warmup %v", scale, a.Load.Connections, a.Trials, a.Load.Duration, a.Load.Warmup)
		}
		if a.Load.URL != "/time?delay=20" || a.Quota != 0.5 || a.Env["GOMAXPROCS"] != "2" || a.Env["THREADS"] != "1" || !a.Pinned {
			t.Errorf("%s: grid a = url %q quota %v env %v pinned %v", scale, a.Load.URL, a.Quota, a.Env, a.Pinned)
		}
		if want := map[string]string{"connections": "100", "delay": "20", "gomaxprocs": "2", "quota": "0.5"}; !reflect.DeepEqual(a.Params, want) {
			t.Errorf("%s: params = %v, want %v", scale, a.Params, want)
		}
		if sp := run(t, s, "grid/a-special"); sp.Published["rps"] != 1000 {
			t.Errorf("published = %v", sp.Published)
		}

		r := run(t, s, "req/a")
		wantHeaders := []string{"X-Test: 1", "Content-Type: application/json"}
		if r.Load.Method != "POST" || string(r.Load.Body) != `{"a":1}` || !reflect.DeepEqual(r.Load.Headers, wantHeaders) {
			t.Errorf("req: %s body %q headers %v", r.Load.Method, r.Load.Body, r.Load.Headers)
		}
		if !r.Pinned || r.ServerCPUs != "0" || r.ClientCPUs != "1" || r.Load.KeepAlive || r.Load.MaxRequests != 500 {
			t.Errorf("req: pinned %v cpus %q/%q keepalive %v requests %d", r.Pinned, r.ServerCPUs, r.ClientCPUs, r.Load.KeepAlive, r.Load.MaxRequests)
		}
		if r.Load.Probe != "/status" || r.Load.ProbeEvery != 250*time.Millisecond || r.Env["THREADS"] != "auto" || r.Env["CLUSTER"] != "pm2" {
			t.Errorf("req: probe %q@%v env %v", r.Load.Probe, r.Load.ProbeEvery, r.Env)
		}
		// A quota given as a fraction is of the cores restbench sees, as
		// gomaxprocs: cores is.
		if want := 0.5 * float64(runtime.NumCPU()); r.Quota != want {
			t.Errorf("req: quota 0.5x = %v CPUs, want %v (half of %d cores)", r.Quota, want, runtime.NumCPU())
		}

		m := run(t, s, "mix/a").Load.Mix
		if len(m) != 2 || m[0].Method != "GET" || m[0].Body != nil || m[1].Method != "POST" || string(m[1].Body) != `{"a":1}` ||
			m[0].Weight != 3 || !request.HasHeader(m[1].Headers, "Content-Type") {
			t.Errorf("mix = %+v", m)
		}

		g1, g2 := run(t, s, "gen/a").Load.Body, run(t, s, "gen/b").Load.Body
		size := map[string]int{"full": 20_000, "quick": 10_000}[scale]
		if len(g1) < size*9/10 || len(g1) > size*11/10 || &g1[0] != &g2[0] {
			t.Errorf("%s: generated body of %d bytes (want about %d), shared: %v", scale, len(g1), size, &g1[0] == &g2[0])
		}
	}
}

// A cell that selects nothing at full scale is a typo to report, even when
// a scale's smaller matrix is what hides it.
func TestCellMatchingNothing(t *testing.T) {
	text := variant(9, "    impls: [a, b]\n    scales: {full: {matrix: {connections: [10]}}}")
	text = strings.Replace(text, "      - when: {impl: b, connections: 10}", "      - when: {impl: b, connections: 100}", 1)
	_, err := Load(writeSuite(t, text), Options{Scale: "quick"})
	if err == nil || !strings.Contains(err.Error(), "t.yaml:16: cells: this cell matches no run") {
		t.Fatalf("error = %v, want line 16: cells: this cell matches no run", err)
	}
}

// The keys the runtimes, adaptive-rounds and scale-out work read from
// suite.Run: runtime (a matrix key too), max_trials, time_cap and
// placement: hosts, layered like every setting.
func TestRuntimeAndRoundKeys(t *testing.T) {
	path := writeSuite(t, `
name: k
source: {write_up: seeds/k.md}
defaults: {path: /hello, duration: 1s, trials: 3, max_trials: 9, time_cap: 2m}
scales:
  quick: {trials: 1, max_trials: 2, time_cap: 10s}
experiments:
  - name: rt
    impls: [n, g]
    matrix:
      runtime: [node@22, bun, go@1.26]
    cells:
      - when: {runtime: bun}
        set: {max_trials: 5}
  - name: plain
    impls: [n]
    runtime: deno
    placement: hosts
`)
	langs := map[string]string{"n": "node", "g": "go"}
	for _, c := range []struct {
		scale         string
		trials, max   int
		cap, bunCap   time.Duration
		bunMaxTrials  int
		wantRuntimeID string
	}{
		{"full", 3, 9, 2 * time.Minute, 2 * time.Minute, 5, "rt/n node@22 | rt/n bun | rt/g go@1.26 | plain/n"},
		{"quick", 1, 2, 10 * time.Second, 10 * time.Second, 5, "rt/n node@22 | rt/n bun | rt/g go@1.26 | plain/n"},
	} {
		s, err := Load(path, Options{Scale: c.scale, Languages: langs})
		if err != nil {
			t.Fatal(err)
		}
		// Each implementation runs only its own language's runtimes, and
		// the runtime is in every label of the axis.
		if ids := strings.Join(runIDs(s.Runs), " | "); ids != c.wantRuntimeID {
			t.Errorf("%s: ids = %s, want %s", c.scale, ids, c.wantRuntimeID)
		}
		r := run(t, s, "rt/n node@22")
		if r.Runtime != "node@22" || r.Params["runtime"] != "node@22" || r.Trials != c.trials || r.MaxTrials != c.max || r.TimeCap != c.cap {
			t.Errorf("%s: rt/n node@22 = runtime %q params %v trials %d max %d cap %v", c.scale, r.Runtime, r.Params, r.Trials, r.MaxTrials, r.TimeCap)
		}
		if b := run(t, s, "rt/n bun"); b.MaxTrials != c.bunMaxTrials || b.TimeCap != c.bunCap {
			t.Errorf("%s: the cell's max_trials: bun run max %d cap %v", c.scale, b.MaxTrials, b.TimeCap)
		}
		p := run(t, s, "plain/n")
		if p.Runtime != "deno" || p.Hosts != DefaultHosts || p.Pinned || p.Params["runtime"] != "" {
			t.Errorf("%s: plain/n = runtime %q hosts %v pinned %v params %v", c.scale, p.Runtime, p.Hosts, p.Pinned, p.Params)
		}
	}
	// Without max_trials a run takes exactly its trials.
	s, err := Load(writeSuite(t, variant(0, "")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Runs[0]; r.MaxTrials != r.Trials || r.Runtime != "" || r.Hosts != 0 || r.TimeCap != 0 {
		t.Errorf("defaults: max_trials %d trials %d runtime %q hosts %v cap %v", r.MaxTrials, r.Trials, r.Runtime, r.Hosts, r.TimeCap)
	}
}

// TestRuntimeFlags: runtime_flags: default runs the server without the
// manifest's runtime flags; as an axis it names the cells, paired in one
// experiment.
func TestRuntimeFlags(t *testing.T) {
	path := writeSuite(t, `
name: f
source: {write_up: seeds/f.md}
defaults: {path: /hello, duration: 1s}
experiments:
  - name: flags
    impls: [n]
    runtime: node@24
    matrix:
      runtime_flags: [manifest, default]
  - name: plain
    impls: [n]
`)
	s, err := Load(path, Options{Languages: map[string]string{"n": "node"}})
	if err != nil {
		t.Fatal(err)
	}
	if ids := strings.Join(runIDs(s.Runs), " | "); ids != "flags/n flags=manifest | flags/n flags=default | plain/n" {
		t.Errorf("ids = %s", ids)
	}
	for id, want := range map[string]string{"flags/n flags=manifest": "", "flags/n flags=default": settings.FlagsDefault, "plain/n": ""} {
		if got := run(t, s, id).RuntimeFlags; got != want {
			t.Errorf("%s: RuntimeFlags = %q, want %q", id, got, want)
		}
	}
}
