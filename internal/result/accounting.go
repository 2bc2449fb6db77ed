package result

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
)

// LittleTolerance is how far a closed loop's Little's-law ratio may stray
// from 1 before the result is flagged inconsistent.
const LittleTolerance = 0.10

// BehindSchedule is the share of its target rate below which an open loop
// is flagged behind-schedule, AheadOfSchedule the share above which it is
// flagged ahead-of-schedule.
const (
	BehindSchedule  = 0.95
	AheadOfSchedule = 1.05
)

// ConnectionBound is the share of its connections an open loop's rate may
// need (target × mean service time) before the connections, not the
// server, limit it: at 90 % a burst finds every connection busy.
const ConnectionBound = 0.90

// ServerBound is the share of its CPUs (Load.ServerCPUShare) a server must
// use over the window to count as saturated. A saturated server serves at
// its capacity whatever the connections: when a rate then needs them all,
// its queue, not their number, set the service time (by Little's law an
// open loop whose every connection is busy measures a service time of
// connections ÷ achieved rate, whoever fell behind), and more connections
// would only move the wait from the generator into the server. Such a
// load is behind-schedule (or on schedule) on its own overload, never
// connection-bound; the flag stays for a server with CPU to spare, which
// the connections did hold back. The server's own CPU, not its core's: a
// neighbour that took the core starved the server, and reading that as
// the server's overload would make its latency a floor that a claim could
// hold on; such a load keeps the flag and reads not comparable.
const ServerBound = 0.90

// CensoredShare is the share of the responses that unfinished requests
// older than the median latency may reach before the latency figures are
// flagged censored: those requests' latencies, all above the median, are
// missing from them.
const CensoredShare = 0.01

