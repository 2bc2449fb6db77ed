package verdict

import (
	"strings"
	"testing"

	"restbench/internal/result"
)

// The window rule: a latency ratio of two cells of a saturated experiment,
// both behind their rate over windows of one length, lies over the
// published window between the measured ratio and the ratio of their lag
// growths (1 − achieved/rate). It is graded on that envelope, and only
// where every flag is about the window.
func TestWindowEnvelope(t *testing.T) {
	sat := &result.PublishedLoad{Tool: "wrk2", Model: result.ModelOpen, DurationS: 30, Saturated: true}
	open := &result.PublishedLoad{Tool: "wrk2", Model: result.ModelOpen, DurationS: 30}
	// At 1,000 req/s, with connections to spare (not connection-bound).
	cell := func(run string, achieved, meanMS float64) []*result.Trial {
		return openTrials(run, 1000, achieved, 1, meanMS, 1000)
	}
	cases := []struct {
		name    string
		pub     *result.PublishedLoad
		a, b    []*result.Trial
		claim   result.Conclusion
		outcome string
		why     []string
	}{
		// 3× measured, lag growths 0.3 and 0.1: 3× too, so ≥ 2× holds
		// however long the window.
		{"both behind, both ends inside", sat, cell("a", 700, 300), cell("b", 900, 100),
			result.Conclusion{Claim: result.ClaimBand, Low: 2}, Holds,
			[]string{"holds over the published 30 s too", "a: behind-schedule", "mean + growth × (30 s − window) / 2"}},
		{"both behind, both ends below", sat, cell("a", 700, 300), cell("b", 900, 100),
			result.Conclusion{Claim: result.ClaimBand, Low: 5, High: 8}, DoesNotHold,
			[]string{"does not hold over the published 30 s either"}},
		// Measured 3×, growths 0.3 against 0.06: 5×; the band 4–6× is
		// crossed on the way.
		{"both behind, the envelope straddles", sat, cell("a", 700, 300), cell("b", 940, 100),
			result.Conclusion{Claim: result.ClaimBand, Low: 4, High: 6}, NotComparable,
			[]string{"straddles a boundary"}},
		// B kept up: its latency does not grow, A's does: a floor, 30×
		// above a 4–6× band.
		{"only A behind: a floor", sat, cell("a", 700, 300), cell("b", 1000, 10),
			result.Conclusion{Claim: result.ClaimBand, Low: 4, High: 6}, DoesNotHold,
			[]string{"it lies in 30×–"}},
		// Not saturated: falling behind is a fault of the run, not the
		// published condition.
		{"not saturated", open, cell("a", 700, 300), cell("b", 900, 100),
			result.Conclusion{Claim: result.ClaimBand, Low: 2}, NotComparable,
			[]string{"a: behind-schedule"}},
		// A flag the window does not model but whose bias is known: A's
		// stalled connections make its figure a floor, so the envelope
		// is open above: ≥ 2× holds, 2–4× cannot tell.
		{"a stalled connection, open above", sat, stalled(cell("a", 700, 300)), cell("b", 900, 100),
			result.Conclusion{Claim: result.ClaimBand, Low: 2}, Holds,
			[]string{result.FlagStalledConnections, "it lies in 3×–∞"}},
		{"a stalled connection, a closed band", sat, stalled(cell("a", 700, 300)), cell("b", 900, 100),
			result.Conclusion{Claim: result.ClaimBand, Low: 2, High: 4}, NotComparable,
			[]string{"straddles"}},
		// An unknown bias leaves it to the bounds: not comparable.
		{"an overflowed accept queue", sat, overflowed(cell("a", 700, 300)), cell("b", 900, 100),
			result.Conclusion{Claim: result.ClaimBand, Low: 2}, NotComparable,
			[]string{result.FlagAcceptQueueOverflow}},
		// Windows of different lengths: the envelope needs one T.
		{"windows differ", sat, window(cell("a", 700, 300), 5), cell("b", 900, 100),
			result.Conclusion{Claim: result.ClaimBand, Low: 2}, NotComparable,
			[]string{"a: behind-schedule"}},
	}
	for _, tc := range cases {
		runs := map[string]result.RunInfo{"a": {ID: "a", OpenLoop: true, PublishedLoad: tc.pub}, "b": {ID: "b", OpenLoop: true, PublishedLoad: tc.pub}}
		trials := map[string][]*result.Trial{"a": tc.a, "b": tc.b}
		ratio := tc.claim
		ratio.Text, ratio.Metric, ratio.A, ratio.B = tc.name, "latency_mean_ms", "a", "b"
		// The same cells as a trend of two points: a at the larger X.
		trend := tc.claim
		trend.Text, trend.Metric = tc.name+" (trend)", "latency_mean_ms"
		trend.Points = []result.Point{{X: 10, A: "b"}, {X: 100, A: "a"}}
		if tc.claim.Claim == result.ClaimBand && tc.claim.High == 0 && tc.claim.Low == 2 {
			trend.Claim, trend.Low = result.ClaimGrows, 0 // grows: above 1×
		}
		for _, c := range []result.Conclusion{ratio, trend} {
			if c.Claim == result.ClaimBand && len(c.Points) > 0 {
				continue // a band over a trend's change is graded as the ratio is
			}
			v := Evaluate(c, runs, trials, 1)
			if v.Outcome != tc.outcome {
				t.Errorf("%s: %q (%s), want %q", c.Text, v.Outcome, v.Why, tc.outcome)
			}
			for _, w := range tc.why {
				if !strings.Contains(v.Why, w) {
					t.Errorf("%s: why %q lacks %q", c.Text, v.Why, w)
				}
			}
		}
	}
}

