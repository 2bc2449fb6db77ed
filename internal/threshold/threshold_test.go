package threshold

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"restbench/internal/result"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in      string
		metric  string
		op      string
		value   float64
		percent bool
		err     string
	}{
		{in: "p99<50ms", metric: "p99", op: "<", value: 50},
		{in: "p99 < 0.5s", metric: "p99", op: "<", value: 500},
		{in: "p(99.9)<=200us", metric: "p999", op: "<=", value: 0.2},
		{in: "mean<3", metric: "mean", op: "<", value: 3},
		{in: "errors<0.1%", metric: "errors", op: "<", value: 0.1, percent: true},
		{in: "errors<5", metric: "errors", op: "<", value: 5},
		{in: "achieved>95%", metric: "achieved", op: ">", value: 95, percent: true},
		{in: "rps>=1000", metric: "rps", op: ">=", value: 1000},
		{in: "achieved>95", err: "percentage"},
		{in: "p99<50%", err: "latency unit"},
		{in: "rps>50%", err: "not a percentage"},
		{in: "p99<50m", err: "latency unit"},
		{in: "rps>10ms", err: "unexpected unit"},
		{in: "latency<5ms", err: "unknown metric"},
		{in: "p99=5ms", err: "write METRIC<VALUE"},
		{in: "p99<", err: "not a non-negative number"},
		{in: "p99<-1ms", err: "not a non-negative number"},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Parse(%q) error = %v, want one containing %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got.Metric != tt.metric || got.Op != tt.op || got.Value != tt.value || got.Percent != tt.percent {
			t.Errorf("Parse(%q) = %+v, want %s %s %v percent=%v", tt.in, got, tt.metric, tt.op, tt.value, tt.percent)
		}
	}
}

func TestCheck(t *testing.T) {
	open := &result.Load{
		Stats: result.Stats{
			Requests: 1000, Responses: 998, RPS: 950, OKRPS: 940,
			Errors:  result.Errors{Connect: 1, Status: 1},
			Latency: result.Latency{P50: 10.2, P99: 12.5, Max: 30},
		},
		TargetRPS: 1000,
	}
	closed := &result.Load{Stats: result.Stats{Requests: 10, Responses: 10, Latency: result.Latency{P99: 1}}}
	flagged := &result.Load{Stats: open.Stats, TargetRPS: 1200, Flags: []string{result.FlagBehindSchedule}}
	tests := []struct {
		name       string
		thresholds []string
		load       *result.Load
		allowFlags bool
		pass       []bool
	}{
		{"latency pass and fail", []string{"p99<50ms", "p99<1ms", "p50>=10.2"}, open, false, []bool{true, false, true}},
		{"errors as a rate and a count", []string{"errors<0.1%", "errors<0.5%", "errors<=2"}, open, false, []bool{false, true, true}},
		{"achieved", []string{"achieved>95%", "achieved>=95%", "rps>900", "ok_rps>945"}, open, false, []bool{false, true, true, false}},
		{"achieved in a closed loop cannot pass", []string{"achieved>0%"}, closed, false, []bool{false}},
		{"a flag fails", []string{"p99<50ms"}, flagged, false, []bool{true, false}},
		{"an allowed flag passes", []string{"p99<50ms"}, flagged, true, []bool{true, true}},
		{"no thresholds, nothing checked", nil, flagged, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ts List
			for _, s := range tt.thresholds {
				if err := ts.Set(s); err != nil {
					t.Fatal(err)
				}
			}
			got := Check(ts, tt.load, tt.allowFlags)
			if len(got) != len(tt.pass) {
				t.Fatalf("%d outcomes, want %d: %+v", len(got), len(tt.pass), got)
			}
			anyFail := false
			for i, o := range got {
				if o.Pass != tt.pass[i] {
					t.Errorf("outcome %d (%s%s) pass = %v, want %v (value %v)", i, o.Threshold.Text, o.Flag, o.Pass, tt.pass[i], o.Value)
				}
				anyFail = anyFail || !tt.pass[i]
			}
			if Failed(got) != anyFail {
				t.Errorf("Failed = %v, want %v", Failed(got), anyFail)
			}
		})
	}
}

func TestPrint(t *testing.T) {
	l := &result.Load{Stats: result.Stats{Requests: 10, Responses: 10, Latency: result.Latency{P99: 10.4}}, Flags: []string{result.FlagStalledConnections}}
	var ts List
	_ = ts.Set("p99<1ms")
	var b bytes.Buffer
	Print(&b, Check(ts, l, false))
	want := "Thresholds:\n" +
		"  FAIL  p99<1ms          p99 = 10.40 ms\n" +
		"  FAIL  flag stalled-connections: the load was not valid (--allow-flags accepts it)\n"
	if b.String() != want {
		t.Errorf("Print:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestValueAndUnit: each metric is read from the load in the unit its
// threshold was written in (achieved and an error rate as percentages).
func TestValueAndUnit(t *testing.T) {
	l := &result.Load{
		Stats: result.Stats{
			Requests: 1000, Responses: 998, RPS: 950, OKRPS: 940,
			Errors:  result.Errors{Connect: 1, Status: 1},
			Latency: result.Latency{Min: 1, Mean: 9, P50: 10.2, P75: 11, P90: 11.5, P99: 12.5, P999: 20, P9999: 25, Max: 30},
		},
		TargetRPS: 1000,
	}
	for _, c := range []struct {
		threshold string
		value     float64
		unit      string
	}{
		{"min<1", 1, "ms"}, {"avg<1", 9, "ms"}, {"med<1", 10.2, "ms"}, {"p(75)<1", 11, "ms"}, {"p90<1", 11.5, "ms"},
		{"p99<1s", 12.5, "ms"}, {"p99.9<1", 20, "ms"}, {"p(99.99)<1", 25, "ms"}, {"max<1", 30, "ms"},
		{"errors<1", 2, "errors"}, {"errors<1%", 0.2, "%"},
		{"achieved>1%", 95, "%"}, {"rps>1", 950, "req/s"}, {"ok_rps>1", 940, "req/s"},
	} {
		th, err := Parse(c.threshold)
		if err != nil {
			t.Fatal(err)
		}
		o := Check([]Threshold{th}, l, false)[0]
		if math.Abs(o.Value-c.value) > 1e-9 || o.Unit != c.unit || o.Note != "" {
			t.Errorf("%s: %v %s (%q), want %v %s", c.threshold, o.Value, o.Unit, o.Note, c.value, c.unit)
		}
	}
}
