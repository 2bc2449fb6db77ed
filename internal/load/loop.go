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
	g        *generator
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
	idle     connHeap  // connections without a request, by when they may send next
	inflight int
	// lingering are sockets whose response is complete, left open for the
	// server to close first (conn.linger), by descriptor.
	lingering map[int]struct{}

	// Open loop: this loop's share of the schedule. Arrival j of the whole
	// schedule is due at j*interval ns and belongs to connection j % cycle;
	// slots lists this loop's connections, so its own arrival k is arrival
	// (k/len(slots))*cycle + slots[k%len(slots)] (newLoops). arrival is the
	// first one not yet sent, so every arrival before it went out and every
	// due one from it on waits for a free connection (its latency runs from
	// its due time all the same).
	slots      []int64
	cycle      int64
	interval   float64 // 0: closed loop
	arrival    int64
	sentBefore int64   // arrivals sent before the window opened
	sent       int64   // arrivals sent within the window
	missed     *stream // arrivals due before the window closed and never sent

	// inWindow sums the time requests spent in flight within the window
	// (ns), completed, failed and unfinished alike: divided by the window's
	// length it is the mean number in flight, which Little's law checks.
	inWindow int64

	sec        int        // second of the timeline being accumulated
	secAgg     *secondAgg // what completed in that second, this loop only
	measuring  bool
	cpuStart   unix.Rusage
	cpuNS      int64 // thread CPU time during the measured part
	cpuTaken   bool  // cpuNS is final (stopCPU)
	ticketsOut bool  // -n: every measured request has been sent
	closedAt   int64 // when this loop closed the window (ns since base); 0: it ran out of requests (-n)
	draining   bool  // the window has closed and the loop waits for what is in flight (Config.Drain)
	drainedAt  int64 // when the drain ended, or its last response came (ns since base); 0: the loop did not drain
	nextCheck  int64 // next scan for timed-out requests
}

func newLoop(g *generator, seed uint64) (*loop, error) {
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil, err
	}
	l := &loop{
		g: g, epfd: epfd, pwait2: true,
		events:    make([]unix.EpollEvent, 256),
		buf:       make([]byte, 64<<10),
		rng:       rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)),
		secAgg:    &secondAgg{hist: newSecondHist()},
		missed:    newStream(),
		lingering: map[int]struct{}{},
	}
	l.family, l.sockaddr = sockaddr(g.addr)
	for range g.targets {
		l.measured = append(l.measured, newStream())
		if g.warmEnd > 0 {
			l.warm = append(l.warm, newStream())
		}
	}
	return l, nil
}

// add gives the loop a connection, not yet on the idle heap; id numbers it
// across all loops.
func (l *loop) add(id int) *conn {
	c := &conn{id: id, fd: -1, index: len(l.conns), heapIdx: -1, dialedAt: -1, firstResp: -1}
	l.conns = append(l.conns, c)
	return c
}

// due is when this loop's arrival k of the open loop should be sent.
func (l *loop) due(k int64) int64 {
	n := int64(len(l.slots))
	return int64(float64(k/n*l.cycle+l.slots[k%n]) * l.interval)
}

// run drives the connections until the window closes (-d, Ctrl-C, the end
// of the main load for the probe) or, with -n, until every measured request
// has completed or timed out. It occupies its OS thread throughout, so the
// thread's CPU time is the generator's.
func (l *loop) run() {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer unix.Close(l.epfd)
	g := l.g
	for {
		now := g.now()
		if !l.measuring && now >= g.warmEnd {
			l.measuring = true
			unix.Getrusage(unix.RUSAGE_THREAD, &l.cpuStart)
		}
		if now >= g.end || g.stop.Load() {
			if !l.draining && now >= g.end && l.drains() && l.inflight > 0 && !g.stop.Load() {
				// The window is closed: nothing more is sent, what was due
				// and never sent is missed, and the loop waits for the
				// requests in flight (finish files them as drained).
				l.draining = true
				l.censorMissed(g.end)
				l.stopCPU() // the drain's waiting is not the window's
			}
			if !l.draining {
				at := min(now, g.end)
				l.closeWindow(at, at)
				break
			}
			if l.inflight == 0 || now >= g.end+g.drain || g.stop.Load() {
				l.drainedAt = now
				l.closeWindow(g.end, now)
				break
			}
		}
		if l.ticketsOut && l.inflight == 0 {
			break
		}
		if now >= l.nextCheck {
			l.expire(now)
			// Hand the last second over even when nothing completes now,
			// so that the timeline can finish it (timeline's comment).
			if sec := l.secondOf(now); now >= g.warmEnd && sec != l.sec {
				l.flushSecond()
				l.sec = sec
			}
		}
		l.startDue(now)
		n := l.wait(l.waitUntil(now) - now)
		for i := 0; i < n; i++ {
			// A clock reading per event, not per batch: the request that
			// follows a response is written now, and its latency starts now.
			ev := &l.events[i]
			if ev.Fd < 0 {
				// The server closed a lingering socket (or sent what was
				// never asked for): the client's close now leaves no
				// TIME_WAIT here.
				fd := int(^ev.Fd)
				unix.Close(fd)
				delete(l.lingering, fd)
				continue
			}
			l.conns[ev.Fd].handle(l, ev.Events, g.now())
		}
	}
	l.flushSecond()
	l.stopCPU()
	for _, c := range l.conns {
		c.closeSocket(l)
	}
	for fd := range l.lingering {
		unix.Close(fd)
	}
}

