package verdict

import (
	"fmt"
	"math"

	"restbench/internal/metric"
	"restbench/internal/result"
)

// PublishedLittleTolerance is how far a published closed-loop row's
// requests in flight (req/s × mean latency) may stray from its connections
// before its mean is called off.
const PublishedLittleTolerance = 0.25

// CountsTolerance is how far a printed req/s may stray from the printed
// requests ÷ seconds before the report says the two disagree (wrk rounds
// its seconds to hundredths).
const CountsTolerance = 0.01

// States of a published row's check (PublishedCheck.State).
const (
	// RowConsistent: the row obeys its model.
	RowConsistent = "consistent"
	// RowMeanOff: the mean latency breaks the model. Req/s is requests ÷
	// seconds, a count over a clock, so it is the mean that is off.
	RowMeanOff = "mean off"
	// RowDerived: the tool prints the mean as concurrency ÷ req/s (ab), so
	// Little's law holds by construction and the check proves nothing.
	RowDerived = "derived"
	// RowUnbounded: an open loop whose rate or window the write-up does
	// not give: its mean may exceed connections ÷ req/s by any backlog.
	RowUnbounded = "open loop, not bounded"
	// RowAboveRate: an open loop achieved more than the rate it offered.
	RowAboveRate = "above its rate"
)

// PublishedCheck is a published row checked by the model of the load that
// measured it (result.PublishedLoad): Little's law against the connections
// for a closed loop; for an open loop, what its model bounds (achieved ≤
// offered, and a mean no larger than the connections plus the backlog the
// window could build allow).
type PublishedCheck struct {
	Model, Tool string
	// RPS is the row's req/s: requests ÷ seconds when the write-up gives
	// both (FromCounts), else as printed (Printed).
	RPS, Printed float64
	FromCounts   bool
	Mean         float64 // published mean latency, ms; 0: none
	Connections  int
	// InFlight is RPS × Mean, Ratio its ratio to Connections.
	InFlight, Ratio float64
	// Bound is the most requests an open loop may hold in flight, waiting
	// ones included: the connections plus the backlog (rate − req/s) ×
	// window. 0: not bounded.
	Bound float64
	Rate  float64 // an open loop's offered req/s, 0: not published
	State string
	// Breaks is the metric a claim must not rest on because of the row
	// (latency_mean_ms when the mean is off, achieved when the row beat
	// its rate); "" when the row's figures are all usable.
	Breaks string
	Why    string
}

// CheckPublished checks run r's published row by its load's model. ok is
// false when the row has no req/s, or neither a mean nor an open loop's
// rate to check it against.
func CheckPublished(r result.RunInfo) (c PublishedCheck, ok bool) {
	p := r.Published
	c = PublishedCheck{Model: result.ModelClosed, Printed: p["rps"], RPS: p["rps"], Mean: p["latency_mean_ms"], Connections: r.Connections}
	if pl := r.PublishedLoad; pl != nil {
		c.Model, c.Tool, c.Rate = pl.Model, pl.Tool, pl.Rate
		if pl.Connections > 0 {
			c.Connections = pl.Connections
		}
	} else if r.OpenLoop {
		c.Model = result.ModelOpen // written before published_load: our own model
	}
	var countsNote string
	if n, s := p["requests"], p["duration_s"]; n > 0 && s > 0 {
		c.RPS, c.FromCounts = n/s, true
		countsNote = fmt.Sprintf("%s requests in %s s is %s req/s", metric.Thousands(n), trim(s), metric.Thousands(c.RPS))
		if c.Printed > 0 && math.Abs(c.Printed/c.RPS-1) > CountsTolerance {
			countsNote += fmt.Sprintf(" (printed %s req/s: the counts are what the tool measured)", metric.Thousands(c.Printed))
		}
	}
	if c.RPS <= 0 || c.Connections <= 0 || c.Mean <= 0 && (c.Model == result.ModelClosed || c.Rate == 0) {
		return c, false
	}
	c.InFlight = c.RPS * c.Mean / 1000
	c.Ratio = c.InFlight / float64(c.Connections)
	rate := firstNonEmpty(countsNote, metric.Thousands(c.RPS)+" req/s")
	switch {
	case c.Model == result.ModelOpen:
		c.checkOpen(r, rate)
	case r.PublishedLoad.Derived():
		c.State = RowDerived
		c.Why = fmt.Sprintf("published %s: %s prints its mean latency as concurrency ÷ req/s (%d ÷ %s = %s), so Little's law holds by construction and checks nothing",
			r.ID, c.Tool, c.Connections, metric.Thousands(c.RPS), metric.Millis(1000*float64(c.Connections)/c.RPS))
	case math.Abs(c.Ratio-1) <= PublishedLittleTolerance:
		c.State = RowConsistent
		c.Why = fmt.Sprintf("published %s: %s × %s = %.0f in flight on %d connections (%s)", r.ID, rate, metric.Millis(c.Mean), c.InFlight, c.Connections, metric.Ratio(c.Ratio))
	default:
		c.State, c.Breaks = RowMeanOff, "latency_mean_ms"
		c.Why = fmt.Sprintf("published %s: %s × %s = %.0f in flight on %d connections, where a closed loop holds exactly its connections; req/s is a count over a clock, so the mean is what is off (%d busy connections make it %s): the write-up's latency mean is off by %s",
			r.ID, rate, metric.Millis(c.Mean), c.InFlight, c.Connections, c.Connections, metric.Millis(1000*float64(c.Connections)/c.RPS), metric.Ratio(c.Ratio))
	}
	return c, true
}

