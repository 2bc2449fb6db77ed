package runner

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"restbench/internal/result"
	"restbench/internal/runtimes"
	"restbench/internal/suite"
)

// TestRunOnRuntimes runs the test server as a Go implementation on a pinned
// toolchain (this test's own, so nothing is downloaded): the trial records
// the runtime, env.json lists it, and a runtime that does not support the
// implementation gives a not-supported trial without starting anything.
func TestRunOnRuntimes(t *testing.T) {
	dir := t.TempDir()
	m := testManifest(t, dir)
	for i := range m.Impls {
		m.Impls[i].Language = runtimes.Go
	}
	tc := runtime.Version()
	if !strings.HasPrefix(tc, "go1.") {
		t.Skipf("toolchain %q is not a release", tc)
	}
	lock := &runtimes.Lock{Root: dir, Defaults: map[string]string{runtimes.Go: "go@here"}, Runtimes: []runtimes.Runtime{
		{Name: "go@here", Language: runtimes.Go, Toolchain: tc},
		{Name: "go@old", Language: runtimes.Go, Toolchain: tc, Unsupported: map[string]string{"test-tree": "needs a newer Go"}},
	}}
	def := testRun("rt/test-ok", "test-ok", 1, 300*time.Millisecond)
	old := testRun("rt/test-tree go@old", "test-tree", 2, 300*time.Millisecond)
	old.Runtime = "go@old"
	out := filepath.Join(dir, "results")
	o, err := Run(context.Background(), testSuite(def, old), Options{Manifest: m, Runtimes: lock, Out: out, ReadyTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if o.OK != 1 || o.NotRun != 2 || o.Failed != 0 {
		t.Fatalf("ok %d, not run %d, failed %d; want 1, 2, 0", o.OK, o.NotRun, o.Failed)
	}
	tr := readTrial(t, o.Dir, def.ID, 1)
	if tr.Runtime == nil || tr.Runtime.Name != "go@here" || tr.Runtime.Version != tc || tr.Runtime.Path == "" {
		t.Errorf("trial runtime = %+v, want go@here %s with its go binary", tr.Runtime, tc)
	}
	if tr.Runtime != nil && (tr.Runtime.Flags == nil || len(tr.Runtime.Flags) > 0) {
		t.Errorf("trial runtime flags = %#v, want [] (a Go server takes none)", tr.Runtime.Flags)
	}
	for n := 1; n <= 2; n++ {
		tr := readTrial(t, o.Dir, old.ID, n)
		if tr.Status != result.StatusNotSupported || !strings.Contains(tr.Error, "needs a newer Go") || tr.Load != nil {
			t.Errorf("trial %d on go@old: status %s, error %q, load %v; want not-supported with the reason and no load", n, tr.Status, tr.Error, tr.Load)
		}
	}
	var env result.Env
	if err := result.ReadJSON(filepath.Join(o.Dir, result.EnvFile), &env); err != nil {
		t.Fatal(err)
	}
	if env.Runtimes["go@here"].Version != tc || env.Runtimes["go@old"].Version != tc {
		t.Errorf("env.json runtimes = %+v, want go@here and go@old at %s", env.Runtimes, tc)
	}
	// The not-supported trials started nothing (a start writes the file).
	if _, err := os.Stat(filepath.Join(dir, "test-tree.info")); !os.IsNotExist(err) {
		t.Errorf("test-tree was started on go@old (%v)", err)
	}
}

// TestWithSearched: a run whose rate is a fraction of another run's
// capacity needs that run's runtime installed even when --only left the
// run out, because the search starts a server of it.
func TestWithSearched(t *testing.T) {
	capRun := suite.Run{ID: "delay/node-express delay=0ms", Runtime: "node@24"}
	scaled := suite.Run{ID: "computation-scaled/go-gorilla work=25%", RateOf: capRun.ID, RateSearch: true}
	closed := suite.Run{ID: "cpu-at-rate/go-chi", RateOf: "sum/node-express pm2"} // no search: its trials, not a server
	all := []suite.Run{capRun, scaled, closed, {ID: "sum/node-express pm2"}}
	for _, c := range []struct {
		name string
		runs []suite.Run
		want []string
	}{
		{"search target left out", []suite.Run{scaled}, []string{scaled.ID, capRun.ID}},
		{"search target selected", []suite.Run{capRun, scaled}, []string{capRun.ID, scaled.ID}},
		{"closed-loop rate_of starts no server", []suite.Run{closed}, []string{closed.ID}},
	} {
		var got []string
		for _, r := range withSearched(c.runs, all) {
			got = append(got, r.ID)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
