package model

import (
	"path/filepath"
	"strings"
	"testing"

	"restbench/internal/result"
)

// TestLoadLeavesOutForeignTrials: a results folder holds one suite. A trial
// of another suite whose run id matches one of this suite's is not averaged
// into that run, and a trial of a run the suite does not have is not
// skipped silently: both are left out and named.
func TestLoadLeavesOutForeignTrials(t *testing.T) {
	dir := t.TempDir()
	s := result.Suite{Name: "mine", Experiments: []result.Experiment{{Name: "e", Runs: []result.RunInfo{{ID: "e/go"}}}}}
	write := func(name string, v any) {
		t.Helper()
		if err := result.WriteJSON(filepath.Join(dir, name), v); err != nil {
			t.Fatal(err)
		}
	}
	write(result.SuiteFile, s)
	write("e_go.t1.json", result.Trial{Suite: "mine", Run: "e/go", Trial: 1, Status: result.StatusOK})
	write("e_go.t2.json", result.Trial{Suite: "other", Run: "e/go", Trial: 2, Status: result.StatusOK})
	write("f_go.t1.json", result.Trial{Suite: "mine", Run: "f/go", Trial: 1, Status: result.StatusOK})

	r, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Trials["e/go"]; len(got) != 1 || got[0].Suite != "mine" {
		t.Errorf("trials of e/go: %+v, want only this suite's trial 1", got)
	}
	if _, ok := r.Trials["f/go"]; ok {
		t.Errorf("a run the suite does not have was loaded")
	}
	for _, tc := range []struct{ file, why string }{
		{"e_go.t2.json", `suite "other"`},
		{"f_go.t1.json", `run "f/go" is not in mine`},
	} {
		found := false
		for _, l := range r.LeftOut {
			found = found || strings.Contains(l, tc.file) && strings.Contains(l, tc.why)
		}
		if !found {
			t.Errorf("left out %q, want %s named with %q", r.LeftOut, tc.file, tc.why)
		}
	}
}
