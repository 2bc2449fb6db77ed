package cpu

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary serve as the child of the quota tests:
// RESTBENCH_QUOTA_CHILD=gomaxprocs prints runtime.GOMAXPROCS(0).
func TestMain(m *testing.M) {
	if os.Getenv("RESTBENCH_QUOTA_CHILD") == "gomaxprocs" {
		fmt.Println(runtime.GOMAXPROCS(0))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func newQuotaOrSkip(t *testing.T, cpus float64) *Quota {
	t.Helper()
	q, err := NewQuota(t.Name(), cpus, 0)
	if errors.Is(err, ErrNoQuota) {
		t.Skipf("no writable cgroup here (run the tests as root to cover quotas): %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Remove() })
	return q
}

// cpuSeconds is the user+system time of pid from /proc/<pid>/stat.
func cpuSeconds(t *testing.T, pid int) float64 {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (ut + st) / 100 // USER_HZ is 100 on Linux
}

// TestQuotaLimitsBusyChild runs a busy loop under a quota of half a CPU: it
// must be throttled, use at most about half a CPU, and leave the cgroup
// removable once it is gone.
func TestQuotaLimitsBusyChild(t *testing.T) {
	q := newQuotaOrSkip(t, 0.5)
	used, stat := busyChild(t, q)
	// Generous: the machine is shared, so the child may get less, but never
	// much more than its quota.
	if used > 0.65 {
		t.Errorf("busy child used %.2f CPUs under a 0.5 CPU quota (%s)", used, q.Mechanism)
	}
	// A machine too busy to give the child its half CPU in any period has
	// nothing to throttle; one that gave it nearly that must have.
	if !throttled(stat) {
		if used >= 0.45 {
			t.Errorf("cgroup never throttled the busy child, which used %.2f CPUs; cpu.stat:\n%s", used, stat)
		} else {
			t.Logf("the machine gave the child only %.2f CPUs in 60 s, below its quota: throttling not seen", used)
		}
	}
	t.Logf("%s: busy child used %.2f CPUs under quota 0.5", q.Mechanism, used)
	if err := q.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(q.Dir); !os.IsNotExist(err) {
		t.Errorf("%s still exists after Remove", q.Dir)
	}
}

// TestNest: a published quota of 0.25 CPU over docker's 100 ms nested in a
// slower machine's stand-in (1 CPU over 10 ms) holds a busy child to the
// inner quota, throttles it there, and Remove takes both groups away.
func TestNest(t *testing.T) {
	outer, err := NewQuota(t.Name(), 1, SlowPeriod)
	if errors.Is(err, ErrNoQuota) {
		t.Skipf("no writable cgroup here (run the tests as root to cover quotas): %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(outer.Dir) })
	in, err := outer.Nest("docker", 0.25, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(in.Dir) })
	if got := [2][2]string{written(t, outer), written(t, in)}; got != [2][2]string{{"10000", "10000"}, {"25000", "100000"}} {
		t.Errorf("outer, inner wrote %v", got)
	}
	used, stat := busyChild(t, in)
	if used > 0.35 {
		t.Errorf("busy child used %.2f CPUs under an inner quota of 0.25 (%s)", used, in.Mechanism)
	}
	if !throttled(stat) && used >= 0.2 {
		t.Errorf("the inner quota never throttled the busy child, which used %.2f CPUs; cpu.stat:\n%s", used, stat)
	}
	if err := in.Remove(); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{in.Dir, outer.Dir} {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("%s still exists after Remove", d)
		}
	}
}

// TestRemoveSharedOuter: two groups nested in one (a shared run's machine,
// holding the server's and restbench's): removing the first leaves the
// outer for the second, and removing the second takes the outer with it.
func TestRemoveSharedOuter(t *testing.T) {
	outer := newQuotaOrSkip(t, 1)
	a, err := outer.Nest("server", 1, SlowPeriod)
	if err != nil {
		t.Fatal(err)
	}
	b, err := outer.Nest("client", 0.5, SlowPeriod)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(outer.Dir); err != nil {
		t.Fatalf("the outer group went with the first of its two: %v", err)
	}
	if err := a.Remove(); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{a.Dir, b.Dir, outer.Dir} {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("%s still exists after both nested groups were removed", d)
		}
	}
}

// TestJoin moves a running process into a quota and back: the group holds
// it in between, it is back in its own cgroup after, and the group can then
// be removed (the runner does this with restbench itself, whose generator
// shares the server's cores in a shared run under --server-cpu).
func TestJoin(t *testing.T) {
	q := newQuotaOrSkip(t, 0.5)
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	pid := cmd.Process.Pid
	home, err := cgroupOf(pid, q.Mechanism)
	if err != nil {
		t.Fatal(err)
	}
	back, err := q.Join(pid)
	if err != nil {
		t.Fatal(err)
	}
	if pids, err := q.Procs(); err != nil || !slices.Equal(pids, []int{pid}) {
		t.Errorf("after Join the group holds %v (%v), want [%d]", pids, err, pid)
	}
	if in, _ := cgroupOf(pid, q.Mechanism); filepath.Join(q.root, in) != q.Dir {
		t.Errorf("after Join /proc/%d/cgroup names %s, want %s", pid, in, q.Dir)
	}
	if err := back(); err != nil {
		t.Fatal(err)
	}
	if now, _ := cgroupOf(pid, q.Mechanism); now != home {
		t.Errorf("after back the child is in %s, want %s where it was", now, home)
	}
	if err := q.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := q.Join(1 << 30); err == nil {
		t.Error("Join of a process that does not exist: no error")
	}
}

// busyChild runs a busy loop in q until it has used a CPU second and q has
// throttled it (60 s at most), and returns the CPUs it used and q's
// cpu.stat; the child is gone when it returns.
func busyChild(t *testing.T, q *Quota) (used float64, stat string) {
	t.Helper()
	argv := append(q.Wrap(), "sh", "-c", "while :; do :; done")
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	// The wrapper joins the cgroup and execs sh: wait for that.
	var pids []int
	var err error
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		pids, err = q.Procs()
		if err == nil && len(pids) == 1 && pids[0] == cmd.Process.Pid || time.Now().After(deadline) {
			break
		}
	}
	if err != nil || len(pids) != 1 || pids[0] != cmd.Process.Pid {
		t.Fatalf("cgroup holds %v (%v), want the child %d", pids, err, cmd.Process.Pid)
	}
	// Measure over a CPU second of the child's and until the cgroup has
	// throttled it, however long a shared machine takes to give it that:
	// under the quota it is at least 2 s.
	start, c0 := time.Now(), cpuSeconds(t, cmd.Process.Pid)
	var b []byte
	for deadline := start.Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		b, _ = os.ReadFile(filepath.Join(q.Dir, "cpu.stat"))
		if cpuSeconds(t, cmd.Process.Pid)-c0 >= 1 && throttled(string(b)) || time.Now().After(deadline) {
			break
		}
	}
	used = (cpuSeconds(t, cmd.Process.Pid) - c0) / time.Since(start).Seconds()
	cmd.Process.Kill()
	cmd.Wait()
	return used, string(b)
}

func throttled(stat string) bool {
	for _, line := range strings.Split(stat, "\n") {
		if f := strings.Fields(line); len(f) == 2 && (f[0] == "nr_throttled") {
			n, _ := strconv.Atoi(f[1])
			return n > 0
		}
	}
	return false
}

// TestQuotaGOMAXPROCS checks what Go (>= 1.25) makes of a quota, which the
// dotchev-echo suite's "GOMAXPROCS unset" run relies on. The runtime takes
// min(CPUs, max(2, ceil(quota))) (runtime/cgroup_linux.go: "A limit less
// than 2 is rounded up to 2"), so under `docker --cpus=1` a Go server still
// runs 2 Ps: on a 2-core machine it cannot be told from the core count, on a
// bigger one quota 1 gives 2.
func TestQuotaGOMAXPROCS(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"RESTBENCH_QUOTA_CHILD=gomaxprocs"}
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "GOMAXPROCS=") {
			env = append(env, e)
		}
	}
	run := func(wrap []string) int {
		argv := append(wrap, self)
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: %v", argv, err)
		}
		n, err := strconv.Atoi(strings.TrimSpace(string(out)))
		if err != nil {
			t.Fatalf("child printed %q", out)
		}
		return n
	}
	all := FormatList(allCPUs(runtime.NumCPU()))
	free := run([]string{"taskset", "-c", all})
	q := newQuotaOrSkip(t, 1)
	limited := run(append(q.Wrap(), "taskset", "-c", all))
	want := min(runtime.NumCPU(), 2)
	t.Logf("GOMAXPROCS: %d without quota, %d under quota 1 (%s, %s)", free, limited, q.Mechanism, runtime.Version())
	if free != runtime.NumCPU() || limited != want {
		t.Errorf("GOMAXPROCS = %d without quota and %d under quota 1; want %d and %d", free, limited, runtime.NumCPU(), want)
	}
}

