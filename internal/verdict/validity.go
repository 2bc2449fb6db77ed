package verdict

import (
	"fmt"
	"math"
	"slices"

	"restbench/internal/metric"
	"restbench/internal/result"
)

// FlagShortWindow is not a trial's flag but a claim's: the window is
// shorter than the published latency the claim is about, so no figure
// measured in it can reach that latency (a censored measurement).
const FlagShortWindow = "censored (window)"

// Bias is what a flag does to a run's figure, as far as it is known: the
// figure is a Floor (the truth is at least it), a Ceiling (at most it), or
// Unknown. A claim resting on a floor or a ceiling may still hold as a
// bound; on Unknown it is not comparable.
type Bias int

const (
	Unbiased Bias = iota
	Floor
	Ceiling
	Unknown
)

// effect is what flag does to a figure of class, given every flag the
// trial carries (a behind-schedule run that the generator limited is not a
// saturated server).
func effect(flag string, class metric.Class, all []string) Bias {
	generatorLimited := slices.Contains(all, result.FlagConnectionBound) || slices.Contains(all, result.FlagClientBound)
	switch flag {
	case result.FlagInconsistent:
		// Little's law ties the connections (exact), the completions (a
		// direct count) and the mean latency: when it does not hold, the
		// latency is what is off (connect time left out of it without
		// keep-alive, or a stall), not the count of responses.
		if class == metric.Latency || class == metric.Probe {
			return Unknown
		}
		return Unbiased
	case result.FlagQuotaNotApplied:
		if class == metric.Instrument {
			return Unbiased
		}
		return Unknown
	case result.FlagAheadOfSchedule:
		switch class {
		case metric.CPU, metric.Memory:
			// Working off a backlog, the server did more, and held more,
			// than the rate asks.
			return Ceiling
		case metric.Latency:
			// Latency from the intended send: the window's arrivals queued
			// behind the backlog, so they waited longer than at the rate
			// alone (heysphere's Node at 30 ms delay, 107 % of its rate in
			// one round of five).
			return Ceiling
		case metric.Instrument, metric.Cost:
			return Unbiased
		}
		// Req/s above the rate is a ceiling of what the rate gets and a
		// floor of what the server carries: which one a claim means is
		// not known here.
		return Unknown
	case result.FlagAcceptQueueOverflow:
		if class == metric.Throughput || class == metric.Latency {
			return Unknown
		}
	case result.FlagBehindSchedule:
		switch {
		case generatorLimited:
			// The generator fell behind, not the server: the
			// connection-bound or client-bound flag says what that does.
			return Unbiased
		case class == metric.Latency:
			// A server that cannot keep up builds a queue that grows for
			// as long as the window lasts: what was measured is a floor.
			return Floor
		case class == metric.Throughput:
			return Unknown
		case class == metric.Memory:
			// The queue of a server that cannot keep up grows for as long
			// as the window lasts, and its memory with it. (Its CPU is
			// what saturation costs: unbiased.)
			return Unknown
		}
	case result.FlagConnectionBound, result.FlagClientBound:
		// The generator held the server back: it could have served more,
		// (the wait for a free connection counted) sooner, and with more
		// CPU and more requests held in memory.
		switch class {
		case metric.Throughput, metric.Schedule, metric.CPU, metric.Memory:
			return Floor
		case metric.Latency:
			return Ceiling
		}
	case result.FlagStalledConnections, result.FlagCensored, FlagShortWindow:
		// The slowest requests are missing from the latency figures.
		if class == metric.Latency {
			return Floor
		}
	}
	return Unbiased
}

// combine is the bias of a figure carrying two biases.
func combine(a, b Bias) Bias {
	switch {
	case a == Unbiased:
		return b
	case b == Unbiased || a == b:
		return a
	}
	return Unknown
}

// biasOf is the overall bias of a run's breaks.
func biasOf(bs []Break) Bias {
	b := Unbiased
	for _, x := range bs {
		b = combine(b, x.Bias)
	}
	return b
}

// ratioBias is the bias of A/B from the biases of A and B.
func ratioBias(a, b Bias) Bias {
	flip := map[Bias]Bias{Unbiased: Unbiased, Floor: Ceiling, Ceiling: Floor, Unknown: Unknown}
	return combine(a, flip[b])
}

// Break is a flag on a run a claim rests on, with what it does to the run's
// figure and what to change.
type Break struct {
	Run, Flag string
	Rounds    int // rounds that carried it
	Of        int // rounds measured
	Bias      Bias
	Detail    string // the numbers behind the flag, and what to change
	// AsPublished says the flag is the published condition (a saturated
	// open loop's rows fell behind too), not a fault of the run: it biases
	// the figure only as far as Bias says, and with Unbiased it is said
	// beside the verdict, not counted against it.
	AsPublished bool
}

