package model

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"restbench/internal/result"
	"restbench/internal/verdict"
)

// FlagOtherMachine marks a run whose trials came from another machine's
// results folder (restbench report --with), in the flags column.
const FlagOtherMachine = "other-machine"

// Machine is another machine whose results folder lent trials to a report:
// the runs this machine could not run (too few cores) were measured there,
// and the conclusions whose premise it did not meet (needs 4 cores for the
// server) were graded there.
type Machine struct {
	Dir string
	Env result.Env
	// results is the whole folder, for verdicts that must read every side
	// of a conclusion from it.
	results *Results
}

// Short names the machine in a run's label and a chart's legend: "16-core".
func (m *Machine) Short() string { return fmt.Sprintf("%d-core", m.Env.Cores) }

// String is how tables and verdicts say where trials were measured:
// "measured on 16-core AMD EPYC 7B13 (docs/multicore/filter/20261122-2300)".
func (m *Machine) String() string {
	return fmt.Sprintf("measured on %d-core %s (%s)", m.Env.Cores, FirstNonEmpty(m.Env.CPUModel, "unknown CPU"), m.Dir)
}

// Borrow lends the runs that main's machine did not run the trials of a
// machine that did. For each results folder of main, a run whose trials
// there are all not-run (or missing) takes the trials of the first folder
// of with, of the same suite, that holds at least one successful trial of
// it. Everything else stays main's: a run measured here is never replaced.
// Every folder of the same suite is kept in main's Others, for the
// conclusions whose premise main's machine does not meet.
func Borrow(main, with []*Results) {
	for _, r := range main {
		for _, o := range with {
			if o.Suite.Name != r.Suite.Name {
				continue
			}
			m := &Machine{Dir: o.Dir, Env: o.Env, results: o}
			r.Others = append(r.Others, m)
			for _, e := range r.Suite.Experiments {
				for _, info := range e.Runs {
					id := info.ID
					if r.From[id] != nil || !allNotRun(r.Trials[id]) || !anyOK(o.Trials[id]) {
						continue
					}
					if r.From == nil {
						r.From = map[string]*Machine{}
					}
					r.Trials[id], r.From[id] = o.Trials[id], m
				}
			}
		}
	}
}

// allNotRun: every trial (none at all included) was skipped on this machine.
func allNotRun(ts []result.Trial) bool {
	for _, t := range ts {
		if !TrialNotRun(t) {
			return false
		}
	}
	return true
}

func anyOK(ts []result.Trial) bool {
	for _, t := range ts {
		if t.Status == result.StatusOK && t.Load != nil {
			return true
		}
	}
	return false
}

// machines lists, in first-use order, the other machines an experiment's
// runs were measured on.
func (er *ExperimentReport) machines() []*Machine {
	var out []*Machine
	for _, r := range er.Runs {
		if r.From != nil && !containsMachine(out, r.From) {
			out = append(out, r.From)
		}
	}
	return out
}

func containsMachine(list []*Machine, m *Machine) bool {
	for _, x := range list {
		if x == m {
			return true
		}
	}
	return false
}

// MachineLines say, under a table, which runs were measured elsewhere:
// "go-nethttp threads=12 (16-core): measured on 16-core AMD EPYC (dir)".
func MachineLines(er *ExperimentReport) []string {
	var out []string
	for _, m := range er.machines() {
		var labels []string
		for _, r := range er.Runs {
			if r.From == m {
				labels = append(labels, r.Label())
			}
		}
		out = append(out, fmt.Sprintf("%s: %s", strings.Join(labels, ", "), m))
	}
	return out
}

// evaluate grades an experiment's conclusions on one machine each: a ratio
// of trials from two machines measures the machines as much as the
// servers. A conclusion with no run from another machine reads main's
// trials, as before. One that has reads every side from that machine's
// folder; where that folder lacks a side another machine measured (this
// one, or a second --with folder), the verdict is inconclusive instead of
// pairing the two. A conclusion whose runs all ran here but short of its
// premise ("not run as premised": needs 4 cores for the server) is graded
// on the first other machine that measured every side and meets it.
func evaluate(e result.Experiment, r *Results, trials map[string][]*result.Trial) []Verdict {
	runs := suiteRuns(r.Suite)
	var out []Verdict
	for _, c := range e.Conclusions {
		ids := conclusionRuns(c)
		var m *Machine
		for _, id := range ids {
			if m = r.From[id]; m != nil {
				break
			}
		}
		if m == nil {
			v := verdict.Evaluate(c, runs, trials, e.Looks)
			if v.Outcome == verdict.NotRun && c.Requires != nil {
				if ov, om := premisedElsewhere(c, e.Name, r, runs, ids); om != nil {
					out = append(out, Verdict{Verdict: ov, From: om})
					continue
				}
			}
			out = append(out, Verdict{Verdict: v})
			continue
		}
		set := map[string][]*result.Trial{}
		var here []string // sides m lacks that another machine measured
		for _, id := range ids {
			switch {
			case anyOK(m.results.Trials[id]):
				set[id] = pointers(m.results.Trials[id])
			case anyOK(r.Trials[id]): // this machine's, or a third machine's
				where := "only on this machine"
				if r.From[id] != nil {
					where = "only " + r.From[id].String()
				}
				here = append(here, id+" "+where)
			default:
				set[id] = trials[id] // not run anywhere: its own reason decides
			}
		}
		if len(here) == 0 {
			out = append(out, Verdict{Verdict: verdict.Evaluate(c, runs, set, looksOn(m.results.Suite, e.Name)), From: m})
			continue
		}
		v := verdict.Evaluate(c, runs, nil, e.Looks) // the claim's rule and published figure
		v.Estimate, v.Lo, v.Hi, v.Pairs = 0, 0, 0, 0
		for i := range v.Points {
			v.Points[i].Measured = 0
		}
		v.Outcome = Inconclusive
		v.Why = fmt.Sprintf("sides measured on different machines: %s; the rest %s; a ratio never pairs two machines",
			strings.Join(here, ", "), m)
		out = append(out, Verdict{Verdict: v})
	}
	return out
}

