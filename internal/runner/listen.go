package runner

import (
	"context"
	"time"

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

// awaitAccepted waits, at most max, until the accept queue of the server
// pid listening on port is empty, and returns how many connections it held
// at first and whether it emptied. A prewarm without keep-alive ends with
// its last requests' connections still queued (the client closed them,
// but each holds its slot until the server accepts it, and Node accepts
// one per event-loop turn); a load that then opens its own at once
// overflows a backlog its connections alone fit: node-fastify at c=500,
// backlog 511, under fastify's 0.5-CPU quota dropped 91-252 SYNs in 1-3
// of 5 rounds of two standard benches of 2026-11-26, each a retransmission
// of 1 s in a 2 s window. A queue that cannot be read is not waited for.
func awaitAccepted(ctx context.Context, pid, port int, max time.Duration) (first int, empty bool) {
	deadline := time.Now().Add(max)
	for i := 0; ; i++ {
		socks, err := listenq.Listeners(pid, port)
		if err != nil {
			return first, false
		}
		n, _ := listenq.Queued(socks)
		if i == 0 {
			first = n
		}
		if n == 0 {
			return first, true
		}
		if time.Now().After(deadline) {
			return first, false
		}
		select {
		case <-ctx.Done():
			return first, false
		case <-time.After(5 * time.Millisecond):
		}
	}
}
