package listenq

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestParseNetstat(t *testing.T) {
	tests := []struct {
		file string
		want Counters
		err  string
	}{
		// Linux 6.18 (this project's machine) after TestOverflow had run:
		// 135 TcpExt columns, ListenOverflows the 23rd, then MPTcpExt lines.
		{file: "netstat-6.18", want: Counters{Overflows: 95, Drops: 95}},
		// A 3.x kernel (the fixture of github.com/dynport/metrix): 93
		// columns, ListenOverflows the 20th, TCPPrequeued among them.
		{file: "netstat-3.x", want: Counters{Overflows: 0, Drops: 0}},
		// /proc/net/snmp has Tcp: lines but no TcpExt.
		{file: "snmp", err: "no TcpExt lines"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got, err := ParseNetstat(f)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one with %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func TestParseNetstatBroken(t *testing.T) {
	for name, text := range map[string]string{
		"short values":   "TcpExt: ListenOverflows ListenDrops\nTcpExt: 1\n",
		"no columns":     "TcpExt: SyncookiesSent\nTcpExt: 1\n",
		"not a number":   "TcpExt: ListenOverflows ListenDrops\nTcpExt: 1 x\n",
		"names but none": "TcpExt: ListenOverflows ListenDrops\n",
	} {
		if c, err := ParseNetstat(strings.NewReader(text)); err == nil {
			t.Errorf("%s: got %+v, want an error", name, c)
		}
	}
}

// TestOverflow fills a real accept queue: a listener with a backlog of 1
// that never accepts, and a burst of connects on loopback. The kernel drops
// the SYNs it has no room for, and every reading must see it.
func TestOverflow(t *testing.T) {
	if _, err := os.Stat("/proc/self/net/netstat"); err != nil {
		t.Skipf("no /proc/net/netstat here: %v", err)
	}
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	if err := unix.Bind(fd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := unix.Listen(fd, 1); err != nil {
		t.Fatal(err)
	}
	sa, err := unix.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	port := sa.(*unix.SockaddrInet4).Port

	before, err := Take(0, port)
	if err != nil || before.SocketErr != nil {
		t.Fatalf("take: %v, %v", err, before.SocketErr)
	}
	if len(before.Sockets) != 1 || before.Sockets[0].Backlog != 1 {
		t.Fatalf("listeners on %d: %+v, want one with backlog 1", port, before.Sockets)
	}

	// The connects that find the queue full wait for SYN retransmission;
	// they are given up long before it matters.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	var d net.Dialer
	for range 20 {
		wg.Go(func() {
			if c, err := d.DialContext(ctx, "tcp", sa2addr(port)); err == nil {
				<-ctx.Done()
				c.Close()
			}
		})
	}
	// Poll: the drops happen as the SYNs arrive.
	var after Snapshot
	for {
		if after, err = Take(0, port); err != nil {
			t.Fatal(err)
		}
		if l := Change(before, after); l.Overflowed() && l.Overflows > 0 && l.Drops > 0 {
			if l.SocketDrops == nil || *l.SocketDrops <= 0 || l.Backlog != 1 || l.Sockets != 1 {
				t.Errorf("change %+v (socket drops %v), want the socket's own drops and backlog 1; before %+v after %+v", l, l.SocketDrops, before, after)
			}
			// Never accepted, the queue holds what the kernel let in.
			if l.Queued < 1 {
				t.Errorf("accept queue holds %d, want it full", l.Queued)
			}
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("no overflow seen: before %+v, after %+v", before, after)
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	wg.Wait()
}

func sa2addr(port int) string {
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
}

func TestChange(t *testing.T) {
	sock := func(backlog int, drops int64) Socket { return Socket{Port: 8080, Backlog: backlog, Drops: drops} }
	snap := func(o, d int64, s ...Socket) Snapshot { return Snapshot{Counters: Counters{o, d}, Sockets: s} }
	tests := []struct {
		name          string
		before, after Snapshot
		socketDrops   int64 // -1: none recorded
		backlog       int
		overflowed    bool
	}{
		{"quiet", snap(5, 5, sock(511, 0)), snap(5, 5, sock(511, 0)), 0, 511, false},
		{"overflowed", snap(5, 5, sock(511, 0)), snap(9, 9, sock(511, 4)), 4, 511, true},
		// Another program's listener overflowed in the shared namespace.
		{"someone else's", snap(5, 5, sock(511, 0)), snap(9, 9, sock(511, 0)), 0, 511, false},
		{"two reuseport sockets", snap(0, 0, sock(4096, 1), sock(4096, 0)), snap(3, 3, sock(4096, 2), sock(4096, 2)), 3, 4096, true},
		// Without the sockets the namespace's counters decide.
		{"sockets unreadable", snap(5, 5), snap(6, 7), -1, 0, true},
		{"drops not reported", snap(0, 0, sock(128, -1)), snap(0, 0, sock(128, -1)), -1, 128, false},
		{"a socket came", snap(0, 0, sock(128, 0)), snap(0, 1, sock(128, 0), sock(128, 1)), -1, 128, true},
		// A listener discards stray packets too (sk_drops) without a listen drop.
		{"stray packets", snap(7, 7, sock(4096, 0)), snap(7, 7, sock(4096, 5)), 5, 4096, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := Change(tt.before, tt.after)
			got := int64(-1)
			if l.SocketDrops != nil {
				got = *l.SocketDrops
			}
			if got != tt.socketDrops || l.Backlog != tt.backlog || l.Overflowed() != tt.overflowed {
				t.Errorf("got %+v (socket drops %d, overflowed %v); want socket drops %d, backlog %d, overflowed %v",
					l, got, l.Overflowed(), tt.socketDrops, tt.backlog, tt.overflowed)
			}
		})
	}
}
