package cpu

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSweepQuotas: the quota cgroups of a restbench that was killed (its pid
// gone) are removed; a live run's (this process's) and anything else are
// left alone, and one that cannot be removed is named.
func TestSweepQuotas(t *testing.T) {
	dir := t.TempDir()
	v2, v1 := cgroupV2Roots, cgroupV1CPU
	cgroupV2Roots, cgroupV1CPU = nil, []string{dir}
	defer func() { cgroupV2Roots, cgroupV1CPU = v2, v1 }()
	const dead = 999999999    // above any pid_max
	names := map[string]bool{ // name: whether the sweep removes it
		fmt.Sprintf("restbench-%d-1-single-thread_node-http", dead): true,
		fmt.Sprintf("restbench-%d-3-x", os.Getpid()):                false,
		"restbench-notapid-1-x":                                     false,
		"user.slice":                                                false,
	}
	// A dead run's quota nested in its slower-machine stand-in (Nest): the
	// inner group goes first, then the outer.
	nested := fmt.Sprintf("restbench-%d-4-slow", dead)
	names[nested] = true
	for n := range names {
		if err := os.Mkdir(filepath.Join(dir, n), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(filepath.Join(dir, nested, "inner-docker"), 0o755)
	// A dead shared run's machine group: the server's group with a suite's
	// quota in it, and the generator's, three levels in all.
	machine := fmt.Sprintf("restbench-%d-5-sum_node-express-machine", dead)
	names[machine] = true
	os.MkdirAll(filepath.Join(dir, machine, "inner-server", "inner-docker"), 0o755)
	os.MkdirAll(filepath.Join(dir, machine, "inner-client"), 0o755)
	busy := filepath.Join(dir, fmt.Sprintf("restbench-%d-2-busy", dead)) // stands for a cgroup with a process in it
	os.MkdirAll(filepath.Join(busy, "x"), 0o755)
	os.WriteFile(filepath.Join(busy, "x", "cgroup.procs"), []byte("1\n"), 0o644)

	removed, kept := SweepQuotas()
	for n, gone := range names {
		_, err := os.Stat(filepath.Join(dir, n))
		if gone != os.IsNotExist(err) || gone != slices.Contains(removed, filepath.Join(dir, n)) {
			t.Errorf("%s: removed %v (%v), want %v", n, os.IsNotExist(err), removed, gone)
		}
	}
	if len(kept) != 1 || !filepath.IsAbs(kept[0]) || kept[0][:len(busy)] != busy {
		t.Errorf("kept %q, want %s named", kept, busy)
	}
}

func TestOwnerPID(t *testing.T) {
	for _, tc := range []struct {
		name string
		want int
	}{
		{"restbench-4242-1-run", 4242}, {"restbench-wrk-17-abc", 0}, {"restbench-x", 0}, {"other-5-1", 0},
	} {
		if got := OwnerPID(tc.name, quotaPrefix); got != tc.want {
			t.Errorf("OwnerPID(%q) = %d, want %d", tc.name, got, tc.want)
		}
	}
	if got := OwnerPID("restbench-wrk-17-abc", "restbench-wrk-"); got != 17 {
		t.Errorf("wrk folder: %d", got)
	}
}