// CheckAccounting returns every accounting invariant l breaks, joined, or
// nil. They are the definitions of docs/results.md; the generator's tests,
// merge and the placement test call it on every result they make, so that
// no code path can lose or double count a request unnoticed:
//
//   - each stream balances: requests = responses + connect + timeout + read
//     errors + unfinished; status and body errors are responses; status
//     codes add up to the responses; the latency and service histograms
//     hold one value per response, the censored one per unfinished request
//     (at the top level of an open loop, per unfinished or missed one);
//   - the targets of a mix add up to the whole;
//   - the timeline adds up to what finished in the window: requests −
//     unfinished − drained;
//   - rates agree with counts over the window (the drained came after it);
//   - only an open loop drains, within its drain_s;
//   - an open loop (a restbench one, with -d or -n) owes what was due:
//     due = sent + missed; without -n, due is at least target × window (it
//     also holds arrivals still waiting when the window opened), to within
//     one arrival per connection and 1 %; every request sent in the window
//     is counted, so sent ≤ requests ≤ sent + the connections that can have
//     carried a request into the window;
//   - per-connection counts are ordered, a connection that completed nothing
//     is stalled, and none completed more than the window did; first-response
//     times are ordered;
//   - the Little's-law record and the flags say what the numbers say.
func CheckAccounting(l *Load) error {
	var errs []error
	fail := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	checkStats := func(name string, s *Stats, seconds float64, missed int64) {
		if s == nil {
			return
		}
		if err := checkStats(s, seconds, missed); err != nil {
			fail("%s: %w", name, err)
		}
	}
	checkStats("load", &l.Stats, l.DurationS, l.Missed)
	checkStats("probe", l.Probe, l.DurationS, 0)
	if l.Warmup != nil {
		checkStats("warmup", l.Warmup, l.Settings.WarmupS, 0)
	}
	if l.Missed < 0 || l.Due < 0 || l.Sent < 0 {
		fail("open loop: due %d, sent %d, missed %d", l.Due, l.Sent, l.Missed)
	}
	if len(l.Targets) > 0 {
		var sum Stats
		for _, name := range sortedKeys(l.Targets) {
			t := l.Targets[name]
			checkStats("target "+name, t, l.DurationS, 0)
			sum.Requests += t.Requests
			sum.Responses += t.Responses
			sum.Unfinished += t.Unfinished
			sum.Drained += t.Drained
			sum.BytesRead += t.BytesRead
			sum.Errors.Add(t.Errors)
		}
		if sum.Requests != l.Requests || sum.Responses != l.Responses || sum.Unfinished != l.Unfinished || sum.Drained != l.Drained || sum.Errors != l.Errors || sum.BytesRead != l.BytesRead {
			fail("targets add up to %d requests, %d responses, %d unfinished, %d drained, %d bytes, errors %+v; the whole says %d, %d, %d, %d, %d, %+v",
				sum.Requests, sum.Responses, sum.Unfinished, sum.Drained, sum.BytesRead, sum.Errors, l.Requests, l.Responses, l.Unfinished, l.Drained, l.BytesRead, l.Errors)
		}
	}
	// wrk and ab keep no timeline; a restbench result that finished
	// anything has one.
	if len(l.Timeline) > 0 {
		var n, e int64
		for _, s := range l.Timeline {
			n += s.Requests
			e += s.Errors
			if s.Errors > s.Requests || s.Requests < 0 {
				fail("timeline second %d: %d errors among %d requests", s.T, s.Errors, s.Requests)
			}
		}
		if finished := l.FinishedInWindow(); n != finished {
			fail("the timeline holds %d requests, but %d finished in the window (%d requests − %d unfinished − %d drained)", n, finished, l.Requests, l.Unfinished, l.Drained)
		}
	}
	if l.Drained > 0 || l.DrainMS > 0 {
		// A drain waits at most drain_s; the loops notice its end within
		// about 10 ms, and a late batch of events adds a little.
		if l.TargetRPS <= 0 || l.Settings.DrainS <= 0 {
			fail("drain: %d drained in %.1f ms, but only an open loop with a drain (drain_s %.3f, %.1f req/s asked for) drains", l.Drained, l.DrainMS, l.Settings.DrainS, l.TargetRPS)
		} else if l.DrainMS < 0 || l.DrainMS > 1000*l.Settings.DrainS+1000 || (l.Drained > 0 && l.DrainMS == 0) {
			fail("drain: %d drained in %.1f ms, against a drain of %.3f s", l.Drained, l.DrainMS, l.Settings.DrainS)
		}
	}
	// Every restbench open loop counts due, sent and missed, a -n load
	// that ran out of requests too (it owed the n it sent). Other engines
	// keep no schedule.
	if l.Due > 0 || l.Sent > 0 || l.Missed > 0 || (l.TargetRPS > 0 && l.DurationS > 0 && l.Settings.OwnGenerator()) {
		if l.Due != l.Sent+l.Missed {
			fail("open loop: due %d, but sent %d + missed %d = %d", l.Due, l.Sent, l.Missed, l.Sent+l.Missed)
		}
		conns := int64(max(l.Settings.Connections, l.Settings.MaxConnections))
		if l.Requests < l.Sent || l.Requests > l.Sent+conns {
			fail("open loop: %d requests, but %d were sent in the window and at most %d more can have been in flight when it opened: a request was lost or counted twice",
				l.Requests, l.Sent, conns)
		}
		// A -n load owes its n requests, however long the window.
		if due := l.TargetRPS * l.DurationS; l.TargetRPS > 0 && l.Settings.MaxRequests == 0 && float64(l.Due) < due-float64(conns)-0.01*due {
			fail("open loop: %.0f requests were due in the window (%.1f/s × %.2f s), but due says %d", due, l.TargetRPS, l.DurationS, l.Due)
		}
	}
	if lt := l.Little; lt != nil {
		if lt.Connections <= 0 {
			fail("little: %d connections", lt.Connections)
		} else if r := lt.InFlight / float64(lt.Connections); math.Abs(r-lt.Ratio) > 1e-6*max(1, r) {
			fail("little: ratio %.4f, but in flight %.2f / %d connections = %.4f", lt.Ratio, lt.InFlight, lt.Connections, r)
		}
		if l.TargetRPS > 0 {
			fail("little: an open loop (%.1f req/s asked for) has no Little's-law check: its connections are not always busy", l.TargetRPS)
		}
		off := math.Abs(lt.Ratio-1) > LittleTolerance
		if off != slices.Contains(l.Flags, FlagInconsistent) {
			fail("little: ratio %.3f, flags %v (flag %q exactly when the ratio is outside %.2f..%.2f)",
				lt.Ratio, l.Flags, FlagInconsistent, 1-LittleTolerance, 1+LittleTolerance)
		}
	} else if slices.Contains(l.Flags, FlagInconsistent) {
		fail("flag %q without a Little's-law check", FlagInconsistent)
	}
	if pc := l.PerConnection; pc != nil {
		if pc.Min < 0 || pc.Min > pc.Median || pc.Median > pc.Max || pc.Stalled < 0 {
			fail("per connection: min %d, median %d, max %d, stalled %d are out of order", pc.Min, pc.Median, pc.Max, pc.Stalled)
		}
		if f := pc.FirstResponseMS; f != nil && (f.Connections <= 0 || f.Min < 0 || f.Min > f.Median || f.Median > f.P99 || f.P99 > f.Max) {
			fail("per connection: first response min %.3f, median %.3f, p99 %.3f, max %.3f ms over %d connections are out of order", f.Min, f.Median, f.P99, f.Max, f.Connections)
		}
		if (pc.Min == 0) != (pc.Stalled > 0) {
			fail("per connection: min %d completions, but %d stalled (a stalled connection is one that completed nothing)", pc.Min, pc.Stalled)
		}
		if finished := l.FinishedInWindow(); pc.Max > finished {
			fail("per connection: one connection completed %d, more than the %d the window did", pc.Max, finished)
		}
		if (pc.Stalled > 0) != slices.Contains(l.Flags, FlagStalledConnections) {
			fail("per connection: %d stalled, flags %v", pc.Stalled, l.Flags)
		}
	} else if slices.Contains(l.Flags, FlagStalledConnections) {
		fail("flag %q without per-connection counts", FlagStalledConnections)
	}
	if l.TargetRPS > 0 && l.DurationS > 0 {
		behind := l.RPS < BehindSchedule*l.TargetRPS
		if behind != slices.Contains(l.Flags, FlagBehindSchedule) {
			fail("open loop: %.1f of %.1f req/s, flags %v (flag %q below %.0f %%)",
				l.RPS, l.TargetRPS, l.Flags, FlagBehindSchedule, 100*BehindSchedule)
		}
		if want := NeededConnections(l.TargetRPS, l.Service); l.Service != nil && !near(l.ConnectionsNeeded, want) {
			fail("open loop: connections_needed %.2f, but %.1f req/s × %.3f ms service = %.2f", l.ConnectionsNeeded, l.TargetRPS, l.Service.Mean, want)
		}
	}
	if want := ValidityFlags(l); !sameLoadFlags(l.Flags, want) {
		fail("flags %v, but the counts say %v (result.ValidityFlags)", l.Flags, want)
	}
	return errors.Join(errs...)
}

