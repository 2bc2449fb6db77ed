package cpu

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Alive says whether process pid still exists. A pid the kernel has given
// to another process since reads as alive: a leftover is then kept, never
// a live run's removed.
func Alive(pid int) bool {
	err := unix.Kill(pid, 0)
	return err == nil || err == unix.EPERM
}

// OwnerPID reads the pid that name carries after prefix ("restbench-" for
// "restbench-4242-1-run"), or 0 when there is none.
func OwnerPID(name, prefix string) int {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return 0
	}
	digits, _, _ := strings.Cut(rest, "-")
	pid, err := strconv.Atoi(digits)
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// quotaPrefix begins every quota cgroup's name, the creator's pid after it
// (NewQuota).
const quotaPrefix = "restbench-"

// SweepQuotas removes the quota cgroups that a restbench killed before it
// could remove them left behind: those whose creator is no longer running
// and that hold no process (the kernel refuses to remove one that does).
// It returns the cgroups it removed and those it could not, for a warning.
func SweepQuotas() (removed, kept []string) {
	var parents []string
	for _, root := range cgroupV2Roots {
		if !isCgroup2(root) {
			continue
		}
		parent := root
		if own := ownCgroupV2(); own != "" && own != "/" {
			parent = filepath.Join(root, own)
		}
		parents = append(parents, parent)
	}
	parents = append(parents, cgroupV1CPU...)
	for _, parent := range parents {
		entries, err := os.ReadDir(parent)
		if err != nil {
			continue
		}
		for _, e := range entries {
			pid := OwnerPID(e.Name(), quotaPrefix)
			if !e.IsDir() || pid == 0 || Alive(pid) {
				continue
			}
			dir := filepath.Join(parent, e.Name())
			if err := removeGroup(dir); err != nil {
				kept = append(kept, dir+": "+err.Error())
			} else {
				removed = append(removed, dir)
			}
		}
	}
	return removed, kept
}

// removeGroup removes cgroup dir and the groups nested in it, innermost
// first (a cgroup with a child cannot be removed): a shared run's machine
// group holds the server's, which may hold a suite's quota (Quota.Nest).
func removeGroup(dir string) error {
	if subs, err := os.ReadDir(dir); err == nil {
		for _, s := range subs {
			if s.IsDir() {
				removeGroup(filepath.Join(dir, s.Name()))
			}
		}
	}
	return os.Remove(dir)
}
