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
// cell of an experiment is measured side by side.
func trend(v *Verdict, runs map[string]result.RunInfo, trials map[string][]*result.Trial, lo, hi float64, seed uint64) {
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
		v.Points = append(v.Points, PointValue{X: p.X, Published: pv})
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
	fit := func(idx []int) float64 {
		ys := make([]float64, len(vals))
		for i := range vals {
			ys[i] = math.Log(medianAt(vals[i], idx))
		}
		return change(xs, ys)
	}
	all := make([]int, v.Pairs)
	for i := range all {
		all[i] = i
	}
	for i := range v.Points {
		v.Points[i].Measured = medianAt(vals[i], all)
	}
	v.Estimate = fit(all)
	v.Lo, v.Hi = bootstrap(v.Pairs, seed, fit)
	decide(v, "", lo, hi)
	caution(v, warn)
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
