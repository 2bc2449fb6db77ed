package server

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/shirou/gopsutil/v4/process"
)

// Table is one snapshot of the machine's live processes: the parent and the
// process group of each. Zombies are left out: they hold no memory and serve
// nothing.
type Table struct {
	parent map[int]int
	group  map[int]int
}

// ReadTable reads /proc once. It finds nothing outside Linux.
func ReadTable() Table {
	t := Table{parent: map[int]int{}, group: map[int]int{}}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, pgrp, ok := readStat(pid); ok {
			t.parent[pid], t.group[pid] = ppid, pgrp
		}
	}
	return t
}

// Members lists the processes that make up the server whose leader is
// leader: the leader, every process of the group it heads (Start makes it a
// group leader, and workers inherit the group), and every descendant of the
// leader, in case a cluster manager moved a worker to a group of its own.
// This is the one rule restbench uses: verify's process and memory checks,
// the monitor's CPU and RSS, and Stop all count the same processes.
func (t Table) Members(leader int) []int {
	if leader <= 0 {
		return nil
	}
	var out []int
	for pid, pgrp := range t.group {
		if pid == leader || pgrp == leader || t.under(pid, leader) {
			out = append(out, pid)
		}
	}
	slices.Sort(out)
	return out
}

// Descendants lists root and every process under it, leaving out those in
// skip (the server's members, when root is restbench itself).
func (t Table) Descendants(root int, skip []int) []int {
	out := []int{root}
	for pid := range t.parent {
		if pid != root && !slices.Contains(skip, pid) && t.under(pid, root) {
			out = append(out, pid)
		}
	}
	slices.Sort(out)
	return out
}

// under says whether ancestor is an ancestor of pid; the walk is bounded in
// case racing reads made a cycle.
func (t Table) under(pid, ancestor int) bool {
	for p, i := t.parent[pid], 0; p > 1 && i < 64; p, i = t.parent[p], i+1 {
		if p == ancestor {
			return true
		}
	}
	return false
}

// Members lists the processes of the server whose leader is leader, from a
// fresh reading of /proc (see Table.Members).
func Members(leader int) []int { return ReadTable().Members(leader) }

// readStat returns the parent and process group of pid from /proc/pid/stat;
// ok is false for zombies and processes that are gone.
func readStat(pid int) (ppid, pgrp int, ok bool) {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, 0, false
	}
	// The command name is in parentheses and may hold spaces: split after it.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 3 || f[0] == "Z" { // state ppid pgrp ...
		return 0, 0, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	pgrp, err2 := strconv.Atoi(f[2])
	return ppid, pgrp, err1 == nil && err2 == nil
}

// Usage is what one process has used: CPU time since it started, and its
// resident memory now.
type Usage struct {
	CPU float64 // user + system seconds
	RSS int64   // bytes
}

// ReadUsage reads one process's usage; ok is false when it is gone. It is the
// one reader of CPU and RSS: the monitor and verify's memory bound use it.
// The CPU comes first and from the kernel's process CPU clock
// (nanoseconds; processCPU), so that a reader timing its samples reads it
// as close to its clock reading as it can.
func ReadUsage(pid int) (u Usage, ok bool) {
	cpu, precise := processCPU(pid)
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		return Usage{}, false
	}
	if !precise {
		ts, err := p.Times()
		if err != nil {
			return Usage{}, false
		}
		cpu = ts.User + ts.System
	}
	u.CPU = cpu
	if m, err := p.MemoryInfo(); err == nil {
		u.RSS = int64(m.RSS)
	}
	return u, true
}

// Total is the usage of the server's members together: CPU seconds and
// resident bytes. ok is false when none of them could be read.
func Total(leader int) (total Usage, ok bool) {
	for _, pid := range Members(leader) {
		if u, read := ReadUsage(pid); read {
			total.CPU += u.CPU
			total.RSS += u.RSS
			ok = true
		}
	}
	return total, ok
}

// RSS is the resident memory of the server's members, in bytes.
func RSS(leader int) int64 {
	u, _ := Total(leader)
	return u.RSS
}

// ThreadCPU reads the CPU time of each thread of process pid, in seconds, by
// thread id, from /proc/PID/task/TID/schedstat (the scheduler's nanoseconds
// on a CPU; like the process clock, brought up to date at the next tick for
// a thread running elsewhere; gopsutil's Process.Threads reads
// /proc/PID/task/TID/stat instead, in 10 ms clock ticks (USER_HZ), coarse for
// the monitor's 250 ms samples). It is nil where /proc has no such files (not
// Linux, a kernel without schedstats, a process gone): no thread's share is
// measured then. A thread that exits during the listing is left out.
func ThreadCPU(pid int) map[int]float64 {
	dir := filepath.Join("/proc", strconv.Itoa(pid), "task")
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	out := make(map[int]float64, len(tasks))
	for _, task := range tasks {
		tid, err := strconv.Atoi(task.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, task.Name(), "schedstat"))
		if err != nil {
			continue
		}
		f := strings.Fields(string(b))
		if len(f) == 0 {
			continue
		}
		if ns, err := strconv.ParseUint(f[0], 10, 64); err == nil {
			out[tid] = float64(ns) / 1e9
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