// checkOpen checks an open-loop row: req/s at most the rate, and in flight
// at most the connections plus the backlog the window could build.
func (c *PublishedCheck) checkOpen(r result.RunInfo, rate string) {
	window := 0.0
	if r.PublishedLoad != nil {
		window = r.PublishedLoad.DurationS
	}
	if c.Rate > 0 && c.RPS > c.Rate*(1+CountsTolerance) {
		c.State, c.Breaks = RowAboveRate, metric.Achieved
		c.Why = fmt.Sprintf("published %s: %s achieved against %s req/s offered: an open loop cannot send more than its rate", r.ID, rate, metric.Thousands(c.Rate))
		return
	}
	if c.Mean <= 0 {
		c.State = RowConsistent
		c.Why = fmt.Sprintf("published %s: %s of %s req/s offered", r.ID, rate, metric.Thousands(c.Rate))
		return
	}
	if c.Rate == 0 || window == 0 {
		c.State = RowUnbounded
		c.Why = fmt.Sprintf("published %s: %s × %s = %.0f in flight on %d connections (%s); an open loop times each request from when it was due, so requests waiting for a busy connection count too, and without the published rate and window nothing bounds them",
			r.ID, rate, metric.Millis(c.Mean), c.InFlight, c.Connections, metric.Ratio(c.Ratio))
		return
	}
	c.Bound = float64(c.Connections) + math.Max(c.Rate-c.RPS, 0)*window
	if c.InFlight <= c.Bound*(1+PublishedLittleTolerance) {
		c.State = RowConsistent
		c.Why = fmt.Sprintf("published %s: %s × %s = %.0f in flight, within the %d connections plus the backlog %s req/s offered can build in %s s (%.0f)",
			r.ID, rate, metric.Millis(c.Mean), c.InFlight, c.Connections, metric.Thousands(c.Rate), trim(window), c.Bound)
		return
	}
	c.State, c.Breaks = RowMeanOff, "latency_mean_ms"
	c.Why = fmt.Sprintf("published %s: %s × %s = %.0f in flight, more than the %d connections plus the backlog %s req/s offered can build in %s s (%.0f): its latency mean is off",
		r.ID, rate, metric.Millis(c.Mean), c.InFlight, c.Connections, metric.Thousands(c.Rate), trim(window), c.Bound)
}

// publishedOff says why run r's published row breaks key, or "".
func publishedOff(r result.RunInfo, key string) string {
	if c, ok := CheckPublished(r); ok && c.Breaks == key {
		return c.Why
	}
	return ""
}

func trim(v float64) string { return fmt.Sprintf("%g", math.Round(v*100)/100) }
