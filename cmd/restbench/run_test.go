package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
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
	md := reportOf(t, out)
	for _, want := range []string{"not run: wrk is not installed (apt-get install wrk)", "not run here: needs 4097 cores"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md does not say %q", want)
		}
	}
	if strings.Contains(string(md), "failed") {
		t.Errorf("report.md calls a trial that was not run failed:\n%s", md)
	}
}

// TestConnectionBoundNotComparable is the held-out shape of the verdicts
// issue: an open-loop cell its connections cannot carry (400 req/s × 50 ms
// needs 20 connections; it has 5) must grade every claim resting on it "not
// comparable", naming the flag and what to change, never holds or does not
// hold. Real servers, real sockets, the real suite reader, runner and report.
func TestConnectionBoundNotComparable(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a suite of 10 trials against real servers")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "held-out.yaml")
	os.WriteFile(file, []byte(`name: held-out
title: an open loop its connections cannot carry
source: {write_up: none}
defaults:
  request: {method: GET, path: /time}
  duration: 1s
  warmup: 200ms
  trials: 5
experiments:
  - name: open
    title: open loop at 400 req/s
    impls: [go-nethttp]
    rate: 400
    matrix:
      delay: [0, 50]
    cells:
      - {when: {delay: 0}, set: {connections: 50}}
      - {when: {delay: 50}, set: {connections: 5}}
    conclusions:
      - text: "50 ms of delay adds latency"
        metric: latency_mean_ms
        published: 10
        a: open/go-nethttp delay=50ms
        b: open/go-nethttp delay=0ms
      - text: "the delay leaves req/s as it was"
        metric: rps
        claim: tie
        published: 1
        a: open/go-nethttp delay=50ms
        b: open/go-nethttp delay=0ms
`), 0o644)
	out := filepath.Join(dir, "results")
	if err := cmdRun(context.Background(), []string{file, "--out", out}); err != nil {
		t.Fatalf("restbench run: %v", err)
	}
	var tr result.Trial
	if err := result.ReadJSON(filepath.Join(out, "held-out", result.Latest, result.TrialFile("open/go-nethttp delay=50ms", 1)), &tr); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(tr.Flags, result.FlagConnectionBound) {
		t.Fatalf("flags %v: 400 req/s × 50 ms on 5 connections must be connection-bound (connections_needed %.1f)", tr.Flags, tr.Load.ConnectionsNeeded)
	}
	md := reportOf(t, out)
	for _, claim := range []string{"50 ms of delay adds latency", "the delay leaves req/s as it was"} {
		row := ""
		for _, line := range strings.Split(string(md), "\n") {
			if strings.HasPrefix(line, "| [held-out]") && strings.Contains(line, claim) {
				row = line
			}
		}
		if !strings.Contains(row, "| **not comparable** |") || !strings.Contains(row, "connection-bound") || !strings.Contains(row, "raise connections") {
			t.Errorf("%q: row %q, want not comparable naming connection-bound and what to change", claim, row)
		}
	}
}

// reportOf builds the report of the results folder out and returns its
// report.md.
func reportOf(t *testing.T, out string) []byte {
	t.Helper()
	if err := cmdReport(context.Background(), []string{out}); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(out, "report", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	return md
}
