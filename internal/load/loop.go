package load

import (
	"encoding/json"
	"math/rand/v2"
	"runtime"

	"golang.org/x/sys/unix"
)

// A loop drives a share of the connections from one OS thread with epoll,
// as wrk's threads do: no goroutine per connection, one read buffer for all
// of them, and after a response the next request is written at once rather
// than on a later writable event, so a keep-alive request costs one read and
// one write system call plus a share of an epoll_wait.
type loop struct {
	r        *runner
	epfd     int
	family   int
	sockaddr unix.Sockaddr // per loop: unix.Connect writes into it
	conns    []*conn
	events   []unix.EpollEvent
	buf      []byte
	ts       unix.Timespec
	pwait2   bool
	rng      *rand.Rand
	measured []*stream // per target
	warm     []*stream // per target; nil without warm-up
	due      connHeap  // connections waiting for their next send time
	inflight int

	sec       int        // second of the timeline being accumulated
	secAgg    *secondAgg // what completed in that second, this loop only
	measuring bool
	cpuStart  unix.Rusage
	cpuNS     int64 // thread CPU time during the measured part
	stopping  bool
	drainEnd  int64
	nextCheck int64 // next scan for timed-out requests
}

func newLoop(r *runner, seed uint64) (*loop, error) {
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil, err
	}
	l := &loop{
		r: r, epfd: epfd, pwait2: true,
		events: make([]unix.EpollEvent, 256),
		buf:    make([]byte, 64<<10),
		rng:    rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)),
		secAgg: &secondAgg{hist: newSecondHist()},
	}
	l.family, l.sockaddr = sockaddr(r.addr)
	for range r.targets {
		l.measured = append(l.measured, newStream())
		if r.warmEnd > 0 {
			l.warm = append(l.warm, newStream())
		}
	}
	return l, nil
}

// add gives the loop a connection; id numbers it across all loops, which
// places its first intended send time in the open loop.
func (l *loop) add(id int) {
	c := &conn{id: id, fd: -1, index: len(l.conns), heapIdx: -1}
	if l.r.interval > 0 {
		// Connection i starts i/R seconds in and then sends every C/R
		// seconds: together the connections send at rate R, and each one
		// keeps its own schedule, so a connection stuck on a slow response
		// falls behind on its own requests only (wrk2's semantics).
		c.next = int64(id) * l.r.interval / int64(l.r.conns)
	}
	l.conns = append(l.conns, c)
	l.due.push(c)
}

// run drives the connections until the load ends and everything in flight
// has finished or been given up. It occupies its OS thread throughout, so
// the thread's CPU time is the generator's.
func (l *loop) run() {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer unix.Close(l.epfd)
	for {
		now := l.r.now()
		if !l.measuring && now >= l.r.warmEnd {
			l.measuring = true
			unix.Getrusage(unix.RUSAGE_THREAD, &l.cpuStart)
		}
		if !l.stopping && (now >= l.r.end || l.r.stop.Load()) {
			l.stopping = true
			l.drainEnd = now + l.r.drain.Load()
		}
		if l.stopping && (l.inflight == 0 || now >= l.drainEnd) {
			l.abandon(now)
			break
		}
		if now >= l.nextCheck {
			l.expire(now)
		}
		for !l.stopping && l.due.len() > 0 && l.due.top().next <= now {
			l.start(l.due.pop(), now)
		}
		n := l.wait(l.waitUntil(now) - now)
		for i := 0; i < n; i++ {
			// A clock reading per event, not per batch: the request that
			// follows a response is written now, and its latency starts now.
			ev := &l.events[i]
			l.conns[ev.Fd].handle(l, ev.Events, l.r.now())
		}
	}
	l.flushSecond()
	if l.measuring {
		var ru unix.Rusage
		unix.Getrusage(unix.RUSAGE_THREAD, &ru)
		l.cpuNS = cpuNS(&ru) - cpuNS(&l.cpuStart)
	}
	for _, c := range l.conns {
		c.closeSocket(l)
	}
}

