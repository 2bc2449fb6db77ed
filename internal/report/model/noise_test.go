package model

import (
	"strings"
	"testing"

	"restbench/internal/result"
)

// TestBuildWithinNoise: Build grades a suite's claims against the A/A noise
// floor of whichever of its experiments has one, so that a tie the paired
// ratios would decide reads inconclusive when the floor is wider.
func TestBuildWithinNoise(t *testing.T) {
	for _, c := range []struct {
		name string
		twin []float64 // the A/A twin's req/s per round; a's are 100
		want string
	}{
		{"a quiet floor decides the tie", []float64{99, 101, 100, 98, 102}, Holds},
		{"a noisy floor: the tie is inconclusive", []float64{80, 125, 100, 90, 110}, Inconclusive},
	} {
		t.Run(c.name, func(t *testing.T) {
			tie := result.Conclusion{Text: "a ties b", Metric: "rps", A: "x/b", B: "x/c", Claim: result.ClaimTie, Tolerance: 0.10}
			aa := result.Conclusion{Text: "A/A: a against itself", Kind: result.KindAA, Metric: "rps", A: "aa/a", B: "aa/a A/A", Claim: result.ClaimTie, Published: 1}
			r := &Results{
				Suite: result.Suite{Name: "s", Experiments: []result.Experiment{
					{Name: "aa", Runs: []result.RunInfo{{ID: "aa/a"}, {ID: "aa/a A/A"}}, Conclusions: []result.Conclusion{aa}},
					{Name: "x", Runs: []result.RunInfo{{ID: "x/b"}, {ID: "x/c"}}, Conclusions: []result.Conclusion{tie}},
				}},
				Trials: map[string][]result.Trial{
					"aa/a": rpsTrials("aa/a", 100, 100, 100, 100, 100), "aa/a A/A": rpsTrials("aa/a A/A", c.twin...),
					"x/b": rpsTrials("x/b", 100, 102, 99, 101, 100), "x/c": rpsTrials("x/c", 100, 100, 100, 100, 100),
				},
			}
			v := Build(r).Experiments[1].Verdicts[0]
			if v.Outcome != c.want {
				t.Fatalf("tie: %s (%s), want %s", v.Outcome, v.Why, c.want)
			}
			if c.want == Inconclusive && !strings.Contains(v.Why, "A/A noise floor") {
				t.Errorf("why = %q, want it to name the A/A noise floor", v.Why)
			}
		})
	}
}

// TestBuildReadsEarlierExperiment: a conclusion may read a run of an
// earlier experiment than its own (a scaled twin against a cell that runs
// as published); Build pairs the two by round like any two runs, instead
// of finding no trials for the other experiment's run.
func TestBuildReadsEarlierExperiment(t *testing.T) {
	for _, c := range []struct {
		name string
		b    []float64 // y/b's req/s per round; x/a's are 200
		want string
	}{
		{"a twice b: holds", []float64{100, 101, 99, 100, 100}, Holds},
		{"a under b: does not hold", []float64{400, 401, 399, 400, 400}, DoesNotHold},
	} {
		t.Run(c.name, func(t *testing.T) {
			twin := result.Conclusion{Text: "a beats b", Metric: "rps", A: "x/a", B: "y/b", Published: 2, Scaled: "a rule"}
			r := &Results{
				Suite: result.Suite{Name: "s", Experiments: []result.Experiment{
					{Name: "x", Runs: []result.RunInfo{{ID: "x/a"}}},
					{Name: "y", Runs: []result.RunInfo{{ID: "y/b"}}, Conclusions: []result.Conclusion{twin}},
				}},
				Trials: map[string][]result.Trial{
					"x/a": rpsTrials("x/a", 200, 200, 200, 200, 200), "y/b": rpsTrials("y/b", c.b...),
				},
			}
			v := Build(r).Experiments[1].Verdicts[0]
			if v.Outcome != c.want || v.Pairs != 5 {
				t.Fatalf("%s, %d pairs (%s), want %s on 5 pairs", v.Outcome, v.Pairs, v.Why, c.want)
			}
		})
	}
}

// rpsTrials are one ok trial a round for run id, with these req/s.
func rpsTrials(id string, rps ...float64) []result.Trial {
	var out []result.Trial
	for i, v := range rps {
		ld := &result.Load{}
		ld.RPS, ld.Responses = v, 1000
		out = append(out, result.Trial{Run: id, Trial: i + 1, Round: i + 1, Status: result.StatusOK, Load: ld})
	}
	return out
}
