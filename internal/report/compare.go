package report

import (
	"fmt"
	"io"
	"math"
	"restbench/internal/metric"
	"sort"
	"strings"
)

// MinChange is the smallest relative change Compare reports as real, however
// tight the trials: two runs of the same build on a busy machine differ by a
// few percent.
const MinChange = 0.05

// Change is how one figure of one run moved between two results folders.
type Change struct {
	Suite, Run, Label string
	Metric            string // rps or p99_ms
	Old, New          metric.Spread
	// Delta is New.Median/Old.Median - 1.
	Delta float64
	// Noise is the change the trials' spread allows:
	// max(MinChange, 2 × the larger relative spread (max-min)/median).
	Noise float64
	// Beyond is true when |Delta| > Noise: the change is more than noise.
	Beyond bool
	// Better says which way a Beyond change goes for the user.
	Better bool
}

// Comparison is Compare's answer.
type Comparison struct {
	Changes []Change
	// Missing names runs or suites found in only one of the two folders.
	Missing []string
}

// Compare matches the runs of two sets of results by suite name and run id
// and reports the change in req/s and p99 latency of each.
func Compare(oldResults, newResults []*Results) *Comparison {
	c := &Comparison{}
	olds := map[string]*SuiteReport{}
	for _, r := range oldResults {
		olds[r.Suite.Name] = Build(r)
	}
	seen := map[string]bool{}
	for _, r := range newResults {
		ns := Build(r)
		os, ok := olds[r.Suite.Name]
		if !ok {
			c.Missing = append(c.Missing, "suite "+r.Suite.Name+": only in NEW")
			continue
		}
		seen[r.Suite.Name] = true
		oldRuns := map[string]*RunReport{}
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
					c.Changes = append(c.Changes, change(r.Suite.Name, nr, key, or.Measured[key], nr.Measured[key]))
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

func change(suite string, r *RunReport, key string, o, n metric.Spread) Change {
	ch := Change{Suite: suite, Run: r.Info.ID, Label: r.label(), Metric: key, Old: o, New: n}
	if o.N == 0 || n.N == 0 || o.Median == 0 {
		return ch
	}
	ch.Delta = n.Median/o.Median - 1
	ch.Noise = math.Max(MinChange, 2*math.Max(o.RelSpread(), n.RelSpread()))
	ch.Beyond = math.Abs(ch.Delta) > ch.Noise
	// More req/s is better; a lower p99 is better.
	ch.Better = (ch.Delta > 0) == (key == "rps")
	return ch
}

// WriteText prints the comparison as a Markdown table, one line per run and
// figure, changes beyond the noise marked.
func (c *Comparison) WriteText(w io.Writer) error {
	b := &strings.Builder{}
	fmt.Fprintf(b, "| suite | run | metric | old (min–max) | new (min–max) | change | noise | |\n|---|---|---|---:|---:|---:|---:|---|\n")
	beyond := 0
	for _, ch := range c.Changes {
		mark, delta, noise := "", "—", "—"
		if ch.Old.N > 0 && ch.New.N > 0 {
			delta = fmt.Sprintf("%+.1f%%", 100*ch.Delta)
			noise = fmt.Sprintf("±%.1f%%", 100*ch.Noise)
		}
		switch {
		case ch.Old.N == 0 || ch.New.N == 0:
			mark = "not measured in both"
		case ch.Beyond && ch.Better:
			mark, beyond = "**better**", beyond+1
		case ch.Beyond:
			mark, beyond = "**worse**", beyond+1
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s (%s) | %s (%s) | %s | %s | %s |\n", cell(ch.Suite), cell(ch.Label), metric.Label(ch.Metric),
			med(ch.Old), rng(ch.Old), med(ch.New), rng(ch.New), delta, noise, mark)
	}
	fmt.Fprintf(b, "\n%d of %d figures moved beyond the noise (|change| > max(%.0f%%, 2 × the larger (max−min)/median of the two sets of trials)).\n",
		beyond, len(c.Changes), 100*MinChange)
	for _, m := range c.Missing {
		fmt.Fprintf(b, "- %s\n", m)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
