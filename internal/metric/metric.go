// Package metric is restbench's one vocabulary of measured figures: for
// each key a suite, a threshold, a verdict or a report may name, its unit,
// label, class, direction, how a trial gives it (Value) and how it prints
// (Format).
package metric

import (
	"strconv"
	"strings"
)

// Keys that name a figure derived from others, not read off a summary.
const (
	// Shape is p99/p50 of one trial: how far the tail stands from the
	// median, whatever the machine's speed ("Go's latency stays flat").
	Shape = "p99_p50"
	// Achieved is an open loop's achieved rate over its target, a fraction
	// (0.97: 97 % of the target): whether a server keeps up with what it is
	// offered ("Node fits 5–10k req/s").
	Achieved = "achieved"
	// CPUPerResponse is the server's CPU time per response that passed
	// validation, in microseconds; IdleCPU its CPU at rest before the
	// warm-up, in percent of one core (see result.Monitor).
	CPUPerResponse = "cpu_us_per_response"
	IdleCPU        = "idle_cpu_pct"
	// CPUMedian is the median of the server's CPU samples over the
	// measured window, in percent of one core: what a CPU meter read
	// during the load shows most of the time. The window's mean (cpu_pct)
	// also counts the stretches where the server waits (an -n run's last
	// connections retrying SYNs a listen queue dropped, 1-3 s at 0-16 %
	// after 4 s at 100 %), which no meter reading of a write-up saw.
	CPUMedian = "cpu_median_pct"
	// CPUThreadMedian is the median over the window's samples of the
	// server's busiest thread, in percent of one core: what a per-core
	// meter showed of a server that does its work on one thread while its
	// runtime's helpers (the garbage collector, a pool) run on other cores
	// ("one CPU at around 90 %"). A thread is on one core at a time, so it
	// reads at most 100 %, where the whole process (cpu_median_pct) reads
	// 98-102 % for a saturated Node event loop and its helpers.
	CPUThreadMedian = "cpu_thread_median_pct"
)

// Class is what a validity flag may do to a figure: a flag that biases
// latency need not bias a count of responses.
type Class string

// The classes a flag may or may not touch.
const (
	Throughput Class = "throughput"
	Latency    Class = "latency"
	Probe      Class = "probe"
	CPU        Class = "cpu"
	Memory     Class = "memory"
	Schedule   Class = "schedule"
	// Instrument is the generator's own CPU share: what client-bound is
	// made of, not a figure the flags bias.
	Instrument Class = "instrument"
	// Cost is CPU per response: a ratio of the server's CPU to what it
	// served, so a generator or a queue that changed how much it served
	// changes both alike; only a quota that was not applied breaks it.
	Cost Class = "cost"
)

// Def is one metric key.
type Def struct {
	Key   string
	Label string // a table's heading; empty: the percentile rule, or the key
	Unit  string // ms, req/s, count, fraction, % of a core, %, MiB, µs, ×, s
	Class Class
	// Higher is true when more is better (req/s, achieved), false when
	// less is (latency, CPU, memory, errors).
	Higher bool
	// Published: a write-up's figure may have this key
	// (result.RunInfo.Published). Compared: a conclusion may compare it.
	Published, Compared bool
	// Threshold is the name `restbench load --threshold` gives it, k6's
	// way ("p99"); empty when a threshold cannot name it.
	Threshold string
}

