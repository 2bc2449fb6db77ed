package metric

import (
	"fmt"
	"strings"
)

// Format prints a value of key in its unit: 98 %, 61 MiB, 97 % (of the
// target), 12.5 ms, 14,200 req/s, 1.85× for the tail's shape, 1,204 for a
// count.
func Format(key string, x float64) string {
	d, _ := Lookup(key)
	switch d.Unit {
	case "fraction":
		return fmt.Sprintf("%.0f %%", 100*x)
	case "% of a core", "%":
		return fmt.Sprintf("%.0f %%", x)
	case "MiB":
		return fmt.Sprintf("%.0f MiB", x) // the monitor divides by 1,048,576
	case "req/s":
		return Thousands(x) + " req/s"
	case "count":
		return Thousands(x)
	case "×":
		return Ratio(x)
	case "µs":
		return fmt.Sprintf("%.0f µs", x)
	}
	return Millis(x)
}

// Millis prints a latency in milliseconds with the digits that matter:
// 1.23 s, 45 ms, 0.87 ms.
func Millis(v float64) string {
	switch {
	case v >= 1000:
		return fmt.Sprintf("%.3g s", v/1000)
	case v >= 10:
		return fmt.Sprintf("%.0f ms", v)
	}
	return fmt.Sprintf("%.2g ms", v)
}

// Thousands prints v rounded to a whole number, with commas: 14,200.
func Thousands(v float64) string {
	s := fmt.Sprintf("%.0f", v)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// Ratio prints a ratio to three significant digits: 1.85×, 0.947×, 12.4×.
func Ratio(v float64) string { return fmt.Sprintf("%.3g×", v) }
