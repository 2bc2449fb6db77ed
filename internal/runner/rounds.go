package runner

import (
	"context"
	"fmt"
	"slices"
	"time"

	"restbench/internal/result"
	"restbench/internal/suite"
)

// StopRule decides, after a round, whether an experiment has enough trials:
// it gets every trial of the experiment so far (resumed ones included) and
// returns stop and a reason for the record. The runner calls it from the
// experiment's minimum number of rounds on; see Options.Enough.
type StopRule func(experiment string, trials []*result.Trial) (stop bool, why string)

// experiment is the runs of one experiment, in suite order.
type experiment struct {
	name string
	runs []suite.Run
}

// experiments groups runs by experiment, in the order experiments first
// appear, so that a rate taken from an earlier experiment's capacity is
// measured first.
func experiments(runs []suite.Run) []experiment {
	var out []experiment
	for _, run := range runs {
		i := slices.IndexFunc(out, func(e experiment) bool { return e.name == run.Experiment })
		if i < 0 {
			out = append(out, experiment{name: run.Experiment})
			i = len(out) - 1
		}
		out[i].runs = append(out[i].runs, run)
	}
	return out
}

// bounds are the experiment's minimum and maximum rounds and its time cap:
// the largest of its runs' (a run with fewer trials sits out later rounds).
func (e experiment) bounds() (least, most int, limit time.Duration) {
	for _, run := range e.runs {
		least = max(least, run.Trials)
		most = max(most, run.MaxTrials, run.Trials)
		limit = max(limit, run.TimeCap)
	}
	return least, most, limit
}

// order is the order of round k (1-based). Trial k of every run is measured
// in round k, before trial k+1 of any run, so a machine that drifts affects
// every run alike and ratios can pair trials of one round. The order rotates
// by one each round, so no run is always first after an idle pause or
// always last. A run whose rate is a fraction of another run's capacity in
// the same experiment comes after all the others, every round: its rate then
// uses the capacity measured up to and including this round. A rate from a
// capacity search depends on no trial: the search runs before the trial.
func (e experiment) order(k int) []suite.Run {
	var free, dependent []suite.Run
	for _, run := range e.runs {
		if run.RateOf != "" && !run.RateSearch && slices.ContainsFunc(e.runs, func(o suite.Run) bool { return o.ID == run.RateOf }) {
			dependent = append(dependent, run)
		} else {
			free = append(free, run)
		}
	}
	return append(rotate(free, k-1), rotate(dependent, k-1)...)
}

func rotate(runs []suite.Run, by int) []suite.Run {
	if len(runs) == 0 {
		return nil
	}
	by %= len(runs)
	return append(slices.Clone(runs[by:]), runs[:by]...)
}

// measure runs the rounds of one experiment, prints each run's line once
// the experiment is done (only then is a run's last trial known), and
// returns why it stopped and how many rounds it measured.
func (r *Runner) measure(ctx context.Context, e experiment, out *Outcome) (stopped, why string, rounds int, err error) {
	least, most, limit := e.bounds()
	if r.opt.Enough == nil {
		most = least // without a stop rule there is nothing to decide
	}
	takesPart := func(run suite.Run, k int) bool {
		return k <= run.Trials || (r.opt.Enough != nil && k <= run.MaxTrials)
	}
	start := time.Now()
	byRun := map[string][]*result.Trial{}
	var all []*result.Trial
	stopped = result.StoppedRounds
	for k := 1; k <= most; k++ {
		for _, run := range e.order(k) {
			if !takesPart(run, k) {
				continue
			}
			t, err := r.measureTrial(ctx, run, k, out)
			if err != nil {
				return "", "", k - 1, err
			}
			byRun[run.ID] = append(byRun[run.ID], t)
			all = append(all, t)
		}
		rounds = k
		if k < least {
			continue
		}
		if r.opt.Enough != nil {
			if stop, reason := r.opt.Enough(e.name, all); stop {
				stopped, why = result.StoppedDecided, reason
				break
			}
		}
		if limit > 0 && time.Since(start) >= limit && k < most {
			stopped, why = result.StoppedTimeCap, fmt.Sprintf("%d rounds took %s, the cap is %s", k, time.Since(start).Round(time.Second), limit)
			break
		}
		// Another round beyond the suite's trial count: the bar grows.
		for _, run := range e.runs {
			if k < most && takesPart(run, k+1) {
				r.prog.grow(1)
			}
		}
	}
	for _, run := range e.runs {
		r.prog.runDone(run, byRun[run.ID])
	}
	return stopped, why, rounds, nil
}

// measureTrial measures trial k of run in round k, or reads it back when
// --resume finds it finished, and writes it.
func (r *Runner) measureTrial(ctx context.Context, run suite.Run, k int, out *Outcome) (*result.Trial, error) {
	t, unreadable := r.folder.readTrial(run.ID, k)
	if t != nil && r.opt.Resume {
		out.Skipped++
		r.record(t)
		r.prog.trialDone(run.ID, k, t, true)
		return t, nil
	}
	if unreadable != "" && r.opt.Resume {
		r.logf("resume: %s trial %d: %s; measuring it again", run.ID, k, unreadable)
	}
	r.prog.trialStart(run.ID, k)
	t, err := r.trial(ctx, run, k)
	if err != nil {
		return nil, err
	}
	if err := result.WriteJSON(r.folder.trialPath(run.ID, k), t); err != nil {
		return nil, fmt.Errorf("write trial: %w", err)
	}
	switch t.Status {
	case result.StatusOK:
		out.OK++
	case result.StatusNotRun, result.StatusNotSupported:
		out.NotRun++
	default:
		out.Failed++
	}
	r.record(t)
	r.prog.trialDone(run.ID, k, t, false)
	return t, nil
}
