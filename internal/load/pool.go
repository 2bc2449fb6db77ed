package load

import (
	"context"
	"net"
	"time"

	"golang.org/x/sys/unix"

	"restbench/internal/listenq"
	"restbench/internal/result"
)

// DefaultMaxDialing bounds the connections a keep-alive load has on their
// way in at once while it opens them: handshakes in flight, plus the
// connections waiting in the server's accept queue where restbench can read
// it. A completed handshake waits in that queue until the server accepts
// it; when the queue is full the kernel drops the next SYN and the client
// sends it again only after 1 s, then 3 s. Opening 1,000 connections in one
// burst therefore overflows Node's queue (backlog 511; libuv accepts one
// connection per event-loop turn) and leaves connections that retransmit
// inside a 1–3 s window. 64 is an eighth of Node's backlog and half the
// smallest net.core.somaxconn a kernel still ships (128, which caps Go's
// backlog), and at loopback round trips it still opens thousands of
// connections a second. A smaller backlog than the bound lowers it to the
// backlog. wrk opens every connection at once; --max-dialing set to -c
// comes closest (the accept queue still paces it where it can be read).
const DefaultMaxDialing = 64

// openPool opens the keep-alive connections of g before the load's clock
// starts, as a client pool that grows to its size would: no measured
// request and no latency waits for a handshake. At most maxDialing are on
// their way in at once: dialing, or established and waiting in the
// server's accept queue, which it reads (sock_diag) for a loopback target;
// where it cannot, handshakes in flight alone are bounded. Each connection
// it opens is registered with its loop, idle; one it cannot open (refused,
// timed out) is left closed and dials at its first request, as before,
// where its error is counted. ctx cancelled, or a queue that does not move
// for timeout, stops the opening; the rest dial later the same way.
func (g *generator) openPool(ctx context.Context, maxDialing int, timeout time.Duration) *result.Pool {
	type pooled struct {
		l       *loop
		c       *conn
		started time.Time
	}
	var all []pooled
	for _, l := range g.loops {
		for _, c := range l.conns {
			all = append(all, pooled{l: l, c: c})
		}
	}
	pool := &result.Pool{MaxDialing: maxDialing}
	start := time.Now()
	defer func() { pool.OpenS = time.Since(start).Seconds() }()
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		pool.Failed = len(all) // each one dials at its first request
		return pool
	}
	defer unix.Close(epfd)

	// established hands an open socket to its loop, idle. Its first
	// response then counts from the start of the load (dialedAt 0): the
	// handshake happened before the clock started, and open_s says how long
	// it took. A pooled socket was opened before its first request, as a
	// reused one was, so a server that closed it while it sat idle gets the
	// same one retry for an idempotent request (conn.fail).
	established := func(p pooled) {
		p.c.dialedAt, p.c.reused = 0, true
		p.c.register(p.l, unix.EPOLLIN|unix.EPOLLRDHUP|unix.EPOLLET, unix.EPOLL_CTL_ADD)
		pool.Connections++
	}
	failed := func(p pooled) {
		p.c.closeSocket(p.l)
		pool.Failed++
	}
	dialing := map[int]bool{} // indexes into all
	events := make([]unix.EpollEvent, maxDialing)
	next, moved := 0, start
	for next < len(all) || len(dialing) > 0 {
		if ctx.Err() != nil || time.Since(moved) > timeout {
			for i := range dialing {
				failed(all[i])
			}
			pool.Failed += len(all) - next
			return pool
		}
		room := maxDialing - len(dialing)
		if next < len(all) {
			if queued, backlog, ok := acceptQueue(g.addr); ok {
				pool.AcceptQueue = true
				room = min(maxDialing, backlog) - len(dialing) - queued
			}
		}
		for ; room > 0 && next < len(all); room-- {
			p := &all[next]
			next++
			fd, err := unix.Socket(p.l.family, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
			if err != nil {
				pool.Failed++
				continue
			}
			unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1)
			p.c.fd, p.started = fd, time.Now()
			switch err := unix.Connect(fd, p.l.sockaddr); err {
			case nil:
				established(*p)
			case unix.EINPROGRESS:
				ev := unix.EpollEvent{Events: unix.EPOLLOUT, Fd: int32(next - 1)}
				if unix.EpollCtl(epfd, unix.EPOLL_CTL_ADD, fd, &ev) != nil {
					failed(*p)
					break
				}
				dialing[next-1] = true
			default:
				failed(*p)
			}
			moved = time.Now()
		}
		// Wait for a handshake, or a millisecond for the server to take
		// connections off its queue.
		wait := 10
		if room <= 0 && next < len(all) {
			wait = 1
		}
		n, err := unix.EpollWait(epfd, events, wait)
		if err != nil {
			n = 0 // EINTR: look again
		}
		for _, ev := range events[:n] {
			i := int(ev.Fd)
			p := all[i]
			delete(dialing, i)
			unix.EpollCtl(epfd, unix.EPOLL_CTL_DEL, p.c.fd, nil)
			if soErr, err := unix.GetsockoptInt(p.c.fd, unix.SOL_SOCKET, unix.SO_ERROR); err != nil || soErr != 0 {
				failed(p)
				continue
			}
			established(p)
			moved = time.Now()
		}
		for i := range dialing {
			if time.Since(all[i].started) > timeout {
				delete(dialing, i)
				failed(all[i])
			}
		}
	}
	return pool
}

// acceptQueue reads the accept queue of the server listening on addr's
// port in restbench's network namespace: the connections waiting in it and
// its size. ok is false where it cannot be read (no such listener here: a
// remote target, sock_diag refused).
func acceptQueue(addr *net.TCPAddr) (queued, backlog int, ok bool) {
	if !addr.IP.IsLoopback() {
		return 0, 0, false
	}
	socks, err := listenq.Listeners(0, addr.Port)
	if err != nil || len(socks) == 0 {
		return 0, 0, false
	}
	queued, backlog = listenq.Queued(socks)
	return queued, max(backlog, 1), true
}
