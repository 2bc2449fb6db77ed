package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"restbench/internal/result"
)

// TestCompare compares the fixture with a copy in which one run got 30%
// faster and another 2% slower: only the first is beyond the noise.
func TestCompare(t *testing.T) {
	newDir := filepath.Join(t.TempDir(), "mini", "20260201-120000")
	must(t, os.MkdirAll(newDir, 0o755))
	files, _ := filepath.Glob(filepath.Join(fixtureDir, "*.json"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		must(t, err)
		must(t, os.WriteFile(filepath.Join(newDir, filepath.Base(f)), data, 0o644))
	}
	scale := func(run string, factor float64) {
		for n := 1; ; n++ {
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
	scale("single-thread/node-http", 0.98)

	oldR, err := LoadAll(fixtureRoot)
	must(t, err)
	newR, err := LoadAll(filepath.Dir(newDir))
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
			t.Errorf("%s: beyond=%v better=%v (delta %+.3f, noise %.3f), want beyond=%v better=%v", w.key, ch.Beyond, ch.Better, ch.Delta, ch.Noise, w.beyond, w.better)
		}
	}
	var b strings.Builder
	must(t, c.WriteText(&b))
	if !strings.Contains(b.String(), "| mini | go-nethttp | req/s | 9400 (9310–9480) | 12,220 (12,103–12,324) | +30.0% | ±5.0% | **better** |") {
		t.Errorf("comparison table lacks the go-nethttp line:\n%s", b.String())
	}
	if !strings.Contains(b.String(), "1 of 18 figures moved beyond the noise") {
		t.Errorf("comparison summary wrong:\n%s", b.String())
	}
}
