package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"restbench/internal/result"
)

// TestRunWithoutEngine runs a suite whose wrk cross-check cannot run here
// (wrk hidden from PATH) and whose other cell asks for more cores than any
// machine here has: restbench run exits 0, both trials are not-run with
// their reason, and the report lists them.
func TestRunWithoutEngine(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "skips.yaml")
	os.WriteFile(file, []byte(`name: skips
title: cells this machine cannot run
source: {write_up: none}
defaults:
  request: {method: GET, path: /hello}
  duration: 1s
  trials: 1
experiments:
  - name: hello
    title: hello
    impls: [go-nethttp]
    matrix:
      engine: [wrk]
  - name: wide
    title: wide
    impls: [go-nethttp]
    threads: 4096
`), 0o644)
	t.Setenv("PATH", t.TempDir()) // no wrk, and nothing else either
	out := filepath.Join(dir, "results")
	if err := cmdRun(context.Background(), []string{file, "--out", out}); err != nil {
		t.Fatalf("restbench run: %v; a trial that cannot run here is no failure", err)
	}
	latest := filepath.Join(out, "skips", result.Latest)
	for _, c := range []struct{ run, why string }{
		{"hello/go-nethttp", "not run: wrk is not installed (apt-get install wrk)"},
		{"wide/go-nethttp", "not run here: needs 4097 cores"},
	} {
		var tr result.Trial
		if err := result.ReadJSON(filepath.Join(latest, result.TrialFile(c.run, 1)), &tr); err != nil {
			t.Fatal(err)
		}
		if tr.Status != result.StatusNotRun || !strings.HasPrefix(tr.Error, c.why) {
			t.Errorf("%s: status %q error %q, want %s: %s", c.run, tr.Status, tr.Error, result.StatusNotRun, c.why)
		}
	}
	if err := cmdReport(context.Background(), []string{out}); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(out, "report", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"not run: wrk is not installed (apt-get install wrk)", "not run here: needs 4097 cores"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md does not say %q", want)
		}
	}
	if strings.Contains(string(md), "failed") {
		t.Errorf("report.md calls a trial that was not run failed:\n%s", md)
	}
}
