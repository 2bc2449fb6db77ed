package verdict

import (
	"strings"
	"testing"

	"restbench/internal/result"
)

func TestWithinNoise(t *testing.T) {
	aa := func(lo, hi float64) Verdict {
		return Verdict{Conclusion: result.Conclusion{Kind: result.KindAA, Claim: result.ClaimTie, Metric: "rps", A: "e/x c=100", B: "e/x c=100 A/A"},
			Estimate: 1, Lo: lo, Hi: hi, Pairs: 5, Outcome: Inconclusive}
	}
	claim := func(c result.Conclusion, outcome string) Verdict {
		if c.B == "" && len(c.Points) == 0 {
			c.B = "e/b"
		}
		c.A, c.Metric = "e/a", "rps"
		return Verdict{Conclusion: c, Estimate: 1.2, Lo: 1.1, Hi: 1.3, Pairs: 5, Outcome: outcome}
	}
	tie10 := result.Conclusion{Claim: result.ClaimTie, Tolerance: 0.10}       // 0.9–1.1: 1.22× wide
	band := result.Conclusion{Claim: result.ClaimBand, Low: 1.05, High: 1.63} // 1.55× wide
	wide := result.Conclusion{Claim: result.ClaimBand, Low: 1.6, High: 2.5}   // 1.56× wide
	direction := result.Conclusion{Claim: result.ClaimDirection}              // open above
	own := result.Conclusion{Claim: result.ClaimBand, High: 100, B: ""}       // one run's figure
	trend := result.Conclusion{Claim: result.ClaimGrows, Points: []result.Point{{X: 1, A: "e/a"}}}
	atLeast134 := result.Conclusion{Claim: result.ClaimBand, Low: 1.34} // fastify's "over 34 %"
	const narrower, edge, beyond = "narrower than this suite's A/A noise floor", "within the noise of the claim's edge", "beyond the noise"
	for _, c := range []struct {
		name  string
		floor *Verdict // nil: no A/A arm
		v     Verdict
		want  string // the outcome after
		why   string // in the why after, "" for none of the three above
	}{
		{"a tie narrower than a noisy floor", ptr(aa(0.795, 1.43)), at(claim(tie10, Holds), 0.95, 1.05), Inconclusive, narrower},
		{"a band narrower than a noisy floor, not holding", ptr(aa(0.795, 1.43)), claim(band, DoesNotHold), Inconclusive, narrower},
		{"a tie wider than a quiet floor", ptr(aa(0.97, 1.03)), at(claim(tie10, Holds), 0.95, 1.05), Holds, ""},
		{"a band wider than the floor, refuted beyond it", ptr(aa(0.9, 1.1)), claim(wide, DoesNotHold), DoesNotHold, ""},
		// Near an edge: the interval, widened to the floor around its estimate
		// (0.956–1.03: ÷ and × 1.046), crosses 1.34: 1.39 ÷ 1.046 = 1.33,
		// 1.295 × 1.046 = 1.35.
		{"holds beyond the noise of its edge", ptr(aa(0.956, 1.03)), at(claim(atLeast134, Holds), 1.45, 1.6), Holds, ""},
		{"holds within the noise of its edge", ptr(aa(0.956, 1.03)), at(claim(atLeast134, Holds), 1.35, 1.43), Inconclusive, edge},
		{"refuted within the noise of its edge", ptr(aa(0.956, 1.03)), at(claim(atLeast134, DoesNotHold), 1.26, 1.33), Inconclusive, edge},
		{"refuted beyond the noise of its edge", ptr(aa(0.956, 1.03)), at(claim(atLeast134, DoesNotHold), 1.1, 1.25), DoesNotHold, ""},
		{"a band's upper edge", ptr(aa(0.9, 1.1)), at(claim(wide, Holds), 2.2, 2.4), Inconclusive, edge},
		{"a direction near 1", ptr(aa(0.956, 1.03)), at(claim(direction, Holds), 1.02, 1.06), Inconclusive, edge},
		{"a direction clear of 1", ptr(aa(0.956, 1.03)), at(claim(direction, Holds), 1.1, 1.3), Holds, ""},
		// Which run is the twin is arbitrary: a floor of 1.02–1.68 is a
		// noise of 1.68 either way.
		{"a floor above 1", ptr(aa(1.02, 1.68)), at(claim(atLeast134, Holds), 1.9, 2.2), Inconclusive, edge},
		{"a floor above 1, refuted below", ptr(aa(1.02, 1.68)), at(claim(atLeast134, DoesNotHold), 0.6, 0.75), DoesNotHold, ""},
		{"a bound within the noise", ptr(aa(0.956, 1.03)), func() Verdict { v := at(claim(atLeast134, Holds), 1.35, 1.43); v.Bound = "lower"; return v }(), Inconclusive, edge},
		{"another metric than the floor's", ptr(aa(0.795, 1.43)), func() Verdict { v := at(claim(tie10, Holds), 0.95, 1.05); v.Metric = "cpu_pct"; return v }(), Holds, ""},
		{"one run's own figure: no ratio", ptr(aa(0.795, 1.43)), claim(own, Holds), Holds, ""},
		{"a trend: no ratio of two runs", ptr(aa(0.795, 1.43)), claim(trend, Holds), Holds, ""},
		// Noise hides a difference but makes none: a tie refuted by an
		// interval that, widened to the floor (0.826–1.04: ÷ and × 1.21),
		// still misses 0.9–1.1 stays refuted, above it or below; one that
		// reaches it cannot be told from noise; a tie that holds never can.
		{"a tie refuted beyond the widened band", ptr(aa(0.826, 1.04)), at(claim(tie10, DoesNotHold), 1.24, 1.49), DoesNotHold, beyond},
		{"a tie refuted below the widened band", ptr(aa(0.826, 1.04)), at(claim(tie10, DoesNotHold), 0.5, 0.7), DoesNotHold, beyond},
		{"a tie refuted inside the widened band", ptr(aa(0.826, 1.04)), at(claim(tie10, DoesNotHold), 1.12, 1.3), Inconclusive, narrower},
		{"a tie held inside a noisy floor", ptr(aa(0.826, 1.04)), at(claim(tie10, Holds), 0.95, 1.05), Inconclusive, narrower},
		{"already not comparable", ptr(aa(0.795, 1.43)), claim(tie10, NotComparable), NotComparable, ""},
		{"no A/A arm", nil, at(claim(tie10, Holds), 0.95, 1.05), Holds, ""},
		{"an A/A arm not measured", &Verdict{Conclusion: result.Conclusion{Kind: result.KindAA}, Outcome: NotMeasured}, at(claim(tie10, Holds), 0.95, 1.05), Holds, ""},
		// An arm whose windows its cap closed measured the cap: no floor.
		{"an A/A arm not comparable", func() *Verdict { v := aa(0.795, 1.43); v.Outcome = NotComparable; return &v }(), at(claim(tie10, Holds), 0.95, 1.05), Holds, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := c.v
			vs := []*Verdict{&v}
			if c.floor != nil {
				floor := *c.floor
				vs = append(vs, &floor)
			}
			WithinNoise(vs)
			if v.Outcome != c.want {
				t.Fatalf("outcome %q (%s), want %q", v.Outcome, v.Why, c.want)
			}
			// (beyond's why names the narrower band too)
			for _, w := range []string{narrower, edge, beyond} {
				if says := strings.Contains(v.Why, w); says != (w == c.why || w == narrower && c.why == beyond) {
					t.Errorf("why = %q: want it to say %q and none of the others", v.Why, c.why)
				}
			}
			if v.Outcome == Inconclusive && v.Bound != "" {
				t.Errorf("an inconclusive verdict kept its bound %q", v.Bound)
			}
			if turned := c.v.Outcome != v.Outcome; turned != (v.BeforeNoise == c.v.Outcome) || !turned && v.BeforeNoise != "" {
				t.Errorf("BeforeNoise = %q after %q -> %q", v.BeforeNoise, c.v.Outcome, v.Outcome)
			}
			if c.floor != nil && vs[1].Outcome != c.floor.Outcome {
				t.Errorf("the A/A arm itself changed: %q", vs[1].Outcome)
			}
		})
	}
}

