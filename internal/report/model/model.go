package model

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"restbench/internal/metric"
	"restbench/internal/result"
	"restbench/internal/verdict"
)

// SuiteReport is what the report says about one results folder.
type SuiteReport struct {
	Dir         string
	Env         result.Env
	Suite       result.Suite
	Experiments []*ExperimentReport
}

// ExperimentReport is one published table, measured again.
type ExperimentReport struct {
	Experiment result.Experiment
	Runs       []*RunReport
	Verdicts   []Verdict
	// Param is the matrix parameter the runs vary along (connections, delay,
	// work share...) when it is numeric; "" when there is none. The report
	// draws req/s and latency against it.
	Param string
}

// RunReport is one run over its trials.
type RunReport struct {
	Info   result.RunInfo
	Trials []result.Trial // every trial, failed ones included
	// From is the other machine the trials were measured on (restbench
	// report --with); nil for the main folder's machine.
	From  *Machine
	OK    []Measured // the successful trials, which the figures use
	Flags []string   // union of the trials' flags, "failed" included
	// Measured holds the standard figures and every published key.
	Measured map[string]metric.Spread
	// Figures is the published-vs-measured table, in the source's order.
	Figures []Figure
}

// Figure is one published figure beside ours.
type Figure struct {
	Key       string
	Published float64
	Measured  metric.Spread // N == 0: not measured (failed, or a key we cannot answer)
}

// Ratio is measured/published, 0 when either is missing.
func (f Figure) Ratio() float64 {
	if f.Measured.N == 0 || f.Published == 0 {
		return 0
	}
	return f.Measured.Median / f.Published
}

// Verdict grades one published conclusion; see internal/verdict.
type Verdict struct {
	verdict.Verdict
	// From is the other machine every side of the conclusion was measured
	// on (restbench report --with); nil for the main folder's machine.
	From *Machine
}

// Verdict outcomes.
const (
	Holds        = verdict.Holds
	DoesNotHold  = verdict.DoesNotHold
	Inconclusive = verdict.Inconclusive
	NotMeasured  = verdict.NotMeasured
	NotRun       = verdict.NotRun

	NotComparable         = verdict.NotComparable
	PublishedInconsistent = verdict.PublishedInconsistent
)

// standardKeys are measured for every run, published or not.
var standardKeys = []string{"rps", "latency_mean_ms", "latency_stdev_ms", "p50_ms", "p99_ms", "latency_max_ms", "errors", "cpu_pct", "rss_mb"}

// Build computes the report model of one results folder.
func Build(r *Results) *SuiteReport {
	sr := &SuiteReport{Dir: r.Dir, Env: r.Env, Suite: r.Suite}
	// Every run's trials, by id: a conclusion may read a run of an earlier
	// experiment (a scaled twin against a cell run as published).
	trials := map[string][]*result.Trial{}
	for _, e := range r.Suite.Experiments {
		er := &ExperimentReport{Experiment: e}
		for _, info := range e.Runs {
			rr := BuildRun(info, r.Trials[info.ID])
			if m := r.From[info.ID]; m != nil {
				rr.From = m
				rr.Flags = append(rr.Flags, FlagOtherMachine)
				sort.Strings(rr.Flags)
			}
			er.Runs = append(er.Runs, rr)
			for i := range rr.Trials {
				trials[info.ID] = append(trials[info.ID], &rr.Trials[i])
			}
		}
		er.Verdicts = evaluate(e, r, trials)
		premiseRatios(er, r, trials)
		er.Param = matrixParam(e.Runs)
		sr.Experiments = append(sr.Experiments, er)
	}
	// The suite's A/A noise floor bounds what any of its ratios can tell,
	// each machine's its own ratios (see withinNoise).
	withinNoise(sr, r)
	// Another generator on the same cells that measured otherwise is said.
	crossCheck(sr)
	return sr
}

// BuildRun makes the report of one run from its trials.
func BuildRun(info result.RunInfo, trials []result.Trial) *RunReport {
	rr := &RunReport{Info: info, Trials: trials, Measured: map[string]metric.Spread{}}
	flags := map[string]bool{}
	for i := range trials {
		t := &trials[i]
		for _, f := range t.Flags {
			flags[f] = true
		}
		if TrialNotRun(*t) {
			continue // listed with its reason, not as a failure
		}
		if t.Status == result.StatusFailed || t.Load == nil {
			flags[result.FlagFailed] = true
			continue
		}
		rr.OK = append(rr.OK, NewMeasured(t))
	}
	for f := range flags {
		rr.Flags = append(rr.Flags, f)
	}
	sort.Strings(rr.Flags)

	keys := append([]string(nil), standardKeys...)
	for k := range info.Published {
		keys = append(keys, k)
	}
	for _, k := range keys {
		var vs []float64
		for _, m := range rr.OK {
			if v, ok := m.Value(k); ok {
				vs = append(vs, v)
			}
		}
		rr.Measured[k] = metric.SpreadOf(vs)
	}
	for k, v := range info.Published {
		rr.Figures = append(rr.Figures, Figure{Key: k, Published: v, Measured: rr.Measured[k]})
	}
	sort.Slice(rr.Figures, func(i, j int) bool {
		gi, pi := metric.Order(rr.Figures[i].Key)
		gj, pj := metric.Order(rr.Figures[j].Key)
		if gi != gj {
			return gi < gj
		}
		if pi != pj {
			return pi < pj
		}
		return rr.Figures[i].Key < rr.Figures[j].Key
	})
	return rr
}

