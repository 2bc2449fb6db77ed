package summary

import (
	"fmt"

	"restbench/internal/report/model"
)

// ForestRow is one claim in the plot.
type ForestRow struct {
	ID, Suite, Label, State string
	Est, Lo, Hi             float64
	Pub                     float64 // 0: none published
	RegionLo, RegionHi      float64 // 0 and +Inf for an open side
	Verdict                 bool    // holds or does not hold; else the bar is hollow
}

// ForestTitle is the forest plot's title.
const ForestTitle = "Every graded claim: our interval against the claim's region and the published figure"

// ForestRows keeps the rows the plot draws: every claim with a measured
// ratio (a verdict or not), in the table's order. Claims on one run's own
// figure (CPU %, MiB) are no ratios: they are counted, not drawn.
func ForestRows(rows []Row) (out []ForestRow, single int) {
	for _, r := range rows {
		v := r.v
		if v.Pairs == 0 || v.Lo <= 0 || v.Hi <= 0 {
			continue
		}
		if v.Single() {
			single++
			continue
		}
		out = append(out, ForestRow{ID: r.ID, Suite: r.Suite, Label: r.Claim, State: r.State, Est: v.Estimate, Lo: v.Lo, Hi: v.Hi,
			Pub: v.Published, RegionLo: v.RegionLo, RegionHi: v.RegionHi, Verdict: r.decided()})
	}
	return out, single
}

// ForestCaption says how to read the plot, and what it leaves out.
func ForestCaption(fs Screen) string {
	s := fmt.Sprintf("Every graded claim, %d: our interval as a bar (filled: a verdict; hollow: a ratio that is no verdict), the median as a tick, "+
		"the published figure as ◇, the region the claim names shaded green; ratios on a log scale, 1× dashed.", len(fs.Forest))
	switch {
	case fs.Unplotted == 1:
		s += " 1 claim on one run's own figure (CPU %, MiB) is no ratio: it is in the table, not the plot."
	case fs.Unplotted > 1:
		s += fmt.Sprintf(" %d claims on one run's own figure (CPU %%, MiB) are no ratios: they are in the table, not the plot.", fs.Unplotted)
	}
	return s
}

// StateColors colours the plot by state; the legend lists them in order.
var StateColors = []struct{ State, Color string }{
	{model.Holds, "#2e7d32"},
	{"holds (lower bound)", "#7cb342"},
	{"holds (upper bound)", "#7cb342"},
	{model.DoesNotHold, "#c62828"},
	{model.Inconclusive, "#757575"},
	{model.NotComparable, "#ef6c00"},
	{model.PublishedInconsistent, "#6a1b9a"},
	{NotRunAsPremised, "#1565c0"},
}

// StateColor is the colour a state is drawn in, on the page and in the
// forest plot.
func StateColor(state string) string {
	for _, c := range StateColors {
		if c.State == state {
			return c.Color
		}
	}
	return "#757575"
}
