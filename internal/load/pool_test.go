package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"restbench/internal/listenq"
)

// smallBacklogServer serves "hello" on a loopback listener whose accept
// queue holds backlog connections, and returns its URL and port.
func smallBacklogServer(t *testing.T, backlog int) (string, int) {
	t.Helper()
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Bind(fd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := unix.Listen(fd, backlog); err != nil {
		t.Fatal(err)
	}
	f := os.NewFile(uintptr(fd), "listener")
	ln, err := net.FileListener(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello")
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	port := ln.Addr().(*net.TCPAddr).Port
	return fmt.Sprintf("http://127.0.0.1:%d/", port), port
}

// TestPoolOpensWithinBacklog: 600 keep-alive connections against an accept
// queue of 16 open at most 8 handshakes at a time, before the clock starts.
// The listener dropped no SYN (its sk_drops counts every overflow), so no
// connection waited for a retransmission; every connection completed
// requests in the window, and the pool's opening is recorded.
func TestPoolOpensWithinBacklog(t *testing.T) {
	url, port := smallBacklogServer(t, 16)
	res := run(t, Config{URL: url, Connections: 600, MaxRequests: 3000, KeepAlive: true, MaxDialing: 8, Threads: 2})
	p := res.Pool
	if p == nil || p.Connections != 600 || p.Failed != 0 || p.MaxDialing != 8 || p.OpenS <= 0 {
		t.Fatalf("pool %+v: want 600 connections opened, none failed, at most 8 dialing, a time", p)
	}
	socks, err := listenq.Listeners(0, port)
	if err != nil || len(socks) != 1 {
		t.Fatalf("listener of port %d: %+v, %v", port, socks, err)
	}
	if socks[0].Drops != 0 {
		t.Errorf("the listener dropped %d connection requests: the pool overflowed its accept queue", socks[0].Drops)
	}
	if res.Errors.Total() != 0 {
		t.Errorf("errors %+v: every request should succeed", res.Errors)
	}
}

// TestPoolOnlyWithKeepAlive: without keep-alive every request dials, which
// is the load itself, so there is no pool; and a refused pool leaves its
// connections to dial at their first request, where their errors count.
func TestPoolOnlyWithKeepAlive(t *testing.T) {
	url, _ := smallBacklogServer(t, 128)
	res := run(t, Config{URL: url, Connections: 4, MaxRequests: 40})
	if res.Pool != nil {
		t.Errorf("no keep-alive: pool %+v, want none", res.Pool)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/"
	ln.Close()
	res = run(t, Config{URL: closed, Connections: 4, MaxRequests: 8, KeepAlive: true})
	if p := res.Pool; p == nil || p.Connections != 0 || p.Failed != 4 {
		t.Errorf("refused: pool %+v, want 4 failed", p)
	}
	if res.Errors.Connect != 8 {
		t.Errorf("refused: %d connect errors, want the 8 requests", res.Errors.Connect)
	}
}

// TestBeginAfterPool: Begin (--start-at's wait) runs once the pool is open,
// so the window opens after it, whatever the opening took; its error stops
// the load.
func TestBeginAfterPool(t *testing.T) {
	url, _ := smallBacklogServer(t, 128)
	var called time.Time
	begin := func(context.Context) error { called = time.Now(); return nil }
	res := run(t, Config{URL: url, Connections: 50, MaxRequests: 100, KeepAlive: true, Begin: begin})
	if res.Pool == nil || res.Pool.Connections != 50 {
		t.Fatalf("pool %+v: want 50 connections", res.Pool)
	}
	if called.IsZero() || res.WindowStart.Before(called) {
		t.Errorf("window opened %v, Begin returned %v: the window must open after it", res.WindowStart, called)
	}
	_, err := Run(context.Background(), Config{URL: url, Connections: 4, MaxRequests: 8, KeepAlive: true,
		Begin: func(context.Context) error { return errors.New("too late") }})
	if err == nil || err.Error() != "too late" {
		t.Errorf("err %v, want Begin's", err)
	}
}