// startDue sends what is due now. The closed loop sends on every idle
// connection. The open loop sends each due arrival on the connection idle
// longest and, when none is idle, opens another one if --max-connections
// allows (k6's remedy); otherwise the arrival waits for a connection.
func (l *loop) startDue(now int64) {
	g := l.g
	if l.interval == 0 {
		for l.idle.len() > 0 && l.idle.top().next <= now && l.ticket(now) {
			l.start(l.idle.pop(), now, now)
		}
		return
	}
	for !l.ticketsOut {
		due := l.due(l.arrival)
		if due > now || due >= g.end {
			return
		}
		var c *conn
		switch {
		case l.idle.len() > 0 && l.idle.top().next <= now:
			c = l.idle.pop()
		default:
			id, ok := g.openConn()
			if !ok {
				return
			}
			c = l.add(id)
		}
		if !l.ticket(now) {
			l.idle.push(c)
			return
		}
		l.start(c, due, now)
		l.arrival++
		if now >= g.warmEnd {
			l.sent++
		} else {
			l.sentBefore++
		}
	}
}

// waitUntil is when the loop must wake even if no socket is ready.
func (l *loop) waitUntil(now int64) int64 {
	g := l.g
	if l.draining {
		return min(l.nextCheck, now+10e6, g.end+g.drain)
	}
	t := min(l.nextCheck, now+10e6, g.end) // wake at least every 10 ms for Ctrl-C
	if now < g.warmEnd {
		t = min(t, g.warmEnd)
	}
	if l.idle.len() > 0 && !l.ticketsOut {
		next := l.idle.top().next
		if l.interval > 0 {
			// A free connection waits for the next arrival.
			next = max(next, l.due(l.arrival))
		}
		t = min(t, next)
	}
	return t
}

// stopCPU takes the thread's CPU time over the measured part, once: when
// the window closes, before a drain.
func (l *loop) stopCPU() {
	if l.measuring && !l.cpuTaken {
		var ru unix.Rusage
		unix.Getrusage(unix.RUSAGE_THREAD, &ru)
		l.cpuNS = cpuNS(&ru) - cpuNS(&l.cpuStart)
		l.cpuTaken = true
	}
}

