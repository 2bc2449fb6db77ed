package main

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"restbench/internal/result"
)

// TestUsageErrorsBeforeWork: an impossible value of any flag, a URL that is
// not one and an output that cannot be written are usage errors (exit 2)
// that name the flag and what it allows, before a single request is sent:
// none falls back to a default unseen, none waits for the load to end.
func TestUsageErrorsBeforeWork(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
	}))
	defer srv.Close()
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	notDir := filepath.Join(file, "out.json") // a folder that is a file
	host := strings.TrimPrefix(srv.URL, "http://")

	for _, tc := range []struct {
		name string
		cmd  func(context.Context, []string) error
		args []string
		want string
	}{
		{"-c -5", cmdLoad, []string{"-c", "-5"}, "-c -5: use 1 or more"},
		{"-c 0", cmdLoad, []string{"-c", "0"}, "-c 0: use 1 or more"},
		{"-d -1s", cmdLoad, []string{"-d", "-1s"}, "-d -1s: use a positive duration"},
		{"-d 0", cmdLoad, []string{"-d", "0"}, "-d 0: use a positive duration"},
		{"-t 0", cmdLoad, []string{"-t", "0"}, "-t 0: use 1 or more"},
		{"-t -3", cmdLoad, []string{"-t", "-3"}, "-t -3: use 1 or more"},
		{"--timeout -1s", cmdLoad, []string{"--timeout", "-1s"}, "--timeout -1s: use a positive duration"},
		{"--warmup -1s", cmdLoad, []string{"--warmup", "-1s"}, "--warmup -1s: use 0 or a positive"},
		{"--drain -1s", cmdLoad, []string{"-R", "10", "--drain", "-1s"}, "--drain -1s: use 0 (none, as wrk2) or a positive"},
		{"--expect 42", cmdLoad, []string{"--expect", "42"}, "--expect 42: use an HTTP status"},
		{"--max-connections below -c", cmdLoad, []string{"-R", "10", "--max-connections", "2"}, "--max-connections 2: use at least -c 10"},
		{"-n 0", cmdLoad, []string{"-n", "0"}, "-n 0: use 1 or more"},
		{"-R -10", cmdLoad, []string{"-R", "-10"}, "-R -10: use a positive rate"},
		{"--json in a file", cmdLoad, []string{"--json", notDir}, "--json " + notDir},
		{"--hlog in a file", cmdLoad, []string{"--hlog", notDir}, "--hlog " + notDir},
		{"--json a folder", cmdLoad, []string{"--json", dir}, "is a directory"},
		{"capacity --max-steps 0", cmdCapacity, []string{"--max-steps", "0"}, "--max-steps 0: use 1 or more"},
		{"capacity --start -5", cmdCapacity, []string{"--start", "-5"}, "--start -5: use a positive rate"},
		{"capacity -c 0", cmdCapacity, []string{"-c", "0"}, "-c 0: use 1 or more"},
		{"capacity --json in a file", cmdCapacity, []string{"--json", notDir}, "--json " + notDir},
		{"k8s --generators 0", cmdK8s, []string{"--generators", "0"}, "--generators 0: use 1 or more"},
		{"merge --trial 0", cmdMerge, []string{"-o", filepath.Join(dir, "m.json"), "--trial-dir", dir, "--suite", "s.yaml", "--run", "r", "--trial", "0"}, "--trial 0: use 1 or more"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"-q", srv.URL}, tc.args...)
			switch strings.Fields(tc.name)[0] {
			case "capacity":
				args = append([]string{srv.URL}, tc.args...)
			case "k8s":
				args = append([]string{"suites/s.yaml", "e/r"}, tc.args...)
			case "merge":
				args = append([]string{"a.json"}, tc.args...)
			}
			err := tc.cmd(context.Background(), args)
			var ee *exitError
			if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v: %v, want a usage error (exit 2) saying %q", tc.args, err, tc.want)
			}
		})
	}
	for _, tc := range []struct{ url, want string }{
		{host + "/hello", "has no scheme: add http://"},
		{"http://", "has no host"},
		{"https://" + host, "only http://"},
		{"http://[::1", "missing ']'"},
	} {
		err := cmdLoad(context.Background(), []string{"-q", tc.url})
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("URL %q: %v, want a usage error saying %q", tc.url, err, tc.want)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the server got %d requests: some refusal came after the load started", n)
	}
}

// TestRunUsageErrors: restbench run's impossible values exit 2 before any
// trial, naming the flag.
func TestRunUsageErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.yaml")
	os.WriteFile(file, []byte(`name: s
title: s
source: {write_up: none}
defaults:
  request: {method: GET, path: /hello}
  duration: 1s
experiments:
  - name: e
    title: e
    impls: [go-nethttp]
    matrix:
      connections: [1, 2, 3]
`), 0o644)
	notDir := filepath.Join(file, "results")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--trials", "0"}, "--trials 0: use 1 or more"},
		{[]string{"--trials", "-2"}, "--trials -2: use 1 or more"},
		{[]string{"--scale", "bogus"}, "--scale bogus: use quick, standard, full"},
		{[]string{"--ready-timeout", "0s"}, "--ready-timeout 0s: use a positive duration"},
		{[]string{"--only", "nomatch"}, `--only "nomatch" matches none of the 3 runs (e/go-nethttp c=1`},
		{[]string{"--max-runs", "2"}, "3 runs at full scale (counted up to this experiment), more than the limit of 2"},
		{[]string{"--out", notDir}, "--out " + notDir},
		{[]string{"--server-cpu", "0"}, "--server-cpu 0: use a fraction above 0 and at most 1"},
		{[]string{"--server-cpu", "1.5"}, "--server-cpu 1.5: use a fraction above 0 and at most 1"},
	} {
		args := append([]string{file, "--out", filepath.Join(dir, "results")}, tc.args...)
		err := cmdRun(context.Background(), args)
		var ee *exitError
		code := 0
		if errors.As(err, &ee) {
			code = ee.code
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || code != 2 && !strings.Contains(tc.want, "limit") {
			t.Errorf("run %v: %v (exit %d), want a usage error saying %q", tc.args, err, code, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "results", "s")); err == nil {
		t.Errorf("a refused run wrote results")
	}
}

// TestNoResponseSaysWhy: a load without a response asks "is a server
// listening?" only when the connections were refused; a server that
// accepted and then timed out, broke the connections or never answered
// within the window is told apart.
func TestNoResponseSaysWhy(t *testing.T) {
	for _, tc := range []struct {
		st   result.Stats
		want string
	}{
		{result.Stats{Requests: 9, Errors: result.Errors{Connect: 9}}, "is a server listening at U?"},
		{result.Stats{Requests: 9, Errors: result.Errors{Timeout: 9}}, "accepted the connections but answered nothing within --timeout 2s"},
		{result.Stats{Requests: 9, Errors: result.Errors{Read: 9}}, "closed the connections or answered with something that is not HTTP/1.1"},
		{result.Stats{Requests: 9, Unfinished: 9}, "answered nothing before the window closed"},
	} {
		err := noResponse(&tc.st, "U", 2*time.Second)
		if !strings.Contains(err.Error(), tc.want) || tc.st.Errors.Connect == 0 && strings.Contains(err.Error(), "listening") {
			t.Errorf("%+v: %v, want %q", tc.st.Errors, err, tc.want)
		}
	}
}