// defs is the vocabulary, in the order a suite's error message lists the
// keys a conclusion may compare.
var defs = []Def{
	{Key: "rps", Label: "req/s", Unit: "req/s", Class: Throughput, Higher: true, Published: true, Compared: true, Threshold: "rps"},
	{Key: "requests", Unit: "count", Class: Throughput, Higher: true, Published: true, Compared: true},
	{Key: "duration_s", Label: "window (s)", Unit: "s", Class: Latency, Published: true},
	{Key: "failed", Unit: "count", Class: Latency, Published: true, Compared: true},
	{Key: "latency_mean_ms", Label: "latency mean (ms)", Unit: "ms", Class: Latency, Published: true, Compared: true},
	{Key: "latency_stdev_ms", Label: "latency stdev (ms)", Unit: "ms", Class: Latency, Published: true, Compared: true},
	{Key: "latency_min_ms", Label: "latency min (ms)", Unit: "ms", Class: Latency, Published: true, Compared: true},
	{Key: "latency_max_ms", Label: "latency max (ms)", Unit: "ms", Class: Latency, Published: true, Compared: true},
	{Key: "p50_ms", Unit: "ms", Class: Latency, Published: true, Compared: true, Threshold: "p50"},
	{Key: "p66_ms", Unit: "ms", Class: Latency, Published: true, Compared: true},
	{Key: "p75_ms", Unit: "ms", Class: Latency, Published: true, Compared: true, Threshold: "p75"},
	{Key: "p80_ms", Unit: "ms", Class: Latency, Published: true, Compared: true},
	{Key: "p90_ms", Unit: "ms", Class: Latency, Published: true, Compared: true, Threshold: "p90"},
	{Key: "p95_ms", Unit: "ms", Class: Latency, Published: true, Compared: true},
	{Key: "p98_ms", Unit: "ms", Class: Latency, Published: true, Compared: true},
	{Key: "p99_ms", Unit: "ms", Class: Latency, Published: true, Compared: true, Threshold: "p99"},
	{Key: "p100_ms", Unit: "ms", Class: Latency, Published: true, Compared: true},
	{Key: "cpu_pct", Label: "server CPU (% of a core)", Unit: "% of a core", Class: CPU, Published: true, Compared: true},
	{Key: "rss_mb", Label: "server RSS (MiB)", Unit: "MiB", Class: Memory, Published: true, Compared: true},
	{Key: "probe_mean_ms", Label: "probe mean (ms)", Unit: "ms", Class: Probe, Published: true, Compared: true},
	{Key: "probe_median_ms", Label: "probe median (ms)", Unit: "ms", Class: Probe, Published: true, Compared: true},
	{Key: "probe_min_ms", Label: "probe min (ms)", Unit: "ms", Class: Probe, Published: true, Compared: true},
	{Key: "probe_max_ms", Label: "probe max (ms)", Unit: "ms", Class: Probe, Published: true, Compared: true},
	{Key: "cores_busy_pct", Label: "cores busy (% each, mean)", Unit: "%", Class: CPU, Published: true, Compared: true},
	{Key: Shape, Label: "p99/p50 (tail shape)", Unit: "×", Class: Latency, Compared: true},
	{Key: Achieved, Unit: "fraction", Class: Schedule, Higher: true, Compared: true, Threshold: "achieved"},
	// The light requests of a work_share mix: what the heavy ones do to
	// them ("heavy requests affect the light ones").
	{Key: "light_latency_mean_ms", Unit: "ms", Class: Latency, Compared: true},
	{Key: "light_p50_ms", Unit: "ms", Class: Latency, Compared: true},
	{Key: "light_p99_ms", Unit: "ms", Class: Latency, Compared: true},
	// "Loads the CPUs less", compared at a rate both servers sustain.
	{Key: CPUPerResponse, Label: "server CPU per response (µs)", Unit: "µs", Class: Cost, Compared: true},
	// A meter's reading during the load ("keeps one CPU at around 90 %").
	{Key: CPUMedian, Label: "server CPU, median sample (% of a core)", Unit: "% of a core", Class: CPU, Compared: true},
	{Key: CPUThreadMedian, Label: "server's busiest thread, median sample (% of a core)", Unit: "% of a core", Class: CPU, Compared: true},

	// Figures the report and the thresholds read that no write-up prints.
	{Key: IdleCPU, Unit: "% of a core", Class: CPU},
	{Key: "cpu_peak_pct", Unit: "% of a core", Class: CPU},
	{Key: "client_cpu_share", Unit: "fraction", Class: Instrument},
	{Key: "ok_rps", Unit: "req/s", Class: Throughput, Higher: true, Threshold: "ok_rps"},
	{Key: "errors", Label: "errors", Unit: "count", Class: Latency, Threshold: "errors"},
	{Key: "mean_ms", Label: "mean (ms)", Unit: "ms", Class: Latency, Threshold: "mean"},
	{Key: "median_ms", Label: "median (ms)", Unit: "ms", Class: Latency},
	{Key: "min_ms", Label: "min (ms)", Unit: "ms", Class: Latency, Threshold: "min"},
	{Key: "max_ms", Label: "max (ms)", Unit: "ms", Class: Latency, Threshold: "max"},
	{Key: "p999_ms", Unit: "ms", Class: Latency, Threshold: "p999"},
	{Key: "p9999_ms", Unit: "ms", Class: Latency, Threshold: "p9999"},
}

