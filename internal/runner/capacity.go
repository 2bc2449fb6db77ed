package runner

import (
	"context"
	"fmt"
	"slices"

	"restbench/internal/capacity"
	"restbench/internal/engine"
	"restbench/internal/load"
	"restbench/internal/result"
	"restbench/internal/suite"
)

// rateOf is the open-loop rate of trial n of run, whose suite gave it as a
// fraction of a capacity, and where that capacity came from.
func (r *Runner) rateOf(ctx context.Context, run suite.Run, n int) (float64, *result.RateFrom, error) {
	from := &result.RateFrom{Run: run.RateOf, Fraction: run.RateFraction, Method: result.RateFromClosedLoop}
	if run.RateSearch {
		found, err := r.search(ctx, run.RateOf, n, run.RateSearchOnce, run.RateCheck)
		if found != nil {
			from.Method, from.CapacityRPS, from.Search = result.RateFromSearch, found.CapacityRPS, found
		}
		if err != nil {
			return 0, from, err // a failed trial keeps the steps that found nothing
		}
	} else {
		c, _, err := r.measured(run.RateOf)
		if err != nil {
			return 0, nil, err
		}
		from.CapacityRPS = c
	}
	return run.RateFraction * from.CapacityRPS, from, nil
}

// searched is one capacity search: what it found, or why it found nothing.
type searched struct {
	found *result.Capacity
	err   error
}

// search is the open-loop capacity of run id in round n. It is searched
// once per round (with rate_search: once, once for the whole run of the
// suite), the first time a trial needs it, against a
// fresh server of run id placed as that run's trials are, with that run's
// connections, request and duration per step, and its warm-up or
// capacity.SuiteWarmup, the longer, where its connections could overflow a
// default accept queue; every trial of the
// round that takes its rate from it (in any experiment) then offers the same
// rate.
func (r *Runner) search(ctx context.Context, id string, n int, once, check bool) (*result.Capacity, error) {
	key := fmt.Sprintf("%s round %d", id, n)
	if once {
		key = id + " once"
	}
	if s, ok := r.searches[key]; ok {
		return s.found, s.err
	}
	i := slices.IndexFunc(r.suite.Runs, func(o suite.Run) bool { return o.ID == id })
	if i < 0 {
		return nil, fmt.Errorf("capacity(%s): no such run in the suite", id)
	}
	ref := r.suite.Runs[i]
	ref.RateOf, ref.RateSearch, ref.Load.Rate = "", false, 0
	if l := ref.Little; l != nil {
		// The rule needs the rate this search finds: let the open loop
		// open what each step needs instead (searchConnections).
		ref.Load.Connections, ref.Load.MaxConnections = searchConnections, searchMaxConnections
		if l.Cap > 0 {
			ref.Load.Connections, ref.Load.MaxConnections = min(searchConnections, l.Cap), l.Cap
		}
		ref.Little = nil
	}
	ref.Window = nil
	eng, err := engine.New(ref.Engine)
	if err != nil {
		return nil, err
	}
	opt := r.opt.Search
	if opt.MinWarmup == 0 {
		opt.MinWarmup = capacity.MinWarmup(ref.Load.Connections)
	}
	if check {
		// rate_search: checked: the answer sets every round's rate, so a
		// longer step must hold it first (capacity.Search).
		opt.Confirm = capacity.ConfirmWindows * ref.Load.Duration
	}
	se := &searchEngine{eng: eng, opt: opt}
	r.logf("round %d: searching the open-loop capacity of %s", n, id)
	t, err := r.trialOn(ctx, ref, n, se)
	if err != nil {
		return nil, err // cancelled: nothing to remember
	}
	s := searched{found: se.found}
	switch {
	case t.Status != result.StatusOK:
		s.err = fmt.Errorf("the capacity search of %s in round %d did not finish: %s %s", id, n, t.Status, t.Error)
	case se.found == nil || se.found.CapacityRPS == 0:
		s.err = fmt.Errorf("the capacity search of %s in round %d sustained no rate", id, n)
	default:
		r.logf("round %d: %s sustains %.0f req/s (%d steps)", n, id, se.found.CapacityRPS, len(se.found.Steps))
		if check && !se.found.Confirmed {
			r.logf("warning: round %d: no check of %s's capacity (%.0f req/s searched) was sustained; its rate uses %.0f req/s, below the last check", n, id, se.found.SearchedRPS, se.found.CapacityRPS)
		}
	}
	r.searches[key] = s
	return s.found, s.err
}

// searchEngine runs a capacity search where a trial runs one load; the
// trial's load is the highest sustained step.
type searchEngine struct {
	eng   engine.Engine
	opt   capacity.Options
	found *result.Capacity
}

func (s *searchEngine) Run(ctx context.Context, cfg load.Config) (*result.Load, error) {
	found, best, err := capacity.Search(ctx, s.eng, cfg, s.opt)
	s.found = found
	return best, err
}
