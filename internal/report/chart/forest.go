package chart

import (
	"fmt"
	"html"
	"math"
	"strings"

	"restbench/internal/report/summary"
)

// The forest plot at the top of the report: one row per graded claim, our
// interval as a bar, the median as a tick, the published figure as a
// diamond, the claim's region shaded, coloured by state, ratios on a log
// scale. It is SVG written by hand: ECharts has no interval bars with a
// shaded region per row, and the same picture serves report.md
// (charts/forest.svg) and report.html (inline), with no script and no
// network.

// forestDomain is the log axis' range: every interval, median, published
// figure and finite region edge, with a margin.
func forestDomain(rows []summary.ForestRow) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	add := func(x float64) {
		if x > 0 && !math.IsInf(x, 0) {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	for _, r := range rows {
		add(r.Lo)
		add(r.Hi)
		add(r.Pub)
		add(r.RegionLo)
		add(r.RegionHi)
	}
	add(1)
	lo, hi = math.Max(lo/1.25, 1e-3), math.Min(hi*1.25, 1e5)
	return lo, hi
}

// forestTicks are the ticks inside the domain: the finest of decades,
// 1-3, 1-2-5 and finer steps that gives at most nine of them.
func forestTicks(lo, hi float64) []float64 {
	steps := [][]float64{{1}, {1, 3}, {1, 2, 5}, {1, 1.5, 2, 3, 5, 7}, {1, 1.1, 1.2, 1.3, 1.5, 1.7, 2, 2.5, 3, 4, 5, 6, 7, 8, 9}}
	var best []float64
	for _, ms := range steps {
		var out []float64
		for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
			for _, m := range ms {
				t := m * math.Pow(10, e)
				if e < 0 {
					t = m / math.Pow(10, -e) // 3/10 is 0.3; 3 × 0.1 is not
				}
				if t >= lo && t <= hi {
					out = append(out, t)
				}
			}
		}
		if len(out) > 9 && best != nil {
			break // finer steps only crowd the axis
		}
		best = out
	}
	return best
}

// tickLabel prints a tick: 0.5×, 1×, 20×.
func tickLabel(t float64) string { return fmt.Sprintf("%g×", t) }

