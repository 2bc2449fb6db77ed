package server

import (
	"context"
	"time"
)

// RunTime is the CPU time the server's members have run, in seconds, read
// from each member's process CPU clock (processCPU: to the scheduler's
// tick, 4 ms at HZ=250, exited threads included), where /proc/PID/stat
// counts in clock ticks of 10 ms, too coarse for a window of a few hundred
// milliseconds. ok is false when nothing could be read (not Linux, or no
// member left).
func RunTime(leader int) (seconds float64, ok bool) {
	for _, pid := range Members(leader) {
		if s, read := processCPU(pid); read {
			seconds += s
			ok = true
		}
	}
	return seconds, ok
}

// IdleCPU measures what the server costs at rest: the CPU its members use
// over window with no request, in percent of one core (a server that polls,
// runs timers or collects garbage while idle shows it here). ok is false
// when the run time cannot be read or ctx ends first.
func IdleCPU(ctx context.Context, leader int, window time.Duration) (pct float64, ok bool) {
	before, ok1 := RunTime(leader)
	start := time.Now()
	select {
	case <-ctx.Done():
		return 0, false
	case <-time.After(window):
	}
	after, ok2 := RunTime(leader)
	elapsed := time.Since(start).Seconds()
	if !ok1 || !ok2 || elapsed <= 0 {
		return 0, false
	}
	return max(0, 100*(after-before)/elapsed), true
}
