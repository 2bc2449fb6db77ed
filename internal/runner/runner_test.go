package runner

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"restbench/internal/engine"
	"restbench/internal/load"
	"restbench/internal/result"
	"restbench/internal/suite"
)

// testRun is a short closed-loop run against a test implementation.
func testRun(id, implID string, trials int, d time.Duration) suite.Run {
	exp, _, _ := strings.Cut(id, "/")
	return suite.Run{ID: id, Experiment: exp, Impl: implID, Label: id, Trials: trials, Pinned: true,
		Env:  map[string]string{"THREADS": "1"},
		Load: load.Config{URL: "/hello", Method: "GET", Connections: 2, Duration: d, KeepAlive: true, Expect: 200}}
}

func testSuite(runs ...suite.Run) *suite.Suite {
	return &suite.Suite{Name: "test", Title: "test suite", File: "test.yaml", Scale: "quick", Runs: runs,
		Info: result.Suite{Name: "test", Scale: "quick"}}
}

func readTrial(t *testing.T, dir, id string, n int) *result.Trial {
	t.Helper()
	var tr result.Trial
	if err := result.ReadJSON(filepath.Join(dir, result.TrialFile(id, n)), &tr); err != nil {
		t.Fatal(err)
	}
	return &tr
}

// TestRunSuite runs a suite with a healthy server, one that crashes under
// load, one that never starts, a process tree, and a run at half the
// capacity of another; then runs it again with --resume.
func TestRunSuite(t *testing.T) {
	dir := t.TempDir()
	m := testManifest(t, dir)
	half := testRun("rate/test-ok", "test-ok", 1, 300*time.Millisecond)
	half.RateOf, half.RateFraction = "closed/test-ok", 0.5
	s := testSuite(
		testRun("closed/test-ok", "test-ok", 2, 300*time.Millisecond),
		testRun("crash/test-crash40", "test-crash40", 1, 5*time.Second),
		testRun("exit/test-exit", "test-exit", 1, 300*time.Millisecond),
		testRun("tree/test-tree", "test-tree", 1, 300*time.Millisecond),
		half,
	)
	out := filepath.Join(dir, "results")
	var log strings.Builder
	o, err := Run(context.Background(), s, Options{Manifest: m, Out: out, Log: &log, ReadyTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + log.String())
	if o.OK != 4 || o.Failed != 2 {
		t.Fatalf("ok %d failed %d, want 4 and 2", o.OK, o.Failed)
	}
	for _, f := range []string{result.EnvFile, result.SuiteFile} {
		if _, err := os.Stat(filepath.Join(o.Dir, f)); err != nil {
			t.Error(err)
		}
	}
	if target, err := os.Readlink(filepath.Join(out, "test", result.Latest)); err != nil || target != filepath.Base(o.Dir) {
		t.Errorf("latest -> %q (%v), want %s", target, err, filepath.Base(o.Dir))
	}

	t.Run("ok trials", func(t *testing.T) {
		for n := 1; n <= 2; n++ {
			tr := readTrial(t, o.Dir, "closed/test-ok", n)
			if tr.Status != result.StatusOK || tr.Load == nil || tr.Load.Responses == 0 || tr.Monitor == nil || len(tr.Monitor.Samples) == 0 {
				t.Fatalf("trial %d: status %s load %v monitor %v", n, tr.Status, tr.Load, tr.Monitor)
			}
			if tr.Monitor.ServerRSSPeak <= 0 || tr.Env["THREADS"] != "1" {
				t.Errorf("trial %d: rss peak %d env %v", n, tr.Monitor.ServerRSSPeak, tr.Env)
			}
			// Go's listen() asks for net.core.somaxconn, which the kernel
			// then allows in full.
			if l := tr.Listen; l == nil || l.Sockets != 1 || l.Backlog != somaxconn(t) {
				t.Errorf("trial %d: listen %+v, want one socket with backlog %d", n, l, somaxconn(t))
			}
			// CPU time counts in 10 ms ticks, and a 300 ms trial on a busy
			// machine may see none: the figure must be there, not large. It
			// is the server's CPU over the load's own window (costPerResponse
			// scales it down when the monitor's samples cover more, as they
			// do on a loaded machine), so at most the whole CPU per response.
			if c := tr.Monitor.CPUPerResponseUS; c == nil || *c < 0 || *c > tr.Monitor.ServerCPUS/float64(tr.Load.Responses)*1e6+1e-6 {
				t.Errorf("trial %d: cpu per response %v, server cpu %v s, %d responses", n, deref(c), tr.Monitor.ServerCPUS, tr.Load.Responses)
			}
			if got := hlogCount(t, filepath.Join(o.Dir, result.HlogFile("closed/test-ok", n))); got != tr.Load.Responses {
				t.Errorf("trial %d: the .hlog holds %d latencies, the trial %d responses", n, got, tr.Load.Responses)
			}
			// The idle cost is measured once a run, in its first trial.
			if n == 1 && (tr.Monitor.IdleCPU == nil || *tr.Monitor.IdleCPU < 0 || tr.Monitor.IdleMS != int(IdleWindow/time.Millisecond)) {
				t.Errorf("trial %d: idle cpu %v over %d ms", n, tr.Monitor.IdleCPU, tr.Monitor.IdleMS)
			}
			if n > 1 && tr.Monitor.IdleCPU != nil {
				t.Errorf("trial %d: idle cpu %v measured again; the first trial's is the run's", n, *tr.Monitor.IdleCPU)
			}
		}
	})
	t.Run("crash under load", func(t *testing.T) {
		tr := readTrial(t, o.Dir, "crash/test-crash40", 1)
		if tr.Status != result.StatusFailed || !strings.Contains(tr.Error, "exited during the load") ||
			!strings.Contains(tr.StderrTail, "crashing after 40 requests") {
			t.Errorf("status %q error %q stderr %q", tr.Status, tr.Error, tr.StderrTail)
		}
		// The load stopped when the server died, not 5 s later.
		if d := tr.Finished.Sub(tr.Started); d > 4*time.Second {
			t.Errorf("the crashed trial took %s: the load was not cut short", d)
		}
	})
	t.Run("never ready", func(t *testing.T) {
		tr := readTrial(t, o.Dir, "exit/test-exit", 1)
		if tr.Status != result.StatusFailed || !strings.Contains(tr.StderrTail, "cannot start") {
			t.Errorf("status %q error %q stderr %q", tr.Status, tr.Error, tr.StderrTail)
		}
		// The error's first line, and a pointer to the rest.
		if want := "start test-exit: test-exit exited before it was ready (exit status 1); stderr:; see stderr_tail"; tr.Error != want {
			t.Errorf("error %q, want %q", tr.Error, want)
		}
	})
	t.Run("process tree", func(t *testing.T) {
		tr := readTrial(t, o.Dir, "tree/test-tree", 1)
		procs := 0
		for _, s := range tr.Monitor.Samples {
			procs = max(procs, s.Procs)
		}
		// sh (quota-less wrap is only taskset, which execs) is gone: the
		// server and its worker remain.
		if procs != 2 {
			t.Errorf("monitor saw at most %d processes in the server's tree, want 2", procs)
		}
		si := readInfo(t, filepath.Join(dir, "test-tree.info"))
		for _, pid := range []int{si.pid, si.child} {
			if !waitGone(pid) {
				t.Errorf("process %d of the server's tree outlived the run", pid)
			}
		}
	})
	t.Run("disjoint pinning", func(t *testing.T) {
		if runtime.NumCPU() < 2 {
			t.Skip("one CPU: server and generator share it (flag unpinned)")
		}
		tr := readTrial(t, o.Dir, "closed/test-ok", 2)
		si := readInfo(t, filepath.Join(dir, "test-ok.info"))
		if si.server != tr.Placement.ServerCPUs || !tr.Placement.Pinned {
			t.Errorf("server runs on %q, placement says %+v", si.server, tr.Placement)
		}
		for _, c := range si.client {
			if c != tr.Placement.ClientCPUs || c == si.server {
				t.Errorf("a restbench thread runs on %q; server on %q, placement %+v", c, si.server, tr.Placement)
			}
		}
	})
	t.Run("rate from capacity", func(t *testing.T) {
		a1, a2 := readTrial(t, o.Dir, "closed/test-ok", 1), readTrial(t, o.Dir, "closed/test-ok", 2)
		tr := readTrial(t, o.Dir, "rate/test-ok", 1)
		want := 0.5 * (a1.Load.RPS + a2.Load.RPS) / 2
		if tr.Load == nil || math.Abs(tr.Load.Settings.Rate-want) > 1e-6*want {
			t.Errorf("rate = %v, want half the median capacity %v", tr.Load.Settings.Rate, want)
		}
	})

	t.Run("resume", func(t *testing.T) {
		before := readTrial(t, o.Dir, "closed/test-ok", 1)
		// A write cut short (a full disk before atomic writes, a copy):
		// the trial is measured again, and the log says so.
		truncated := filepath.Join(o.Dir, result.TrialFile("closed/test-ok", 2))
		if err := os.Truncate(truncated, 100); err != nil {
			t.Fatal(err)
		}
		var log strings.Builder
		o2, err := Run(context.Background(), s, Options{Manifest: m, Out: out, Resume: true, Log: &log, ReadyTimeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		// 3 ok trials are kept; the truncated one and the 2 failed ones
		// are measured again.
		if o2.Dir != o.Dir || o2.Skipped != 3 || o2.Failed != 2 || o2.OK != 1 {
			t.Errorf("resume: %+v, want the same folder, 3 skipped, 1 ok, 2 failed again", o2)
		}
		if want := "resume: closed/test-ok trial 2: " + truncated + " is truncated or unreadable"; !strings.Contains(log.String(), want) {
			t.Errorf("log:\n%s\nwant %q", log.String(), want)
		}
		if after := readTrial(t, o.Dir, "closed/test-ok", 1); !after.Finished.Equal(before.Finished) {
			t.Errorf("a finished trial was measured again")
		}
	})
}

func waitGone(pid int) bool {
	for i := 0; i < 40 && !gone(pid); i++ {
		time.Sleep(50 * time.Millisecond)
	}
	return gone(pid)
}

// TestInterrupt cancels the context (Ctrl-C) during the second run: the
// first run's trial is kept, the second is not written at all, and its
// server is gone.
func TestInterrupt(t *testing.T) {
	dir := t.TempDir()
	m := testManifest(t, dir)
	s := testSuite(
		testRun("first/test-ok", "test-ok", 1, 300*time.Millisecond),
		testRun("second/test-tree", "test-tree", 1, 20*time.Second),
	)
	out := filepath.Join(dir, "results")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	info := filepath.Join(dir, "test-tree.info")
	go func() {
		// Cancel once the second server is up and under load.
		for i := 0; i < 400; i++ {
			if _, err := os.Stat(info); err == nil {
				time.Sleep(700 * time.Millisecond)
				break
			}
			time.Sleep(25 * time.Millisecond)
		}
		cancel()
	}()
	start := time.Now()
	o, err := Run(ctx, s, Options{Manifest: m, Out: out, ReadyTimeout: 10 * time.Second})
	if err != context.Canceled {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("Run took %s after the cancel: it did not stop", d)
	}
	if tr := readTrial(t, o.Dir, "first/test-ok", 1); tr.Status != result.StatusOK {
		t.Errorf("first trial: %s", tr.Status)
	}
	entries, _ := os.ReadDir(o.Dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "second") || strings.HasPrefix(e.Name(), ".") {
			t.Errorf("%s was written although its trial was interrupted", e.Name())
		}
	}
	si := readInfo(t, info)
	for _, pid := range []int{si.pid, si.child} {
		if !waitGone(pid) {
			t.Errorf("process %d outlived the interrupted run", pid)
		}
	}
}

// TestPrewarmUnderWrk: a prewarm counted in requests runs on restbench's
// own generator whatever engine measures the run (wrk has no -n), and the
// trial records what it got.
func TestPrewarmUnderWrk(t *testing.T) {
	if why := engine.Missing(engine.NameWrk); why != "" {
		t.Skip("not run: " + why)
	}
	run := testRun("prewarm/test-ok", "test-ok", 1, time.Second)
	run.Engine, run.Prewarm, run.PrewarmRequests = engine.NameWrk, 5*time.Second, 500
	tr := oneTrial(t, t.TempDir(), run, Options{})
	if tr.Status != result.StatusOK {
		t.Fatalf("status %s: %s", tr.Status, tr.Error)
	}
	if tr.PrewarmRequests != 500 || tr.PrewarmS <= 0 || tr.PrewarmS >= 5 {
		t.Errorf("prewarm got %d responses in %g s, want 500 before its 5 s cap", tr.PrewarmRequests, tr.PrewarmS)
	}
	if tr.Load == nil || tr.Load.Settings.Engine != engine.NameWrk || tr.Load.Responses == 0 {
		t.Errorf("load %+v, want wrk's", tr.Load)
	}
}

// TestQuotaRun runs a server under a CPU quota: the trial records the
// mechanism, or, where no cgroup is writable, the quota-not-applied flag.
func TestQuotaRun(t *testing.T) {
	run := testRun("quota/test-ok", "test-ok", 1, 300*time.Millisecond)
	run.Quota = 0.5
	tr := oneTrial(t, t.TempDir(), run, Options{})
	if tr.Status != result.StatusOK {
		t.Fatalf("status %s: %s", tr.Status, tr.Error)
	}
	switch {
	case tr.Placement.QuotaApplied:
		if tr.Placement.QuotaMechanism == "" || tr.Placement.Quota != 0.5 {
			t.Errorf("placement %+v", tr.Placement)
		}
		// Only this process's groups (cpu.Quota names them restbench-PID-…):
		// a restbench run elsewhere on the machine has groups of its own.
		mine := fmt.Sprintf("restbench-%d-*", os.Getpid())
		matches, _ := filepath.Glob("/sys/fs/cgroup/cpu/" + mine)
		matches2, _ := filepath.Glob("/sys/fs/cgroup/unified/" + mine)
		if len(matches)+len(matches2) > 0 {
			t.Errorf("cgroups left behind: %v %v", matches, matches2)
		}
	case !strings.Contains(strings.Join(tr.Flags, " "), result.FlagQuotaNotApplied):
		t.Errorf("quota neither applied nor flagged: %+v %v", tr.Placement, tr.Flags)
	}
}

// TestServerCPU: run --server-cpu puts a server without a quota of its own
// under one (the stand-in for a slower machine), recorded apart from the
// suite's quota; where no cgroup is writable the trial fails and says why
// rather than measuring at full speed.
func TestServerCPU(t *testing.T) {
	tr := oneTrial(t, t.TempDir(), testRun("slow/test-ok", "test-ok", 1, 300*time.Millisecond), Options{ServerCPU: 0.5})
	switch {
	case tr.Status == result.StatusOK:
		if p := tr.Placement; p.ServerCPU != 0.5 || p.QuotaMechanism == "" || p.QuotaApplied || p.Quota != 0 {
			t.Errorf("placement %+v, want server_cpu 0.5 under a cgroup and no suite quota", p)
		}
	case !strings.Contains(tr.Error, "--server-cpu"):
		t.Errorf("status %s: %s; want ok, or a failure naming --server-cpu", tr.Status, tr.Error)
	}
}

// TestServerCPUNarrowed: under --server-cpu 0.5 an unpinned server on two
// CPUs is held to 0.5 × the threads it reports, not 0.5 × its two CPUs (a
// one-thread server would run at full speed under a 1-CPU group quota).
func TestServerCPUNarrowed(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("needs 2 CPUs: an unpinned server on one CPU is never narrowed")
	}
	for _, tc := range []struct {
		gomaxprocs string
		want       float64 // placement.server_cpu_quota; 0: not narrowed
	}{
		{"1", 0.5},
		{"2", 0},
	} {
		t.Run("GOMAXPROCS="+tc.gomaxprocs, func(t *testing.T) {
			tr, _ := slowTrial(t, func(r *suite.Run) {
				r.Pinned = false
				r.Env["GOMAXPROCS"] = tc.gomaxprocs
			})
			if got := tr.Placement.ServerCPUQuota; got != tc.want {
				t.Errorf("server_cpu_quota %g, want %g (server reported %+v on CPUs %s)", got, tc.want, tr.Server, tr.Placement.ServerCPUs)
			}
		})
	}
}

// TestServerCPUSlowsSharedGenerator: under --server-cpu 0.5 a generator
// that shares the server's CPUs (placement shared) runs at half speed too,
// restbench itself in a quota of 0.5 × the CPUs it can use beside the
// server's in a group of 0.5 × the machine, and is back in
// its own cgroup once the trial is over; a pinned generator keeps its core
// at full speed.
func TestServerCPUSlowsSharedGenerator(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("needs 2 CPUs: on one CPU every run shares it")
	}
	home, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		pinned bool
		want   float64 // placement.client_cpu_quota
	}{
		{false, 0.5 * float64(len(mustUsable(t)))},
		{true, 0},
	} {
		t.Run(fmt.Sprintf("pinned=%v", tc.pinned), func(t *testing.T) {
			tr, dir := slowTrial(t, func(r *suite.Run) { r.Pinned = tc.pinned })
			if got := tr.Placement.ClientCPUQuota; got != tc.want {
				t.Errorf("client_cpu_quota %g, want %g (client CPUs %s)", got, tc.want, tr.Placement.ClientCPUs)
			}
			// Shared, the server's group sits in the machine's, which the
			// generator's joined: the two compete for F of the machine.
			cgroups := readInfo(t, filepath.Join(dir, "test-ok.info")).cgroups
			inMachine := false
			for _, cg := range cgroups {
				inMachine = inMachine || strings.Contains(cg, "-machine/inner-server")
			}
			if inMachine == tc.pinned {
				t.Errorf("the server ran in %q: in the machine's group %v, want %v", cgroups, inMachine, !tc.pinned)
			}
			if now, _ := os.ReadFile("/proc/self/cgroup"); string(now) != string(home) {
				t.Errorf("after the trial restbench is in\n%s\nwant where it was:\n%s", now, home)
			}
			mine := fmt.Sprintf("restbench-%d-*", os.Getpid())
			if left, _ := filepath.Glob("/sys/fs/cgroup/cpu/" + mine); len(left) > 0 {
				t.Errorf("cgroups left behind: %v", left)
			}
		})
	}
}

