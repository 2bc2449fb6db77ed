package report

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"restbench/internal/report/model"
	"restbench/internal/result"
)

const (
	runN12 = "heartbeat/node-cluster threads=12" // not run in the fixture: needs 12 cores
	runN2  = "heartbeat/node-cluster threads=2"
	runC10 = "connections/node-http connections=10"
	tieN12 = "heartbeat: Node on 12 threads no faster than on 2" // mean_ms, node 12 threads over node 2 threads
	dirGo2 = "heartbeat: Go answers the health check faster than Node"
	trendN = "heartbeat: Node's mean falls from 2 to 12 threads"
)

// otherRuns are the fixture's runs as a 16-core machine measured them, by
// run id. Their figures differ from the main folder's on purpose, so that
// the report shows which machine's trials it used.
func otherRuns(t *testing.T, ids ...string) []fixtureRun {
	t.Helper()
	_, runs := fixtureSuite()
	byID := map[string]fixtureRun{}
	for _, r := range runs {
		byID[r.info.ID] = r
	}
	var out []fixtureRun
	for _, id := range ids {
		r, ok := byID[id]
		if !ok {
			t.Fatalf("no fixture run %q", id)
		}
		r.notRun = ""
		switch id {
		case runN12:
			r.rps, r.meanMS = []float64{9.1, 9.3, 9.2, 9.0, 9.4}, 8000
		case runN2:
			r.rps, r.meanMS = []float64{8.6, 8.4, 8.5, 8.7, 8.3}, 8500
		case runC10:
			r.rps = []float64{99001, 99002, 99003}
		}
		out = append(out, r)
	}
	return out
}

func otherEnv() result.Env {
	e := fixtureEnv()
	e.Host, e.CPUModel, e.Cores = "big-host", "AMD EPYC 7B13", 16
	return e
}

