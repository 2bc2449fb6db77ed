package cpu

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// Quota mechanisms, as recorded in result.Placement.QuotaMechanism.
const (
	MechanismV2 = "cgroup2 cpu.max"
	MechanismV1 = "cgroup1 cpu.cfs_quota_us"
)

// DockerPeriod is the CFS period docker uses: --cpus=1.5 is a quota of
// 150,000 µs every 100,000 µs. A published quota is run with it.
const DockerPeriod = 100 * time.Millisecond

// SlowPeriod is the period of a quota that stands in for a slower machine
// (run --server-cpu): over 10 ms a server at half its CPU time runs 5 ms and
// waits 5, so it is slower throughout instead of stopping for 50 ms in
// every 100 as it would under docker's period.
const SlowPeriod = 10 * time.Millisecond

// Quota is a cgroup that limits the processes in it to CPUs worth of CPU
// time, what `docker --cpus` does. Create it, start the server with Wrap in
// front of its command, and Remove it once the server has stopped.
type Quota struct {
	CPUs      float64
	Period    time.Duration
	Mechanism string // MechanismV2 or MechanismV1
	Dir       string // the cgroup's folder
	// Outer is the quota this one is nested in (Nest), nil for a top one.
	// Remove removes it too.
	Outer *Quota
	root  string // the hierarchy's mount, where Join finds a process's cgroup
}

// Roots of the cgroup hierarchies; variables so that tests can look elsewhere.
var (
	cgroupV2Roots = []string{"/sys/fs/cgroup", "/sys/fs/cgroup/unified"}
	cgroupV1CPU   = []string{"/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"}
	quotaSeq      atomic.Int64
)

// ErrNoQuota is wrapped by NewQuota's error when no cgroup could be written.
var ErrNoQuota = errors.New("no writable cgroup with the cpu controller")

// NewQuota creates a cgroup limited to cpus CPUs' time in every period
// (DockerPeriod when period is 0). It tries cgroup v2 (a
// hierarchy where the cpu controller is enabled, so that cpu.max exists),
// then cgroup v1 (cpu.cfs_quota_us). The error, when neither works, says how
// to make one writable.
func NewQuota(name string, cpus float64, period time.Duration) (*Quota, error) {
	quota, periodUS, err := limit(cpus, period)
	if err != nil {
		return nil, err
	}
	// The pid in the name lets a later run tell a killed run's leftover
	// from a live run's cgroup (SweepQuotas).
	leaf := fmt.Sprintf("%s%d-%d-%s", quotaPrefix, os.Getpid(), quotaSeq.Add(1), safeName(name))
	var tried []string
	for _, root := range cgroupV2Roots {
		q, err := newV2(root, leaf, cpus, quota, periodUS)
		if err == nil {
			return q, nil
		}
		tried = append(tried, err.Error())
	}
	for _, root := range cgroupV1CPU {
		q, err := newV1(root, leaf, cpus, quota, periodUS)
		if err == nil {
			return q, nil
		}
		tried = append(tried, err.Error())
	}
	return nil, fmt.Errorf("cpu quota %g: %w (%s); run restbench as root, or delegate a cgroup with the cpu controller to this user (systemd-run --user --scope -p Delegate=yes restbench run ...)",
		cpus, ErrNoQuota, strings.Join(tried, "; "))
}

// limit is cpus CPUs' time every period (DockerPeriod when 0) in the
// microseconds a cgroup's files take.
func limit(cpus float64, period time.Duration) (quota, periodUS int64, err error) {
	if cpus <= 0 {
		return 0, 0, fmt.Errorf("quota %v: use a positive number of CPUs, e.g. 1 or 0.5", cpus)
	}
	if period == 0 {
		period = DockerPeriod
	}
	periodUS = period.Microseconds()
	return int64(cpus*float64(periodUS) + 0.5), periodUS, nil
}

// newV2 makes the cgroup below the v2 cgroup this process is in (or below
// the root), which works both on a host and inside a delegated container.
func newV2(root, leaf string, cpus float64, quota, periodUS int64) (*Quota, error) {
	if !isCgroup2(root) {
		return nil, fmt.Errorf("%s: not a cgroup2 mount", root)
	}
	parent := root
	if own := ownCgroupV2(); own != "" && own != "/" {
		parent = filepath.Join(root, own)
	}
	ctrl, err := os.ReadFile(filepath.Join(parent, "cgroup.subtree_control"))
	if err != nil || !hasWord(string(ctrl), "cpu") {
		// Enabling it can fail (processes in the parent, or no permission);
		// the check after mkdir is what decides.
		os.WriteFile(filepath.Join(parent, "cgroup.subtree_control"), []byte("+cpu"), 0)
	}
	q, err := makeV2(parent, leaf, cpus, quota, periodUS)
	if err != nil {
		return nil, err
	}
	q.root = root
	return q, nil
}

