package suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// baseSuite is a small valid suite; the error cases below replace one of its
// lines (numbered in the comments) or append lines to it.
var baseSuite = []string{
	/* 1 */ "name: t",
	/* 2 */ "title: test",
	/* 3 */ "source: {write_up: seeds/x.md}",
	/* 4 */ "defaults:",
	/* 5 */ "  path: /time",
	/* 6 */ "  duration: 1s",
	/* 7 */ "experiments:",
	/* 8 */ "  - name: e",
	/* 9 */ "    impls: [a, b]",
	/* 10 */ "    matrix:",
	/* 11 */ "      connections: [10, 100]",
	/* 12 */ "    cells:",
	/* 13 */ "      - when: {impl: a, connections: 10}",
	/* 14 */ "        published: {rps: 100}",
	/* 15 */ "      - when: {impl: b, connections: 10}",
	/* 16 */ "        published: {rps: 200}",
	/* 17 */ "    conclusions:",
	/* 18 */ "      - {text: t, metric: rps, a: e/a c=10, b: e/b c=10}",
}

// variant returns baseSuite with line n (1-based) replaced by repl; n = 0
// appends repl instead.
func variant(n int, repl string) string {
	lines := append([]string(nil), baseSuite...)
	if n == 0 {
		lines = append(lines, repl)
	} else {
		lines[n-1] = repl
	}
	return strings.Join(lines, "\n") + "\n"
}