func (b Break) String() string {
	s := fmt.Sprintf("%s: %s", b.Run, b.Flag)
	if b.Of > 0 && b.Flag != FlagShortWindow {
		s += fmt.Sprintf(" in %d of %d rounds", b.Rounds, b.Of)
	}
	if b.Detail != "" {
		s += " (" + b.Detail + ")"
	}
	switch {
	case b.Flag == FlagAtOneRate || b.Flag == FlagAtCapacity:
		// Said beside the verdict (AsPublished), but its detail says why,
		// not the saturated rows' sentence below.
	case b.AsPublished && b.Flag == result.FlagAcceptQueueOverflow:
		s += ", as published: the write-up's load dialled every request into the same default backlog, and its rows show a retransmitted SYN too"
	case b.AsPublished:
		s += ", as published: the write-up's rate sat at or above what its cells carry, and its rows fell behind too"
	}
	switch b.Bias {
	case Floor:
		s += "; its figure is a floor"
	case Ceiling:
		s += "; its figure is a ceiling"
	}
	return s
}

// breaks lists the flags of a run's successful trials that touch metric,
// with the figure's overall bias, and adds a short window as a break of a
// latency claim whose published latency the window cannot reach.
func breaks(id, key string, info result.RunInfo, trials []*result.Trial) ([]Break, Bias) {
	class := metric.ClassOf(key)
	type seen struct {
		n      int
		bias   Bias
		last   *result.Trial
		design bool
	}
	byFlag := map[string]*seen{}
	var order []string
	of := 0
	shortest := math.Inf(1)
	for _, t := range trials {
		if t.Status != result.StatusOK || t.Load == nil {
			continue
		}
		of++
		// A window a deadline closed can cut a latency short; one that
		// waited for its -n requests saw every one finish.
		if t.Load.DurationS > 0 && t.Load.Settings.MaxRequests == 0 {
			shortest = math.Min(shortest, t.Load.DurationS)
		}
		all := slices.Concat(t.Flags, t.Load.Flags)
		for _, f := range all {
			b, design := asPublished(f, class, info.PublishedLoad, t.Load.DurationS)
			if !design {
				b, design = overflowAsPublished(f, class, info.PublishedLoad, t.Load)
			}
			if !design {
				b = effect(f, class, all)
			}
			if b == Unbiased && !design {
				continue
			}
			s := byFlag[f]
			if s == nil {
				s = &seen{design: design}
				byFlag[f] = s
				order = append(order, f)
			}
			if s.last != t {
				s.n++
			}
			s.bias, s.last = combine(s.bias, b), t
		}
	}
	var out []Break
	bias := Unbiased
	for _, f := range order {
		s := byFlag[f]
		d := detail(f, s.last)
		if s.design && s.bias == Floor {
			pub := "a published window the write-up does not give"
			if w := info.PublishedLoad.DurationS; w > 0 {
				pub = "the published " + seconds(w)
			}
			d = joinWhy(d, fmt.Sprintf("its backlog grows for as long as the window lasts, %s here against %s", seconds(s.last.Load.DurationS), pub))
		}
		out = append(out, Break{Run: id, Flag: f, Rounds: s.n, Of: of, Bias: s.bias, Detail: d, AsPublished: s.design})
		bias = combine(bias, s.bias)
	}
	if b, ok := rateCapped(id, key, info, trials); ok {
		out = append(out, b)
		bias = combine(bias, b.Bias)
	}
	if b, ok := cutAtCap(id, key, trials); ok {
		out = append(out, b)
		bias = combine(bias, b.Bias)
	}
	if class == metric.Latency && !math.IsInf(shortest, 1) {
		if pub, _ := metric.PublishedValue(info.Published, key); key != metric.Shape && pub > shortest*1000 && !keptUpAll(trials) {
			out = append(out, Break{Run: id, Flag: FlagShortWindow, Bias: Floor,
				Detail: fmt.Sprintf("the %s window is shorter than the published %s: lengthen the window (duration)", seconds(shortest), metric.Millis(pub))})
			bias = combine(bias, Floor)
		}
	}
	return out, bias
}

// keptUpAll says whether every trial of a run is an open loop that kept up
// with its rate and left nothing unfinished (none of the flags the window
// rule models, windowFlags: behind-schedule, connection-bound, censored):
// its latency then came from a queue
// that did not grow, so a longer window would not have raised it, and a
// published latency longer than the window is one this run did not reach,
// not one its window cut (heysphere (c)'s Go at 25 % on the 16-core VM:
// 1.95 ms p99 in 1 s windows against the published 3.4 s of a Go that fell
// behind on 4 cores). A closed loop, or any round behind, keeps the
// window's floor.
func keptUpAll(trials []*result.Trial) bool {
	n, of, _ := countTrials(trials, func(t *result.Trial) bool {
		windowed := func(f string) bool { return slices.Contains(windowFlags, f) }
		return t.Load.TargetRPS > 0 && !slices.ContainsFunc(slices.Concat(t.Flags, t.Load.Flags), windowed)
	})
	return of > 0 && n == of
}