// TestServerCPUNestsQuota: a suite's quota under --server-cpu runs in a
// group nested in the slower machine's (cpu.Quota.Nest), so that the
// server is both slower throughout and stopped when docker's quota is
// spent; the trial records the quota as applied.
func TestServerCPUNestsQuota(t *testing.T) {
	tr, dir := slowTrial(t, func(r *suite.Run) { r.Quota = 0.5 })
	if p := tr.Placement; !p.QuotaApplied || p.Quota != 0.5 || p.ServerCPU != 0.5 {
		t.Errorf("placement %+v, want the quota 0.5 applied under server_cpu 0.5", p)
	}
	si := readInfo(t, filepath.Join(dir, "test-ok.info"))
	nested := false
	for _, cg := range si.cgroups {
		nested = nested || strings.Contains(cg, "/restbench-") && strings.HasSuffix(cg, "/inner-docker")
	}
	if !nested {
		t.Errorf("the server ran in %q, want a restbench quota's inner-docker group", si.cgroups)
	}
}

// slowTrial runs one trial of the test server under run --server-cpu 0.5,
// with change made to its run, and returns it with the folder the server
// wrote its info in; it skips where no cgroup can hold the server.
func slowTrial(t *testing.T, change func(*suite.Run)) (*result.Trial, string) {
	t.Helper()
	dir := t.TempDir()
	run := testRun("slow/test-ok", "test-ok", 1, 300*time.Millisecond)
	change(&run)
	tr := oneTrial(t, dir, run, Options{ServerCPU: 0.5})
	if tr.Status != result.StatusOK {
		if !strings.Contains(tr.Error, "--server-cpu") {
			t.Fatalf("status %s: %s; want ok, or a failure naming --server-cpu", tr.Status, tr.Error)
		}
		t.Skip(tr.Error)
	}
	return tr, dir
}

