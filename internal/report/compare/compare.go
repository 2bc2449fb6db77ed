// Package compare tells, run by run, how req/s and p99 moved between two
// results folders, by the interval rule the verdicts use.
package compare

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	"restbench/internal/metric"
	"restbench/internal/report/model"
	"restbench/internal/result"
	"restbench/internal/verdict"
)

// MinChange is the smallest relative change Compare reports, however
// tight the interval: two runs of the same build on a busy machine differ by
// a few percent between sessions, which no interval within one sees. It is
// verdict.DefaultTolerance, a tie's half-width.
const MinChange = verdict.DefaultTolerance

// Change is how one figure of one run moved between two results folders,
// judged the way a verdict is (verdict.MedianInterval): NEW/OLD is taken
// round by round, and the change is real when the order-statistic interval
// of the median of those ratios lies wholly outside 1 ± MinChange.
type Change struct {
	Suite, Run, Label string
	Metric            string // rps or p99_ms
	Old, New          metric.Spread
	// Delta is the median of the rounds' NEW/OLD, less 1.
	Delta float64
	// Interval bounds NEW/OLD; Pairs is the rounds measured in both.
	Interval verdict.Interval
	Pairs    int
	// Beyond is true when the interval lies wholly above 1 + MinChange or
	// below 1 - MinChange: the change is more than noise. It needs
	// verdict.MinPairs rounds and verdict.MinCoverage, as a verdict does.
	Beyond bool
	// Better says which way a Beyond change goes for the user.
	Better bool
}

// Gradable says whether enough rounds were paired to say anything, as a
// verdict needs.
func (ch Change) Gradable() bool {
	return ch.Pairs >= verdict.MinPairs && ch.Interval.Coverage >= verdict.MinCoverage
}

// Comparison is Compare's answer.
type Comparison struct {
	Changes []Change
	// Missing names runs or suites found in only one of the two folders.
	Missing []string
}

// Compare matches the runs of two sets of results by suite name and run id
// and reports the change in req/s and p99 latency of each.
func Compare(oldResults, newResults []*model.Results) *Comparison {
	c := &Comparison{}
	olds := map[string]*model.SuiteReport{}
	for _, r := range oldResults {
		olds[r.Suite.Name] = model.Build(r)
	}
	seen := map[string]bool{}
	for _, r := range newResults {
		ns := model.Build(r)
		os, ok := olds[r.Suite.Name]
		if !ok {
			c.Missing = append(c.Missing, "suite "+r.Suite.Name+": only in NEW")
			continue
		}
		seen[r.Suite.Name] = true
		oldRuns := map[string]*model.RunReport{}
		for _, e := range os.Experiments {
			for _, rr := range e.Runs {
				oldRuns[rr.Info.ID] = rr
			}
		}
		newRuns := map[string]bool{}
		for _, e := range ns.Experiments {
			for _, nr := range e.Runs {
				newRuns[nr.Info.ID] = true
				or, ok := oldRuns[nr.Info.ID]
				if !ok {
					c.Missing = append(c.Missing, r.Suite.Name+" "+nr.Info.ID+": only in NEW")
					continue
				}
				for _, key := range []string{"rps", "p99_ms"} {
					c.Changes = append(c.Changes, change(r.Suite.Name, key, or, nr))
				}
			}
		}
		for id := range oldRuns {
			if !newRuns[id] {
				c.Missing = append(c.Missing, r.Suite.Name+" "+id+": only in OLD")
			}
		}
	}
	for name := range olds {
		if !seen[name] {
			c.Missing = append(c.Missing, "suite "+name+": only in OLD")
		}
	}
	sort.Strings(c.Missing)
	return c
}

func change(suite string, key string, o, n *model.RunReport) Change {
	ch := Change{Suite: suite, Run: n.Info.ID, Label: n.Label(), Metric: key, Old: o.Measured[key], New: n.Measured[key]}
	ratios := pairRatios(byRound(o, key), byRound(n, key))
	ch.Pairs = len(ratios)
	if ch.Pairs == 0 {
		return ch
	}
	ch.Delta = result.Median(ratios) - 1
	ch.Interval = verdict.MedianInterval(ratios, verdict.Confidence)
	ch.Beyond = ch.Gradable() && (ch.Interval.Lo > 1+MinChange || ch.Interval.Hi < 1-MinChange)
	ch.Better = (ch.Delta > 0) == metric.HigherIsBetter(key)
	return ch
}

// byRound is a run's figure in each round it measured.
func byRound(r *model.RunReport, key string) map[int]float64 {
	out := map[int]float64{}
	for _, m := range r.OK {
		if v, ok := m.Value(key); ok {
			out[verdict.RoundOf(m.Trial)] = v
		}
	}
	return out
}

// pairRatios is n/o for each round both measured. Across two folders a
// round pairs nothing in particular (the sessions ran at different times),
// but each ratio is still one draw of NEW over one of OLD, which is all the
// order-statistic interval asks.
func pairRatios(o, n map[int]float64) []float64 {
	var out []float64
	for _, r := range slices.Sorted(maps.Keys(n)) {
		if ov, ok := o[r]; ok && ov != 0 {
			out = append(out, n[r]/ov)
		}
	}
	return out
}

// WriteText prints the comparison as a Markdown table, one line per run and
// figure, changes beyond the noise marked.
func (c *Comparison) WriteText(w io.Writer) error {
	b := &strings.Builder{}
	fmt.Fprintf(b, "| suite | run | metric | old (min–max) | new (min–max) | change | interval (rounds) | |\n|---|---|---|---:|---:|---:|---:|---|\n")
	beyond := 0
	for _, ch := range c.Changes {
		mark, delta, in := "", "—", "—"
		if ch.Pairs > 0 {
			delta = pct(ch.Delta)
			in = fmt.Sprintf("%s…%s (%d)", pct(ch.Interval.Lo-1), pct(ch.Interval.Hi-1), ch.Pairs)
		}
		switch {
		case ch.Pairs == 0:
			mark = "not measured in both"
		case !ch.Gradable():
			mark = fmt.Sprintf("too few rounds (%s coverage; needs %d)", verdict.Percent(ch.Interval.Coverage), verdict.MinPairs)
		case ch.Beyond && ch.Better:
			mark, beyond = "**better**", beyond+1
		case ch.Beyond:
			mark, beyond = "**worse**", beyond+1
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s (%s) | %s (%s) | %s | %s | %s |\n", model.Cell(ch.Suite), model.Cell(ch.Label), metric.Label(ch.Metric),
			model.Med(ch.Old), model.Rng(ch.Old), model.Med(ch.New), model.Rng(ch.New), delta, in, mark)
	}
	fmt.Fprintf(b, "\n%d of %d figures moved beyond the noise (the %.0f %% interval of the median NEW/OLD, paired by round, wholly outside ±%.0f%%; %d rounds at least).\n",
		beyond, len(c.Changes), 100*verdict.Confidence, 100*MinChange, verdict.MinPairs)
	for _, m := range c.Missing {
		fmt.Fprintf(b, "- %s\n", m)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func pct(x float64) string { return fmt.Sprintf("%+.1f%%", 100*x) }