func stalled(ts []*result.Trial) []*result.Trial {
	for _, t := range ts {
		t.Flags = append(t.Flags, result.FlagStalledConnections)
		t.Load.PerConnection = &result.PerConnection{Stalled: 3}
	}
	return ts
}

func overflowed(ts []*result.Trial) []*result.Trial {
	for _, t := range ts {
		t.Flags = append(t.Flags, result.FlagAcceptQueueOverflow)
	}
	return ts
}

// short sets every trial's achieved req/s to rps, its server's CPU share
// to share, and its flags from them.
func short(ts []*result.Trial, rps, share float64) []*result.Trial {
	for _, t := range ts {
		t.Load.RPS, t.Load.ServerCPUShare = rps, share
		t.Load.Flags = result.ValidityFlags(t.Load)
		t.Flags = t.Load.Flags
	}
	return ts
}

func window(ts []*result.Trial, s float64) []*result.Trial {
	for _, t := range ts {
		t.Load.DurationS = s
	}
	return ts
}

// A req/s claim of a saturated experiment: a cell that kept up with its
// rate achieved the rate, a floor of what the server carries, and says so.
func TestRateCapped(t *testing.T) {
	sat := &result.PublishedLoad{Tool: "wrk2", Model: result.ModelOpen, DurationS: 30, Saturated: true}
	cell := func(run string, achieved float64) []*result.Trial {
		return openTrials(run, 1000, achieved, 1, 5, 1000)
	}
	tie := result.Conclusion{Text: "c1000 serves as much as c100", Metric: "rps", A: "c1000", B: "c100", Claim: result.ClaimTie, Tolerance: 0.1}
	cases := []struct {
		name       string
		pub        *result.PublishedLoad
		c1000      []*result.Trial
		c100       []*result.Trial
		outcome    string
		bound      string
		why, notIn string
	}{
		// c=100 achieved its rate; c=1000 65 % of it: at most 0.65×
		// of what c=100 carries, so the tie does not hold, as an upper bound.
		{"capped below", sat, cell("c1000", 650), cell("c100", 1000), DoesNotHold, "upper", "c100: capped at the rate", ""},
		// Both achieved the one rate in every round: each a floor of what
		// it carries, but their ratio is what wrk2 -R prints (the published
		// model): graded as measured.
		{"both capped", sat, cell("c1000", 1000), cell("c100", 1000), Holds, "", "c1000 and c100: both kept up with one rate in 5 of 5 rounds", FlagRateCapped},
		// Each kept up with a rate of its own: two floors, the ratio neither.
		{"both capped, two rates", sat, openTrials("c1000", 1200, 1200, 1, 5, 1000), cell("c100", 1000), NotComparable, "", "c1000: capped at the rate", ""},
		// Each kept up with 1 × its own capacity search (heysphere (a), as
		// wrk2 -R at each server's maximum): the step above failed, so each
		// carried its capacity; the ratio (1.2×) is graded as measured.
		{"each at its own capacity", sat, searched(openTrials("c1000", 1200, 1200, 1, 5, 1000), "c1000", 1, 1240), searched(cell("c100", 1000), "c100", 1, 1030), DoesNotHold, "", "c1000: kept up with its own capacity in 5 of 5 rounds (its rate was 1 × its own capacity search, 1,200 req/s, whose step above (1,240 req/s) failed", FlagRateCapped},
		// A fraction of its own capacity, or another run's: a floor still,
		// over c=100's capacity, so the ratio is at least the measured 1.2×.
		{"below its own capacity", sat, searched(openTrials("c1000", 1200, 1200, 1, 5, 1000), "c1000", 0.9, 1400), searched(cell("c100", 1000), "c100", 1, 1030), DoesNotHold, "lower", "c1000: capped at the rate", ""},
		{"at another run's capacity", sat, searched(openTrials("c1000", 1200, 1200, 1, 5, 1000), "c100", 1, 1240), searched(cell("c100", 1000), "c100", 1, 1030), DoesNotHold, "lower", "c1000: capped at the rate", ""},
		// Under a capacity of its own, c=1000's floor of 1.2× c=100's rate
		// says nothing of a claim that c=1000 carries less.
		{"a floor over a floor", sat, searched(openTrials("c1000", 1200, 1200, 1, 5, 1000), "c100", 1, 1240), searched(cell("c100", 1000), "c100", 0.5, 2100), NotComparable, "", "c100: capped at the rate", ""},
		// c=100 fell behind too: both carried what they could.
		{"neither capped", sat, cell("c1000", 650), cell("c100", 900), DoesNotHold, "", "", FlagRateCapped},
		// c=100 fell 3 % short of its rate at 100 % of its CPU: its own
		// capacity, not the rate, set what it carried.
		{"saturated just short", sat, cell("c1000", 650), short(cell("c100", 1000), 970, 1.0), DoesNotHold, "", "", FlagRateCapped},
		// The same shortfall with CPU to spare is a stall: the rate capped it.
		{"stalled just short", sat, cell("c1000", 650), short(cell("c100", 1000), 970, 0.8), DoesNotHold, "upper", "c100: capped at the rate", ""},
		// Not saturated: no cap is said (the flags decide as before).
		{"not saturated", &result.PublishedLoad{Tool: "wrk2", Model: result.ModelOpen}, cell("c1000", 650), cell("c100", 1000), NotComparable, "", "", FlagRateCapped},
	}
	for _, tc := range cases {
		runs := map[string]result.RunInfo{"c1000": {ID: "c1000", OpenLoop: true, PublishedLoad: tc.pub}, "c100": {ID: "c100", OpenLoop: true, PublishedLoad: tc.pub}}
		v := Evaluate(tie, runs, map[string][]*result.Trial{"c1000": tc.c1000, "c100": tc.c100}, 1)
		if v.Outcome != tc.outcome || v.Bound != tc.bound {
			t.Errorf("%s: %q %q (%s), want %q %q", tc.name, v.Outcome, v.Bound, v.Why, tc.outcome, tc.bound)
		}
		if tc.why != "" && !strings.Contains(v.Why, tc.why) {
			t.Errorf("%s: why %q lacks %q", tc.name, v.Why, tc.why)
		}
		if tc.notIn != "" && strings.Contains(v.Why, tc.notIn) {
			t.Errorf("%s: why %q says %q", tc.name, v.Why, tc.notIn)
		}
	}
}