func writeSuite(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "body.json"), []byte(`{"a":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "t.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestBaseSuiteLoads(t *testing.T) {
	s, err := Load(writeSuite(t, variant(0, "")), Options{Impls: []string{"a", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Runs) != 4 {
		t.Fatalf("runs = %d, want 4", len(s.Runs))
	}
	c := s.Info.Experiments[0].Conclusions
	if len(c) != 1 || c[0].Published != 0.5 {
		t.Fatalf("conclusions = %+v, want one with published ratio 100/200 = 0.5", c)
	}
}

// TestConclusionReadsEarlierExperiment: a conclusion may set a run of its
// own experiment against one of an earlier experiment (a scaled twin
// against a cell run as published); suite.json keeps both ids.
func TestConclusionReadsEarlierExperiment(t *testing.T) {
	for _, c := range []struct{ name, a, b string }{
		{"earlier run as a", "e/a c=10", "f/a"},
		{"earlier run as b", "f/a", "e/b c=100"},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Join(baseSuite, "\n") + "\n  - name: f\n    impls: [a]\n    conclusions:\n" +
				"      - {text: twin, metric: rps, a: " + c.a + ", b: " + c.b + ", published: 2, scaled: a rule}\n"
			s, err := Load(writeSuite(t, text), Options{Impls: []string{"a", "b"}})
			if err != nil {
				t.Fatal(err)
			}
			got := s.Info.Experiments[1].Conclusions
			if len(got) != 1 || got[0].A != c.a || got[0].B != c.b || got[0].Scaled != "a rule" {
				t.Fatalf("conclusions = %+v, want twin reading %s over %s", got, c.a, c.b)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	langs := map[string]string{"a": "go", "b": "node"}
	for _, c := range []struct {
		name string
		text string
		opt  Options
		want string // "LINE: field: ..." after the file name
	}{
		{"runtime_flags not a choice", variant(6, "  runtime_flags: none"), Options{}, `:6: runtime_flags: "none" is not one of`},
		{"rate not a number", variant(6, `  rate: 10k`), Options{}, `:6: rate: "10k" is not a number (use 10000 or 0.75x)`},
		{"unknown top-level field", variant(2, "titel: test"), Options{}, ":2: titel: unknown field in suite"},
		{"unknown setting in experiment", variant(9, "    impls: [a, b]\n    conections: 10"), Options{}, ":10: conections: unknown field in experiment"},
		{"unknown implementation", variant(9, "    impls: [a, c]"), Options{Impls: []string{"a", "b"}}, `:9: impls: unknown implementation "c" (known: a, b)`},
		{"duration without unit", variant(6, "  duration: 20"), Options{}, `:6: duration: "20" is not a duration`},
		{"axis that cannot vary", variant(11, "      headers: [x]"), Options{}, ":11: headers: cannot vary in a matrix"},
		{"impl in the matrix", variant(11, "      impl: [a]"), Options{}, ":11: impl: implementations are listed"},
		{"empty axis", variant(11, "      connections: []"), Options{}, ":11: connections: the list of values is empty"},
		{"axis value twice", variant(11, "      connections: [10, 10]"), Options{}, ":11: connections: 10 is listed twice"},
		{"connections not a number", variant(11, "      connections: [10, lots]"), Options{}, `:11: connections: "lots" is not a whole number`},
		{"little without a margin", variant(11, "      connections: [10, little()]"), Options{}, `:11: connections: "little()": write little(M) with a margin M of at least 1`},
		{"little below 1", variant(11, "      connections: [10, little(0.5)]"), Options{}, `:11: connections: "little(0.5)": write little(M)`},
		{"little without a measured rate", variant(14, "        published: {rps: 100}\n        set: {connections: little(1.5)}"), Options{}, `:15: connections: little(1.5) sizes connections from a rate and a service time this machine measured`},
		{"window without a measured rate", variant(6, "  duration: 1s\n  window: {requests: 20, max: 5s}"), Options{}, `:7: window: sizes the window from an open loop's rate`},
		{"window without max", variant(6, "  duration: 1s\n  window: {requests: 20}"), Options{}, `:7: window: needs max:`},
		{"window unknown key", variant(6, "  duration: 1s\n  window: {requests: 20, max: 5s, latency: 3}"), Options{}, `:7: latency: unknown field in window (known: latencies, max, requests)`},
		{"cell value not in matrix", variant(13, "      - when: {impl: a, connections: 50}"), Options{}, ":13: connections: 50 is not one of the matrix values (10, 100)"},
		{"cell key not an axis", variant(13, "      - when: {impl: a, delay: 5}"), Options{}, ":13: delay: not an axis"},
		{"cell scale unknown", variant(13, "      - when: {impl: a, scale: fast}"), Options{}, `:13: scale: "fast" is not a scale (quick, standard, full)`},
		{"cell impl not listed", variant(13, "      - when: {impl: z}"), Options{}, `:13: impl: "z" is not in this experiment's impls`},
		{"unknown published metric", variant(14, "        published: {rqs: 100}"), Options{}, ":14: rqs: unknown field in published"},
		{"published not a number", variant(14, "        published: {rps: 12.9K}"), Options{}, `:14: rps: "12.9K" is not a number`},
		{"unknown cell field", variant(14, "        publish: {rps: 100}"), Options{}, ":14: publish: unknown field in cells"},
		{"conclusion names no run", variant(18, "      - {text: t, metric: rps, a: e/a c=1, b: e/b c=10}"), Options{}, `:18: conclusions: no run "e/a c=1" in experiment e`},
		{"conclusion names a later experiment's run", variant(18, "      - {text: t, metric: rps, a: e/a c=10, b: f/a, published: 2}") + "  - {name: f, impls: [a]}\n", Options{}, `:18: conclusions: no run "f/a" in experiment e or an earlier one`},
		{"conclusion metric unknown", variant(18, "      - {text: t, metric: speed, a: e/a c=10, b: e/b c=10}"), Options{}, `:18: metric: "speed" is not one of`},
		{"conclusion without figures", variant(18, "      - {text: t, metric: p99_ms, a: e/a c=10, b: e/b c=10}"), Options{}, ":18: published: give the published ratio"},
		{"fraction without rate_of", variant(6, "  duration: 1s\n  rate: 0.75x"), Options{}, ":7: rate: 0.75x is a fraction of a capacity: add rate_of:"},
		{"rate_of names no run", variant(0, "  - {name: f, impls: [a], rate: 0.5x, rate_of: e/a c=1000}"), Options{}, `:19: rate_of: no run "e/a c=1000" earlier in the suite`},
		{"rate_of names an open-loop run", variant(0, "  - {name: f, impls: [a], rate: 0.5x, rate_of: e/a c=10}\n  - {name: g, impls: [a], rate: 0.5x, rate_of: f/a}"), Options{}, `:20: rate_of: "f/a" is an open-loop run`},
		{"capacity() names no run", variant(0, "  - {name: f, impls: [a], rate: 0.5x, rate_of: capacity(f/a c=1)}"), Options{}, `:19: rate_of: capacity(f/a c=1): no run "f/a c=1" in the suite`},
		{"capacity() without its parenthesis", variant(0, "  - {name: f, impls: [a], rate: 0.5x, rate_of: capacity(e/a c=10}"), Options{}, `:19: rate_of: "capacity(e/a c=10": write capacity(<run id>)`},
		{"capacity() of a run that counts requests", variant(6, "  requests: 100") + "  - {name: f, impls: [a], rate: 0.5x, rate_of: capacity(e/a c=10)}\n", Options{}, `:19: rate_of: capacity(e/a c=10): a search step is a duration`},
		{"rate_of without a fraction", variant(6, "  duration: 1s\n  rate_of: e/a c=10"), Options{}, ":7: rate_of: needs a rate given as a fraction"},
		{"wrk at a constant rate", variant(6, "  duration: 1s\n  rate: 1000\n  engine: wrk"), Options{}, ":8: engine: wrk cannot send at a constant rate"},
		{"ab without a count", variant(6, "  duration: 1s\n  engine: ab"), Options{}, ":7: engine: ab needs a request count"},
		{"wrk and a window in milliseconds", variant(6, "  duration: 1500ms\n  engine: wrk"), Options{}, ":7: engine: wrk takes whole seconds, and this run asks for a 0s warm-up and a 1.5s window"},
		{"wrk and a warm-up in milliseconds", variant(6, "  duration: 1s\n  warmup: 300ms\n  engine: wrk"), Options{}, ":8: engine: wrk takes whole seconds"},
		{"engine unknown", variant(6, "  duration: 1s\n  engine: hey"), Options{}, `:7: engine: "hey" is not one of restbench, wrk, ab`},
		{"body file missing", variant(5, "  path: /echo\n  body: \"@nope.json\""), Options{}, ":6: body: open"},
		{"body_size of a literal body", variant(5, "  path: /echo\n  body: \"{}\"\n  body_size: 5MB"), Options{}, ":7: body_size: only a generated body"},
		{"generated body without size", variant(5, "  path: /filter\n  body: {generate: filter}"), Options{}, ":6: body: a generated body needs"},
		{"size not a size", variant(5, "  path: /filter\n  body: {generate: filter, size: big}"), Options{}, `:6: size: "big" is not a size`},
		{"work_share without work", variant(6, "  duration: 1s\n  work_share: 10"), Options{}, ":7: work_share: needs work:"},
		{"work_share out of range", variant(6, "  duration: 1s\n  work_share: 150"), Options{}, ":7: work_share: 150 is not a percentage"},
		{"delay out of range", variant(6, "  duration: 1s\n  delay: 20000"), Options{}, ":7: delay: 20000 is out of range (use 0 to 10000)"},
		{"threads not a count", variant(6, "  duration: 1s\n  threads: many"), Options{}, `:7: threads: "many" is not a positive whole number or auto`},
		{"gomaxprocs zero", variant(6, "  duration: 1s\n  gomaxprocs: 0"), Options{}, `:7: gomaxprocs: "0" is not a positive whole number or cores or unset`},
		{"placement unknown", variant(6, "  duration: 1s\n  placement: spread"), Options{}, `:7: placement: "spread" is not one of pinned, shared, hosts`},
		{"placement bad cpu list", variant(6, "  duration: 1s\n  placement: {server: \"0\", client: x}"), Options{}, `:7: client: "x" is not a CPU list`},
		{"placement half given", variant(6, "  duration: 1s\n  placement: {server: \"0\"}"), Options{}, ":7: placement: give both server and client"},
		{"probe without interval", variant(6, "  duration: 1s\n  probe: /status"), Options{}, `:7: probe: "/status" is not PATH@INTERVAL`},
		{"path without slash", variant(5, "  path: time"), Options{}, `:5: path: "time" must start with /`},
		{"header without colon", variant(5, "  path: /time\n  headers: [\"Accept gzip\"]"), Options{}, `:6: headers: "Accept gzip" is not "Name: value"`},
		{"quota not positive", variant(6, "  duration: 1s\n  quota: -1"), Options{}, `:7: quota: "-1" is not a positive number of CPUs`},
		{"quota not finite", variant(6, "  duration: 1s\n  quota: NaN"), Options{}, `:7: quota: "NaN" is not a positive number of CPUs`},
		{"quota fraction not a number", variant(6, "  duration: 1s\n  quota: halfx"), Options{}, `:7: quota: "halfx" is not a positive number of CPUs (use 1, 0.5, or 0.25x`},
		{"unknown scale", variant(0, "scales: {medium: {trials: 1}}"), Options{}, ":19: medium: unknown field in scales"},
		{"scale replaces a missing axis", variant(9, "    impls: [a, b]\n    scales: {quick: {matrix: {delay: [0]}}}"), Options{}, ":10: delay: a scale can only change"},
		{"mix and work_share", variant(6, "  duration: 1s\n  work: 1\n  work_share: 10\n  mix: [{name: x, path: /time}]"), Options{}, ":8: work_share: cannot be combined with mix"},
		{"mix target without path", variant(6, "  duration: 1s\n  mix: [{name: x}]"), Options{}, ":7: mix: every target needs a name and a path"},
		{"experiment twice", variant(0, "  - {name: e, impls: [a]}"), Options{}, `:19: name: experiment "e" is defined twice`},
		{"experiment name with slash", variant(8, "  - name: e/x"), Options{}, `:8: name: "e/x": use letters`},
		{"label with a slash", variant(14, "        label: a/b"), Options{}, `:14: label: "a/b": no / in a label`},
		{"experiment without impls", variant(0, "  - {name: f}"), Options{}, ":19: impls: missing"},
		{"two runs with one id", variant(0, "  - name: f\n    impls: [a]\n    matrix: {delay: [0, 1]}\n    cells: [{when: {delay: 0}, label: x}, {when: {delay: 1}, label: x}]"), Options{}, `:19: cells: two runs are both called "f/x"`},
		{"no duration or count", variant(6, "  trials: 1"), Options{}, ":8: duration: a run needs a duration or a request count"},
		{"key given twice", variant(6, "  duration: 1s\n  duration: 2s"), Options{}, ":7: duration: given twice"},
		{"missing name", variant(1, "# no name"), Options{}, ":2: name: missing"},
		{"missing source", variant(3, "# no source"), Options{}, ":1: source: missing"},
		{"experiments not a list", variant(8, "    name: e"), Options{}, ":8: experiments: must be a list"},
		{"yaml syntax", variant(9, "    impls: [a, b"), Options{}, "t.yaml: yaml: line"},
		// Keys of the runtimes, adaptive-rounds and scale-out work.
		{"runtime unknown", variant(6, "  duration: 1s\n  runtime: node@18"), Options{}, `:7: runtime: "node@18" is not one of node@20, node@22, node@24, node@26, bun, deno, go@1.22`},
		{"runtime of another language", variant(6, "  duration: 1s\n  runtime: bun"), Options{Languages: langs}, ":7: runtime: bun is not a runtime of a go implementation (use go@1.22, go@1.24, go@1.26, go@1.27)"},
		{"runtime axis that runs nothing", variant(11, "      connections: [10, 100]\n      runtime: [go@1.26, bun]"), Options{Languages: map[string]string{"a": "go", "b": "go"}}, ":12: runtime: bun runs none of this experiment's implementations (a, b)"},
		{"max_trials below trials", variant(6, "  duration: 1s\n  trials: 3\n  max_trials: 2"), Options{}, ":8: max_trials: 2 is fewer than trials (3)"},
		{"time_cap without unit", variant(6, "  duration: 1s\n  time_cap: 5"), Options{}, `:7: time_cap: "5" is not a duration`},
		{"placement hosts misspelt", variant(6, "  duration: 1s\n  placement: host"), Options{}, `:7: placement: "host" is not one of pinned, shared, hosts`},
		{"prewarm on hosts", variant(6, "  duration: 1s\n  placement: hosts\n  prewarm: 1s"), Options{}, `:8: prewarm: placement: hosts runs its load on other hosts`},
		{"prewarm_requests without its cap", variant(6, "  duration: 1s\n  prewarm_requests: 40000"), Options{}, `:7: prewarm_requests: 40000 requests need a cap: add prewarm: <duration>`},
		{"conclusion with an unknown field", variant(18, "      - {text: t, metric: rps, a: e/a c=10, b: e/b c=10, verdict: x}"), Options{}, ":18: verdict: unknown field in conclusions (known: a, b, claim, design, high, kind, low, metric, not_run, note, over, points, published, requires, scaled, text, tolerance)"},
		{"conclusion premise misspelt", variant(18, "      - {text: t, metric: rps, a: e/a c=10, b: e/b c=10, requires: {min_core: 4}}"), Options{}, ":18: min_core: unknown field in requires (known: max_cores, min_cores, min_in_flight, offered_work)"},
		{"conclusion kind unknown", variant(18, "      - {text: t, metric: rps, a: e/a c=10, b: e/b c=10, kind: mine}"), Options{}, `:18: kind: "mine" is not one of conclusion`},
		{"direction on one run", variant(18, "      - {text: t, metric: rps, a: e/a c=10}"), Options{}, ":18: b: a direction claim compares two runs"},
		{"conclusion published not a number", variant(18, "      - {text: t, metric: rps, a: e/a c=10, b: e/b c=10, published: lots}"), Options{}, `:18: published: "lots" is not a number`},
		{"unknown key in request", variant(5, "  request: {path: /time, verb: GET}"), Options{}, ":5: verb: unknown field in request (known: body, headers, method, path)"},
		{"unknown key in defaults", variant(6, "  duration: 1s\n  conections: 10"), Options{}, ":7: conections: unknown field in defaults"},
		{"unknown key in a scale", variant(0, "scales: {quick: {trails: 1}}"), Options{}, ":19: trails: unknown field in quick"},
		{"empty value", variant(6, "  duration:"), Options{}, ":6: duration: is empty"},
		{"mix target name twice", variant(6, "  duration: 1s\n  mix: [{name: x, path: /a}, {name: x, path: /b}]"), Options{}, `:7: mix: name "x" is used twice`},
		{"mix weight zero", variant(6, "  duration: 1s\n  mix: [{name: x, path: /a, weight: 0}]"), Options{}, ":7: weight: 0 must be more than 0"},
		{"mix and wrk", variant(6, "  duration: 1s\n  engine: wrk\n  mix: [{name: x, path: /a}]"), Options{}, ":7: engine: wrk cannot send a mix"},
		// The published load (published_load:) and how a capacity is searched.
		{"published_load without a tool", variant(9, "    impls: [a, b]\n    published_load: {model: open}"), Options{}, ":10: published_load: tool: missing"},
		{"published_load tool unknown, no model", variant(9, "    impls: [a, b]\n    published_load: {tool: siege}"), Options{}, ":10: published_load: model: missing: siege is not one of ab, autocannon, hey, script, wrk, wrk2"},
		{"published_load model against its tool", variant(9, "    impls: [a, b]\n    published_load: {tool: wrk2, model: closed}"), Options{}, ":10: model: wrk2's loop is open, not closed"},
		{"published_load rate of a closed loop", variant(9, "    impls: [a, b]\n    published_load: {tool: wrk, rate: 100}"), Options{}, ":10: rate: a closed loop offers no rate"},
		{"published_load rate as a fraction", variant(9, "    impls: [a, b]\n    published_load: {tool: wrk2, rate: 0.5x}"), Options{}, ":10: rate: the published rate is a figure"},
		{"published_load saturated closed loop", variant(9, "    impls: [a, b]\n    published_load: {tool: ab, saturated: true}"), Options{}, ":10: saturated: only an open loop falls behind"},
		{"published_load control without its condition", variant(9, "    impls: [a, b]\n    published_load: {tool: ab, control: e/b c=10}"), Options{}, ":10: control: a control lifts a published condition: say which (overflowed: true)"},
		{"published_load overflowed on keep-alive", variant(9, "    impls: [a, b]\n    published_load: {tool: ab, overflowed: true}"), Options{}, ":10: overflowed: run e/a c=10 keeps its connections alive"},
		{"published_load control no run", variant(9, "    impls: [a, b]\n    keepalive: false\n    published_load: {tool: ab, overflowed: true, control: e/c c=10}"), Options{}, `:8: published_load: run e/a c=10: control "e/c c=10" is not another run of experiment e`},
		{"published_load control itself", variant(9, "    impls: [a, b]\n    keepalive: false\n    published_load: {tool: ab, overflowed: true, control: e/a c=10}"), Options{}, `:8: published_load: run e/a c=10: control "e/a c=10" is not another run`},
		{"published_load unknown key", variant(9, "    impls: [a, b]\n    published_load: {tool: wrk, threads: 2}"), Options{}, ":10: threads: unknown field in published_load"},
		{"published open loop, run closed", variant(9, "    impls: [a, b]\n    published_load: {tool: wrk2}"), Options{}, ":10: published_load: wrk2 ran an open loop at a rate, and run e/a c=10 is a closed loop"},
		{"published closed loop, run open", variant(6, "  duration: 1s\n  rate: 100\n  published_load: {tool: wrk}"), Options{}, ":8: published_load: unknown field in defaults"},
		{"published closed loop, cell's run open", variant(14, "        published: {rps: 100}\n        published_load: {tool: wrk}\n        set: {rate: 100}"), Options{}, ":15: published_load: wrk ran a closed loop, and run e/a c=10 sends at a rate"},
		{"rate_search once of a run id", variant(6, "  duration: 1s\n  rate: 0.5x\n  rate_of: e/a c=10\n  rate_search: once"), Options{}, ":9: rate_search: once needs a rate searched for"},
		{"rate_search unknown", variant(6, "  duration: 1s\n  rate_search: daily"), Options{}, `:7: rate_search: "daily" is not one of round, once`},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeSuite(t, c.text)
			_, err := Load(path, c.opt)
			if err == nil {
				t.Fatalf("Load succeeded, want an error containing %q", c.want)
			}
			if !strings.HasPrefix(err.Error(), path) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error = %q\nwant it to start with the file name and contain %q", err, c.want)
			}
		})
	}
}