func allCPUs(n int) []int {
	c := make([]int, n)
	for i := range c {
		c[i] = i
	}
	return c
}

// TestQuotaUnavailable points the detection at plain folders: the error
// must say how to get a writable cgroup.
func TestQuotaUnavailable(t *testing.T) {
	dir := t.TempDir()
	v2, v1 := cgroupV2Roots, cgroupV1CPU
	cgroupV2Roots, cgroupV1CPU = []string{dir}, []string{filepath.Join(dir, "cpu")}
	defer func() { cgroupV2Roots, cgroupV1CPU = v2, v1 }()
	_, err := NewQuota("x", 1, 0)
	if !errors.Is(err, ErrNoQuota) || !strings.Contains(err.Error(), "root") || !strings.Contains(err.Error(), "delegate") {
		t.Fatalf("err = %v, want ErrNoQuota with a hint (root / delegate)", err)
	}
	if _, err := NewQuota("x", 0, 0); err == nil {
		t.Fatal("a quota of 0 CPUs was accepted")
	}
}

// TestQuotaPeriod: a published quota uses docker's 100 ms period; the
// stand-in for a slower machine (run --server-cpu) a 10 ms one, the same
// share of each.
func TestQuotaPeriod(t *testing.T) {
	for _, c := range []struct {
		cpus           float64
		period         time.Duration
		quota, periodU string
	}{
		{0.5, 0, "50000", "100000"},
		{0.5, SlowPeriod, "5000", "10000"},
		{1.5, SlowPeriod, "15000", "10000"},
	} {
		q, err := NewQuota(t.Name(), c.cpus, c.period)
		if errors.Is(err, ErrNoQuota) {
			t.Skipf("no writable cgroup here (run the tests as root to cover quotas): %v", err)
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := written(t, q); got != [2]string{c.quota, c.periodU} {
			t.Errorf("quota %g, period %v: wrote %v, want [%s %s]", c.cpus, c.period, got, c.quota, c.periodU)
		}
		if want := cmp.Or(c.period, DockerPeriod); q.Period != want {
			t.Errorf("Period = %v, want %v", q.Period, want)
		}
		// SetCPUs halves it in place, over the same period.
		if err := q.SetCPUs(c.cpus / 2); err != nil {
			t.Fatal(err)
		}
		half, _ := strconv.Atoi(c.quota)
		if got, want := written(t, q), [2]string{strconv.Itoa(half / 2), c.periodU}; got != want || q.CPUs != c.cpus/2 {
			t.Errorf("SetCPUs(%g): wrote %v, CPUs %g; want %v, %g", c.cpus/2, got, q.CPUs, want, c.cpus/2)
		}
		if err := q.Remove(); err != nil {
			t.Fatal(err)
		}
	}
}

// written is the quota and the period in q's cgroup files.
func written(t *testing.T, q *Quota) [2]string {
	t.Helper()
	var got [2]string
	if q.Mechanism == MechanismV2 {
		b, err := os.ReadFile(filepath.Join(q.Dir, "cpu.max"))
		if err != nil {
			t.Fatal(err)
		}
		copy(got[:], strings.Fields(string(b)))
		return got
	}
	for i, f := range []string{"cpu.cfs_quota_us", "cpu.cfs_period_us"} {
		b, err := os.ReadFile(filepath.Join(q.Dir, f))
		if err != nil {
			t.Fatal(err)
		}
		got[i] = strings.TrimSpace(string(b))
	}
	return got
}
