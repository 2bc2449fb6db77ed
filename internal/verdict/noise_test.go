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
	atLeast := result.Conclusion{Claim: result.ClaimBand, Low: 5}             // open above
	direction := result.Conclusion{Claim: result.ClaimDirection}              // open above
	own := result.Conclusion{Claim: result.ClaimBand, High: 100, B: ""}       // one run's figure
	trend := result.Conclusion{Claim: result.ClaimGrows, Points: []result.Point{{X: 1, A: "e/a"}}}
	for _, c := range []struct {
		name  string
		floor *Verdict // nil: no A/A arm
		v     Verdict
		want  string // the outcome after
	}{
		{"a tie narrower than a noisy floor", ptr(aa(0.795, 1.43)), claim(tie10, Holds), Inconclusive},
		{"a band narrower than a noisy floor, not holding", ptr(aa(0.795, 1.43)), claim(band, DoesNotHold), Inconclusive},
		{"a tie wider than a quiet floor", ptr(aa(0.97, 1.03)), claim(tie10, Holds), Holds},
		{"a band wider than the floor", ptr(aa(0.9, 1.1)), claim(wide, DoesNotHold), DoesNotHold},
		{"a band as wide as the floor", ptr(aa(1, 1.55)), claim(band, Holds), Holds},
		{"open above: no width", ptr(aa(0.795, 1.43)), claim(atLeast, Holds), Holds},
		{"a direction: no width", ptr(aa(0.795, 1.43)), claim(direction, Holds), Holds},
		{"one run's own figure: no ratio", ptr(aa(0.795, 1.43)), claim(own, Holds), Holds},
		{"a trend: no ratio of two runs", ptr(aa(0.795, 1.43)), claim(trend, Holds), Holds},
		// Noise hides a difference but makes none: a tie refuted outside
		// the band widened by the floor (0.9 × 0.826 to 1.1 × 1.04, 0.743–
		// 1.14×) stays refuted, above it or below; inside it, it cannot be
		// told from noise; a tie that holds never can.
		{"a tie refuted beyond the widened band", ptr(aa(0.826, 1.04)), at(claim(tie10, DoesNotHold), 1.24, 1.49), DoesNotHold},
		{"a tie refuted below the widened band", ptr(aa(0.826, 1.04)), at(claim(tie10, DoesNotHold), 0.5, 0.7), DoesNotHold},
		{"a tie refuted inside the widened band", ptr(aa(0.826, 1.04)), at(claim(tie10, DoesNotHold), 1.12, 1.3), Inconclusive},
		{"a tie held inside a noisy floor", ptr(aa(0.826, 1.04)), at(claim(tie10, Holds), 0.95, 1.05), Inconclusive},
		{"already not comparable", ptr(aa(0.795, 1.43)), claim(tie10, NotComparable), NotComparable},
		{"no A/A arm", nil, claim(tie10, Holds), Holds},
		{"an A/A arm not measured", &Verdict{Conclusion: result.Conclusion{Kind: result.KindAA}, Outcome: NotMeasured}, claim(tie10, Holds), Holds},
		// An arm whose windows its cap closed measured the cap: no floor.
		{"an A/A arm not comparable", func() *Verdict { v := aa(0.795, 1.43); v.Outcome = NotComparable; return &v }(), claim(tie10, Holds), Holds},
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
			if c.want == Inconclusive && !strings.Contains(v.Why, "narrower than this suite's A/A noise floor") {
				t.Errorf("why = %q, want it to name the A/A noise floor", v.Why)
			}
			if narrow := c.v.Outcome == DoesNotHold && c.want == DoesNotHold && c.v.Claim == result.ClaimTie; narrow != strings.Contains(v.Why, "beyond the noise") {
				t.Errorf("why = %q: a narrow claim kept beyond the noise says so, and no other", v.Why)
			}
			if c.floor != nil && vs[1].Outcome != c.floor.Outcome {
				t.Errorf("the A/A arm itself changed: %q", vs[1].Outcome)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// at gives v the interval lo–hi and its middle as the estimate.
func at(v Verdict, lo, hi float64) Verdict {
	v.Lo, v.Hi, v.Estimate = lo, hi, (lo+hi)/2
	return v
}