// TestPrewarmOff: prewarm: 0s in a cell turns off a prewarm counted in
// requests that the defaults set, without restating its count.
func TestPrewarmOff(t *testing.T) {
	text := variant(6, "  duration: 1s\n  prewarm: 2s\n  prewarm_requests: 500")
	text = strings.Replace(text, "        published: {rps: 200}\n", "        published: {rps: 200}\n      - when: {impl: a}\n        set: {prewarm: 0s}\n", 1)
	s, err := Load(writeSuite(t, text), Options{Impls: []string{"a", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range s.Runs {
		want, n := 2*time.Second, int64(500)
		if r.Impl == "a" {
			want, n = 0, 0
		}
		if r.Prewarm != want || r.PrewarmRequests != n {
			t.Errorf("%s: prewarm %v of %d requests, want %v of %d", r.ID, r.Prewarm, r.PrewarmRequests, want, n)
		}
	}
}

func TestLoadRefusesUnknownScale(t *testing.T) {
	_, err := Load(writeSuite(t, variant(0, "")), Options{Scale: "huge"})
	if err == nil || !strings.Contains(err.Error(), "quick, standard, full") {
		t.Fatalf("error = %v, want the list of scales", err)
	}
}

// TestCellForScale: a cell that names a scale applies at that scale only,
// and selecting no run at full scale is then no error.
func TestCellForScale(t *testing.T) {
	text := variant(16, "        published: {rps: 200}\n      - when: {impl: a, scale: quick}\n        set: {warmup: 123ms}")
	for _, c := range []struct {
		scale string
		want  time.Duration
	}{{"quick", 123 * time.Millisecond}, {"standard", 0}, {"full", 0}} {
		s, err := Load(writeSuite(t, text), Options{Scale: c.scale, Impls: []string{"a", "b"}})
		if err != nil {
			t.Fatalf("%s: %v", c.scale, err)
		}
		for _, r := range s.Runs {
			want := time.Duration(0)
			if r.Impl == "a" {
				want = c.want
			}
			if r.Load.Warmup != want {
				t.Errorf("%s: %s warm-up %v, want %v", c.scale, r.ID, r.Load.Warmup, want)
			}
		}
	}
}
