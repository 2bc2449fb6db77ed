package contract

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// group lists the processes that belong to a server: the leader, those in
// the process group it heads (impl.Start makes it a group leader) and, in case a
// cluster manager moved a worker to a group of its own, the leader's
// descendants. It reads /proc, so it finds nothing outside Linux.
func group(leader int) []int {
	if leader <= 0 {
		return nil
	}
	entries, _ := os.ReadDir("/proc")
	parent := map[int]int{}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		ppid, pgrp, ok := readStat(pid)
		if !ok {
			continue
		}
		parent[pid] = ppid
		if pgrp == leader || pid == leader {
			out = append(out, pid)
		}
	}
	inGroup := map[int]bool{}
	for _, pid := range out {
		inGroup[pid] = true
	}
	for pid := range parent {
		if inGroup[pid] {
			continue
		}
		// Walk up; bounded in case of a cycle from racing reads.
		for p, i := parent[pid], 0; p > 1 && i < 64; p, i = parent[p], i+1 {
			if p == leader {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

// readStat returns the parent and process group of pid from /proc/pid/stat;
// ok is false for zombies, which hold no memory and serve nothing.
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

// groupRSS is the resident memory of the server's processes, in bytes.
func groupRSS(leader int) int64 {
	var sum int64
	for _, pid := range group(leader) {
		sum += rss(pid)
	}
	return sum
}

// rss reads VmRSS from /proc/pid/status (absent for zombies: 0).
func rss(pid int) int64 {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(v) // "12345 kB"
			if len(f) > 0 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb << 10
			}
		}
	}
	return 0
}

// checkReadyLine checks the readiness line of a THREADS=1 start, and that
// THREADS=1 means one process.
func checkReadyLine(ctx context.Context, t *Target) (string, error) {
	if t.Ready.Line == "" {
		return "", skip("no readiness line captured (not started by restbench)")
	}
	f := t.Ready.Fields
	listen := strings.TrimPrefix(t.URL, "http://")
	_, pidErr := strconv.Atoi(f["pid"])
	switch {
	case f["id"] != t.Impl.ID:
		return "", fmt.Errorf("id=%s, want id=%s: %s", f["id"], t.Impl.ID, t.Ready.Line)
	case pidErr != nil:
		return "", fmt.Errorf("pid=%s is not a process id: %s", f["pid"], t.Ready.Line)
	case f["threads"] != "1":
		return "", fmt.Errorf("threads=%s, want 1 (THREADS=1 was set): %s", f["threads"], t.Ready.Line)
	case f["listening"] != listen:
		return "", fmt.Errorf("listening=%s, want %s (HOST and PORT were set): %s", f["listening"], listen, t.Ready.Line)
	case f["gomaxprocs"] == "":
		return "", fmt.Errorf("no gomaxprocs= field (Go: the GOMAXPROCS in effect; other languages: -): %s", t.Ready.Line)
	case t.Impl.Language == "go" && f["gomaxprocs"] != "1":
		return "", fmt.Errorf("gomaxprocs=%s with THREADS=1, want 1: %s", f["gomaxprocs"], t.Ready.Line)
	}
	if n := len(group(t.Pid)); t.Pid > 0 && n != 1 {
		return "", fmt.Errorf("%d processes with THREADS=1, want 1", n)
	}
	return t.Ready.Line, nil
}
