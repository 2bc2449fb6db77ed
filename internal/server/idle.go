package server

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// RunTime is the CPU time the server's members have run, in seconds, read
// from every thread's /proc/PID/task/TID/schedstat: nanoseconds, where
// /proc/PID/stat (ReadUsage) counts in clock ticks of 10 ms, too coarse for
// a window of a few hundred milliseconds. ok is false when nothing could be
// read (not Linux, or a kernel without schedstat). Threads that exited are
// not counted: compare two readings only over a window where none exit.
func RunTime(leader int) (seconds float64, ok bool) {
	for _, pid := range Members(leader) {
		tasks, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "schedstat"))
		for _, f := range tasks {
			data, err := os.ReadFile(f)
			if err != nil {
				continue // the thread exited since the listing
			}
			fields := strings.Fields(string(data))
			if len(fields) == 0 {
				continue
			}
			ns, err := strconv.ParseInt(fields[0], 10, 64)
			if err != nil {
				continue
			}
			seconds += float64(ns) / 1e9
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
