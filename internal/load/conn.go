package load

import (
	"golang.org/x/sys/unix"

	"restbench/internal/load/http1"
)

// Connection states.
const (
	idle       = iota // no request in flight (the socket may be open)
	connecting        // non-blocking connect in progress
	writing           // request partly written
	reading           // request written, response not complete
)

// conn is one connection's state in its loop. Its request and response
// buffers live as long as the connection: nothing is allocated per request.
type conn struct {
	id, index int
	fd        int
	state     int
	reused    bool  // the socket has carried a complete response
	retried   bool  // the request in flight was re-sent on a fresh socket
	pollOut   bool  // registered for EPOLLOUT
	target    int   // index of the request in flight
	busy      bool  // it had a request in flight during the window
	completed int64 // requests it completed within the window
	out       []byte
	got       int64 // bytes read for the request in flight
	resp      http1.Response
	intended  int64 // ns: when the request was due; its latency counts from here
	sentAt    int64 // ns: when it was actually sent; its service time counts from here
	deadline  int64 // ns: when it times out
	next      int64 // ns: when the next request is due
	dialedAt  int64 // ns: its first connect attempt; -1 before it
	firstResp int64 // ns from dialedAt to its first response; -1 before it
	heapIdx   int
}

// send writes the request in flight, opening a socket first if needed.
func (c *conn) send(l *loop, now int64) {
	if c.fd < 0 {
		c.dial(l, now)
		return
	}
	c.state = writing
	c.write(l, now)
}

// dial opens a non-blocking socket to the target. Connection set-up is part
// of the request's latency, as with ab without -k.
func (c *conn) dial(l *loop, now int64) {
	fd, err := unix.Socket(l.family, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		l.finish(c, errConnect, now)
		return
	}
	unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1)
	c.fd, c.reused = fd, false
	if c.dialedAt < 0 {
		c.dialedAt = now
	}
	err = unix.Connect(fd, l.sockaddr)
	switch err {
	case nil:
		c.register(l, unix.EPOLLIN|unix.EPOLLRDHUP|unix.EPOLLET, unix.EPOLL_CTL_ADD)
		c.state = writing
		c.write(l, now)
	case unix.EINPROGRESS:
		c.register(l, unix.EPOLLOUT|unix.EPOLLET, unix.EPOLL_CTL_ADD)
		c.state = connecting
	default:
		c.closeSocket(l)
		l.finish(c, errConnect, now)
	}
}

// register sets the epoll events of c's socket. The event's Fd field
// carries c's index in l.conns, not the descriptor: the loop finds the
// connection without a map. Edge-triggered: read and write run until
// EAGAIN or a complete response, so no readiness is missed, and epoll need
// not poll every ready socket again at the next wait as it does for
// level-triggered ones.
func (c *conn) register(l *loop, events uint32, op int) {
	ev := unix.EpollEvent{Events: events, Fd: int32(c.index)}
	if err := unix.EpollCtl(l.epfd, op, c.fd, &ev); err != nil {
		panic("epoll_ctl: " + err.Error()) // only a bug in the loop gets here
	}
	c.pollOut = events&unix.EPOLLOUT != 0
}

func (c *conn) closeSocket(l *loop) {
	if c.fd >= 0 {
		unix.Close(c.fd) // closing removes it from the epoll set
		c.fd, c.reused, c.pollOut = -1, false, false
	}
}

// handle reacts to epoll events on c.
func (c *conn) handle(l *loop, events uint32, now int64) {
	switch c.state {
	case connecting:
		if soErr, err := unix.GetsockoptInt(c.fd, unix.SOL_SOCKET, unix.SO_ERROR); err != nil || soErr != 0 {
			c.closeSocket(l)
			l.finish(c, errConnect, now)
			return
		}
		c.register(l, unix.EPOLLIN|unix.EPOLLRDHUP|unix.EPOLLET, unix.EPOLL_CTL_MOD)
		c.state = writing
		c.write(l, now)
	case writing:
		// Read before writing on: a server may answer while the upload is
		// still arriving (a streaming filter, an early 413), and a client
		// that only writes until it is done would deadlock against one
		// that stops reading once its own writes block.
		if events&(unix.EPOLLIN|unix.EPOLLRDHUP) != 0 {
			c.read(l, events, now)
			if c.state != writing {
				return
			}
		}
		if events&(unix.EPOLLERR|unix.EPOLLHUP) != 0 {
			c.fail(l, now)
			return
		}
		if events&unix.EPOLLOUT != 0 {
			c.write(l, now)
		}
	case reading:
		c.read(l, events, now)
	case idle:
		// An idle keep-alive socket became readable: the server closed it
		// (or sent something unasked). Drop it; the next request dials.
		c.closeSocket(l)
	}
}

func (c *conn) write(l *loop, now int64) {
	for len(c.out) > 0 {
		n, err := rawWrite(c.fd, c.out)
		if err == unix.EAGAIN {
			if !c.pollOut {
				c.register(l, unix.EPOLLIN|unix.EPOLLRDHUP|unix.EPOLLET|unix.EPOLLOUT, unix.EPOLL_CTL_MOD)
			}
			return
		}
		if err != 0 {
			c.fail(l, now)
			return
		}
		c.out = c.out[n:]
	}
	if c.pollOut {
		c.register(l, unix.EPOLLIN|unix.EPOLLRDHUP|unix.EPOLLET, unix.EPOLL_CTL_MOD)
	}
	c.state = reading
}