// searched gives trials the rate_from of a capacity search of run at
// fraction × its capacity (each trial's target ÷ fraction), with one failed
// step at failed and the sustained one at the capacity.
func searched(trials []*result.Trial, run string, fraction, failed float64) []*result.Trial {
	for _, t := range trials {
		c := t.Load.TargetRPS / fraction
		t.RateFrom = &result.RateFrom{Run: run, Fraction: fraction, CapacityRPS: c, Method: result.RateFromSearch,
			Search: &result.Capacity{CapacityRPS: c, Steps: []result.CapacityStep{{TargetRPS: failed * 1.2}, {TargetRPS: failed}, {TargetRPS: c, Sustained: true}}}}
	}
	return trials
}

// A trend of two points that are ratios (Node over Go at 100 and at 1,000
// connections): the change is a product of two ratios of cells, and each
// way of pairing them gives an envelope; the verdict reads where they
// overlap.
func TestWindowEnvelopeRatioTrend(t *testing.T) {
	sat := &result.PublishedLoad{Tool: "wrk2", Model: result.ModelOpen, DurationS: 30, Saturated: true}
	cell := func(run string, achieved, meanMS float64) []*result.Trial {
		return openTrials(run, 1000, achieved, 1, meanMS, 1000)
	}
	points := []result.Point{{X: 100, A: "n100", B: "g100"}, {X: 1000, A: "n1000", B: "g1000"}}
	cases := []struct {
		name                     string
		n100, g100, n1000, g1000 []*result.Trial
		outcome                  string
		why                      string
	}{
		// At 100 both kept up (Node 2× Go); at 1,000 both fell behind,
		// Node 3× Go measured and more by growth (about 0.28 against
		// 0.07): the ratio grows 1.5× over our window, more over longer.
		{"grows", cell("n100", 1000, 10), cell("g100", 1000, 5), cell("n1000", 700, 300), cell("g1000", 900, 100), Holds, "it lies in 1.5×–"},
		// At 1,000 Node 3× Go measured, but Go's backlog grows 3 times as
		// fast as Node's: over a longer window the ratio there falls
		// towards 1/3, below 2 (the ratio at 100), so the change straddles 1×.
		{"crosses", cell("n100", 1000, 10), cell("g100", 1000, 5), cell("n1000", 900, 300), cell("g1000", 700, 100), NotComparable, "straddles"},
	}
	for _, tc := range cases {
		runs := map[string]result.RunInfo{}
		for _, id := range []string{"n100", "g100", "n1000", "g1000"} {
			runs[id] = result.RunInfo{ID: id, OpenLoop: true, PublishedLoad: sat}
		}
		trials := map[string][]*result.Trial{"n100": tc.n100, "g100": tc.g100, "n1000": tc.n1000, "g1000": tc.g1000}
		c := result.Conclusion{Text: tc.name, Metric: "latency_mean_ms", Claim: result.ClaimGrows, Over: "connections", Points: points}
		v := Evaluate(c, runs, trials, 1)
		if v.Outcome != tc.outcome || !strings.Contains(v.Why, tc.why) {
			t.Errorf("%s: %q (%s), want %q saying %q", tc.name, v.Outcome, v.Why, tc.outcome, tc.why)
		}
	}
}

