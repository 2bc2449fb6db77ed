package chart

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"restbench/internal/metric"
	"restbench/internal/report/model"
	"restbench/internal/result"
)

// TestPercentileTicks: the percentile axis is labelled with no digit beyond
// its last nine (99.99%, not 99.990%).
func TestPercentileTicks(t *testing.T) {
	want := []string{"0%", "50%", "90%", "99%", "99.9%", "99.99%", "99.999%", "99.9999%"}
	ticks := PercentileTicks()
	for i, w := range want {
		if i >= len(ticks) || ticks[i].Label != w {
			t.Fatalf("ticks %v, want labels %v", ticks, want)
		}
		if p := 100 - 100/ticks[i].Value; math.Abs(p-mustFloat(t, w[:len(w)-1])) > 1e-9 {
			t.Errorf("tick %q sits at x=%g, which is p=%g", w, ticks[i].Value, p)
		}
	}
}

func mustFloat(t *testing.T, s string) float64 {
	var f float64
	if _, err := fmt.Sscan(s, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestVersusParamLogAxis: a sweep over decades goes on a log axis, unless a
// run sits at x <= 0 (a run without the parameter), which a log axis cannot
// hold: gonum panics on it, and it took make bench's report down.
func TestVersusParamLogAxis(t *testing.T) {
	rr := func(x string) *model.RunReport {
		return &model.RunReport{Info: result.RunInfo{Impl: "a", Params: map[string]string{"impl": "a", "c": x}},
			Measured: map[string]metric.Spread{"rps": {Median: 100, Min: 90, Max: 110, N: 3}}}
	}
	for _, c := range []struct {
		xs   []string
		want Scale
	}{
		{[]string{"10", "100", "1000"}, LogScale},
		{[]string{"10", "100", "1000", ""}, LinearScale},
		{[]string{"1", "2", "6"}, LinearScale},
	} {
		e := &model.ExperimentReport{Param: "c"}
		for _, x := range c.xs {
			e.Runs = append(e.Runs, rr(x))
		}
		spec := versusParam(e, "t", "rps", "rps", "req/s")
		if spec.X.Scale != c.want {
			t.Errorf("runs at %q: scale %v, want %v", c.xs, spec.X.Scale, c.want)
		}
		if err := saveChart(spec, filepath.Join(t.TempDir(), "c.png"), "png"); err != nil {
			t.Errorf("runs at %q: %v", c.xs, err)
		}
	}
}
