package runner

import (
	"context"
	"testing"
	"time"

	"restbench/internal/load"
	"restbench/internal/result"
	"restbench/internal/suite"
)

func TestServiceP99(t *testing.T) {
	steps := &result.Capacity{Steps: []result.CapacityStep{
		{TargetRPS: 0, P99MS: 9, Sustained: false}, // the closed-loop seed
		{TargetRPS: 20000, P99MS: 2, Sustained: true},
		{TargetRPS: 25000, P99MS: 12, Sustained: true}, // a stall, or a server still compiling
		{TargetRPS: 31250, P99MS: 40, Sustained: false},
		{TargetRPS: 28000, P99MS: 5, Sustained: true},
		{TargetRPS: 29000, P99MS: 4, Sustained: true},
	}}
	for _, c := range []struct {
		name    string
		rate    float64
		p99, at float64
	}{
		{"the smallest p99 at or above the rate", 21000, 4, 29000},
		{"a step at the rate itself", 29000, 4, 29000},
		{"one step above", 28500, 4, 29000},
		{"above every sustained step: the highest", 30000, 4, 29000},
		{"below every step", 1000, 2, 20000},
	} {
		t.Run(c.name, func(t *testing.T) {
			p99, at := serviceP99(steps, c.rate)
			if p99 != c.p99 || at != c.at {
				t.Errorf("serviceP99(%v) = %v ms at %v, want %v ms at %v", c.rate, p99, at, c.p99, c.at)
			}
		})
	}
	if p99, at := serviceP99(nil, 1000); p99 != 0 || at != 0 {
		t.Errorf("no search: %v, %v", p99, at)
	}
}

// TestDerive sizes the rate, the connections and the window of trials
// whose capacity search this round already found (r.searches), and checks
// what each trial records.
func TestDerive(t *testing.T) {
	const ref = "delay/node-express delay=0ms"
	found := &result.Capacity{CapacityRPS: 40000, Steps: []result.CapacityStep{
		{TargetRPS: 32000, P99MS: 4, Sustained: true},
		{TargetRPS: 40000, P99MS: 6, Sustained: true},
		{TargetRPS: 50000, P99MS: 900, Sustained: false},
	}}
	r := &Runner{searches: map[string]searched{ref + " round 1": {found: found}}}
	open := func(little *suite.Little, window *suite.Window, published map[string]float64) suite.Run {
		return suite.Run{
			ID: "delay/go", RateOf: ref, RateFraction: 0.78, RateSearch: true, Little: little, Window: window,
			Published: published, Load: load.Config{Duration: time.Second},
		}
	}
	rate := 0.78 * 40000 // 31,200 req/s: the p99 of the 32,000 step, 4 ms
	for _, c := range []struct {
		name     string
		run      suite.Run
		conns    int
		duration time.Duration
		capped   bool
		from     string
	}{
		{"connections by Little's law", open(&suite.Little{Margin: 1.5, HoldMS: 50}, nil, nil), 2528, time.Second, false, ""}, // 31,200 × 54 ms × 1.5
		{"connections capped", open(&suite.Little{Margin: 1.5, HoldMS: 50, Cap: 100}, nil, nil), 100, time.Second, false, ""},
		{"window for requests per connection", open(&suite.Little{Margin: 1.5, HoldMS: 50}, &suite.Window{Requests: 20, Max: 6 * time.Second}, nil),
			2528, 1621 * time.Millisecond, false, "hold + service p99"}, // 20 × 2,528 ÷ 31,200, to the ms
		{"window for the published latency", open(&suite.Little{Margin: 1.5, HoldMS: 30}, &suite.Window{Requests: 20, Latencies: 50, Max: 6 * time.Second}, map[string]float64{"latency_mean_ms": 42.6}),
			1592, 2130 * time.Millisecond, false, "published"},
		{"window at its max", open(&suite.Little{Margin: 1.5, HoldMS: 50}, &suite.Window{Requests: 20, Latencies: 50, Max: 6 * time.Second}, map[string]float64{"latency_mean_ms": 2774}),
			2528, 6 * time.Second, true, "published"},
		{"the floor", open(&suite.Little{Margin: 1.5}, &suite.Window{Requests: 20, Latencies: 50, Max: 6 * time.Second}, map[string]float64{"latency_mean_ms": 6.7}),
			188, time.Second, false, "published"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := &result.Trial{}
			cfg, err := r.derive(context.Background(), c.run, 1, tr)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Rate != rate || tr.RateFrom == nil || tr.RateFrom.CapacityRPS != 40000 {
				t.Errorf("rate %v from %+v, want %v from the search", cfg.Rate, tr.RateFrom, rate)
			}
			cf := tr.ConnectionsFrom
			if cfg.Connections != c.conns || cf == nil || cf.Connections != c.conns || cf.ServiceP99MS != 4 || cf.ServiceAtRPS != 32000 || cf.Capped != (c.run.Little.Cap > 0) {
				t.Errorf("connections %d from %+v, want %d (service p99 4 ms at 32,000 req/s)", cfg.Connections, cf, c.conns)
			}
			df := tr.DurationFrom
			switch {
			case c.run.Window == nil && (df != nil || cfg.Duration != time.Second):
				t.Errorf("no window rule: duration %v from %+v", cfg.Duration, df)
			case c.run.Window != nil && (cfg.Duration != c.duration || df == nil || df.DurationS != c.duration.Seconds() || df.Capped != c.capped || df.LatencyFrom != c.from):
				t.Errorf("duration %v from %+v, want %v (capped %v, latency %s)", cfg.Duration, df, c.duration, c.capped, c.from)
			}
		})
	}
}

