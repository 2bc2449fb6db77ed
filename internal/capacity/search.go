// Package capacity finds the highest open-loop rate a server sustains: it
// offers constant rates (package load's open loop, latency from each
// request's intended send time), steps up or down from a start rate until
// one step is sustained and another is not, then bisects between them.
// Stepping down, it goes straight to an overloaded step's achieved rate
// when that is lower (by at most three steps).
package capacity

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"restbench/internal/engine"
	"restbench/internal/load"
	"restbench/internal/result"
)

// Defaults of Options.
const (
	DefaultFactor     = 1.25
	DefaultResolution = 0.05
	DefaultMaxSteps   = 8
	DefaultPause      = 500 * time.Millisecond
	// SuiteWarmup is the MinWarmup of a suite's searches (runner): a step opens all its connections at once, and a
	// handshake that overflowed the server's accept queue (Node's backlog is
	// 511) is retransmitted after 1 s; with less warm-up such a connection
	// would complete nothing in the window and fail the step as stalled.
	SuiteWarmup = 1500 * time.Millisecond
	// SmallBacklog is the smallest listen backlog a server runs with by
	// default (OSX's kern.ipc.somaxconn; Node's 511 and Linux's 4096 are
	// larger): a step on no more connections cannot overflow it, and needs
	// no SuiteWarmup (MinWarmup).
	SmallBacklog = 128
	// StallEvidence is how many requests each connection must have been due
	// in a step before one that completed nothing counts as stalled: the
	// open loop hands arrivals to the connection idle longest, so each gets
	// about target x window / connections. At 100 req/s over 1000
	// connections a connection whose one request came late in the window
	// and was still in flight at the close is no stall.
	StallEvidence = 5
	// MinAchieved is the share of the target a sustained step achieves (the
	// load package's behind-schedule threshold).
	MinAchieved = 0.95
	// MissedStall is how many seconds of its arrivals a step may miss (due
	// in its window, never sent: every connection busy at the close) and
	// still be sustained: what a stall of the machine this long just before
	// the close leaves unsent, whatever the server. A server that cannot
	// keep up misses its shortfall for the whole window, (target −
	// capacity) × window, and falls short of MinAchieved too when that is
	// large. It was a share of the due arrivals, 0.1 % (one connection
	// whose handshake the server's full accept queue dropped twice misses
	// its first arrival whatever the rate: that one request had sunk a
	// 1,400-connection search against Node to a third of its capacity,
	// 2026-11-24); at 40-60k req/s that is a stall of 1 ms, and go-gorilla's
	// searches of heysphere (a) failed steps that achieved 99.3-99.9 % of
	// their target with 57, 63 and 367 missed (1.2, 1.4 and 6 ms of
	// arrivals), and found 42-68k req/s in four standard benches of
	// 2026-11-26 for a server that carried 60k in other steps of the same
	// searches. 10 ms: a VM's scheduling hiccups, within one CFS period.
	MissedStall = 10 * time.Millisecond
)

// MinWarmup is the least warm-up of a suite's search step on conns
// connections: SuiteWarmup where opening them all at once may overflow an
// accept queue, none where they fit the smallest default backlog.
func MinWarmup(conns int) time.Duration {
	if conns <= SmallBacklog {
		return 0
	}
	return SuiteWarmup
}

// Options steer a search. Zero values take the defaults above.
type Options struct {
	P99   time.Duration // a sustained step's p99 is at most this; 0: no bound
	Start float64       // first target in req/s; 0: seed with a closed-loop step
	// Factor is how far one step moves up or down before a bracket is found.
	Factor float64
	// Resolution ends the bisection once the highest sustained rate and the
	// lowest unsustained one are within this fraction of each other.
	Resolution float64
	MaxSteps   int // steps in all, the seed included
	// Pause separates steps, so that the previous step's backlog drains
	// before the next one's warm-up starts.
	Pause time.Duration
	// MinWarmup is the least warm-up of a step, whatever the load's own.
	MinWarmup time.Duration
	// Step, when set, is called after each step.
	Step func(n int, s result.CapacityStep)
	// Confirm, when set, is the window of the steps that check the
	// bisection's answer before it stands (see Search); 0: no check.
	Confirm time.Duration
}