// ForestSVG draws the plot. Each label links to the claim's line.
func ForestSVG(rows []summary.ForestRow) string {
	const (
		width, plotL, plotR = 1120, 440, 920
		top, rowH, groupH   = 92, 18, 22
		maxLabel            = 68
	)
	dlo, dhi := forestDomain(rows)
	x := func(v float64) float64 {
		v = math.Min(math.Max(v, dlo), dhi)
		return plotL + (math.Log(v)-math.Log(dlo))/(math.Log(dhi)-math.Log(dlo))*(plotR-plotL)
	}
	height := top + 30
	prev := ""
	for _, r := range rows {
		if r.Suite != prev {
			height += groupH
			prev = r.Suite
		}
		height += rowH
	}
	b := &strings.Builder{}
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" style="max-width: 100%%; height: auto" font-family="system-ui, sans-serif" font-size="12" role="img" aria-label="%s">`+"\n",
		width, height, width, height, html.EscapeString(summary.ForestTitle))
	fmt.Fprintf(b, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", width, height)
	fmt.Fprintf(b, `<text x="8" y="20" font-size="15" font-weight="bold">%s</text>`+"\n", html.EscapeString(summary.ForestTitle))
	// The legend: the marks, then the states' colours.
	lx := 8.0
	mark := func(draw, label string) {
		fmt.Fprintf(b, `<g transform="translate(%.0f,40)">%s<text x="26" y="4">%s</text></g>`+"\n", lx, draw, html.EscapeString(label))
		lx += 34 + 6.5*float64(len([]rune(label)))
	}
	mark(`<rect x="0" y="-6" width="20" height="12" fill="#e3f1e3"/>`, "the claim's region")
	mark(`<rect x="0" y="-3" width="20" height="6" fill="#555"/>`, "our interval (a verdict)")
	mark(`<rect x="0" y="-3" width="20" height="6" fill="#fff" stroke="#555" stroke-dasharray="3 2"/>`, "our interval (no verdict)")
	mark(`<line x1="10" y1="-6" x2="10" y2="6" stroke="#111" stroke-width="2"/>`, "median")
	mark(`<path d="M10,-5 L15,0 L10,5 L5,0 Z" fill="#fff" stroke="#111" stroke-width="1.5"/>`, "published")
	lx = 8
	for _, c := range summary.StateColors {
		if c.State == "holds (upper bound)" {
			continue
		}
		label := c.State
		if label == "holds (lower bound)" {
			label = "holds as a bound"
		}
		fmt.Fprintf(b, `<g transform="translate(%.0f,62)"><rect x="0" y="-5" width="14" height="10" fill="%s"/><text x="19" y="4">%s</text></g>`+"\n", lx, c.Color, html.EscapeString(label))
		lx += 30 + 6.5*float64(len([]rune(label)))
	}
	// The axis: ticks and grid, 1× dashed.
	axisY := float64(top - 6)
	for _, t := range forestTicks(dlo, dhi) {
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%d" stroke="%s"/>`+"\n", x(t), axisY, x(t), height-24, map[bool]string{true: "#999", false: "#eee"}[t == 1])
		fmt.Fprintf(b, `<text x="%.1f" y="%.0f" text-anchor="middle" fill="#444">%s</text>`+"\n", x(t), axisY-4, tickLabel(t))
		fmt.Fprintf(b, `<text x="%.1f" y="%d" text-anchor="middle" fill="#444">%s</text>`+"\n", x(t), height-10, tickLabel(t))
	}
	fmt.Fprintf(b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%d" stroke="#666" stroke-dasharray="4 3"/>`+"\n", x(1), axisY, x(1), height-24)
	y := float64(top)
	prev = ""
	for _, r := range rows {
		if r.Suite != prev {
			prev = r.Suite
			fmt.Fprintf(b, `<text x="8" y="%.0f" font-weight="bold" fill="#1f4e79">%s</text>`+"\n", y+15, html.EscapeString(r.Suite))
			y += groupH
		}
		mid := y + rowH/2
		label := r.Label
		if rs := []rune(label); len(rs) > maxLabel {
			label = string(rs[:maxLabel-1]) + "…"
		}
		col := summary.StateColor(r.State)
		fmt.Fprintf(b, `<a href="#%s"><title>%s: %s</title><text x="16" y="%.1f" fill="#222">%s</text></a>`+"\n",
			html.EscapeString(r.ID), html.EscapeString(r.Label), html.EscapeString(r.State), mid+4, html.EscapeString(label))
		if r.RegionHi > r.RegionLo {
			rl, rh := x(math.Max(r.RegionLo, dlo)), x(math.Min(r.RegionHi, dhi))
			fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%d" fill="#e3f1e3"/>`+"\n", rl, y+2, math.Max(rh-rl, 1), rowH-4)
		}
		bl, bh := x(r.Lo), x(r.Hi)
		w := math.Max(bh-bl, 2)
		if r.Verdict {
			fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="8" fill="%s"/>`+"\n", bl, mid-4, w, col)
		} else {
			fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="8" fill="#fff" stroke="%s" stroke-width="1.5" stroke-dasharray="3 2"/>`+"\n", bl, mid-4, w, col)
		}
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#111" stroke-width="2"/>`+"\n", x(r.Est), mid-6, x(r.Est), mid+6)
		if r.Pub > 0 {
			px := x(r.Pub)
			fmt.Fprintf(b, `<path d="M%.1f,%.1f L%.1f,%.1f L%.1f,%.1f L%.1f,%.1f Z" fill="#fff" stroke="#111" stroke-width="1.5"/>`+"\n",
				px, mid-5, px+5, mid, px, mid+5, px-5, mid)
		}
		fmt.Fprintf(b, `<text x="%d" y="%.1f" fill="%s">%s</text>`+"\n", plotR+10, mid+4, col, html.EscapeString(r.State))
		y += rowH
	}
	b.WriteString("</svg>\n")
	return b.String()
}
