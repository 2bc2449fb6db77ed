package listenq

import (
	"slices"

	"restbench/internal/result"
)

// Snapshot is a server's listen queue at one instant.
type Snapshot struct {
	Counters Counters
	Sockets  []Socket // the listeners on the server's port
	// SocketErr says why Sockets could not be read (joining another
	// namespace needs privileges); the counters are usable without them.
	SocketErr error
}

// Take reads the counters of pid's network namespace and the sockets
// listening on port there. It fails only when the counters cannot be read.
func Take(pid, port int) (Snapshot, error) {
	c, err := ReadCounters(pid)
	if err != nil {
		return Snapshot{}, err
	}
	socks, serr := Listeners(pid, port)
	return Snapshot{Counters: c, Sockets: socks, SocketErr: serr}, nil
}

// Change is what happened between before and after.
func Change(before, after Snapshot) *result.Listen {
	l := &result.Listen{
		Overflows: after.Counters.Overflows - before.Counters.Overflows,
		Drops:     after.Counters.Drops - before.Counters.Drops,
		Sockets:   len(after.Sockets),
	}
	l.Queued, l.Backlog = Queued(after.Sockets)
	if d, ok := socketDrops(before.Sockets, after.Sockets); ok {
		l.SocketDrops = &d
	}
	return l
}

// socketDrops is the growth of the listeners' own drops, when both readings
// saw as many listeners and the kernel reported their drops.
func socketDrops(before, after []Socket) (int64, bool) {
	if len(after) == 0 || len(before) != len(after) {
		return 0, false
	}
	var d int64
	for _, s := range slices.Concat(before, after) {
		if s.Drops < 0 {
			return 0, false
		}
	}
	for i := range after {
		d += after[i].Drops - before[i].Drops
	}
	return d, true
}