// matrixParam picks the parameter the runs vary along, for the line charts:
// the first (by name) that takes more than one value, every one numeric
// once units and "%" are cut.
func matrixParam(runs []result.RunInfo) string {
	values := map[string]map[string]bool{}
	count := map[string]int{}
	for _, r := range runs {
		for k, v := range r.Params {
			if values[k] == nil {
				values[k] = map[string]bool{}
			}
			values[k][v] = true
			count[k]++
		}
	}
	var names []string
	for k, vs := range values {
		// A sweep's axis is a parameter of every run: one that a cell
		// sets on a few (filter's one-thread caps, duration: 12s and
		// 5500ms) is a setting, and its other runs would sit at x = 0.
		if len(vs) < 2 || count[k] < len(runs) {
			continue
		}
		numeric := true
		for v := range vs {
			if _, ok := ParamNumber(v); !ok {
				numeric = false
			}
		}
		if numeric {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return ""
	}
	return names[0]
}

// ParamNumber reads "100", "50ms", "0.75x" or "25%" as a number; a
// duration ("50ms", "1.5s") in milliseconds, so that values written in
// different units compare.
func ParamNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if d, err := time.ParseDuration(s); err == nil {
		return float64(d) / float64(time.Millisecond), true
	}
	end := len(s)
	for end > 0 && !strings.ContainsAny(s[end-1:end], "0123456789.") {
		end--
	}
	f, err := strconv.ParseFloat(s[:end], 64)
	if err != nil || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// Series groups the runs of an experiment for a line against its Param: one
// line per implementation plus the parameters other than Param.
func (er *ExperimentReport) Series() (names []string, runs map[string][]*RunReport) {
	runs = map[string][]*RunReport{}
	for _, rr := range er.Runs {
		name := rr.Info.Impl
		var extra []string
		for k, v := range rr.Info.Params {
			if k != er.Param && k != "impl" {
				extra = append(extra, k+"="+v)
			}
		}
		sort.Strings(extra)
		if len(extra) > 0 {
			name += " " + strings.Join(extra, " ")
		}
		if _, ok := runs[name]; !ok {
			names = append(names, name)
		}
		runs[name] = append(runs[name], rr)
	}
	for _, n := range names {
		rs := runs[n]
		sort.SliceStable(rs, func(i, j int) bool {
			a, _ := ParamNumber(rs[i].Info.Params[er.Param])
			b, _ := ParamNumber(rs[j].Info.Params[er.Param])
			return a < b
		})
	}
	return names, runs
}

// Label is how a run is named in tables and legends; a run measured on
// another machine says which, "(16-core)", wherever it appears.
func (rr *RunReport) Label() string {
	l := FirstNonEmpty(rr.Info.Label, rr.Info.ID)
	if rr.From != nil {
		l += " (" + rr.From.Short() + ")"
	}
	return l
}

// RetransmissionBound counts rr's successful trials that were
// retransmission-bound (result.RetransmissionBound), and the most idle
// seconds among them.
func (rr *RunReport) RetransmissionBound() (n, idle int) {
	for _, m := range rr.OK {
		if s := result.RetransmissionBound(m.Trial); s > 0 {
			n, idle = n+1, max(idle, s)
		}
	}
	return n, idle
}

// Streams names the mix targets (sorted) and the probe of a run's trials.
func (rr *RunReport) Streams() []string {
	seen := map[string]bool{}
	var names []string
	probe := false
	for _, m := range rr.OK {
		l := m.Trial.Load
		probe = probe || l.Probe != nil
		if l.Settings.Mix == "" && len(l.Targets) < 2 {
			continue // a single target is the whole load, already in the main table
		}
		for name := range l.Targets {
			if !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		}
	}
	sort.Strings(names)
	if probe {
		names = append(names, probeStream)
	}
	return names
}

func (rr *RunReport) failedCount() int {
	n := len(rr.Trials) - len(rr.OK)
	for _, t := range rr.Trials {
		if TrialNotRun(t) {
			n--
		}
	}
	return n
}

// TrialsCell is "ok/wanted": the run's successful trials of those it
// asked for (or ran, when more).
func (rr *RunReport) TrialsCell() string {
	want := rr.Info.Trials
	if want < len(rr.Trials) {
		want = len(rr.Trials)
	}
	return fmt.Sprintf("%d/%d", len(rr.OK), want)
}