// makeV2 makes cgroup parent/leaf with cpu.max quota every periodUS; the cpu
// controller must be enabled in parent.
func makeV2(parent, leaf string, cpus float64, quota, periodUS int64) (*Quota, error) {
	dir := filepath.Join(parent, leaf)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	max := filepath.Join(dir, "cpu.max")
	if _, err := os.Stat(max); err != nil {
		os.Remove(dir)
		return nil, fmt.Errorf("%s: the cpu controller is not enabled in %s", dir, parent)
	}
	if err := os.WriteFile(max, fmt.Appendf(nil, "%d %d", quota, periodUS), 0); err != nil {
		os.Remove(dir)
		return nil, fmt.Errorf("%s: %w", max, err)
	}
	return &Quota{CPUs: cpus, Period: time.Duration(periodUS) * time.Microsecond, Mechanism: MechanismV2, Dir: dir}, nil
}

func newV1(root, leaf string, cpus float64, quota, periodUS int64) (*Quota, error) {
	if _, err := os.Stat(filepath.Join(root, "cpu.cfs_quota_us")); err != nil {
		return nil, fmt.Errorf("%s: no cgroup v1 cpu controller", root)
	}
	q, err := makeV1(root, leaf, cpus, quota, periodUS)
	if err != nil {
		return nil, err
	}
	q.root = root
	return q, nil
}

// makeV1 makes cgroup parent/leaf in the v1 cpu hierarchy.
func makeV1(parent, leaf string, cpus float64, quota, periodUS int64) (*Quota, error) {
	dir := filepath.Join(parent, leaf)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	for _, w := range []struct {
		file string
		v    int64
	}{{"cpu.cfs_period_us", periodUS}, {"cpu.cfs_quota_us", quota}} {
		if err := os.WriteFile(filepath.Join(dir, w.file), []byte(strconv.FormatInt(w.v, 10)), 0); err != nil {
			os.Remove(dir)
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, w.file), err)
		}
	}
	return &Quota{CPUs: cpus, Period: time.Duration(periodUS) * time.Microsecond, Mechanism: MechanismV1, Dir: dir}, nil
}

// Nest makes a cgroup inside q limited to cpus CPUs' time every period
// (DockerPeriod when 0), for a server held by both: a published quota
// (docker --cpus over its 100 ms period) on the stand-in for a slower
// machine (q: F of the CPUs over SlowPeriod). The server runs at F of its
// speed throughout and stops when the published quota is spent, as docker
// would stop it on a machine F as fast; a single cgroup of F × the quota
// over 10 ms would never stop it for the rest of a period. Start the server
// with the inner quota's Wrap; its Remove removes both.
func (q *Quota) Nest(name string, cpus float64, period time.Duration) (*Quota, error) {
	quota, periodUS, err := limit(cpus, period)
	if err != nil {
		return nil, err
	}
	leaf := "inner-" + safeName(name)
	var in *Quota
	if q.Mechanism == MechanismV2 {
		// The outer group holds no process, so its children may take the
		// cpu controller.
		if werr := os.WriteFile(filepath.Join(q.Dir, "cgroup.subtree_control"), []byte("+cpu"), 0); werr != nil {
			return nil, fmt.Errorf("nest a quota in %s: %w", q.Dir, werr)
		}
		in, err = makeV2(q.Dir, leaf, cpus, quota, periodUS)
	} else {
		in, err = makeV1(q.Dir, leaf, cpus, quota, periodUS)
	}
	if err != nil {
		return nil, fmt.Errorf("nest a quota in %s: %w", q.Dir, err)
	}
	in.Outer, in.root = q, q.root
	return in, nil
}

// Wrap is the command prefix that moves the server into the cgroup before it
// execs, so that the server and every process it forks are limited from
// their first instruction: sh writes its own pid ($$) into cgroup.procs and
// then execs the rest of the command line in place.
func (q *Quota) Wrap() []string {
	return []string{"sh", "-c", `echo $$ > "$0" && exec "$@"`, filepath.Join(q.Dir, "cgroup.procs")}
}