// A load of a request count whose cap closed the window short of it (a
// single Node process waiting out its SYN retries) reads a ceiling of the
// run to its last request: a ratio over it is a floor, decided only beyond
// the claim's edge, and a ratio of two such runs is not comparable.
func TestCutAtCap(t *testing.T) {
	cell := func(rps []float64, answered int64, closed float64) []*result.Trial {
		var out []*result.Trial
		for k, r := range rps {
			l := &result.Load{DurationS: closed, Settings: result.Settings{MaxRequests: 50000, DurationS: 7.5}}
			l.RPS, l.Requests, l.Responses = r, 50000, answered
			out = append(out, &result.Trial{Trial: k + 1, Round: k + 1, Status: result.StatusOK, Load: l})
		}
		return out
	}
	goFast := cell([]float64{21000, 20500, 20800, 21200, 20900}, 50000, 2.4)
	about2 := result.Conclusion{Text: "Go about 2x Node", Metric: "rps", A: "go", B: "node", Claim: result.ClaimBand, Low: 1.6, High: 2.5}
	tie := result.Conclusion{Text: "restbench as ab", Metric: "rps", A: "node", B: "node ab", Claim: result.ClaimTie}
	for _, c := range []struct {
		name    string
		claim   result.Conclusion
		trials  map[string][]*result.Trial
		outcome string
		bound   string
	}{
		{"cut, the floor beyond the band", about2, map[string][]*result.Trial{"go": goFast, "node": cell([]float64{6620, 6630, 6610, 6640, 6625}, 49664, 7.5)}, DoesNotHold, "lower"},
		{"cut, the floor inside the band", about2, map[string][]*result.Trial{"go": goFast, "node": cell([]float64{8600, 8500, 8400, 8700, 8550}, 49664, 7.5)}, NotComparable, ""},
		{"finished before the cap", about2, map[string][]*result.Trial{"go": goFast, "node": cell([]float64{6620, 6630, 6610, 6640, 6625}, 50000, 7.2)}, DoesNotHold, ""},
		{"both cut: a ratio of two caps", tie, map[string][]*result.Trial{"node": cell([]float64{6620, 6630, 6610, 6640, 6625}, 49664, 7.5), "node ab": cell([]float64{6621, 6629, 6612, 6641, 6624}, 49700, 7.5)}, NotComparable, ""},
	} {
		runs := map[string]result.RunInfo{}
		for id := range c.trials {
			runs[id] = result.RunInfo{ID: id}
		}
		v := Evaluate(c.claim, runs, c.trials, 1)
		if v.Outcome != c.outcome || v.Bound != c.bound || (c.name != "finished before the cap") != strings.Contains(v.Why, FlagCutAtCap) {
			t.Errorf("%s: %q %q (%s), want %q %q", c.name, v.Outcome, v.Bound, v.Why, c.outcome, c.bound)
		}
	}
}