// oneTrial runs run alone with opt, its manifest and results under dir, and
// returns its first trial as written.
func oneTrial(t *testing.T, dir string, run suite.Run, opt Options) *result.Trial {
	t.Helper()
	opt.Manifest, opt.Out = testManifest(t, dir), filepath.Join(dir, "r")
	o, err := Run(context.Background(), testSuite(run), opt)
	if err != nil {
		t.Fatal(err)
	}
	return readTrial(t, o.Dir, run.ID, 1)
}

func TestUnknownImplementation(t *testing.T) {
	dir := t.TempDir()
	_, err := Run(context.Background(), testSuite(testRun("x/nope", "go-nope", 1, time.Second)), Options{Manifest: testManifest(t, dir), Out: dir})
	if err == nil || !strings.Contains(err.Error(), "go-nope") || !strings.Contains(err.Error(), "test-ok") {
		t.Fatalf("err = %v, want the unknown id and the known ones", err)
	}
}

func TestMalformedSuite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.yaml")
	os.WriteFile(path, []byte("name: bad\nexperiments:\n  - name: x\n    impls: [test-ok]\n    connections: lots\n"), 0o644)
	_, err := suite.Load(path, suite.Options{Scale: "quick", Impls: []string{"test-ok"}})
	if err == nil || !strings.Contains(err.Error(), path+":") {
		t.Fatalf("err = %v, want file:line: field: problem", err)
	}
	t.Log(err)
}

func somaxconn(t *testing.T) int {
	b, err := os.ReadFile("/proc/sys/net/core/somaxconn")
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// hlogCount reads an interval log with HdrHistogram's own reader and counts
// the latencies in it.
func hlogCount(t *testing.T, path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := hdrhistogram.NewHistogramLogReader(f)
	var n int64
	for {
		h, err := r.NextIntervalHistogram()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if h == nil {
			return n
		}
		n += h.TotalCount()
	}
}

// deref prints a figure that may be absent.
func deref(p *float64) any {
	if p == nil {
		return "none"
	}
	return *p
}

func mustUsable(t *testing.T) []int {
	t.Helper()
	cpus, err := usableCPUs()
	if err != nil {
		t.Fatal(err)
	}
	return cpus
}
