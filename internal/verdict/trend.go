package verdict

import (
	"math"
	"sort"

	"restbench/internal/result"
)

// trend grades "grows" and "shrinks": the metric of A (or A/B) at each
// point, a least-squares line of its logarithm against X over every point,
// and the change that line implies from the first X to the last. Judging
// the slope of all points, not the last point against the first, keeps one
// noisy cell from deciding. Rounds pair across points too: round k of every
// cell of an experiment is measured side by side, so each round gives one
// fitted change, and the verdict reads the median of those changes with its
// order-statistic interval, as a ratio claim reads its paired ratios.
func trend(v *Verdict, runs map[string]result.RunInfo, trials map[string][]*result.Trial, lo, hi float64) {
	c := v.Conclusion
	if len(c.Points) < 2 {
		decide(v, "a trend needs at least two points", lo, hi)
		return
	}
	perPoint := make([]rounds, len(c.Points))
	xs := make([]float64, len(c.Points))
	var pubXs, pubYs []float64
	warn := ""
	for i, p := range c.Points {
		xs[i] = p.X
		pv := publishedRatio(runs, c.Metric, p.A, p.B)
		v.Points = append(v.Points, PointValue{X: p.X, Published: pv, Ratio: p.B != ""})
		if pv > 0 {
			pubXs, pubYs = append(pubXs, p.X), append(pubYs, math.Log(pv))
		}
		sa, cautionA, why := series(p.A, c.Metric, runs, trials)
		warn = firstNonEmpty(warn, cautionA)
		if why != "" {
			decide(v, why, lo, hi)
			return
		}
		if p.B == "" {
			perPoint[i] = sa
			continue
		}
		sb, cautionB, why := series(p.B, c.Metric, runs, trials)
		warn = firstNonEmpty(warn, cautionB)
		if why != "" {
			decide(v, why, lo, hi)
			return
		}
		perPoint[i] = rounds{}
		for r, a := range sa {
			if b, ok := sb[r]; ok && b != 0 {
				perPoint[i][r] = a / b
			}
		}
	}
	if v.Published == 0 && len(pubXs) == len(xs) {
		v.Published = change(pubXs, pubYs)
	}
	// The rounds every point measured, so that a resample draws whole rounds.
	var common []int
	for r := range perPoint[0] {
		all := true
		for _, pp := range perPoint[1:] {
			if _, ok := pp[r]; !ok {
				all = false
			}
		}
		if all {
			common = append(common, r)
		}
	}
	sort.Ints(common)
	v.Pairs = len(common)
	if v.Pairs == 0 {
		decide(v, "no round measured every point", lo, hi)
		return
	}
	vals := make([][]float64, len(perPoint)) // vals[point][round index]
	for i, pp := range perPoint {
		for _, r := range common {
			vals[i] = append(vals[i], pp[r])
		}
	}
	changes := make([]float64, v.Pairs)
	for k := range changes {
		ys := make([]float64, len(vals))
		for i := range vals {
			ys[i] = math.Log(vals[i][k])
		}
		changes[k] = change(xs, ys)
	}
	for i := range v.Points {
		v.Points[i].Measured = result.Median(vals[i])
	}
	v.Estimate = result.Median(changes)
	v.Interval = MedianInterval(changes, PerLook(Confidence, v.Looks))
	v.Lo, v.Hi = v.Interval.Lo, v.Interval.Hi
	decide(v, "", lo, hi)
	caution(v, warn)
	var bs []Break
	for _, p := range c.Points {
		for _, id := range []string{p.A, p.B} {
			if id != "" {
				b, _ := breaks(id, c.Metric, runs[id], trials[id])
				bs = append(bs, b...)
			}
		}
	}
	v.Breaks = bs
	// Two points: the fitted change is the last X's figure over the
	// first's, A_last/A_first, or with ratios (A_last/B_last)/(A_first/
	// B_first) = A_last/A_first × B_first/B_last, graded as ratios are.
	// Otherwise the flags' sides, weighed by where their points sit
	// (trendBias), say whether the fitted change is a bound.
	if p, q, ok := twoPoints(c); !ok || !windowEnvelope(v, factorsOf(p, q), runs, trials, lo, hi) {
		comparable(v, trendBias(c, xs, runs, trials), lo, hi)
	}
}

// twoPoints returns the points of a trend of two, first the smaller X.
func twoPoints(c result.Conclusion) (first, last result.Point, ok bool) {
	if len(c.Points) != 2 || c.Points[0].X == c.Points[1].X || (c.Points[0].B == "") != (c.Points[1].B == "") {
		return first, last, false
	}
	first, last = c.Points[0], c.Points[1]
	if first.X > last.X {
		first, last = last, first
	}
	return first, last, true
}

// factorsOf is a two-point change as products of ratios of one run over
// another: A_last/A_first, or with ratios both A_last/A_first ×
// B_first/B_last and A_last/B_last × B_first/A_first (windowEnvelope
// intersects what each says).
func factorsOf(first, last result.Point) [][][2]string {
	if first.B == "" {
		return [][][2]string{{{last.A, first.A}}}
	}
	return [][][2]string{
		{{last.A, first.A}, {first.B, last.B}},
		{{last.A, last.B}, {first.B, first.A}},
	}
}

// trendBias is what the points' flags do to the fitted change. Its slope
// is Σ (x − x̄)(y − ȳ) / Σ (x − x̄)²: it rises with every point's log value
// right of the mean x and falls with every one left of it. A floor (the
// truth at least the figure: a Node cell behind its rate, its backlog
// growing with the window) right of the mean, or a ceiling left of it,
// makes the measured change a floor, and the mirror cases a ceiling; a
// point at the mean x weighs nothing; a point whose bias is unknown, or
// biases that pull both ways, leave it unknown.
func trendBias(c result.Conclusion, xs []float64, runs map[string]result.RunInfo, trials map[string][]*result.Trial) Bias {
	mx := 0.0
	for _, x := range xs {
		mx += x
	}
	mx /= float64(len(xs))
	flip := map[Bias]Bias{Unbiased: Unbiased, Floor: Ceiling, Ceiling: Floor, Unknown: Unknown}
	bias := Unbiased
	for i, p := range c.Points {
		_, pb := breaks(p.A, c.Metric, runs[p.A], trials[p.A])
		if p.B != "" {
			_, b := breaks(p.B, c.Metric, runs[p.B], trials[p.B])
			pb = ratioBias(pb, b)
		}
		switch {
		case xs[i] > mx:
			bias = combine(bias, pb)
		case xs[i] < mx:
			bias = combine(bias, flip[pb])
		}
	}
	return bias
}

// change fits ys = a + b·xs by least squares (ys are logarithms) and returns
// exp(b·(max xs − min xs)): the factor the line rises by over the range.
func change(xs, ys []float64) float64 {
	n := float64(len(xs))
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx, my = mx/n, my/n
	var sxy, sxx float64
	lo, hi := xs[0], xs[0]
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
		lo, hi = math.Min(lo, xs[i]), math.Max(hi, xs[i])
	}
	if sxx == 0 {
		return math.NaN()
	}
	return math.Exp(sxy / sxx * (hi - lo))
}
