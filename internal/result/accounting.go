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
// is flagged behind-schedule.
const BehindSchedule = 0.95

// CheckAccounting returns every accounting invariant l breaks, joined, or
// nil. The generator, merge and tests call it on every result they make, so
// that no code path can lose a request unnoticed:
//
//   - each stream balances: requests = responses + connect + timeout + read
//     errors; status and body errors are responses; status codes add up to
//     the responses; the latency histogram holds one value per response, the
//     censored one per unfinished request;
//   - the targets of a mix add up to the whole;
//   - rates agree with counts over the window;
//   - an open loop owes what was due: target × window = sent + missed, to
//     within one request per connection (each connection keeps its own
//     schedule) and 1 %;
//   - the Little's-law record and the flags say what the numbers say.
func CheckAccounting(l *Load) error {
	var errs []error
	fail := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	checkStats := func(name string, s *Stats, seconds float64) {
		if s == nil {
			return
		}
		if err := checkStats(s, seconds); err != nil {
			fail("%s: %w", name, err)
		}
	}
	checkStats("load", &l.Stats, l.DurationS)
	checkStats("probe", l.Probe, l.DurationS)
	if l.Warmup != nil {
		checkStats("warmup", l.Warmup, l.Settings.WarmupS)
	}
	if len(l.Targets) > 0 {
		var sum Stats
		for _, name := range sortedKeys(l.Targets) {
			t := l.Targets[name]
			checkStats("target "+name, t, l.DurationS)
			sum.Requests += t.Requests
			sum.Responses += t.Responses
			sum.Unfinished += t.Unfinished
			sum.Errors.Add(t.Errors)
		}
		if sum.Requests != l.Requests || sum.Responses != l.Responses || sum.Unfinished != l.Unfinished || sum.Errors != l.Errors {
			fail("targets add up to %d requests, %d responses, %d unfinished, errors %+v; the whole says %d, %d, %d, %+v",
				sum.Requests, sum.Responses, sum.Unfinished, sum.Errors, l.Requests, l.Responses, l.Unfinished, l.Errors)
		}
	}
	if n := timelineRequests(l.Timeline); len(l.Timeline) > 0 && n > l.Requests {
		fail("the timeline holds %d requests, more than the %d of the whole", n, l.Requests)
	}
	if l.TargetRPS > 0 && l.Settings.MaxRequests == 0 && l.DurationS > 0 {
		due := l.TargetRPS * l.DurationS
		owed := float64(l.Requests + l.Unfinished + l.Missed)
		if slack := float64(max(l.Settings.Connections, l.Settings.MaxConnections)) + 0.01*due; math.Abs(due-owed) > slack {
			fail("open loop: %.0f requests were due (%.1f/s × %.2f s) but sent + missed = %d + %d + %d unfinished = %.0f",
				due, l.TargetRPS, l.DurationS, l.Requests, l.Missed, l.Unfinished, owed)
		}
	}
	if lt := l.Little; lt != nil {
		if lt.Connections <= 0 {
			fail("little: %d connections", lt.Connections)
		} else if r := lt.InFlight / float64(lt.Connections); math.Abs(r-lt.Ratio) > 1e-6*max(1, r) {
			fail("little: ratio %.4f, but in flight %.2f / %d connections = %.4f", lt.Ratio, lt.InFlight, lt.Connections, r)
		}
		off := math.Abs(lt.Ratio-1) > LittleTolerance
		if off != slices.Contains(l.Flags, FlagInconsistent) {
			fail("little: ratio %.3f, flags %v (flag %q exactly when the ratio is outside %.2f..%.2f)",
				lt.Ratio, l.Flags, FlagInconsistent, 1-LittleTolerance, 1+LittleTolerance)
		}
	}
	if pc := l.PerConnection; pc != nil {
		if pc.Min > pc.Median || pc.Median > pc.Max || pc.Stalled < 0 {
			fail("per connection: min %d, median %d, max %d, stalled %d are out of order", pc.Min, pc.Median, pc.Max, pc.Stalled)
		}
		if (pc.Stalled > 0) != slices.Contains(l.Flags, FlagStalledConnections) {
			fail("per connection: %d stalled, flags %v", pc.Stalled, l.Flags)
		}
	}
	if l.TargetRPS > 0 && l.DurationS > 0 {
		behind := l.RPS < BehindSchedule*l.TargetRPS
		if behind != slices.Contains(l.Flags, FlagBehindSchedule) {
			fail("open loop: %.1f of %.1f req/s, flags %v (flag %q below %.0f %%)",
				l.RPS, l.TargetRPS, l.Flags, FlagBehindSchedule, 100*BehindSchedule)
		}
	}
	return errors.Join(errs...)
}

func checkStats(s *Stats, seconds float64) error {
	var errs []error
	fail := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if got := s.Responses + s.Errors.Connect + s.Errors.Timeout + s.Errors.Read; got != s.Requests {
		fail("%d requests, but %d responses + %d connect + %d timeout + %d read errors = %d",
			s.Requests, s.Responses, s.Errors.Connect, s.Errors.Timeout, s.Errors.Read, got)
	}
	if s.Errors.Status+s.Errors.Body > s.Responses {
		fail("%d status and %d body errors among %d responses", s.Errors.Status, s.Errors.Body, s.Responses)
	}
	if s.Unfinished < 0 {
		fail("%d unfinished", s.Unfinished)
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
	for _, h := range []struct {
		name, enc string
		want      int64
	}{{"histogram", s.Histogram, s.Responses}, {"service histogram", s.ServiceHistogram, s.Responses}, {"censored histogram", s.CensoredHistogram, s.Unfinished}} {
		if h.enc == "" {
			continue
		}
		d, err := DecodeHistogram(h.enc)
		if err != nil {
			fail("%s: %v", h.name, err)
			continue
		}
		if d.TotalCount() != h.want {
			fail("%s holds %d values, want %d", h.name, d.TotalCount(), h.want)
		}
	}
	if seconds > 0 {
		if want := float64(s.Responses) / seconds; !near(s.RPS, want) {
			fail("%.2f req/s, but %d responses / %.3f s = %.2f", s.RPS, s.Responses, seconds, want)
		}
		ok := s.Responses - s.Errors.Status - s.Errors.Body
		// Results from before ok req/s existed carry 0.
		if want := float64(ok) / seconds; s.OKRPS != 0 && !near(s.OKRPS, want) {
			fail("%.2f ok req/s, but %d ok responses / %.3f s = %.2f", s.OKRPS, ok, seconds, want)
		}
	}
	return errors.Join(errs...)
}

// near: rates are rounded nowhere, but a merged rate is a sum of rates over
// windows that differ by milliseconds.
func near(a, b float64) bool { return math.Abs(a-b) <= 0.01*max(math.Abs(b), 1) }

func timelineRequests(tl []Second) int64 {
	var n int64
	for _, s := range tl {
		n += s.Requests
	}
	return n
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
