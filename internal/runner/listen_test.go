package runner

import (
	"context"
	"net"
	"os"
	"testing"
	"time"
)

// TestAwaitAccepted: connections dialled and closed before the server
// accepted them (a prewarm's last ones) hold their accept-queue slots until
// it does; the wait sees them, and ends when they are accepted or at its
// bound.
func TestAwaitAccepted(t *testing.T) {
	if _, err := os.Stat("/proc/self/net/netstat"); err != nil {
		t.Skipf("no /proc/net/netstat here: %v", err)
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	const queued = 20
	for range queued {
		c, err := net.Dial("tcp4", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		c.Close() // the client is done; the slot is the server's to free
	}
	ctx := context.Background()

	first, empty := awaitAccepted(ctx, 0, port, 100*time.Millisecond)
	if first != queued || empty {
		t.Fatalf("nobody accepting: first %d, empty %v; want %d, false", first, empty, queued)
	}

	go func() {
		time.Sleep(50 * time.Millisecond)
		for range queued {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	first, empty = awaitAccepted(ctx, 0, port, 10*time.Second)
	if first != queued || !empty {
		t.Fatalf("accepting after 50 ms: first %d, empty %v; want %d, true", first, empty, queued)
	}
	if first, empty = awaitAccepted(ctx, 0, port, time.Second); first != 0 || !empty {
		t.Fatalf("an empty queue: first %d, empty %v; want 0, true at once", first, empty)
	}
}
