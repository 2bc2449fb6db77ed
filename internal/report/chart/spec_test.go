package chart

import (
	"fmt"
	"math"
	"testing"
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
