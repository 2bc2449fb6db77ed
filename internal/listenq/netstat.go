// Package listenq reads a server's listen queue: the kernel's listen-queue
// counters of the server's network namespace (ListenOverflows and
// ListenDrops in /proc/net/netstat) and, per listening socket, the backlog
// in effect and the drops the socket itself counted (sock_diag netlink, as
// `ss -ltnm` shows them). A connection the accept queue has no room for is
// dropped, and the client only retries its SYN after TCP's retransmission
// timeout (1 s, then 3 s, ...): a trial whose queue overflowed measured that
// timeout too.
package listenq

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Counters are the listen-queue counters of one network namespace.
type Counters struct {
	// Overflows: a SYN or handshake ACK arrived at a full accept queue.
	Overflows int64
	// Drops: a connection request was dropped at a listener, overflows
	// included (so Drops >= Overflows).
	Drops int64
}

// ReadCounters reads the counters of pid's network namespace
// (/proc/PID/net is the namespace of PID, so this works under placement
// hosts without joining it); pid 0 reads restbench's own.
func ReadCounters(pid int) (Counters, error) {
	path := "/proc/self/net/netstat"
	if pid > 0 {
		path = fmt.Sprintf("/proc/%d/net/netstat", pid)
	}
	f, err := os.Open(path)
	if err != nil {
		return Counters{}, err
	}
	defer f.Close()
	c, err := ParseNetstat(f)
	if err != nil {
		return Counters{}, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// ParseNetstat reads ListenOverflows and ListenDrops from the TcpExt lines
// of /proc/net/netstat: a line of names followed by a line of values, each
// starting with "TcpExt:". The columns are found by name: their positions
// differ between kernels.
func ParseNetstat(r io.Reader) (Counters, error) {
	var names []string
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 64<<10), 1<<20)
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) == 0 || fields[0] != "TcpExt:" {
			names = nil
			continue
		}
		if names == nil {
			names = fields[1:]
			continue
		}
		values := fields[1:]
		if len(values) != len(names) {
			return Counters{}, fmt.Errorf("TcpExt has %d names and %d values", len(names), len(values))
		}
		var c Counters
		found := 0
		for i, n := range names {
			var dst *int64
			switch n {
			case "ListenOverflows":
				dst = &c.Overflows
			case "ListenDrops":
				dst = &c.Drops
			default:
				continue
			}
			v, err := strconv.ParseInt(values[i], 10, 64)
			if err != nil {
				return Counters{}, fmt.Errorf("TcpExt %s: %w", n, err)
			}
			*dst = v
			found++
		}
		if found != 2 {
			return Counters{}, fmt.Errorf("TcpExt has no ListenOverflows or ListenDrops")
		}
		return c, nil
	}
	if err := s.Err(); err != nil {
		return Counters{}, err
	}
	return Counters{}, fmt.Errorf("no TcpExt lines (is this Linux?)")
}