// A window shorter than the published latency is a floor of it only where
// the run's backlog could grow: an open loop that kept up with its rate in
// every round (heysphere (c)'s Go at 25 % on 15 cores) did not reach the
// published 3.4 s, and a longer window would not have raised it.
func TestShortWindowKeptUp(t *testing.T) {
	c := result.Conclusion{Text: "Go reaches seconds", Metric: "latency_mean_ms", A: "g25", B: "g1", Claim: result.ClaimBand, Low: 10}
	pub := map[string]float64{"latency_mean_ms": 3409}
	short := func(ts []*result.Trial) []*result.Trial {
		for _, tr := range ts {
			tr.Load.DurationS = 1
		}
		return ts
	}
	for _, tc := range []struct {
		name    string
		g25     []*result.Trial
		outcome string
		floor   bool
	}{
		// Kept up: 3 ms against 1 ms measured, no floor: does not hold.
		{"kept up", short(openTrials("g25", 1000, 1000, 1, 3, 100)), DoesNotHold, false},
		// Behind its rate: a floor the 1 s window cuts; 30× holds as a bound.
		{"behind", short(openTrials("g25", 1000, 700, 1, 30, 100)), Holds, true},
	} {
		runs := map[string]result.RunInfo{"g25": {ID: "g25", OpenLoop: true, Published: pub}, "g1": {ID: "g1", OpenLoop: true}}
		v := Evaluate(c, runs, map[string][]*result.Trial{"g25": tc.g25, "g1": short(openTrials("g1", 1000, 1000, 1, 1, 100))}, 1)
		if v.Outcome != tc.outcome || strings.Contains(v.Why, FlagShortWindow) != tc.floor {
			t.Errorf("%s: %q (%s), want %q with the short-window floor %v", tc.name, v.Outcome, v.Why, tc.outcome, tc.floor)
		}
	}
}
