package runner

import (
	"context"
	"fmt"

	"restbench/internal/load"
	"restbench/internal/result"
	"restbench/internal/suite"
)

// Connections of a capacity search of a run whose connections are sized by
// Little's law (connections: little(M)), which needs the rate the search is
// about to find: each step opens searchConnections (in its warm-up, which
// outlasts a SYN retransmission: capacity.SuiteWarmup), enough for 1,000 ÷
// (1 ms × 1.5) = 666k req/s of a reference whose service p99 is 1 ms, and
// its open loop opens more, up to searchMaxConnections, only when an
// arrival finds every one busy (load.Config.MaxConnections), so that a step
// measures the server, never a connection limit. A small pool that grows
// whenever the server stalls (a CPU quota's throttling) opens connections
// inside the window, which overflow Node's accept queue: a 2-core run under
// a 0.5-CPU quota "sustained" a step with 100 connections growing and a p99
// of 1,080 ms (SYN retransmissions), and little(1.5) then sized 8,551
// connections at delay 0. The closed-loop seed keeps searchConnections.
const (
	searchConnections    = 1000
	searchMaxConnections = 10_000
)

// derive is trial n's load with every setting the suite gave as a rule
// sized for this machine: the rate (rate_of), then the connections
// (little(M)) and the window (window:), which are sized from the rate and
// the service time measured with it: a capacity search's p99 at about the
// rate, or a closed-loop reference's median p99. t records each rule's
// inputs and outcome.
func (r *Runner) derive(ctx context.Context, run suite.Run, n int, t *result.Trial) (load.Config, error) {
	cfg := run.Load
	if run.RateOf == "" {
		return cfg, nil
	}
	var err error
	if cfg.Rate, t.RateFrom, err = r.rateOf(ctx, run, n); err != nil {
		return cfg, fmt.Errorf("rate: %w", err)
	}
	p99, at := serviceP99(t.RateFrom.Search, cfg.Rate)
	if !run.RateSearch {
		// A closed-loop reference: its median p99 at its capacity.
		at, p99, _ = r.measured(run.RateOf) // rateOf has read it already
	}
	hold := 0.0
	if l := run.Little; l != nil {
		hold = l.HoldMS
		// Over the hold, the search's p99, or what this cell's previous
		// round measured, when longer (cellService).
		over := p99
		cell := r.cellService(run.ID)
		if cell-l.HoldMS > over {
			over = cell - l.HoldMS
		} else {
			cell = 0
		}
		cfg.Connections = l.Connections(cfg.Rate, over)
		t.ConnectionsFrom = &result.ConnectionsFrom{
			Rule: "little", Margin: l.Margin, RateRPS: cfg.Rate, HoldMS: l.HoldMS,
			ServiceP99MS: p99, ServiceAtRPS: at, CellServiceMS: cell,
			Connections: cfg.Connections, Capped: uncapped(*l, cfg.Rate, over) > cfg.Connections,
		}
	}
	if w := run.Window; w != nil {
		lat, from := run.Published["latency_mean_ms"], "published"
		if lat <= 0 {
			lat, from = hold+p99, "hold + service p99"
		}
		d, forReq, forLat, capped := w.Length(cfg.Duration, cfg.Rate, cfg.Connections, lat)
		t.DurationFrom = &result.DurationFrom{
			Rule: "window", FloorS: cfg.Duration.Seconds(), RequestsPerConnection: w.Requests, ForRequestsS: forReq.Seconds(),
			Latencies: w.Latencies, LatencyMS: lat, LatencyFrom: from, ForLatencyS: forLat.Seconds(),
			MaxS: w.Max.Seconds(), Capped: capped, DurationS: d.Seconds(),
		}
		cfg.Duration = d
	}
	return cfg, nil
}

// cellService is the mean service time, in ms, of run id's latest
// finished trial (its previous round's), where that trial measured the
// cell itself: an open loop that kept up (no behind-schedule) on a server
// with CPU to spare (result.ServerBound). The search's p99 is measured at the reference's
// delay, 0 ms: a server's service time at a 40 ms delay can run 20 ms over
// it (Node's timers), and little(M) then sizes by what the cell showed. A
// saturated server's service time is its own queue, which more
// connections would only lengthen (the count would grow round by round):
// it is not used. 0 without such a trial.
func (r *Runner) cellService(id string) float64 {
	v := r.loads[id]
	if len(v) == 0 {
		return 0
	}
	l := v[len(v)-1]
	if l.TargetRPS <= 0 || l.Service == nil || l.ServerCPUShare >= result.ServerBound || l.RPS < result.BehindSchedule*l.TargetRPS {
		return 0
	}
	return l.Service.Mean
}

// uncapped is what l gives without its cap.
func uncapped(l suite.Little, rps, p99ms float64) int {
	l.Cap = 0
	return l.Connections(rps, p99ms)
}

// serviceP99 is the server's p99 at about rate rps, from a capacity search:
// the smallest p99 of the sustained steps at or above rps (p99 grows with
// the rate, so each bounds the p99 at rps, and the smallest is the bound
// least touched by a passing stall or a server's first, still compiling
// step), else the highest sustained step's; at is that step's target. 0, 0
// without a search.
func serviceP99(c *result.Capacity, rps float64) (p99, at float64) {
	if c == nil {
		return 0, 0
	}
	var above, top *result.CapacityStep
	for i, s := range c.Steps {
		if !s.Sustained {
			continue
		}
		if s.TargetRPS >= rps && (above == nil || s.P99MS < above.P99MS) {
			above = &c.Steps[i]
		}
		if top == nil || s.TargetRPS > top.TargetRPS {
			top = &c.Steps[i]
		}
	}
	switch {
	case above != nil:
		return above.P99MS, above.TargetRPS
	case top != nil:
		return top.P99MS, top.TargetRPS
	}
	return 0, 0
}
