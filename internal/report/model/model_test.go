package model

import (
	"os"
	"path/filepath"
	"testing"

	"restbench/internal/result"
)

func TestKeysAndParams(t *testing.T) {
	for s, want := range map[string]float64{"100": 100, "50ms": 50, "0.75x": 0.75, "25%": 25, "12s": 12000, "5500ms": 5500, "0": 0} {
		if got, ok := ParamNumber(s); !ok || got != want {
			t.Errorf("paramNumber(%q) = %v, %v; want %v", s, got, ok, want)
		}
	}
	if _, ok := ParamNumber("node"); ok {
		t.Errorf("paramNumber(node) accepted")
	}
	runs := []result.RunInfo{
		{Params: map[string]string{"impl": "a", "connections": "10", "mode": "x"}},
		{Params: map[string]string{"impl": "b", "connections": "100", "mode": "x"}},
	}
	if got := matrixParam(runs); got != "connections" {
		t.Errorf("matrixParam = %q, want connections", got)
	}
	// A setting a cell gives some runs is no sweep, though it sorts first
	// (filter-heartbeat's one-thread caps: the report drew "req/s by
	// duration" on a log axis with a run at x = 0, and gonum panicked).
	runs = []result.RunInfo{
		{Params: map[string]string{"impl": "a", "threads": "1", "duration": "12s"}},
		{Params: map[string]string{"impl": "b", "threads": "1", "duration": "5500ms"}},
		{Params: map[string]string{"impl": "a", "threads": "2"}},
		{Params: map[string]string{"impl": "b", "threads": "12"}},
	}
	if got := matrixParam(runs); got != "threads" {
		t.Errorf("matrixParam = %q, want threads", got)
	}
}

// TestFind resolves a results folder, a suite folder (latest link or newest
// timestamp) and a results root.
func TestFind(t *testing.T) {
	root := t.TempDir()
	mk := func(suite, ts string) string {
		d := filepath.Join(root, suite, ts)
		must(t, result.WriteJSON(filepath.Join(d, result.SuiteFile), result.Suite{Name: suite}))
		return d
	}
	a1, a2 := mk("a", "20260101-100000"), mk("a", "20260102-100000")
	b1, _ := mk("b", "20260101-100000"), mk("b", "20260103-100000")
	must(t, os.Symlink("20260101-100000", filepath.Join(root, "b", result.Latest)))
	must(t, os.MkdirAll(filepath.Join(root, "report"), 0o755)) // an earlier report is not a suite
	for _, c := range []struct {
		dir  string
		want []string
	}{
		{a1, []string{a1}},
		{filepath.Join(root, "a"), []string{a2}},
		{filepath.Join(root, "b"), []string{b1}},
		{root, []string{a2, b1}},
	} {
		got, err := Find(c.dir)
		if err != nil {
			t.Fatalf("Find(%s): %v", c.dir, err)
		}
		if len(got) != len(c.want) {
			t.Fatalf("Find(%s) = %v, want %v", c.dir, got, c.want)
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("Find(%s)[%d] = %s, want %s", c.dir, i, got[i], c.want[i])
			}
		}
	}
	if _, err := Find(t.TempDir()); err == nil {
		t.Errorf("Find(empty folder) succeeded")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