// Join moves process pid, every thread of it, into q, and returns what
// moves it back to the cgroup it was in; call that before Remove, which the
// kernel refuses while pid is still inside. The runner moves restbench
// itself (its built-in generator, and the ab or wrk it forks) into a
// slower machine's stand-in for a run whose generator shares the server's
// CPUs.
func (q *Quota) Join(pid int) (back func() error, err error) {
	from, err := cgroupOf(pid, q.Mechanism)
	if err != nil {
		return nil, err
	}
	home := filepath.Join(q.root, from)
	if err := movePid(q.Dir, pid); err != nil {
		return nil, err
	}
	return func() error { return movePid(home, pid) }, nil
}

func movePid(dir string, pid int) error {
	if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), strconv.AppendInt(nil, int64(pid), 10), 0); err != nil {
		return fmt.Errorf("move process %d into cgroup %s: %w", pid, dir, err)
	}
	return nil
}

// cgroupOf is pid's cgroup in the hierarchy of mechanism, a path below the
// hierarchy's mount: the "0::" line of /proc/PID/cgroup in v2, in v1 the line
// whose controllers include cpu ("4:cpu,cpuacct:/user.slice").
func cgroupOf(pid int, mechanism string) (string, error) {
	file := fmt.Sprintf("/proc/%d/cgroup", pid)
	data, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		if mechanism == MechanismV2 && f[0] == "0" && f[1] == "" || mechanism == MechanismV1 && slices.Contains(strings.Split(f[1], ","), "cpu") {
			return f[2], nil
		}
	}
	return "", fmt.Errorf("%s names no cgroup of the %s hierarchy", file, mechanism)
}

// Remove deletes the cgroup, and the group it is nested in once no other
// group nested there is left (a shared run's machine holds the server's
// group and restbench's: the last one removed takes it). The kernel refuses
// while a process is still in it, so it retries for a moment: the server's
// group has just been killed and its last processes may still be exiting.
func (q *Quota) Remove() error {
	var err error
	for i := 0; i < 40; i++ {
		if err = os.Remove(q.Dir); err == nil || os.IsNotExist(err) {
			if q.Outer == nil || holdsGroups(q.Outer.Dir) {
				return nil
			}
			return q.Outer.Remove()
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("remove cgroup %s: %w (a process is still in it: see %s/cgroup.procs)", q.Dir, err, q.Dir)
}

// holdsGroups says whether cgroup dir has a cgroup nested in it.
func holdsGroups(dir string) bool {
	subs, _ := os.ReadDir(dir)
	return slices.ContainsFunc(subs, os.DirEntry.IsDir)
}

// SetCPUs changes the quota of a live cgroup to cpus CPUs' time per period:
// the processes in it are held to the new figure from the next period on.
func (q *Quota) SetCPUs(cpus float64) error {
	quota, periodUS, err := limit(cpus, q.Period)
	if err != nil {
		return err
	}
	file, v := filepath.Join(q.Dir, "cpu.max"), fmt.Appendf(nil, "%d %d", quota, periodUS)
	if q.Mechanism == MechanismV1 {
		file, v = filepath.Join(q.Dir, "cpu.cfs_quota_us"), strconv.AppendInt(nil, quota, 10)
	}
	if err := os.WriteFile(file, v, 0); err != nil {
		return fmt.Errorf("set cpu quota %g: %w", cpus, err)
	}
	q.CPUs = cpus
	return nil
}

// Procs returns the pids in the cgroup.
func (q *Quota) Procs() ([]int, error) {
	f, err := os.Open(filepath.Join(q.Dir, "cgroup.procs"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var pids []int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if pid, err := strconv.Atoi(strings.TrimSpace(sc.Text())); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids, sc.Err()
}

// ownCgroupV2 is this process's path in the v2 hierarchy ("0::/path").
func ownCgroupV2() string {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			return p
		}
	}
	return ""
}

func isCgroup2(path string) bool {
	var st unix.Statfs_t
	return unix.Statfs(path, &st) == nil && st.Type == unix.CGROUP2_SUPER_MAGIC
}

func hasWord(s, w string) bool {
	for _, f := range strings.Fields(s) {
		if f == w {
			return true
		}
	}
	return false
}

func safeName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '_'
	}, s)
	if len(s) > 40 {
		s = s[:40]
	}
	return s
}
