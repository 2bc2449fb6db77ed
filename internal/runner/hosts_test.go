package runner

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"restbench/internal/hosts"
	"restbench/internal/result"
)

// TestHostsPlacement: a run with placement: hosts is measured by
// generators in namespaces of their own and filed as one merged trial.
func TestHostsPlacement(t *testing.T) {
	if err := hosts.Available(); err != nil {
		t.Skipf("skipping placement: hosts: %v", err)
	}
	dir := t.TempDir()
	_, file, _, _ := runtime.Caller(0)
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "bin", "restbench"), "./cmd/restbench")
	build.Dir = filepath.Join(filepath.Dir(file), "..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build restbench: %v\n%s", err, out)
	}
	run := testRun("hosts/test-ok", "test-ok", 1, 500*time.Millisecond)
	run.Hosts = 2
	o, err := Run(context.Background(), testSuite(run), Options{Manifest: testManifest(t, dir), Out: filepath.Join(dir, "results"), ReadyTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
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
