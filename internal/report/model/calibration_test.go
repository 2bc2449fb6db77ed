package model

import (
	"strings"
	"testing"

	"restbench/internal/result"
)

// workRun is a run of a work_share experiment whose trials saw these
// light and heavy responses per second and this server CPU (% of a core).
func workRun(share string, light, heavy, cpuPct float64) *RunReport {
	mix := []result.MixTarget{{Name: "light", Path: "/time?delay=0", Weight: 99}}
	targets := map[string]*result.Stats{"light": {RPS: light}}
	if heavy > 0 {
		mix = append(mix, result.MixTarget{Name: "heavy", Path: "/time?delay=0&work=1", Weight: 1})
		targets["heavy"] = &result.Stats{RPS: heavy}
	}
	t := result.Trial{Status: result.StatusOK,
		Load:    &result.Load{Stats: result.Stats{RPS: light + heavy}, Targets: targets, Settings: result.Settings{URL: "/time?delay=0", MixTargets: mix}},
		Monitor: &result.Monitor{ServerCPUMean: cpuPct, Samples: []result.Sample{{}}}}
	r := &RunReport{Info: result.RunInfo{ID: "work/node-express work=" + share + "%", Impl: "node-express", Label: "node-express work=" + share + "%",
		Params: map[string]string{"work_share": share, "runtime": "node@24"}}, Trials: []result.Trial{t}}
	r.OK = []Measured{{Trial: &r.Trials[0]}}
	return r
}

func TestCalibrationRows(t *testing.T) {
	// The control spends 0.5 cores on 5,000 light req/s: 0.1 ms each. The
	// 1 % cell: 4,950 light and 50 heavy req/s on 0.6 cores, so the heavy
	// ones cost (0.6 - 0.495) / 50 = 2.1 ms each where 1 ms was asked.
	e := &ExperimentReport{Runs: []*RunReport{workRun("0", 5000, 0, 50), workRun("1", 4950, 50, 60)}}
	rows := CalibrationRows(e)
	if len(rows) != 1 {
		t.Fatalf("rows = %v, want one (the control asks for no work)", rows)
	}
	want := []string{"node-express work=1%", "1", "50.0", "4950", "0.05", "0.6", "12.0 (12.0–12.0)", "2.10 (2.10–2.10)"}
	if got := rows[0]; strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("row = %q\nwant  %q", got, want)
	}
	// Without its control the per-response column cannot be computed.
	if rows := CalibrationRows(&ExperimentReport{Runs: []*RunReport{workRun("1", 4950, 50, 60)}}); rows[0][7] != "—" {
		t.Errorf("without a control: %q, want —", rows[0][7])
	}
	if rows := CalibrationRows(&ExperimentReport{Runs: []*RunReport{workRun("0", 5000, 0, 50)}}); rows != nil {
		t.Errorf("an experiment without work: %v, want no table", rows)
	}
}