// ConfirmTries is how many checking steps a search with Options.Confirm
// runs at most: the answer, then down by the resolution (or to a failed
// check's achieved rate, when lower) until one is sustained.
const ConfirmTries = 3

// ConfirmWindows is the window of a checking step in windows of a search
// step: rate_search: checked (docs/suites.md) gives Options.Confirm as
// ConfirmWindows × the step's duration.
const ConfirmWindows = 3

func (o Options) withDefaults() Options {
	if o.Factor <= 1 {
		o.Factor = DefaultFactor
	}
	if o.Resolution <= 0 {
		o.Resolution = DefaultResolution
	}
	if o.MaxSteps <= 0 {
		o.MaxSteps = DefaultMaxSteps
	}
	if o.Pause <= 0 {
		o.Pause = DefaultPause
	}
	return o
}

// Search looks for the highest rate at which cfg's load is sustained (see
// result.CapacityStep.Sustained); cfg.Rate is ignored, every other setting
// is each step's. It returns every step, and the load of the highest
// sustained step (nil when none was). When ctx is cancelled it returns what
// it has with ctx's error.
//
// With Options.Confirm the bisection's answer is checked before it stands:
// one short step sustained at a rate can be a lucky second, and a search
// that sets every round's rate (rate_search: checked) must find a rate the
// server holds. The answer is run again over a window of Options.Confirm;
// while that is not sustained, the next check goes down by the resolution
// (or to the failed check's achieved rate, when lower, by at most one
// Factor), at most ConfirmTries checks, which count among MaxSteps: the
// bisection stops ConfirmTries steps early once a step was sustained, and
// takes every step it needs while none was (the checks then get what is
// left). The capacity is the first sustained check's rate; when none is,
// the rate below the last check (Capacity.Confirmed false).
func Search(ctx context.Context, eng engine.Engine, cfg load.Config, opt Options) (*result.Capacity, *result.Load, error) {
	opt = opt.withDefaults()
	out := &result.Capacity{P99BoundMS: float64(opt.P99) / 1e6, Steps: []result.CapacityStep{}}
	var best *result.Load
	step := func(rate float64, window time.Duration) (*result.CapacityStep, *result.Load, error) {
		if len(out.Steps) > 0 {
			select {
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			case <-time.After(opt.Pause):
			}
		}
		c := cfg
		c.Rate, c.Progress, c.Warmup = rate, nil, max(c.Warmup, opt.MinWarmup)
		// A step judges its window's rate, and a step above the capacity
		// would wait out its whole drain: the pause, not a drain, lets the
		// server catch up between steps.
		c.Drain = load.NoDrain
		if window > 0 {
			c.Duration = window
		}
		if rate == 0 {
			c.MaxConnections = 0 // a closed loop keeps its connections
		}
		res, err := eng.Run(ctx, c)
		if res == nil {
			return nil, nil, fmt.Errorf("step at %.0f req/s: %w", rate, err)
		}
		if len(out.Steps) == 0 || rate > 0 && window == 0 {
			out.Settings = res.Settings
			out.Settings.Rate = 0
		}
		st := judge(rate, res, opt.P99)
		st.Check = window > 0
		out.Steps = append(out.Steps, st)
		if opt.Step != nil {
			opt.Step(len(out.Steps), st)
		}
		return &out.Steps[len(out.Steps)-1], res, ctx.Err()
	}
	run := func(rate float64) (*result.CapacityStep, error) {
		st, res, err := step(rate, 0)
		if st != nil && st.Sustained && rate > out.CapacityRPS {
			out.CapacityRPS, best = rate, res
		}
		return st, err
	}
	reserve := 0
	if opt.Confirm > 0 {
		reserve = ConfirmTries // the checks are steps of MaxSteps
	}
	found, err := bisect(cfg, opt, reserve, out, run)
	if err != nil || !found || opt.Confirm <= 0 {
		return out, best, err
	}
	out.SearchedRPS = out.CapacityRPS
	rate := out.CapacityRPS
	tries := min(ConfirmTries, opt.MaxSteps-len(out.Steps))
	if tries <= 0 {
		return out, best, nil // no step left to check with: unconfirmed
	}
	for range tries {
		st, res, err := step(rate, opt.Confirm)
		if err != nil {
			return out, best, err
		}
		if st.Sustained {
			out.CapacityRPS, out.Confirmed, best = rate, true, res
			return out, best, nil
		}
		next := rate / (1 + opt.Resolution)
		if a := st.AchievedRPS; a > 0 && a < next {
			next = max(a, rate/opt.Factor)
		}
		rate = next
	}
	out.CapacityRPS = rate
	return out, best, nil
}