// TestWithinNoiseNamesTheEdge: the why says which edge the noise straddles
// and where the true ratio may lie.
func TestWithinNoiseNamesTheEdge(t *testing.T) {
	floor := Verdict{Conclusion: result.Conclusion{Kind: result.KindAA, Claim: result.ClaimTie, Metric: "rps", A: "e/x", B: "e/x A/A"}, Estimate: 1, Lo: 0.956, Hi: 1.03, Pairs: 5}
	v := Verdict{Conclusion: result.Conclusion{Claim: result.ClaimBand, Low: 0.9, High: 1.5, Metric: "rps", A: "e/a", B: "e/b"}, Estimate: 1.45, Lo: 1.4, Hi: 1.48, Pairs: 5, Outcome: Holds}
	WithinNoise([]*Verdict{&v, &floor})
	for _, w := range []string{"it read 1.45× (1.4×–1.48×), which holds", "0.956×–1.03× here (e/x against itself)", "a ratio read as 1.45× may be anywhere in 1.39×–1.52×", "either side of 1.5×"} {
		if !strings.Contains(v.Why, w) {
			t.Errorf("why = %q, want %q in it", v.Why, w)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// at gives v the interval lo–hi and its middle as the estimate.
func at(v Verdict, lo, hi float64) Verdict {
	v.Lo, v.Hi, v.Estimate = lo, hi, (lo+hi)/2
	return v
}