func cpuNS(ru *unix.Rusage) int64 {
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// wait returns the events that are ready, blocking for at most ns
// nanoseconds, in a raw system call (sys.go: the loop has a P to itself).
// epoll_pwait2 takes a nanosecond timeout; epoll_pwait rounds to
// milliseconds, which would send open-loop requests up to a millisecond
// late and add that to their latency, so it is only the fallback where
// epoll_pwait2 is refused: ENOSYS from a kernel older than 5.11, EPERM from
// a seccomp profile that does not know the call (container runtimes',
// Kubernetes pods' among them).
func (l *loop) wait(ns int64) int {
	if l.pwait2 {
		l.ts = unix.NsecToTimespec(max(ns, 0))
		n, e := epollPwait2(l.epfd, l.events, &l.ts)
		switch e {
		case 0:
			return n
		case unix.EINTR:
			return 0
		case unix.ENOSYS, unix.EPERM:
			l.pwait2 = false
		default:
			panic("epoll_pwait2: " + e.Error()) // only a bug in the loop gets here
		}
	}
	n, e := epollPwait(l.epfd, l.events, int((max(ns, 0)+999_999)/1e6))
	switch e {
	case 0:
		return n
	case unix.EINTR:
		return 0
	default:
		panic("epoll_pwait: " + e.Error())
	}
}

// ticket says whether the request about to start may: with -n, every
// request sent after the warm-up takes one of the n tickets, and when they
// are gone the loop sends no more.
func (l *loop) ticket(now int64) bool {
	g := l.g
	if g.max > 0 && now >= g.warmEnd && !l.ticketsOut && g.tickets.Add(1) > g.max {
		l.ticketsOut = true
	}
	return !l.ticketsOut
}

// start begins a request on c: now in the closed loop, its arrival's due
// time in the open loop.
func (l *loop) start(c *conn, intended, now int64) {
	g := l.g
	if now >= g.warmEnd {
		c.busy = true
	}
	c.target = 0
	if len(g.targets) > 1 {
		x := l.rng.Float64()
		for c.target < len(g.targets)-1 && x >= g.targets[c.target].cumul {
			c.target++
		}
	}
	t := &g.targets[c.target]
	c.intended, c.sentAt, c.deadline = intended, now, now+g.timeout
	c.out, c.got, c.retried = t.raw, 0, false
	c.resp.Reset()
	c.resp.KeepBody, c.resp.NoBody = g.expectJSON, t.head
	l.inflight++
	c.send(l, now)
}

// finish records the request in flight on c, by its completion time: in
// the window with its full latency when it completes after the window
// opened, however long before that it was sent.
func (l *loop) finish(c *conn, class int, now int64) {
	g := l.g
	l.inflight--
	c.state = idle
	if class == okResponse {
		if c.resp.Status != g.expect {
			class = errStatus
		} else if g.expectJSON && !json.Valid(c.resp.Body) {
			class = errBody
		}
	}
	if now >= g.end {
		// In flight when the window closed.
		c.busy = true
		l.inWindow += g.end - max(c.intended, g.warmEnd)
		s := l.streamsAt(now)[c.target]
		switch {
		case !l.drains():
			// Without a drain (a late event of the last batch): at the
			// close it was unfinished, and its age then is what is known.
			s.censor(g.end - c.intended)
		case class == errConnect || class == errTimeout || class == errRead:
			// The drain waits for responses: a request that fails in it
			// is as unfinished as one the drain gave up on, its age now a
			// lower bound; the error counts are the window's.
			s.censor(now - c.intended)
		default:
			s.record(class, c.resp.Status, now-c.intended, now-c.sentAt)
			s.bytes += c.got
			s.drained++
			if class != okResponse {
				s.drainedBad++
			}
			l.drainedAt = max(l.drainedAt, now)
		}
		return
	}
	if c.firstResp < 0 && (class == okResponse || class >= errStatus) {
		c.firstResp = now - c.dialedAt
	}
	latency, service := now-c.intended, now-c.sentAt
	s := l.streamsAt(now)[c.target]
	s.record(class, c.resp.Status, latency, service)
	s.bytes += c.got
	if now >= g.warmEnd {
		c.busy = true
		c.completed++
		l.inWindow += now - max(c.intended, g.warmEnd)
		l.tick(class, latency, now)
	}
	c.next = now
	if class == errConnect {
		// Nothing listens: retrying at once would spin and count thousands
		// of connect errors a second.
		c.next = now + 10e6
	}
	// Even when the next request is due now it waits for the end of this
	// batch of events: the requests then reach the server in a burst, as
	// wrk's do, which costs a Go server measurably less per request than
	// requests trickling in one by one.
	l.idle.push(c)
}

// streamsAt is where a request that ends at now is filed: the warm-up
// before the window opens, the measured window after.
func (l *loop) streamsAt(now int64) []*stream {
	if now < l.g.warmEnd {
		return l.warm
	}
	return l.measured
}

// tick adds a measured request to the timeline and the progress count.
func (l *loop) tick(class int, latency, now int64) {
	if sec := l.secondOf(now); sec != l.sec {
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
	l.g.done.Add(1)
}

// secondOf is the second of the window that now falls in.
func (l *loop) secondOf(now int64) int {
	sec := int((now - l.g.warmEnd) / 1e9)
	if l.g.seconds > 0 {
		sec = min(sec, l.g.seconds-1)
	}
	return sec
}

func (l *loop) flushSecond() {
	if l.secAgg.requests == 0 {
		return
	}
	l.g.tl.add(max(l.sec, 0), l.secAgg)
	l.secAgg.requests, l.secAgg.errors = 0, 0
	l.secAgg.hist.Reset()
}

// expire fails the requests that have waited longer than the timeout: the
// only way a request becomes a timeout.
func (l *loop) expire(now int64) {
	l.nextCheck = now + min(l.g.timeout/10, 100e6)
	for _, c := range l.conns {
		if c.state != idle && now >= c.deadline {
			c.closeSocket(l)
			l.finish(c, errTimeout, now)
		}
	}
}

// closeWindow ends the load at the instant at: every request still in
// flight is unfinished, neither a completion nor a timeout, and its age
// then is a lower bound of its latency. In the open loop every arrival due
// before then that never went out is missed, and its wait so far is a lower
// bound too; both go to the censored series (docs/results.md).
//
// A drain closes the window at the same instant and calls this when it
// ends, at now: what it left in flight is unfinished with its age now.
func (l *loop) closeWindow(at, now int64) {
	l.closedAt = at
	streams := l.streamsAt(at)
	for _, c := range l.conns {
		if c.state != idle {
			c.closeSocket(l)
			c.state = idle
			l.inflight--
			if at >= l.g.warmEnd {
				c.busy = true
				l.inWindow += at - max(c.intended, l.g.warmEnd)
			}
			streams[c.target].censor(now - c.intended)
		}
	}
	l.censorMissed(at)
}

// drains says whether this loop waits for its requests in flight after the
// window closes: only an open loop has a drain (Config.drain).
func (l *loop) drains() bool { return l.g.drain > 0 }

// censorMissed files every arrival of the open loop due before at that was
// never sent as missed, its wait until at a lower bound of its latency.
func (l *loop) censorMissed(at int64) {
	if l.interval > 0 {
		for due := l.due(l.arrival); due < at; due = l.due(l.arrival) {
			// A -n load owes its n requests and no more: a missed arrival
			// takes the ticket it would have been sent with.
			if at >= l.g.warmEnd && l.g.max > 0 && l.g.tickets.Add(1) > l.g.max {
				break
			}
			l.missed.censor(at - due)
			l.arrival++
		}
	}
}