// asPublished is what flag does to a figure of class on a run whose
// published rows ran saturated (result.PublishedLoad.Saturated): falling
// behind the rate on too few connections is what those rows did too, so
// the flag is the published condition, and ok is true. The figure is then
// biased by the window alone: a run behind its rate builds a backlog that
// grows for as long as the window lasts, so a window shorter than the
// published one shows less of it, and its latency is a floor. Memory and
// the probe keep the flag's usual effect.
func asPublished(flag string, class metric.Class, p *result.PublishedLoad, window float64) (b Bias, ok bool) {
	if p == nil || !p.Saturated || flag != result.FlagBehindSchedule && flag != result.FlagConnectionBound {
		return Unbiased, false
	}
	switch class {
	case metric.Latency:
		if flag == result.FlagBehindSchedule && (p.DurationS == 0 || window < p.DurationS) {
			return Floor, true
		}
		return Unbiased, true
	case metric.Throughput, metric.Schedule, metric.CPU:
		return Unbiased, true
	}
	return Unbiased, false
}

// overflowAsPublished is what accept-queue-overflow does to a figure of
// class on a run whose published load overflowed its listen queue too
// (result.PublishedLoad.Overflowed: ab without -k, a connection per
// request, into the framework's default backlog): ok is true, and the
// throughput, latency and CPU it biases are the published condition's
// (how much of them is the queue: the control, Verdict.Control). A load
// that kept its connections alive opened them before its window, as the
// published one did not: there the flag stays a fault.
func overflowAsPublished(flag string, class metric.Class, p *result.PublishedLoad, l *result.Load) (b Bias, ok bool) {
	if p == nil || !p.Overflowed || flag != result.FlagAcceptQueueOverflow || l == nil || l.Settings.KeepAlive {
		return Unbiased, false
	}
	switch class {
	case metric.Throughput, metric.Latency, metric.CPU:
		return Unbiased, true
	}
	return Unbiased, false
}

// detail gives a flag's numbers, from one trial that carried it, and what
// to change.
func detail(flag string, t *result.Trial) string {
	l := t.Load
	switch flag {
	case result.FlagBehindSchedule:
		return fmt.Sprintf("achieved %s of %s req/s, %.0f %%: the server could not keep up; offer less (restbench capacity finds what it sustains)",
			metric.Thousands(l.RPS), metric.Thousands(l.TargetRPS), 100*l.RPS/l.TargetRPS)
	case result.FlagAheadOfSchedule:
		return fmt.Sprintf("achieved %.0f %% of %s req/s: a backlog from before the window was worked off; lengthen the warm-up or offer less",
			100*l.RPS/l.TargetRPS, metric.Thousands(l.TargetRPS))
	case result.FlagConnectionBound:
		svc := 0.0
		if l.Service != nil {
			svc = l.Service.Mean
		}
		need := math.Ceil(l.ConnectionsNeeded / result.ConnectionBound)
		return fmt.Sprintf("%s req/s × %s needs %.0f connections, had %d; raise connections",
			metric.Thousands(l.TargetRPS), metric.Millis(svc), need, result.OpenConnections(l))
	case result.FlagClientBound:
		share := 0.0
		if t.Monitor != nil {
			share = t.Monitor.ClientCPUShare
		}
		return fmt.Sprintf("the generator used %.0f %% of its CPU; give it more CPUs or fewer connections", 100*share)
	case result.FlagStalledConnections:
		if pc := l.PerConnection; pc != nil {
			return fmt.Sprintf("%d of %d connections completed nothing, and the latency counts the others only; lengthen the window or use fewer connections",
				pc.Stalled, l.Settings.Connections)
		}
	case result.FlagCensored:
		n := result.CensoredOverMedian(&l.Stats) // decodes the censored histogram: once
		if l.Missed > 0 {
			// An open loop's censored series holds the arrivals it never
			// sent: since the drain, they are most of it.
			return fmt.Sprintf("%d requests older than the median had no response at the close (of %d in flight and %d due but never sent), %.1f %% of the responses; lengthen the window",
				n, l.Unfinished, l.Missed, 100*float64(n)/float64(max(l.Responses, 1)))
		}
		return fmt.Sprintf("%d requests older than the median were unfinished at the close, %.1f %% of the responses; lengthen the window",
			n, 100*float64(n)/float64(max(l.Responses, 1)))
	case result.FlagInconsistent:
		if lt := l.Little; lt != nil {
			return fmt.Sprintf("Little's law: %.0f in flight on %d connections; the counts do not add up", lt.InFlight, lt.Connections)
		}
	case result.FlagAcceptQueueOverflow:
		if l := t.Listen; l != nil {
			return fmt.Sprintf("the listen queue (backlog %d) overflowed %d times: connections waited for SYN retransmission (1 s, 3 s, …); raise the server's backlog or open connections gradually", l.Backlog, l.Overflows)
		}
		return "the listen queue overflowed: connections waited for SYN retransmission (1 s, 3 s, …); raise the server's backlog or open connections gradually"
	case result.FlagQuotaNotApplied:
		return "the CPU quota the run asks for could not be set; run as root with cgroups writable"
	}
	return ""
}

func seconds(s float64) string { return fmt.Sprintf("%.3g s", s) }
