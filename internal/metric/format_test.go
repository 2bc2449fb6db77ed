package metric

import "testing"

// TestFormat: one run's figure is printed in its metric's unit, as a
// trend's points and a single-run band show it ("at 25 here 287 µs").
func TestFormat(t *testing.T) {
	for _, c := range []struct {
		key  string
		x    float64
		want string
	}{
		{CPUPerResponse, 286.7, "287 µs"},
		{"cpu_pct", 62.4, "62 %"},
		{"cores_busy_pct", 71.6, "72 %"},
		{"rss_mb", 278.2, "278 MiB"},
		{Achieved, 0.68, "68 %"},
		{"client_cpu_share", 0.25, "25 %"},
		{"rps", 14215.4, "14,215 req/s"},
		{Shape, 1.8512, "1.85×"},
		{"failed", 1204, "1,204"},
		{"p99_ms", 12.4, "12 ms"},
		{"p99_ms", 0.873, "0.87 ms"},
		{"latency_max_ms", 1234, "1.23 s"},
		{"unlisted", 3, "3 ms"},
	} {
		if got := Format(c.key, c.x); got != c.want {
			t.Errorf("Format(%s, %v) = %q, want %q", c.key, c.x, got, c.want)
		}
	}
}

func TestThousandsAndRatio(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 999.4: "999", 1000: "1,000", -1234567: "-1,234,567", 56260.2: "56,260"} {
		if got := Thousands(v); got != want {
			t.Errorf("Thousands(%v) = %q, want %q", v, got, want)
		}
	}
	for v, want := range map[float64]string{1: "1×", 1.003: "1×", 2.034: "2.03×", 0.9474: "0.947×", 12.44: "12.4×"} {
		if got := Ratio(v); got != want {
			t.Errorf("Ratio(%v) = %q, want %q", v, got, want)
		}
	}
}