// TestDeriveClosedLoop sizes connections from a closed-loop reference: its
// median req/s is the capacity, its median p99 the service time.
func TestDeriveClosedLoop(t *testing.T) {
	const ref = "capacity/node-express"
	l := func(rps, p99 float64) *result.Load {
		ld := &result.Load{}
		ld.RPS, ld.Latency.P99 = rps, p99
		return ld
	}
	r := &Runner{loads: map[string][]*result.Load{ref: {l(30000, 3), l(34000, 5), l(32000, 4)}}}
	run := suite.Run{ID: "work/go", RateOf: ref, RateFraction: 0.75, Little: &suite.Little{Margin: 1.5, HoldMS: 1}, Load: load.Config{Duration: time.Second}}
	tr := &result.Trial{}
	cfg, err := r.derive(context.Background(), run, 1, tr)
	if err != nil {
		t.Fatal(err)
	}
	// 0.75 × 32,000 = 24,000 req/s × (1 + 4) ms × 1.5 = 180.
	if cf := tr.ConnectionsFrom; cfg.Rate != 24000 || cfg.Connections != 180 || cf == nil || cf.ServiceP99MS != 4 || cf.ServiceAtRPS != 32000 {
		t.Errorf("rate %v, %d connections from %+v; want 24,000 req/s, 180 connections (p99 4 ms at 32,000 req/s)", cfg.Rate, cfg.Connections, cf)
	}
}

// TestDeriveCellService: little(M) sizes by the cell's own previous trial
// when it measured a longer service time than the hold plus the search's
// p99 (the delay-0 reference), and only where that trial measured the
// cell: kept up, on a server with CPU to spare.
func TestDeriveCellService(t *testing.T) {
	const ref = "delay/node-express delay=0ms"
	found := &result.Capacity{CapacityRPS: 40000, Steps: []result.CapacityStep{{TargetRPS: 32000, P99MS: 4, Sustained: true}}}
	prev := func(target, rps, serviceMS, share float64) *result.Load {
		l := &result.Load{TargetRPS: target, ServerCPUShare: share}
		l.RPS, l.Service = rps, &result.Latency{Mean: serviceMS}
		return l
	}
	run := suite.Run{ID: "delay/node delay=40ms", RateOf: ref, RateFraction: 0.78, RateSearch: true,
		Little: &suite.Little{Margin: 1.5, HoldMS: 40}, Load: load.Config{Duration: time.Second}}
	// 31,200 req/s × (40 + 4) ms × 1.5 = 2,060 from the search alone.
	for _, c := range []struct {
		name  string
		prev  []*result.Load
		conns int
		cell  float64
	}{
		{"the first round: the search", nil, 2060, 0},
		{"a longer service time, kept up with CPU to spare", []*result.Load{prev(31200, 31100, 60, 0.8)}, 2808, 60}, // 31,200 × 60 ms × 1.5
		{"its latest trial counts", []*result.Load{prev(31200, 31100, 80, 0.8), prev(31200, 31100, 50, 0.8)}, 2340, 50},
		{"shorter than hold + p99: the search", []*result.Load{prev(31200, 31100, 43, 0.8)}, 2060, 0},
		{"a saturated server's queue is not the cell's", []*result.Load{prev(31200, 31100, 60, 0.95)}, 2060, 0},
		{"behind schedule: not the cell's", []*result.Load{prev(31200, 25000, 60, 0.5)}, 2060, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &Runner{searches: map[string]searched{ref + " round 2": {found: found}}, loads: map[string][]*result.Load{run.ID: c.prev}}
			tr := &result.Trial{}
			cfg, err := r.derive(context.Background(), run, 2, tr)
			if err != nil {
				t.Fatal(err)
			}
			if cf := tr.ConnectionsFrom; cfg.Connections != c.conns || cf == nil || cf.Connections != c.conns || cf.CellServiceMS != c.cell || cf.ServiceP99MS != 4 {
				t.Errorf("%d connections from %+v, want %d (cell service %v ms)", cfg.Connections, cf, c.conns, c.cell)
			}
		})
	}
}
