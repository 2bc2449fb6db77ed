package metric

import (
	"slices"
	"testing"
)

// TestLookup: every key of the table is known, and so are the keys built
// by a rule (any percentile, a probe's figure); a made-up key is not.
func TestLookup(t *testing.T) {
	for _, c := range []struct {
		key   string
		ok    bool
		unit  string
		class Class
	}{
		{"rps", true, "req/s", Throughput},
		{"p99_ms", true, "ms", Latency},
		{"p97_ms", true, "ms", Latency},
		{"probe_p99_ms", true, "ms", Probe},
		{"probe_rps", true, "req/s", Probe},
		{Achieved, true, "fraction", Schedule},
		{CPUPerResponse, true, "µs", Cost},
		{"client_cpu_share", true, "fraction", Instrument},
		{"rss_mb", true, "MiB", Memory},
		{"nonsense", false, "", ""},
		{"p_ms", false, "", ""},
	} {
		d, ok := Lookup(c.key)
		if ok != c.ok || d.Unit != c.unit || d.Class != c.class {
			t.Errorf("Lookup(%q) = %+v, %v; want unit %q class %q, %v", c.key, d, ok, c.unit, c.class, c.ok)
		}
	}
}

// TestClassOf: what a validity flag may do to a figure depends on its
// class; a key nobody listed is treated as a latency, the careful default.
func TestClassOf(t *testing.T) {
	for key, want := range map[string]Class{
		"rps": Throughput, "requests": Throughput, Achieved: Schedule,
		"probe_mean_ms": Probe, "probe_whatever": Probe,
		"cpu_pct": CPU, "cpu_peak_pct": CPU, "cores_busy_pct": CPU, "rss_mb": Memory,
		"client_cpu_share": Instrument, CPUPerResponse: Cost,
		"latency_mean_ms": Latency, "p99_ms": Latency, Shape: Latency, "failed": Latency,
		"light_p99_ms": Latency, "unlisted": Latency,
	} {
		if got := ClassOf(key); got != want {
			t.Errorf("ClassOf(%q) = %q, want %q", key, got, want)
		}
	}
}

// TestLists: a conclusion may compare every published key but the window,
// plus the derived ones; a threshold's names each lead to a key.
func TestLists(t *testing.T) {
	pub, cmp := Published(), Compared()
	for _, k := range pub {
		if k != "duration_s" && !slices.Contains(cmp, k) {
			t.Errorf("published %s cannot be compared", k)
		}
	}
	for _, k := range []string{Shape, Achieved, "light_latency_mean_ms", "light_p50_ms", "light_p99_ms", CPUPerResponse} {
		if !slices.Contains(cmp, k) || slices.Contains(pub, k) {
			t.Errorf("%s: compared %v, published %v; want compared only", k, slices.Contains(cmp, k), slices.Contains(pub, k))
		}
	}
	for name, key := range map[string]string{"p99": "p99_ms", "p9999": "p9999_ms", "mean": "mean_ms", "errors": "errors", "achieved": Achieved, "ok_rps": "ok_rps"} {
		if d, ok := ByThreshold(name); !ok || d.Key != key {
			t.Errorf("ByThreshold(%q) = %q, %v; want %q", name, d.Key, ok, key)
		}
	}
	if _, ok := ByThreshold("p66"); ok {
		t.Errorf("ByThreshold(p66) known; a threshold names only the percentiles every summary keeps")
	}
}

func TestDirection(t *testing.T) {
	for key, want := range map[string]bool{"rps": true, Achieved: true, "ok_rps": true, "p99_ms": false, "cpu_pct": false, "rss_mb": false, "errors": false} {
		if got := HigherIsBetter(key); got != want {
			t.Errorf("HigherIsBetter(%q) = %v, want %v", key, got, want)
		}
	}
}

func TestLabelAndOrder(t *testing.T) {
	for key, want := range map[string]string{
		"rps": "req/s", "p99_ms": "p99 (ms)", "p999_ms": "p99.9 (ms)", Shape: "p99/p50 (tail shape)",
		CPUPerResponse: "server CPU per response (µs)", "probe_p99_ms": "probe_p99_ms", "failed": "failed",
	} {
		if got := Label(key); got != want {
			t.Errorf("Label(%q) = %q, want %q", key, got, want)
		}
	}
	sorted := []string{"rps", "latency_mean_ms", "latency_stdev_ms", "latency_min_ms", "latency_max_ms", "p50_ms", "p99_ms", "cpu_pct", "probe_mean_ms", "failed"}
	shuffled := slices.Clone(sorted)
	slices.Reverse(shuffled)
	slices.SortStableFunc(shuffled, func(a, b string) int {
		ga, pa := Order(a)
		gb, pb := Order(b)
		if ga != gb {
			return ga - gb
		}
		switch {
		case pa < pb:
			return -1
		case pa > pb:
			return 1
		}
		return 0
	})
	if !slices.Equal(shuffled, sorted) {
		t.Errorf("Order sorts %v, want %v", shuffled, sorted)
	}
}