// TestReportWith renders the fixture with another machine's folder and
// checks which trials each run and verdict used, and how they are marked.
func TestReportWith(t *testing.T) {
	golden, err := os.ReadFile("testdata/report.golden.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		runs []fixtureRun
		// notRun12 is the not-run reason the other folder gives threads=12;
		// "" measures it there.
		notRun12 string
		borrowed bool   // threads=12 takes the other folder's trials
		tie      string // the outcome of the threads=12 vs threads=2 tie
		tieWhy   string // a part of its reason
		tieFrom  bool   // the tie reads the other machine's trials
	}{
		{name: "both sides there", runs: otherRuns(t, runN12, runN2, runC10), borrowed: true, tie: model.Holds, tieFrom: true},
		{name: "one side there", runs: otherRuns(t, runN12, runC10), borrowed: true, tie: model.Inconclusive, tieWhy: "sides measured on different machines"},
		{name: "not run there either", runs: otherRuns(t, runN2, runC10), notRun12: "not run here: needs 12 cores", tie: model.NotRun, tieWhy: "needs 12 cores"},
		{name: "not in that folder", runs: otherRuns(t, runC10), tie: model.NotRun, tieWhy: "needs 12 cores"},
	} {
		t.Run(c.name, func(t *testing.T) {
			suite, _ := fixtureSuite()
			with := filepath.Join(t.TempDir(), "multicore")
			runs := c.runs
			if c.notRun12 != "" {
				runs = append(runs, fixtureRun{info: otherRuns(t, runN12)[0].info, rps: []float64{0, 0}, notRun: c.notRun12})
			}
			writeResults(t, filepath.Join(with, "mini", "20261122-230000"), otherEnv(), suite, runs)

			all, err := model.LoadAll(fixtureRoot)
			must(t, err)
			others, err := model.LoadAll(with)
			must(t, err)
			model.Borrow(all, others)
			// A trend over both heartbeat cells of Node: its points must
			// come from one machine too.
			heartbeat := &all[0].Suite.Experiments[2]
			heartbeat.Conclusions = append(heartbeat.Conclusions, result.Conclusion{Text: trendN, Metric: "mean_ms", Claim: result.ClaimShrinks,
				Over: "threads", Points: []result.Point{{X: 2, A: runN2}, {X: 12, A: runN12}}})
			sr := model.Build(all[0])
			runsByID := map[string]*model.RunReport{}
			verdicts := map[string]model.Verdict{}
			for _, e := range sr.Experiments {
				for _, r := range e.Runs {
					runsByID[r.Info.ID] = r
				}
				for _, v := range e.Verdicts {
					verdicts[v.Text] = v
				}
			}

			// Which trials each run used: only the run not run here may
			// come from elsewhere, and only when measured there.
			for id, r := range runsByID {
				want := c.borrowed && id == runN12
				if (r.From != nil) != want || slices.Contains(r.Flags, model.FlagOtherMachine) != want {
					t.Errorf("%s: from %v, flags %v; want borrowed %v", id, r.From, r.Flags, want)
				}
			}
			if got := runsByID[runC10].Measured["rps"].Median; got > 90000 {
				t.Errorf("%s measured here took the other folder's req/s (%v)", runC10, got)
			}
			if r := runsByID[runN12]; c.borrowed && (len(r.OK) != 5 || r.Measured["rps"].Median != 9.2) {
				t.Errorf("%s: %d ok trials, req/s %v; want the other folder's 5 trials, 9.2", runN12, len(r.OK), r.Measured["rps"].Median)
			}

			// One machine per verdict.
			tie := verdicts[tieN12]
			if tie.Outcome != c.tie || !strings.Contains(tie.Why, c.tieWhy) || (tie.From != nil) != c.tieFrom {
				t.Errorf("tie: %s (%s), from %v; want %s (%s), from other machine %v", tie.Outcome, tie.Why, tie.From, c.tie, c.tieWhy, c.tieFrom)
			}
			if c.tieFrom {
				// 8000/8500 ms on the other machine; pairing with this
				// machine's threads=2 (9800 ms) would give 0.82.
				if math.Abs(tie.Estimate-8000.0/8500) > 0.04 || tie.Pairs != 5 {
					t.Errorf("tie estimate %.3f over %d pairs, want about %.3f over 3 (the other machine's both sides)", tie.Estimate, tie.Pairs, 8000.0/8500)
				}
			}
			tr := verdicts[trendN]
			if c.tieFrom {
				if tr.From == nil || tr.Pairs != 5 || len(tr.Points) != 2 || math.Abs(tr.Points[0].Measured/8500-1) > 0.05 {
					t.Errorf("trend from %v over %d rounds, points %+v; want the other machine's 5 rounds, about 8500 ms at 2 threads", tr.From, tr.Pairs, tr.Points)
				}
			} else if tr.Outcome != c.tie || !strings.Contains(tr.Why, c.tieWhy) || tr.From != nil {
				t.Errorf("trend: %s (%s), from %v; want %s (%s) on this machine", tr.Outcome, tr.Why, tr.From, c.tie, c.tieWhy)
			}
			if v := verdicts[dirGo2]; v.From != nil {
				t.Errorf("%q read another machine though both its runs were measured here", dirGo2)
			}

			// The marking in report.md.
			out := t.TempDir()
			w, err := Write(fixtureRoot, out, with)
			must(t, err)
			md, err := os.ReadFile(w.Markdown)
			must(t, err)
			s := string(md)
			where := "measured on 16-core AMD EPYC 7B13 (" + filepath.Join(with, "mini", "20261122-230000") + ")"
			if !c.borrowed {
				if s != string(golden) {
					t.Errorf("nothing to borrow, yet report.md differs from the golden one")
				}
				return
			}
			row := tableRow(t, s, "node-cluster threads=12 (16-core)", "req/s")
			if row["trials ok"] != "5/5" || row["req/s"] != "9.20" || !strings.Contains(row["flags"], model.FlagOtherMachine) {
				t.Errorf("threads=12 row %v: want 5/5 trials, 9.20 req/s, flag %s", row, model.FlagOtherMachine)
			}
			for _, want := range []string{
				"> **other-machine:** node-cluster threads=12 (16-core): " + where,
				"| [mini](#suite-mini), runs not run here: `" + filepath.Join(with, "mini", "20261122-230000") + "` | 2026-01-01 12:00 UTC | big-host | AMD EPYC 7B13 | 16 |",
			} {
				if !strings.Contains(s, want) {
					t.Errorf("report.md lacks %q", want)
				}
			}
			page, err := os.ReadFile(w.HTML)
			must(t, err)
			if want := "<strong>other-machine:</strong> node-cluster threads=12 (16-core): " + where; !strings.Contains(string(page), want) {
				t.Errorf("report.html lacks %q", want)
			}
			if strings.Contains(s, "node-cluster threads=12, 2 trial(s):** not run here") {
				t.Errorf("report.md still lists threads=12 as not run")
			}
			if c.tieFrom && !strings.Contains(s, where+", 0.94") {
				t.Errorf("the tie's verdict does not say it was %s", where)
			}
			if !c.tieFrom && !strings.Contains(s, "Inconclusive: sides measured on different machines") {
				t.Errorf("the tie's verdict does not say its sides were measured on different machines")
			}
		})
	}
}

const (
	nodeST = "single-thread/node-http"
	goST   = "single-thread/go-nethttp"
)

