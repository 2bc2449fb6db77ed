package compare

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"restbench/internal/metric"
	"restbench/internal/report/model"
	"restbench/internal/result"
)

// TestCompare compares the fixture with a copy in which one run got 30%
// faster in every round and another 10% faster by its median, with rounds
// from 1% slower to 50% faster: only the first is beyond the noise. A run
// of two rounds is too few to say.
func TestCompare(t *testing.T) {
	newDir := filepath.Join(t.TempDir(), "mini", "20260201-120000")
	must(t, os.MkdirAll(newDir, 0o755))
	files, _ := filepath.Glob(filepath.Join(fixtureDir, "*.json"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		must(t, err)
		must(t, os.WriteFile(filepath.Join(newDir, filepath.Base(f)), data, 0o644))
	}
	scale := func(run string, factors ...float64) {
		for n := 1; ; n++ {
			factor := factors[(n-1)%len(factors)]
			p := filepath.Join(newDir, result.TrialFile(run, n))
			if _, err := os.Stat(p); err != nil {
				break
			}
			var tr result.Trial
			must(t, result.ReadJSON(p, &tr))
			if tr.Load != nil {
				tr.Load.RPS *= factor
			}
			must(t, result.WriteJSON(p, tr))
		}
	}
	scale("single-thread/go-nethttp", 1.3)
	scale("single-thread/node-http", 1.02, 1.5, 1.1, 0.99, 1.3)

	oldR, err := model.LoadAll(fixtureRoot)
	must(t, err)
	newR, err := model.LoadAll(filepath.Dir(newDir))
	must(t, err)
	c := Compare(oldR, newR)
	got := map[string]Change{}
	for _, ch := range c.Changes {
		got[ch.Run+" "+ch.Metric] = ch
	}
	for _, w := range []struct {
		key            string
		beyond, better bool
	}{
		{"single-thread/go-nethttp rps", true, true},
		{"single-thread/node-http rps", false, false},
		{"single-thread/go-nethttp p99_ms", false, false},
		{"connections/go-nethttp connections=10 rps", false, false},
	} {
		ch, ok := got[w.key]
		if !ok {
			t.Fatalf("no change for %s", w.key)
		}
		if ch.Beyond != w.beyond || (ch.Beyond && ch.Better != w.better) {
			t.Errorf("%s: beyond=%v better=%v (delta %+.3f, interval %+v), want beyond=%v better=%v", w.key, ch.Beyond, ch.Better, ch.Delta, ch.Interval, w.beyond, w.better)
		}
	}
	var b strings.Builder
	must(t, c.WriteText(&b))
	if !strings.Contains(b.String(), "| mini | go-nethttp | req/s | 9400 (9310–9480) | 12,220 (12,103–12,324) | +30.0% | +30.0%…+30.0% (5) | **better** |") {
		t.Errorf("comparison table lacks the go-nethttp line:\n%s", b.String())
	}
	if !strings.Contains(b.String(), "1 of 18 figures moved beyond the noise") {
		t.Errorf("comparison summary wrong:\n%s", b.String())
	}
}

// TestChange: a change is real when the interval of the rounds' NEW/OLD
// clears 1 ± MinChange, which takes verdict.MinPairs rounds; the median
// alone moving is not enough.
func TestChange(t *testing.T) {
	run := func(vs ...float64) *model.RunReport {
		r := &model.RunReport{Info: result.RunInfo{ID: "x"}, Measured: map[string]metric.Spread{}}
		for i, v := range vs {
			r.OK = append(r.OK, model.NewMeasured(&result.Trial{Round: i + 1, Load: &result.Load{Stats: result.Stats{RPS: v, Latency: result.Latency{P99: v}}}}))
		}
		return r
	}
	old := run(100, 100, 100, 100, 100)
	for _, c := range []struct {
		name                     string
		key                      string
		new                      *model.RunReport
		gradable, beyond, better bool
	}{
		{"faster in every round", "rps", run(120, 125, 118, 130, 122), true, true, true},
		{"a higher p99 is worse", "p99_ms", run(120, 125, 118, 130, 122), true, true, false},
		{"within 5 %, however tight", "rps", run(104, 104, 104, 104, 104), true, false, false},
		{"median up, one round down", "rps", run(120, 125, 97, 130, 122), true, false, false},
		{"too few rounds", "rps", run(150, 150, 150), false, false, false},
	} {
		ch := change("s", c.key, old, c.new)
		if ch.Gradable() != c.gradable || ch.Beyond != c.beyond || (ch.Beyond && ch.Better != c.better) {
			t.Errorf("%s: gradable %v beyond %v better %v (interval %+v), want %v %v %v", c.name, ch.Gradable(), ch.Beyond, ch.Better, ch.Interval, c.gradable, c.beyond, c.better)
		}
	}
}

// The report's results fixture (internal/report/testdata, which
// go test ./internal/report -update writes).
const (
	fixtureRoot = "../testdata/results"
	fixtureDir  = "../testdata/results/mini/20260101-120000"
)

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
