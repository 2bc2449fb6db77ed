package runner

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"restbench/internal/hosts"
	"restbench/internal/impl"
	"restbench/internal/result"
)

// TestHostsPlacement: a run with placement: hosts is measured by
// generators in namespaces of their own and filed as one merged trial; a
// server that crashes under the load fails its trial as on one machine.
func TestHostsPlacement(t *testing.T) {
	if err := hosts.Available(); err != nil {
		t.Skipf("skipping placement: hosts: %v", err)
	}
	dir := hostsCheckout(t)
	run := testRun("hosts/test-ok", "test-ok", 1, 500*time.Millisecond)
	run.Hosts = 2
	crash := testRun("crash/test-crash40", "test-crash40", 1, 500*time.Millisecond)
	crash.Hosts = 2
	o, err := Run(context.Background(), testSuite(run, crash), Options{Manifest: testManifest(t, dir), Out: filepath.Join(dir, "results"), ReadyTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if tr := readTrial(t, o.Dir, crash.ID, 1); tr.Status != result.StatusFailed || !strings.HasPrefix(tr.Error, "test-crash40 exited during the load (exit status 3); see stderr_tail") ||
		!strings.Contains(tr.StderrTail, "crashing after 40 requests") {
		t.Errorf("crash: status %q error %q stderr %q", tr.Status, tr.Error, tr.StderrTail)
	}
	tr := readTrial(t, o.Dir, run.ID, 1)
	if tr.Status != result.StatusOK || tr.Load == nil {
		t.Fatalf("status %s: %s", tr.Status, tr.Error)
	}
	if tr.Placement.Kind() != result.PlacementHosts || tr.Load.Settings.Shard != "merged 2" || tr.Load.Settings.Connections != 2 {
		t.Errorf("placement %+v, shard %q, connections %d; want hosts, merged 2, 2", tr.Placement, tr.Load.Settings.Shard, tr.Load.Settings.Connections)
	}
	// The server started as on one machine: its readiness line, a port the
	// kernel picked in its namespace, a clean environment, the round.
	if s := tr.Server; s == nil || s.GOMAXPROCS < 1 || s.Port == 0 || s.Env["HOST"] != hosts.Subnet+".1" || s.Env["PORT"] != "0" || s.Env["THREADS"] != "1" {
		t.Errorf("server %+v", tr.Server)
	}
	if tr.Round != 1 || tr.Placement.Pinned || !slices.Contains(tr.Flags, result.FlagUnpinned) {
		t.Errorf("round %d, placement %+v, flags %v; want round 1, unpinned", tr.Round, tr.Placement, tr.Flags)
	}
	if err := result.CheckAccounting(tr.Load); err != nil {
		t.Error(err)
	}
	if tr.Load.Responses == 0 || tr.Monitor == nil || tr.Monitor.ServerRSSPeak == 0 {
		t.Errorf("%d responses, monitor %+v", tr.Load.Responses, tr.Monitor)
	}
	// Read in the server's namespace: a fresh one holds its listener only.
	if l := tr.Listen; l == nil || l.Sockets != 1 || l.Backlog <= 0 || l.SocketDrops == nil {
		t.Errorf("listen %+v, want the server's one socket, its backlog and drops", l)
	}
}

// TestHostsPlacementRuntime: under placement: hosts the monitor reaches the
// server's GET /runtime inside its namespace, and the trial records the
// readings of a real reference server, and its CPU cost, as a local trial
// does.
func TestHostsPlacementRuntime(t *testing.T) {
	if err := hosts.Available(); err != nil {
		t.Skipf("skipping placement: hosts: %v", err)
	}
	dir := hostsCheckout(t, [2]string{"bin/servers/go-nethttp", "./servers/go/nethttp"})
	// Started as servers/implementations.yaml starts it, from the binary
	// built above (its build command builds into the repository).
	im := impl.Impl{ID: "go-nethttp", Language: "go", Start: []string{"bin/servers/go-nethttp"}}
	run := testRun("hosts/go-nethttp", im.ID, 1, 1500*time.Millisecond)
	run.Hosts = 2
	o, err := Run(context.Background(), testSuite(run), Options{Manifest: &impl.Manifest{Root: dir, Impls: []impl.Impl{im}}, Out: filepath.Join(dir, "results"), ReadyTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	tr := readTrial(t, o.Dir, run.ID, 1)
	if tr.Status != result.StatusOK || tr.Monitor == nil || tr.Server == nil {
		t.Fatalf("status %s: %s", tr.Status, tr.Error)
	}
	// The server's cost as on one machine: at rest before the warm-up (the
	// first trial), and per response.
	if c := tr.Monitor.CPUPerResponseUS; c == nil || *c <= 0 || tr.Monitor.IdleCPU == nil || tr.Monitor.IdleMS != int(IdleWindow/time.Millisecond) {
		t.Errorf("cpu per response %v, idle %v over %d ms; want both measured", c, tr.Monitor.IdleCPU, tr.Monitor.IdleMS)
	}
	// One reading, at the end of the load (monitor.ReadRuntime).
	rs := tr.Monitor.Runtime
	if len(rs) != 1 || tr.Monitor.RuntimeError != "" {
		t.Fatalf("%d runtime readings (error %q), want 1", len(rs), tr.Monitor.RuntimeError)
	}
	for i, r := range rs {
		// The server's own figures: its GOMAXPROCS is the one its
		// readiness line reported (THREADS=1).
		if !strings.HasPrefix(r.Runtime, "go1.") || r.GOMAXPROCS == nil || *r.GOMAXPROCS != tr.Server.GOMAXPROCS || r.Goroutines == nil || *r.Goroutines == 0 || r.SchedLatencyP99MS == nil {
			t.Errorf("reading %d: %+v, want go-nethttp's runtime/metrics with GOMAXPROCS %d", i, r, tr.Server.GOMAXPROCS)
		}
		if r.T < 0 || i > 0 && r.T < rs[i-1].T {
			t.Errorf("reading %d at t=%v after %v: want the measured window, in order", i, r.T, rs[max(i-1, 0)].T)
		}
	}
}

// hostsCheckout builds restbench, and each {path, package} of more, into a
// folder laid out like the image's working directory (bin/restbench,
// bin/servers/...): the generators' pods run bin/restbench.
func hostsCheckout(t *testing.T, more ...[2]string) string {
	t.Helper()
	dir := t.TempDir()
	for _, b := range append([][2]string{{"bin/restbench", "./cmd/restbench"}}, more...) {
		build := exec.Command("go", "build", "-o", filepath.Join(dir, b[0]), b[1])
		build.Dir = repoRoot()
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", b[1], err, out)
		}
	}
	return dir
}

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}