// gradedElsewhere builds the fixture's report with another machine's
// folder of runs ids, whose servers had serverCPUs, and returns the
// verdict of c, a conclusion added to the single-thread experiment. The
// other machine's Node is slower than its Go (this one's is faster), so
// the verdict shows whose trials it read; its connections=10 cell moves
// 0.6–2.5x round to round, and aa makes it the A/A twin of Node there.
func gradedElsewhere(t *testing.T, ids []string, serverCPUs string, aa bool, c result.Conclusion) model.Verdict {
	t.Helper()
	suite, _ := fixtureSuite()
	with := filepath.Join(t.TempDir(), "multicore")
	runs := otherRuns(t, ids...)
	for i := range runs {
		switch runs[i].info.ID {
		case nodeST:
			runs[i].rps, runs[i].flags = []float64{5000, 5100, 5050, 4950, 5020}, nil
		case runC10:
			runs[i].rps = []float64{2000, 9000, 5000, 3000, 8000}
		}
	}
	writeResults(t, filepath.Join(with, "mini", "20261122-230000"), otherEnv(), suite, runs)
	all, err := model.LoadAll(fixtureRoot)
	must(t, err)
	others, err := model.LoadAll(with)
	must(t, err)
	for id, ts := range others[0].Trials {
		for i := range ts {
			ts[i].Placement.ServerCPUs = serverCPUs
		}
		others[0].Trials[id] = ts
	}
	if aa {
		st := &others[0].Suite.Experiments[0]
		st.Conclusions = append(st.Conclusions, result.Conclusion{Kind: result.KindAA, Text: "A/A", Metric: "rps", A: nodeST, B: runC10, Claim: result.ClaimTie, Tolerance: 0.05})
	}
	model.Borrow(all, others)
	st := &all[0].Suite.Experiments[0]
	st.Conclusions = append(st.Conclusions, c)
	for _, e := range model.Build(all[0]).Experiments {
		for _, v := range e.Verdicts {
			if v.Text == c.Text {
				return v
			}
		}
	}
	t.Fatalf("no verdict of %q", c.Text)
	return model.Verdict{}
}

// TestPremiseElsewhere: a conclusion whose runs all ran here, on fewer
// cores than its premise needs, is graded on the other machine that ran
// both sides on enough, every side from there; where that machine did
// not meet the premise either, or lacks a side, it stays not run as
// premised here.
func TestPremiseElsewhere(t *testing.T) {
	claim := result.Conclusion{Text: "single-thread: Node faster than Go with 4 cores to use", Metric: "rps", A: nodeST, B: goST,
		Requires: &result.Requires{MinCores: 4}}
	for _, c := range []struct {
		name       string
		ids        []string
		serverCPUs string // the other machine's server CPUs
		from       bool   // graded there
	}{
		{"both sides there on 8 cores", []string{nodeST, goST}, "0-7", true},
		{"both sides there on one core", []string{nodeST, goST}, "0", false},
		{"one side there", []string{nodeST}, "0-7", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := gradedElsewhere(t, c.ids, c.serverCPUs, false, claim)
			if !c.from {
				if v.Outcome != model.NotRun || v.From != nil || !strings.Contains(v.Why, "needs 4 cores for the server") {
					t.Fatalf("%s (%s), from %v; want not run as premised here", v.Outcome, v.Why, v.From)
				}
				return
			}
			if v.From == nil || v.Outcome != model.DoesNotHold || v.Estimate > 0.6 {
				t.Fatalf("%s (%s) at %.3f, from %v; want does not hold at about 0.53, graded on the other machine", v.Outcome, v.Why, v.Estimate, v.From)
			}
		})
	}
}

// TestNoiseFloorPerMachine: a verdict graded on another machine is held to
// that machine's A/A noise floor, measured in its own folder, not to this
// one's: there a ±20 % tie that read 0.53x does not hold, but its twin
// moved 0.6–2.5x round to round, so it reads inconclusive, naming the
// floor as the other machine's.
func TestNoiseFloorPerMachine(t *testing.T) {
	claim := result.Conclusion{Text: "single-thread: Node as fast as Go with 4 cores to use", Metric: "rps", Claim: result.ClaimTie, Tolerance: 0.2,
		A: nodeST, B: goST, Requires: &result.Requires{MinCores: 4}}
	for _, aa := range []bool{false, true} {
		v := gradedElsewhere(t, []string{nodeST, goST, runC10}, "0-7", aa, claim)
		switch {
		case v.From == nil:
			t.Fatalf("with A/A %v: %s (%s) graded here; want on the other machine", aa, v.Outcome, v.Why)
		case !aa && v.Outcome != model.DoesNotHold:
			t.Errorf("no A/A there: %s (%s); want does not hold (no floor measured anywhere)", v.Outcome, v.Why)
		case aa && (v.Outcome != model.Inconclusive || !strings.Contains(v.Why, "(16-core) against itself")):
			t.Errorf("A/A there: %s (%s); want inconclusive under the other machine's floor", v.Outcome, v.Why)
		}
	}
}
