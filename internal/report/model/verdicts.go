package model

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"restbench/internal/metric"
)

// Times prints a ratio with the digits a reader can use: 488×, 82.0×, 1.24×,
// 0.947×, and three decimals next to 1, where the verdict's boundary
// usually is (1.003× must not read as 1×).
func Times(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1000:
		return metric.Thousands(v) + "×"
	case a >= 100:
		return fmt.Sprintf("%.0f×", v)
	case a >= 10:
		return fmt.Sprintf("%.1f×", v)
	case math.Abs(v-1) < 0.01:
		return fmt.Sprintf("%.3f×", v)
	case a >= 1:
		return fmt.Sprintf("%.2f×", v)
	}
	return strconv.FormatFloat(v, 'g', 3, 64) + "×"
}

// Interval prints a verdict's bounds as 1.21–1.41 (a single run's as
// 97 %–100 %).
func Interval(v Verdict) string {
	if v.Single() {
		return VerdictFigure(v, v.Lo) + "–" + VerdictFigure(v, v.Hi)
	}
	return strings.TrimSuffix(Times(v.Lo), "×") + "–" + strings.TrimSuffix(Times(v.Hi), "×")
}

// VerdictFigure prints a verdict's value: a ratio, or a single run's figure in its
// unit.
func VerdictFigure(v Verdict, x float64) string {
	if v.Single() {
		return metric.Format(v.Metric, x)
	}
	return Times(x)
}