func cpuNS(ru *unix.Rusage) int64 {
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// waitUntil is when the loop must wake even if no socket is ready.
func (l *loop) waitUntil(now int64) int64 {
	t := min(l.nextCheck, now+10e6) // wake at least every 10 ms for Ctrl-C and -n
	if l.stopping {
		return min(t, l.drainEnd)
	}
	t = min(t, l.r.end)
	if now < l.r.warmEnd {
		t = min(t, l.r.warmEnd)
	}
	if l.due.len() > 0 {
		t = min(t, l.due.top().next)
	}
	return t
}

// wait returns the events that are ready, blocking for at most ns
// nanoseconds. epoll_pwait2 takes a nanosecond timeout; plain epoll_wait
// rounds to milliseconds, which would send open-loop requests up to a
// millisecond late and add that to their latency, so it is only the
// fallback for kernels older than 5.11. See sys.go for raw and blocking
// calls.
func (l *loop) wait(ns int64) int {
	if l.pwait2 {
		var n int
		var e unix.Errno
		if l.r.ownP {
			l.ts = unix.NsecToTimespec(max(ns, 0))
			n, e = epollPwait2(l.epfd, l.events, &l.ts, false)
		} else {
			// Under load something is nearly always ready: poll first,
			// and tell the runtime only when the wait may block.
			l.ts = unix.Timespec{}
			n, e = epollPwait2(l.epfd, l.events, &l.ts, false)
			if e == 0 && n == 0 && ns > 0 {
				l.ts = unix.NsecToTimespec(ns)
				n, e = epollPwait2(l.epfd, l.events, &l.ts, true)
			}
		}
		switch e {
		case 0:
			return n
		case unix.EINTR:
			return 0
		case unix.ENOSYS:
			l.pwait2 = false
		default:
			panic("epoll_pwait2: " + e.Error()) // only a bug in the loop gets here
		}
	}
	n, err := unix.EpollWait(l.epfd, l.events, int((max(ns, 0)+999_999)/1e6))
	if err == unix.EINTR {
		return 0
	}
	if err != nil {
		panic("epoll_wait: " + err.Error())
	}
	return n
}

// start begins the next request of c, due at c.next in the open loop or
// now in the closed loop.
func (l *loop) start(c *conn, now int64) {
	r := l.r
	intended := now
	if r.interval > 0 {
		intended = c.next
	}
	if intended >= r.end {
		return // the connection's schedule has run past the end
	}
	c.warm = intended < r.warmEnd
	if !c.warm && r.max > 0 && r.tickets.Add(1) > r.max {
		r.stop.Store(true)
		return
	}
	c.target = 0
	if len(r.targets) > 1 {
		x := l.rng.Float64()
		for c.target < len(r.targets)-1 && x >= r.targets[c.target].cumul {
			c.target++
		}
	}
	t := &r.targets[c.target]
	c.intended, c.deadline = intended, now+r.timeout
	c.out, c.got, c.retried = t.raw, 0, false
	c.resp.reset()
	c.resp.keepBody, c.resp.noBody = r.expectJSON, t.head
	l.inflight++
	c.send(l, now)
}

// finish records the request in flight on c and schedules its next one.
func (l *loop) finish(c *conn, class int, now int64) {
	r := l.r
	if class == okResponse {
		if c.resp.status != r.expect {
			class = errStatus
		} else if r.expectJSON && !json.Valid(c.resp.body) {
			class = errBody
		}
	}
	latency := now - c.intended
	if c.warm {
		s := l.warm[c.target]
		s.record(class, c.resp.status, latency)
		s.bytes += c.got
	} else {
		s := l.measured[c.target]
		s.record(class, c.resp.status, latency)
		s.bytes += c.got
		l.tick(class, latency, now)
	}
	l.inflight--
	c.state = idle
	switch {
	case r.interval > 0:
		c.next += r.interval
	case class == errConnect:
		// Nothing listens: retrying at once would spin and count thousands
		// of connect errors a second.
		c.next = now + 10e6
	default:
		c.next = now
	}
	// Even when the next request is due now it waits for the end of this
	// batch of events: the requests then reach the server in a burst, as
	// wrk's do, which costs a Go server measurably less per request than
	// requests trickling in one by one.
	l.due.push(c)
}

// tick adds a measured request to the timeline and the progress count.
func (l *loop) tick(class int, latency, now int64) {
	sec := int((now - l.r.warmEnd) / 1e9)
	if l.r.seconds > 0 {
		sec = min(sec, l.r.seconds-1) // the drain after the end joins the last second
	}
	if sec != l.sec {
		l.flushSecond()
		l.sec = sec
	}
	l.secAgg.requests++
	if class == errConnect || class == errTimeout || class == errRead {
		l.secAgg.errors++
	} else {
		if class != okResponse {
			l.secAgg.errors++
		}
		l.secAgg.hist.RecordValue(max(latency/1000, 1))
	}
	l.r.done.Add(1)
}

func (l *loop) flushSecond() {
	if l.secAgg.requests == 0 {
		return
	}
	l.r.tl.add(max(l.sec, 0), l.secAgg)
	l.secAgg.requests, l.secAgg.errors = 0, 0
	l.secAgg.hist.Reset()
}

// expire fails the requests that have waited longer than the timeout.
func (l *loop) expire(now int64) {
	l.nextCheck = now + min(l.r.timeout/10, 100e6)
	for _, c := range l.conns {
		if c.state != idle && now >= c.deadline {
			c.closeSocket(l)
			l.finish(c, errTimeout, now)
		}
	}
}

// abandon gives up the requests still in flight when the drain after the
// end ran out: they are counted as timeouts, never dropped, so the counts
// balance.
func (l *loop) abandon(now int64) {
	l.stopping = true
	for _, c := range l.conns {
		if c.state != idle {
			c.closeSocket(l)
			l.finish(c, errTimeout, now)
		}
	}
}
