package summary

import (
	"strings"
	"testing"

	"restbench/internal/report/model"
	"restbench/internal/result"
	"restbench/internal/verdict"
)

// A decided line still says why it stands: a flag that is the published
// condition, or a bound that decided it.
func TestVerdictDetailSaysWhy(t *testing.T) {
	base := result.Conclusion{Text: "t", Metric: "latency_mean_ms", A: "a", B: "b", Claim: result.ClaimBand, Low: 4, High: 6}
	for _, c := range []struct {
		outcome, bound, why, want string
	}{
		{verdict.Holds, "", "a: connection-bound in 5 of 5 rounds, as published: …", "A: connection-bound in 5 of 5 rounds, as published"},
		{verdict.DoesNotHold, "lower", "does not hold, as a lower bound: a: behind-schedule …", "Does not hold, as a lower bound"},
		{verdict.DoesNotHold, "", "", "Rule: "},
	} {
		v := model.Verdict{Verdict: verdict.Verdict{Conclusion: base, Outcome: c.outcome, Bound: c.bound, Why: c.why, Estimate: 9, Lo: 8, Hi: 10, Pairs: 5}}
		if got := VerdictDetail(v); !strings.Contains(got, c.want) {
			t.Errorf("%s %s: %q lacks %q", c.outcome, c.bound, got, c.want)
		}
	}
}
