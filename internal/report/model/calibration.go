package model

import (
	"strconv"

	"restbench/internal/metric"
	"restbench/internal/result"
	"restbench/internal/verdict"
)

// The work calibration: a cell whose requests ask for work=W ms of CPU
// shows what its server spent on them, so that a reader can see whether W
// ms of work cost W ms (Node's first clock made work=1 cost 2.5-4 ms, and
// every work figure was wrong by that much). Heavy responses × W is the CPU
// the work asked for; the monitor's server CPU is what the server spent on
// everything. With a 0 % control of the same server (the same cell with
// work_share 0), the CPU per heavy response is the server's CPU less the
// light responses at the control's CPU per response, over the heavy ones.

// CalibrationHeader are the titles of CalibrationRows' columns.
var CalibrationHeader = []string{"run", "W ms", "heavy req/s", "light req/s", "heavy × W (CPU s/s)",
	"server CPU s/s", "server CPU / (heavy × W)", "CPU ms per heavy response (less the 0 % control's per light one)"}

// workTrial is one trial's work: W, and the responses per second of the
// heavy (work=W) and light requests.
type workTrial struct {
	w            float64
	heavy, light float64
	cpu          float64 // server CPU seconds per second (cores)
}

// trialWork reads a trial's work from its load settings; ok is false when
// its requests ask for no work or the monitor saw nothing.
func trialWork(t *result.Trial) (workTrial, bool) {
	l := t.Load
	if l == nil || t.Monitor == nil || len(t.Monitor.Samples) == 0 {
		return workTrial{}, false
	}
	wt := workTrial{cpu: t.Monitor.ServerCPUMean / 100}
	if len(l.Settings.MixTargets) == 0 {
		wt.w = verdict.WorkMS(l.Settings.URL)
		wt.heavy = l.RPS
	}
	for _, m := range l.Settings.MixTargets {
		s := l.Targets[m.Name]
		if s == nil {
			continue
		}
		if w := verdict.WorkMS(m.Path); w > 0 {
			wt.w, wt.heavy = w, wt.heavy+s.RPS
		} else {
			wt.light += s.RPS
		}
	}
	return wt, wt.w > 0 || (len(l.Settings.MixTargets) > 0 && wt.light > 0)
}

// control is the 0 % cell of r's server in e: the same implementation and
// parameters but a work_share of 0.
func control(e *ExperimentReport, r *RunReport) *RunReport {
	if r.Info.Params["work_share"] == "" || r.Info.Params["work_share"] == "0" {
		return nil
	}
	for _, c := range e.Runs {
		if c.Info.Impl != r.Info.Impl || c.Info.Params["work_share"] != "0" || len(c.Info.Params) != len(r.Info.Params) {
			continue
		}
		same := true
		for k, v := range r.Info.Params {
			if k != "work_share" && c.Info.Params[k] != v {
				same = false
			}
		}
		if same {
			return c
		}
	}
	return nil
}

// CalibrationRows returns a row per run whose requests ask for work, or nil
// when none does.
func CalibrationRows(e *ExperimentReport) [][]string {
	var rows [][]string
	for _, r := range e.Runs {
		var trials []workTrial
		for _, m := range r.OK {
			if wt, ok := trialWork(m.Trial); ok && wt.w > 0 {
				trials = append(trials, wt)
			}
		}
		if len(trials) == 0 {
			continue
		}
		get := func(f func(workTrial) (float64, bool)) metric.Spread {
			var vs []float64
			for _, wt := range trials {
				if v, ok := f(wt); ok {
					vs = append(vs, v)
				}
			}
			return metric.SpreadOf(vs)
		}
		asked := func(wt workTrial) float64 { return wt.heavy * wt.w / 1000 }
		perLight := controlCPUPerResponse(control(e, r))
		perHeavy := "—"
		if perLight > 0 {
			perHeavy = medRange(get(func(wt workTrial) (float64, bool) {
				return (wt.cpu - wt.light*perLight) / wt.heavy * 1000, wt.heavy > 0
			}))
		}
		rows = append(rows, []string{Cell(r.Label()), strconv.FormatFloat(trials[0].w, 'g', -1, 64),
			Med(get(func(wt workTrial) (float64, bool) { return wt.heavy, true })),
			Med(get(func(wt workTrial) (float64, bool) { return wt.light, true })),
			Med(get(func(wt workTrial) (float64, bool) { return asked(wt), true })),
			Med(get(func(wt workTrial) (float64, bool) { return wt.cpu, true })),
			medRange(get(func(wt workTrial) (float64, bool) { return wt.cpu / asked(wt), asked(wt) > 0 })),
			perHeavy})
	}
	return rows
}

// controlCPUPerResponse is the median server CPU seconds per light response
// of a 0 % control run, 0 when there is none.
func controlCPUPerResponse(c *RunReport) float64 {
	if c == nil {
		return 0
	}
	var vs []float64
	for _, m := range c.OK {
		if wt, ok := trialWork(m.Trial); ok && wt.light > 0 {
			vs = append(vs, wt.cpu/wt.light)
		}
	}
	return metric.SpreadOf(vs).Median
}

// medRange is "median (min–max)".
func medRange(s metric.Spread) string {
	if s.N == 0 {
		return "—"
	}
	return Med(s) + " (" + Rng(s) + ")"
}