// read consumes what the socket has and finishes the request when the
// response is complete. events are those of the wake-up that called it.
func (c *conn) read(l *loop, events uint32, now int64) {
	for {
		n, err := rawRead(c.fd, l.buf)
		if err == unix.EAGAIN {
			return
		}
		if err != 0 {
			c.fail(l, now)
			return
		}
		if n == 0 {
			if c.resp.EOF() {
				c.complete(l, now, true, true)
			} else {
				c.fail(l, now)
			}
			return
		}
		c.got += int64(n)
		used, done, perr := c.resp.Feed(l.buf[:n])
		if perr != nil {
			c.closeSocket(l) // the stream is out of step: start afresh
			l.finish(c, errRead, now)
			return
		}
		if done && used < n {
			// Bytes after a complete response were never asked for: the
			// server miscounted its body, and the next response on this
			// socket would be read out of step.
			c.closeSocket(l)
			l.finish(c, errBody, now)
			return
		}
		if done {
			c.complete(l, now, c.resp.Close, events&unix.EPOLLRDHUP != 0)
			return
		}
		// Drained for now; epoll says when there is more. Unless the peer
		// has closed too: edge-triggered epoll reported that with this
		// data and will not again, so read on to the end of the stream.
		if n < len(l.buf) && events&unix.EPOLLRDHUP == 0 {
			return
		}
	}
}

// complete finishes the request in flight with its response. closeIt says
// the socket cannot carry another request; peerClosed that the server has
// closed its side already.
func (c *conn) complete(l *loop, now int64, closeIt, peerClosed bool) {
	switch {
	case len(c.out) > 0:
		// A response that arrived before the whole request went out leaves
		// the socket mid-request: it cannot carry another one.
		c.closeSocket(l)
	case closeIt && !peerClosed:
		c.linger(l)
	case closeIt || !l.g.keepAlive:
		c.closeSocket(l)
	default:
		c.reused = true
	}
	l.finish(c, okResponse, now)
}

// maxLingering bounds the sockets a loop keeps open for the server to
// close (linger): a server that never closes after "Connection: close"
// costs at most this many descriptors, and its sockets beyond it are
// closed at once.
const maxLingering = 4096

// linger takes c's socket from it, for the loop to close when the server
// has closed its side (or when the loop ends): the side that closes first
// holds the connection in TIME_WAIT for a minute, and a client that closed
// every connection first would hold a port each, of the ~28,000 a loopback
// client has, where ab and wrk, which read to the server's close, leave
// TIME_WAIT to the server. The request was complete when its response was:
// the wait for the close is in no latency. The epoll event of a lingering
// socket carries the complement of its descriptor, a negative number,
// where a connection's carries its index (register).
func (c *conn) linger(l *loop) {
	fd := c.fd
	c.fd, c.reused, c.pollOut = -1, false, false
	ev := unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLRDHUP | unix.EPOLLET, Fd: int32(^fd)}
	if len(l.lingering) >= maxLingering || unix.EpollCtl(l.epfd, unix.EPOLL_CTL_MOD, fd, &ev) != nil {
		unix.Close(fd)
		return
	}
	l.lingering[fd] = struct{}{}
}

// fail handles a connection that broke during a request. A keep-alive
// socket the server closed just as the request went out (a keep-alive
// timeout racing the request) gets one retry on a fresh socket, as HTTP
// clients do, but only for an idempotent method (RFC 9110 9.2.2): the
// server may have acted on a POST before it closed. Anything else is a
// read error.
func (c *conn) fail(l *loop, now int64) {
	t := &l.g.targets[c.target]
	retry := c.reused && c.got == 0 && !c.retried && t.idempotent
	c.closeSocket(l)
	if retry {
		c.retried = true
		c.out = t.raw
		c.resp.Reset()
		c.dial(l, now)
		return
	}
	l.finish(c, errRead, now)
}

// connHeap orders waiting connections by their next send time.
type connHeap struct{ a []*conn }

func (h *connHeap) len() int           { return len(h.a) }
func (h *connHeap) top() *conn         { return h.a[0] }
func (h *connHeap) less(i, j int) bool { return h.a[i].next < h.a[j].next }

func (h *connHeap) swap(i, j int) {
	h.a[i], h.a[j] = h.a[j], h.a[i]
	h.a[i].heapIdx, h.a[j].heapIdx = i, j
}

func (h *connHeap) push(c *conn) {
	c.heapIdx = len(h.a)
	h.a = append(h.a, c)
	for i := c.heapIdx; i > 0; {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		h.swap(i, p)
		i = p
	}
}

func (h *connHeap) pop() *conn {
	c := h.a[0]
	last := len(h.a) - 1
	h.swap(0, last)
	h.a = h.a[:last]
	for i := 0; ; {
		s, l, r := i, 2*i+1, 2*i+2
		if l < last && h.less(l, s) {
			s = l
		}
		if r < last && h.less(r, s) {
			s = r
		}
		if s == i {
			break
		}
		h.swap(i, s)
		i = s
	}
	c.heapIdx = -1
	return c
}
