package model

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"restbench/internal/result"
	"restbench/internal/verdict"
)

// crossCheck grades every claim of sr a second time wherever its runs have
// twins measured by another generator (the same server, environment and
// load: dotchev's wrk cells, joshuous' sum-ab), and notes on the verdict
// when that generator's figure differs beyond the noise floor: a claim is
// never graded on one generator while another disagrees unsaid.
func crossCheck(sr *SuiteReport) {
	runs := map[string]result.RunInfo{}
	trials := map[string][]*result.Trial{}
	var order []string // run ids in suite order, so that the first twin found is always the same
	for _, e := range sr.Experiments {
		for _, rr := range e.Runs {
			runs[rr.Info.ID] = rr.Info
			order = append(order, rr.Info.ID)
			for i := range rr.Trials {
				trials[rr.Info.ID] = append(trials[rr.Info.ID], &rr.Trials[i])
			}
		}
	}
	shape, engine := map[string]string{}, map[string]string{}
	for id, ts := range trials {
		shape[id], engine[id] = cellShape(runs[id].Impl, ts)
	}
	twin := func(id, eng string) string {
		for _, o := range order {
			if o != id && shape[o] != "" && shape[o] == shape[id] && engine[o] != engine[id] && (eng == "" || engine[o] == eng) {
				return o
			}
		}
		return ""
	}
	suiteAA, _ := verdict.NoiseFloor(verdicts(sr.Experiments...))
	for _, e := range sr.Experiments {
		aa, ok := verdict.NoiseFloor(verdicts(e))
		if !ok {
			aa = suiteAA
		}
		floor := verdict.NoiseFactor(aa)
		for i := range e.Verdicts {
			v := &e.Verdicts[i]
			if v.Own() || v.Pairs == 0 || len(v.Points) > 0 || v.From != nil {
				continue
			}
			c := v.Conclusion
			if c.A = twin(v.A, ""); c.A == "" {
				continue
			}
			if v.B != "" {
				if c.B = twin(v.B, engine[c.A]); c.B == "" {
					continue
				}
			}
			// The twins measure the cells as published: a verdict graded on
			// a control (verdict.Control.Graded) is set beside what its
			// own cells read.
			est := v.Estimate
			if ctl := v.Control; ctl != nil && ctl.Graded {
				est = ctl.Estimate
			}
			tw := Verdict{Verdict: verdict.Evaluate(c, runs, trials, 1)}
			if tw.Pairs == 0 || !verdict.Disagree(est, tw.Estimate, floor) {
				continue
			}
			v.Disagrees = fmt.Sprintf("%s measured %s (%s) on the same cells, beyond the noise floor of ±%.0f %%",
				engine[c.A], VerdictFigure(tw, tw.Estimate), Interval(tw), 100*(floor-1))
		}
	}
}

// verdicts are the experiments' verdicts, for the rules that read a whole
// suite's (its A/A noise floor).
func verdicts(es ...*ExperimentReport) []*verdict.Verdict {
	var out []*verdict.Verdict
	for _, e := range es {
		for i := range e.Verdicts {
			out = append(out, &e.Verdicts[i].Verdict)
		}
	}
	return out
}

// cellShape is what two runs must share to measure the same cell: the
// implementation, the server's environment and the load (method, path,
// body, connections, keep-alive, requests, rate, mix, and the window of a
// timed load), everything but the generator, which it returns apart.
// Empty when no trial has a load.
func cellShape(impl string, ts []*result.Trial) (shape, engine string) {
	for _, t := range ts {
		if t.Load == nil {
			continue
		}
		s := t.Load.Settings
		path := s.URL
		if u, err := url.Parse(s.URL); err == nil {
			path = u.RequestURI()
		}
		method := strings.ToUpper(s.Method)
		if method == "" { // wrk and ab record the method as the suite gave it
			method = "GET"
			if s.BodyBytes > 0 {
				method = "POST"
			}
		}
		window := 0.0
		if s.MaxRequests == 0 {
			window = s.DurationS
		}
		var env []string
		for _, k := range slices.Sorted(maps.Keys(t.Env)) {
			env = append(env, k+"="+t.Env[k])
		}
		return fmt.Sprintf("%s %s %s body=%d c=%d ka=%t n=%d d=%g rate=%g mix=%s env=%s",
			impl, method, path, s.BodyBytes, s.Connections, s.KeepAlive, s.MaxRequests, window, s.Rate, s.Mix, strings.Join(env, ",")), s.Engine
	}
	return "", ""
}
