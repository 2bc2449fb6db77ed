package service

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestWorkIsCPUTime serves /time?work=W from this process, pinned to one CPU
// that a busy competitor process shares, and checks from /proc that every
// request still costs the server W of CPU time. With a wall-clock loop the
// server would get about half the CPU and burn about W/2.
func TestWorkIsCPUTime(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs Linux: CPU affinity and /proc")
	}
	cpu := pinProcess(t)
	competitor := exec.Command("sh", "-c", "while :; do :; done")
	if err := competitor.Start(); err != nil {
		t.Fatalf("start a busy competitor: %v", err)
	}
	defer func() { competitor.Process.Kill(); competitor.Wait() }()
	if err := unix.SchedSetaffinity(competitor.Process.Pid, cpuSet(cpu)); err != nil {
		t.Fatalf("pin the competitor to CPU %d: %v", cpu, err)
	}

	srv := httptest.NewServer(http.HandlerFunc(Time))
	defer srv.Close()
	const work, requests = 200 * time.Millisecond, 3
	get := func() {
		res, err := http.Get(srv.URL + "/time?work=" + strconv.Itoa(int(work.Milliseconds())))
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("GET /time: %v %v", res, err)
		}
		res.Body.Close()
	}
	get() // warm up: connection, first thread
	before, start := processCPU(t), time.Now()
	for range requests {
		get()
	}
	used, wall := processCPU(t)-before, time.Since(start)

	perRequest := used / requests
	t.Logf("CPU %d shared with a busy process: %v of CPU per work=%v request, %v of wall time each",
		cpu, perRequest, work, wall/requests)
	// Generous bounds: /proc counts in 10 ms ticks, and the process also
	// parses HTTP, collects garbage and runs the test's client.
	if perRequest < work*9/10 || perRequest > work*3/2 {
		t.Errorf("the server used %v of CPU per request, want about %v (0.9x..1.5x): "+
			"Work must count the thread's CPU time, not the wall clock", perRequest, work)
	}
}

// pinProcess pins every thread of this process to the last CPU it may use,
// restores the old affinity at the end of the test, and returns the CPU.
// Threads started later inherit the pin from the thread that starts them.
func pinProcess(t *testing.T) int {
	t.Helper()
	var old unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		t.Fatalf("read CPU affinity: %v", err)
	}
	cpu := -1
	for c := range 1024 {
		if old.IsSet(c) {
			cpu = c
		}
	}
	setAll := func(set *unix.CPUSet) {
		tasks, err := os.ReadDir("/proc/self/task")
		if err != nil {
			t.Fatalf("list threads: %v", err)
		}
		for _, task := range tasks {
			tid, _ := strconv.Atoi(task.Name())
			// A thread may exit between the listing and the call.
			_ = unix.SchedSetaffinity(tid, set)
		}
	}
	setAll(cpuSet(cpu))
	t.Cleanup(func() { setAll(&old) })
	return cpu
}

func cpuSet(cpu int) *unix.CPUSet {
	var set unix.CPUSet
	set.Set(cpu)
	return &set
}

// processCPU is this process's user+system CPU time from /proc/self/stat
// (fields 14 and 15, in clock ticks of 1/100 s on Linux).
func processCPU(t *testing.T) time.Duration {
	t.Helper()
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		t.Fatalf("read /proc/self/stat: %v", err)
	}
	// The command name (field 2) may hold spaces; count fields after it.
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
	var ticks int64
	for _, f := range fields[11:13] { // utime, stime
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			t.Fatalf("/proc/self/stat: %q: %v", f, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * (time.Second / 100)
}