// bisect is the search proper: it steps from a start rate until one step
// is sustained and another is not, then bisects between them, in at most
// MaxSteps steps, or MaxSteps − reserve once a step was sustained. found
// says that a step was sustained (out.CapacityRPS).
func bisect(cfg load.Config, opt Options, reserve int, out *result.Capacity, run func(rate float64) (*result.CapacityStep, error)) (found bool, err error) {
	rate := opt.Start
	if rate <= 0 {
		// A closed loop over the same connections runs at about what the
		// server can do: a start close to the answer saves steps.
		st, err := run(0)
		if err != nil {
			return false, err
		}
		if rate = st.AchievedRPS; rate <= 0 {
			return false, fmt.Errorf("the closed-loop seed completed no request (%d errors): is a server listening at %s?", st.Errors, cfg.URL)
		}
	}
	lo, hi := 0.0, 0.0 // highest sustained, lowest unsustained target
	for len(out.Steps) < opt.MaxSteps && (out.CapacityRPS == 0 || len(out.Steps) < opt.MaxSteps-reserve) {
		st, err := run(rate)
		if err != nil {
			return out.CapacityRPS > 0, err
		}
		if st.Sustained {
			lo = rate
		} else {
			hi = rate
		}
		switch {
		case hi == 0:
			rate *= opt.Factor
		case lo == 0:
			// An overloaded step's achieved rate estimates the capacity:
			// go down to it when it lies lower, though by at most three
			// steps at once (a stall can make one step achieve next to
			// nothing).
			next := rate / opt.Factor
			if a := st.AchievedRPS; a > 0 && a < next {
				next = max(a, rate/(opt.Factor*opt.Factor*opt.Factor))
			}
			rate = next
		case hi/lo <= 1+opt.Resolution:
			return true, nil
		default:
			rate = math.Sqrt(lo * hi) // the bracket spans a ratio: halve it
		}
	}
	if out.CapacityRPS == 0 {
		return false, fmt.Errorf("no step was sustained in %d steps (down to %.0f req/s): %s", len(out.Steps), rate*opt.Factor, out.Steps[len(out.Steps)-1].Why)
	}
	return true, nil
}

// judge says whether one step was sustained, and if not, why.
func judge(target float64, res *result.Load, p99 time.Duration) result.CapacityStep {
	st := result.CapacityStep{
		TargetRPS: target, AchievedRPS: res.RPS, P50MS: res.Latency.P50, P99MS: res.Latency.P99,
		Missed: res.Missed, Errors: res.Errors.Total(), Flags: res.Flags,
	}
	if target == 0 {
		st.Why = "closed-loop seed"
		return st
	}
	var why []string
	if res.RPS < MinAchieved*target {
		why = append(why, fmt.Sprintf("achieved %.0f < %.0f %% of target", res.RPS, MinAchieved*100))
	}
	if float64(res.Missed) > max(target*MissedStall.Seconds(), 1) {
		why = append(why, fmt.Sprintf("%d missed", res.Missed))
	}
	// Due counts the window's own arrivals and those still waiting for a
	// connection when it opened: a step whose warm-up fell behind can send
	// its backlog in the window, miss nothing and achieve more than its
	// target, without ever having kept up.
	if behind := float64(res.Due) - target*res.DurationS; behind > (1-MinAchieved)*target*res.DurationS {
		why = append(why, fmt.Sprintf("%.0f arrivals waiting when the window opened", behind))
	}
	if st.Errors > 0 {
		why = append(why, fmt.Sprintf("%d errors", st.Errors))
	}
	if slices.Contains(res.Flags, result.FlagStalledConnections) && target*res.DurationS >= StallEvidence*float64(max(res.Settings.Connections, 1)) {
		why = append(why, "stalled connections")
	}
	if p99 > 0 && res.Latency.P99 > float64(p99)/1e6 {
		why = append(why, fmt.Sprintf("p99 %.1f ms > %s", res.Latency.P99, p99))
	}
	st.Sustained, st.Why = len(why) == 0, strings.Join(why, ", ")
	return st
}