// checkStats checks one stream; missed is the open loop's missed requests
// when s is the top level, whose censored series holds their waits too.
func checkStats(s *Stats, seconds float64, missed int64) error {
	var errs []error
	fail := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	e := s.Errors
	if got := s.Responses + e.Connect + e.Timeout + e.Read + s.Unfinished; got != s.Requests {
		fail("%d requests, but %d responses + %d connect + %d timeout + %d read errors + %d unfinished = %d",
			s.Requests, s.Responses, e.Connect, e.Timeout, e.Read, s.Unfinished, got)
	}
	if e.Status+e.Body > s.Responses {
		fail("%d status and %d body errors among %d responses", e.Status, e.Body, s.Responses)
	}
	if s.Drained < 0 || s.Drained > s.Responses {
		fail("%d drained among %d responses", s.Drained, s.Responses)
	}
	if s.Unfinished < 0 || s.Responses < 0 || e.Connect < 0 || e.Timeout < 0 || e.Read < 0 || e.Status < 0 || e.Body < 0 {
		fail("negative counts: %d responses, %d unfinished, errors %+v", s.Responses, s.Unfinished, e)
	}
	var codes int64
	for code, n := range s.StatusCodes {
		if c, err := strconv.Atoi(code); err != nil || c < 100 || c > 599 || n < 0 {
			fail("status code %q: %d", code, n)
		}
		codes += n
	}
	if codes != s.Responses {
		fail("status codes add up to %d, responses are %d", codes, s.Responses)
	}
	censored := fmt.Sprintf("%d unfinished", s.Unfinished)
	if missed > 0 {
		censored += fmt.Sprintf(" + %d missed", missed)
	}
	for _, h := range []struct {
		name, enc string
		want      int64
		what      string
	}{
		{"histogram", s.Histogram, s.Responses, "responses"},
		{"service histogram", s.ServiceHistogram, s.Responses, "responses"},
		{"censored histogram", s.CensoredHistogram, s.Unfinished + missed, censored},
	} {
		if h.enc == "" {
			continue
		}
		d, err := DecodeHistogram(h.enc)
		if err != nil {
			fail("%s: %v", h.name, err)
			continue
		}
		if d.TotalCount() != h.want {
			fail("%s holds %d values, want %d (%s)", h.name, d.TotalCount(), h.want, h.what)
		}
	}
	if seconds > 0 {
		inWindow := s.WindowResponses()
		if want := float64(inWindow) / seconds; !near(s.RPS, want) {
			fail("%.2f req/s, but (%d responses − %d drained) / %.3f s = %.2f", s.RPS, s.Responses, s.Drained, seconds, want)
		}
		// The drained responses' status and body errors are among the
		// errors: the window's ok responses lie between its responses less
		// every such error and less those the drained cannot hold.
		least := inWindow - e.Status - e.Body
		most := inWindow - max(e.Status+e.Body-s.Drained, 0)
		// Results from before ok req/s existed carry 0.
		if lo, hi := float64(least)/seconds, float64(most)/seconds; s.OKRPS != 0 && !(near(s.OKRPS, lo) || near(s.OKRPS, hi) || (s.OKRPS > lo && s.OKRPS < hi)) {
			fail("%.2f ok req/s, but the window's ok responses are %d to %d (%d responses − %d drained − up to %d status and body errors) / %.3f s = %.2f to %.2f",
				s.OKRPS, least, most, s.Responses, s.Drained, e.Status+e.Body, seconds, lo, hi)
		}
	}
	return errors.Join(errs...)
}

// near: rates are rounded nowhere, but a merged rate is a sum of rates over
// windows that differ by milliseconds.
func near(a, b float64) bool { return math.Abs(a-b) <= 0.01*max(math.Abs(b), 1) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
