package load

import (
	"math"
	"slices"

	"restbench/internal/result"
)

// account adds what makes the counts of res checkable: the open loop's due,
// sent and missed, the spread of completions over the connections, the
// closed loop's Little's-law check, and the flags they raise.
func (g *generator) account(res *result.Load) {
	// Missed requests sit in the censored series of the total (they have no
	// target); they are not requests sent, so the balance
	// requests = responses + errors + unfinished leaves them out.
	var missed int64
	for _, l := range g.loops {
		missed += l.missed.unfinished
	}
	res.Unfinished -= missed
	res.Requests -= missed

	if g.rate > 0 {
		res.TargetRPS = g.rate
		// A -n load that ran out owes nothing more: its due are the n it
		// sent, none missed. A closed window adds the arrivals it never sent.
		for _, l := range g.loops {
			res.Due += l.arrival - l.sentBefore
			res.Sent += l.sent
		}
		res.Missed = missed
		res.ConnectionsNeeded = result.NeededConnections(g.rate, res.Service)
	}

	var done []int64
	stalled := 0
	for _, l := range g.loops {
		for _, c := range l.conns {
			if !c.busy {
				continue // never had work in the window: idle, not stalled
			}
			done = append(done, c.completed)
			if c.completed == 0 {
				stalled++
			}
		}
	}
	if len(done) > 0 {
		slices.Sort(done)
		res.PerConnection = &result.PerConnection{Min: done[0], Median: done[len(done)/2], Max: done[len(done)-1], Stalled: stalled,
			FirstResponseMS: g.firstResponses()}
	}

	// Little's law holds for a closed loop whose connections are all busy
	// all the time: one whose window a deadline or a stop closed. A -n load
	// that ran out of requests ends with connections going idle one by one,
	// and the law says nothing about that tail.
	if g.rate == 0 && windowClosed(g) && res.DurationS > 0 {
		var sum int64
		for _, l := range g.loops {
			sum += l.inWindow
		}
		res.Little = little(g.conns, sum, res.DurationS)
	}
	res.Flags = append(res.Flags, result.ValidityFlags(res)...)
}

// firstResponses summarises the connections' times from their first connect
// attempt to their first response.
func (g *generator) firstResponses() *result.FirstResponse {
	var ns []int64
	for _, l := range g.loops {
		for _, c := range l.conns {
			if c.firstResp >= 0 {
				ns = append(ns, c.firstResp)
			}
		}
	}
	if len(ns) == 0 {
		return nil
	}
	slices.Sort(ns)
	ms := func(q float64) float64 { // nearest rank
		return float64(ns[max(int(math.Ceil(q*float64(len(ns))))-1, 0)]) / 1e6
	}
	return &result.FirstResponse{Connections: len(ns), Min: ms(0), Median: ms(0.5), P99: ms(0.99), Max: ms(1)}
}

// windowClosed says whether the loops closed the window (a -d deadline or a
// stop) rather than running out of requests (-n).
func windowClosed(g *generator) bool {
	for _, l := range g.loops {
		if l.closedAt > 0 {
			return true
		}
	}
	return false
}

// little checks L = lambda x W over the window. lambda counts every
// request that spent time in the window (completed, failed, unfinished) per
// second; W is their mean time in flight within the window, so that a
// request sent in the warm-up or still running at the close counts the part
// of its latency the window saw, and no more. Their product, the summed
// time in flight over the window's length, is the mean number of requests
// in flight: a closed loop keeps every connection busy, so it must come to
// the connection count. A request the books lost, or a connection idle for
// a reason nobody reported, makes it fall short.
func little(conns int, inWindowNS int64, seconds float64) *result.Little {
	l := &result.Little{Connections: conns}
	if seconds > 0 {
		l.InFlight = float64(inWindowNS) / 1e9 / seconds
		l.Ratio = l.InFlight / float64(conns)
	}
	return l
}
