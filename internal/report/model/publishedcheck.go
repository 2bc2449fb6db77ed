package model

import (
	"fmt"

	"restbench/internal/metric"
	"restbench/internal/result"
	"restbench/internal/verdict"
)

// PublishedChecksIntro opens the table of published rows checked by their
// load's model, in report.md and report.html alike.
const PublishedChecksIntro = "The published rows checked by the load that measured them. " +
	"A closed loop (wrk, ab) keeps its connections busy, so req/s × mean latency is the connections (Little's law); " +
	"an open loop (wrk2 -R) times each request from when it was due, so requests waiting for a busy connection count too, " +
	"and in flight may exceed the connections by the backlog its rate and window can build. " +
	"Req/s is a count over a clock (requests ÷ seconds) and is never what is off; " +
	"a row whose mean is off blocks only the claims on that mean, which are then graded on our runs alone."

// PublishedChecksHeader are the titles of PublishedCheckRows' columns.
var PublishedChecksHeader = []string{"run", "published load", "req/s", "mean ms", "in flight", "connections", "in flight / connections", "check"}

// PublishedCheckRows is one row per published row that can be checked.
func PublishedCheckRows(e *ExperimentReport) [][]string {
	var rows [][]string
	for _, r := range e.Runs {
		c, ok := verdict.CheckPublished(r.Info)
		if !ok {
			continue
		}
		rps := Num(c.RPS)
		if c.FromCounts {
			rps += " (requests ÷ seconds)"
		}
		mean, inFlight, ratio := "—", "—", "—"
		if c.Mean > 0 {
			mean, inFlight, ratio = Num(c.Mean), Num(c.InFlight), metric.Ratio(c.Ratio)
		}
		if r.Info.PublishedLoad.Derived() {
			mean += " (derived)"
		}
		rows = append(rows, []string{r.Label(), loadLabel(c), rps, mean, inFlight, fmt.Sprint(c.Connections), ratio, checkText(c)})
	}
	return rows
}

// loadLabel says which load measured a published row: "wrk2, open loop at
// 10,000 req/s", "ab, closed loop".
func loadLabel(c verdict.PublishedCheck) string {
	s := c.Model + " loop"
	if c.Tool != "" {
		s = c.Tool + ", " + s
	}
	if c.Rate > 0 {
		s += " at " + Num(c.Rate) + " req/s"
	}
	return s
}

// checkText is the check's state and what it means for the claims.
func checkText(c verdict.PublishedCheck) string {
	switch c.State {
	case verdict.RowDerived:
		return c.State + ": " + c.Tool + " prints the mean as concurrency ÷ req/s; Little's law holds by construction and proves nothing"
	case verdict.RowMeanOff:
		return c.State + ": req/s is exact, so the mean is what breaks the model; claims on the mean are graded on our runs alone"
	case verdict.RowAboveRate:
		return c.State + ": an open loop cannot achieve more than it offers; claims on achieved are graded on our runs alone"
	case verdict.RowUnbounded:
		return c.State + ": requests waiting for a connection count, and the write-up gives no rate, or no window, to bound them"
	}
	if c.Model == result.ModelOpen && c.Bound > 0 {
		return fmt.Sprintf("%s: within the connections plus the backlog the rate can build (%s)", c.State, Num(c.Bound))
	}
	if c.Model == result.ModelOpen {
		return c.State + ": at most the rate offered"
	}
	return c.State + ": a closed loop keeps its connections in flight"
}

// PublishedMetricLabel names a published figure, and says when the tool
// derived it rather than measured it (ab's mean is concurrency ÷ req/s).
func PublishedMetricLabel(info result.RunInfo, key string) string {
	if key == "latency_mean_ms" && info.PublishedLoad.Derived() {
		return metric.Label(key) + ", derived (" + info.PublishedLoad.Tool + ": concurrency ÷ req/s)"
	}
	return metric.Label(key)
}