var byKey = func() map[string]Def {
	m := map[string]Def{}
	for _, d := range defs {
		m[d.Key] = d
	}
	return m
}()

// Lookup returns the definition of key. A key outside the table is still
// known when it is a percentile (p97_ms) or a probe's figure (probe_p99_ms).
func Lookup(key string) (Def, bool) {
	if d, ok := byKey[key]; ok {
		return d, true
	}
	if rest, ok := strings.CutPrefix(key, "probe_"); ok {
		if d, ok := Lookup(rest); ok {
			return Def{Key: key, Unit: d.Unit, Class: Probe, Higher: d.Higher}, true
		}
	}
	if _, ok := PercentileKey(key); ok {
		return Def{Key: key, Unit: "ms", Class: Latency}, true
	}
	return Def{}, false
}

// ByThreshold returns the definition a threshold's name stands for.
func ByThreshold(name string) (Def, bool) {
	for _, d := range defs {
		if d.Threshold != "" && d.Threshold == name {
			return d, true
		}
	}
	return Def{}, false
}

// Published lists the keys a write-up's figure may have, in table order.
func Published() []string { return keys(func(d Def) bool { return d.Published }) }

// Compared lists the keys a conclusion may compare, in table order.
func Compared() []string { return keys(func(d Def) bool { return d.Compared }) }

func keys(keep func(Def) bool) []string {
	var out []string
	for _, d := range defs {
		if keep(d) {
			out = append(out, d.Key)
		}
	}
	return out
}

// ClassOf is key's class; a key the table does not know is read as a
// latency (the flags that bias latency touch it), the careful default, or
// as the probe's when it names one.
func ClassOf(key string) Class {
	if d, ok := Lookup(key); ok {
		return d.Class
	}
	if strings.HasPrefix(key, "probe_") {
		return Probe
	}
	return Latency
}

// HigherIsBetter says which way a change in key is good for the user.
func HigherIsBetter(key string) bool {
	d, _ := Lookup(key)
	return d.Higher
}

// Label is key's heading in a table: its label, "p99 (ms)" for a
// percentile, else the key as it is.
func Label(key string) string {
	if d, ok := byKey[key]; ok && d.Label != "" {
		return d.Label
	}
	if p, ok := PercentileKey(key); ok {
		return "p" + strconv.FormatFloat(p, 'f', -1, 64) + " (ms)"
	}
	return key
}

// Order sorts keys the way the write-ups print them: throughput, then the
// latency summary, then percentiles, then resources, then the probe.
func Order(key string) (group int, within float64) {
	switch key {
	case "rps":
		return 0, 0
	case "latency_mean_ms", "mean_ms":
		return 1, 0
	case "latency_stdev_ms":
		return 1, 1
	case "median_ms":
		return 1, 2
	case "latency_min_ms", "min_ms":
		return 1, 3
	case "latency_max_ms", "max_ms":
		return 1, 4
	}
	if p, ok := PercentileKey(key); ok {
		return 2, p
	}
	if strings.HasPrefix(key, "probe_") {
		return 4, 0
	}
	if key == "cpu_pct" || key == "rss_mb" {
		return 3, 0
	}
	return 5, 0
}
