// Package cpu places restbench's processes on CPUs: CPU lists in the
// "0,2-3" form of taskset and cpusets, and pinning of the current process.
package cpu

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// ParseList parses a CPU list such as "0,2-3" into sorted, distinct CPU
// numbers ([0 2 3]).
func ParseList(s string) ([]int, error) {
	seen := map[int]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return nil, fmt.Errorf("cpu list %q: %q is not a CPU number (use a list like 0,2-3)", s, part)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("cpu list %q: %q is not a range low-high (use a list like 0,2-3)", s, part)
			}
		}
		for c := a; c <= b; c++ {
			seen[c] = true
		}
	}
	if len(seen) == 0 {
		return nil, fmt.Errorf("cpu list %q is empty (use a list like 0,2-3)", s)
	}
	out := make([]int, 0, len(seen))
	for c := range seen {
		out = append(out, c)
	}
	sort.Ints(out)
	return out, nil
}

// FormatList is the inverse of ParseList: [0 2 3] gives "0,2-3".
func FormatList(cpus []int) string {
	c := append([]int(nil), cpus...)
	sort.Ints(c)
	var b strings.Builder
	for i := 0; i < len(c); {
		j := i
		for j+1 < len(c) && c[j+1] <= c[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		if j == i {
			fmt.Fprintf(&b, "%d", c[i])
		} else {
			fmt.Fprintf(&b, "%d-%d", c[i], c[j])
		}
		i = j + 1
	}
	return b.String()
}

// PinSelf restricts every thread of the current process to cpus. Linux
// affinity is per thread, so setting it on the calling thread alone would
// leave the Go runtime's other threads free to run anywhere; threads created
// later inherit the mask of the thread that creates them.
func PinSelf(cpus []int) error {
	if len(cpus) == 0 {
		return fmt.Errorf("pin: empty CPU list")
	}
	var set unix.CPUSet
	for _, c := range cpus {
		set.Set(c)
	}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return fmt.Errorf("pin: list threads: %w", err)
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		// A thread may exit between ReadDir and here: ESRCH is harmless.
		if err := unix.SchedSetaffinity(tid, &set); err != nil && err != unix.ESRCH {
			return fmt.Errorf("pin to CPUs %s: %w (check the list against nproc and the cpuset of this container)", FormatList(cpus), err)
		}
	}
	return nil
}
