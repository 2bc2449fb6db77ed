package server

import (
	"math"
	"os"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// burnOnExitingThread spends cpu of CPU time on an OS thread of its own,
// timed by that thread's CPU clock (so a busy machine only stretches it),
// and lets the thread exit: a goroutine that ends locked to its thread
// takes the thread with it, unless it is the main thread, which Go keeps:
// the caller holds on to its own thread meanwhile so the burner gets another.
func burnOnExitingThread(cpu time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread() // never unlocked: the thread exits with the goroutine
		defer close(done)
		var ts unix.Timespec
		for {
			if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil || ts.Nano() >= cpu.Nanoseconds() {
				return
			}
		}
	}()
	<-done
}

// TestReadUsageCPU reads a real process that spent 300 ms of CPU on a
// thread that has since exited: ReadUsage and RunTime count that thread's
// time (a sum over the live threads' schedstat would not), and read it in
// nanoseconds, not in /proc/PID/stat's clock ticks of 10 ms.
func TestReadUsageCPU(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the process CPU clock is read on Linux only")
	}
	p := startReady(t, "burnt")
	defer p.Stop(time.Second)
	u, ok := ReadUsage(p.Pid())
	run, ok2 := RunTime(p.Pid())
	if !ok || !ok2 {
		t.Fatalf("ReadUsage ok %v, RunTime ok %v", ok, ok2)
	}
	for name, s := range map[string]float64{"ReadUsage": u.CPU, "RunTime": run} {
		if s < 0.3 || s > 30 {
			t.Errorf("%s: %.6f s of CPU; want at least the 0.3 s its exited thread spent (and seconds, not another unit)", name, s)
		}
	}
	ticks := func(s float64) bool { return math.Abs(s*100-math.Round(s*100)) < 1e-6 }
	if ticks(u.CPU) && ticks(run) {
		t.Errorf("CPU %.9f s and %.9f s are whole clock ticks of 10 ms: read from /proc/PID/stat, not the nanosecond clock", u.CPU, run)
	}
	if _, ok := ReadUsage(1 << 30); ok {
		t.Error("ReadUsage read a process that does not exist")
	}
}

// TestThreadCPU reads this process's threads: one that spent 200 ms of its
// own CPU time (and is still alive) reads at least that, in seconds, under
// its thread id; a process that does not exist reads nil.
func TestThreadCPU(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("threads are read from /proc on Linux only")
	}
	tid, release := make(chan int), make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var ts unix.Timespec
		for unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) == nil && ts.Nano() < (200*time.Millisecond).Nanoseconds() {
		}
		tid <- unix.Gettid()
		<-release
	}()
	id := <-tid
	defer close(release)
	threads := ThreadCPU(os.Getpid())
	if s, ok := threads[id]; !ok || s < 0.2 || s > 30 {
		t.Errorf("thread %d: %.6f s (listed %v) of %d threads; want at least the 0.2 s it spent, in seconds", id, s, ok, len(threads))
	}
	if got := ThreadCPU(1 << 30); got != nil {
		t.Errorf("a process that does not exist: %v, want nil", got)
	}
}
