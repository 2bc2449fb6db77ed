package runner

import (
	"restbench/internal/listenq"
	"restbench/internal/result"
)

// watchListen reads the listen queue of the server pid listening on port
// (in pid's network namespace) before the warm-up, and returns the func
// that reads it again after the load, records the change in the trial and
// flags an overflow. A queue that cannot be read costs a warning, never the
// trial.
func (r *Runner) watchListen(pid, port int) func(*result.Trial) {
	before, err := listenq.Take(pid, port)
	if err != nil {
		r.logf("warning: listen queue of pid %d: %v; accept-queue overflows go unseen", pid, err)
		return func(*result.Trial) {}
	}
	if before.SocketErr != nil {
		r.logf("warning: listeners on port %d: %v; the backlog goes unrecorded", port, before.SocketErr)
	}
	return func(t *result.Trial) {
		after, err := listenq.Take(pid, port)
		if err != nil {
			r.logf("warning: listen queue of pid %d: %v", pid, err)
			return
		}
		t.Listen = listenq.Change(before, after)
		if t.Listen.Overflowed() {
			t.Flags = appendFlag(t.Flags, result.FlagAcceptQueueOverflow)
		}
	}
}
