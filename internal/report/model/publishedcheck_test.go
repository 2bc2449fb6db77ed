package model

import (
	"strings"
	"testing"

	"restbench/internal/result"
)

// The published rows are checked by the load that measured them, and the
// table says which load that was; ab's mean is labelled derived.
func TestPublishedCheckRows(t *testing.T) {
	wrk2 := &result.PublishedLoad{Tool: "wrk2", Model: result.ModelOpen, Rate: 10000, DurationS: 30}
	ab := &result.PublishedLoad{Tool: "ab", Model: result.ModelClosed, Connections: 1000}
	wrk := &result.PublishedLoad{Tool: "wrk", Model: result.ModelClosed}
	cases := []struct {
		info      result.RunInfo
		load, rps string
		mean      string
		check     string
	}{
		{result.RunInfo{ID: "e/n1", Label: "n1", Connections: 1400, OpenLoop: true, PublishedLoad: wrk2, Published: map[string]float64{"rps": 7000, "latency_mean_ms": 8830}},
			"wrk2, open loop at 10,000 req/s", "7000", "8830", "consistent: within the connections plus the backlog"},
		{result.RunInfo{ID: "e/sum", Label: "sum", Connections: 200, PublishedLoad: ab, Published: map[string]float64{"rps": 17280.86, "latency_mean_ms": 57.867}},
			"ab, closed loop", "17,281", "57.9 (derived)", "derived: ab prints the mean as concurrency ÷ req/s"},
		{result.RunInfo{ID: "e/quota", Label: "quota", Connections: 10, PublishedLoad: wrk, Published: map[string]float64{"rps": 579.77, "requests": 11614, "duration_s": 20.03, "latency_mean_ms": 25.13}},
			"wrk, closed loop", "580 (requests ÷ seconds)", "25.1", "mean off: req/s is exact"},
	}
	for _, c := range cases {
		e := &ExperimentReport{Runs: []*RunReport{{Info: c.info}}}
		rows := PublishedCheckRows(e)
		if len(rows) != 1 {
			t.Fatalf("%s: %d rows, want 1", c.info.ID, len(rows))
		}
		r := rows[0]
		if r[1] != c.load || r[2] != c.rps || r[3] != c.mean || !strings.HasPrefix(r[7], c.check) {
			t.Errorf("%s: load %q rps %q mean %q check %q; want %q %q %q %q…", c.info.ID, r[1], r[2], r[3], r[7], c.load, c.rps, c.mean, c.check)
		}
	}
	if got := PublishedMetricLabel(cases[1].info, "latency_mean_ms"); !strings.Contains(got, "derived (ab: concurrency ÷ req/s)") {
		t.Errorf("ab mean label %q", got)
	}
	if got := PublishedMetricLabel(cases[2].info, "latency_mean_ms"); strings.Contains(got, "derived") {
		t.Errorf("wrk mean label %q: wrk measures its mean", got)
	}
}