// premisedElsewhere grades c on the first other machine whose folder
// measured every run it reads and whose trials meet its premise (the
// verdict is then anything but not run); nil when none does. Every side
// comes from that one folder, as a borrowed run's conclusion does.
func premisedElsewhere(c result.Conclusion, exp string, r *Results, runs map[string]result.RunInfo, ids []string) (verdict.Verdict, *Machine) {
	for _, m := range r.Others {
		set := m.sides(ids...)
		if set == nil {
			continue
		}
		if v := verdict.Evaluate(c, runs, set, looksOn(m.results.Suite, exp)); v.Outcome != verdict.NotRun {
			return v, m
		}
	}
	return verdict.Verdict{}, nil
}

// sides are m's trials of every run of ids, for a verdict read wholly from
// m's folder; nil when m has no successful trial of one of them.
func (m *Machine) sides(ids ...string) map[string][]*result.Trial {
	set := map[string][]*result.Trial{}
	for _, id := range ids {
		if !anyOK(m.results.Trials[id]) {
			return nil
		}
		set[id] = pointers(m.results.Trials[id])
	}
	return set
}

// withinNoise applies verdict.WithinNoise to the suite's verdicts, each
// with the A/A noise floor of the machine that measured it: this one's for
// the verdicts graded here, and for those graded on another machine that
// machine's own, its A/A arm evaluated on its folder, where it measured
// one (the same twin in the same rounds). A folder without an A/A arm
// gets this machine's floor: the only noise measured at all.
func withinNoise(sr *SuiteReport, r *Results) {
	here := map[*Machine][]*verdict.Verdict{}
	for _, e := range sr.Experiments {
		for i := range e.Verdicts {
			here[e.Verdicts[i].From] = append(here[e.Verdicts[i].From], &e.Verdicts[i].Verdict)
		}
	}
	verdict.WithinNoise(here[nil])
	local, _ := verdict.NoiseFloor(here[nil])
	for m, vs := range here {
		if m == nil {
			continue
		}
		floor := m.noiseFloor()
		if floor == nil {
			floor = local
		}
		if floor != nil {
			verdict.WithinNoise(append([]*verdict.Verdict{floor}, vs...))
		}
	}
}

// noiseFloor is the A/A arm of m's suite graded on m's own trials, named
// as measured there; nil when m's folder did not measure one.
func (m *Machine) noiseFloor() *verdict.Verdict {
	runs := suiteRuns(m.results.Suite)
	for _, e := range m.results.Suite.Experiments {
		for _, c := range e.Conclusions {
			set := m.sides(c.A, c.B)
			if c.Kind != result.KindAA || set == nil {
				continue
			}
			if v := verdict.Evaluate(c, runs, set, e.Looks); v.Pairs > 0 && v.Lo > 0 {
				v.A += " (" + m.Short() + ")"
				return &v
			}
		}
	}
	return nil
}

// suiteRuns are every run of s by id: a conclusion may read a run of an
// earlier experiment than its own.
func suiteRuns(s result.Suite) map[string]result.RunInfo {
	runs := map[string]result.RunInfo{}
	for _, e := range s.Experiments {
		for _, info := range e.Runs {
			runs[info.ID] = info
		}
	}
	return runs
}

// looksOn is how many looks the stop rule had at experiment name in s.
func looksOn(s result.Suite, name string) int {
	for _, e := range s.Experiments {
		if e.Name == name {
			return e.Looks
		}
	}
	return 1
}

// conclusionRuns are the run ids a conclusion reads, without repeats.
func conclusionRuns(c result.Conclusion) []string {
	var ids []string
	add := func(id string) {
		if id != "" && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	add(c.A)
	add(c.B)
	for _, p := range c.Points {
		add(p.A)
		add(p.B)
	}
	return ids
}

func pointers(ts []result.Trial) []*result.Trial {
	out := make([]*result.Trial, len(ts))
	for i := range ts {
		out[i] = &ts[i]
	}
	return out
}

// SuiteMachines are the other machines a suite's report used, sorted by
// folder.
func SuiteMachines(s *SuiteReport) []*Machine {
	var out []*Machine
	for _, e := range s.Experiments {
		for _, m := range e.machines() {
			if !containsMachine(out, m) {
				out = append(out, m)
			}
		}
		for _, v := range e.Verdicts {
			if v.From != nil && !containsMachine(out, v.From) {
				out = append(out, v.From)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Dir < out[j].Dir })
	return out
}
