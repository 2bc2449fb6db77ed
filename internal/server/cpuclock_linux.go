package server

import "golang.org/x/sys/unix"

// processCPU reads the CPU time of pid's whole thread group from the
// kernel's process CPU clock (clock_gettime on the clock id that glibc's
// clock_getcpuclockid makes, CPUCLOCK_SCHED of the process), in seconds,
// the threads that have exited included. It counts in nanoseconds, but a
// thread running on another core has its time brought up to date only at
// the scheduler's next tick (1/HZ: 4 ms at HZ=250), so a 250 ms sample of a
// busy core reads within about ±1.6 %; Linux lets no other process read a
// thread's own, always current, clock. /proc/PID/stat, the fallback, adds
// to that staleness a truncation to clock ticks of 10 ms: ±4 %, enough to
// put a saturated server at 96, 100 or 104 % by where the ticks fell.
func processCPU(pid int) (seconds float64, ok bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(int32(^uint32(pid)<<3)|2, &ts); err != nil {
		return 0, false
	}
	return float64(ts.Nano()) / 1e9, true
}
