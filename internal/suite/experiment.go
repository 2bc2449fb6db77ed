package suite

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"restbench/internal/result"
)

// experiment is one table of the published write-up: implementations × a
// matrix of parameters, with per-cell overrides and the published figures.
type experiment struct {
	Node                     *yaml.Node
	Name, Title, Description string
	Impls                    []string
	Base                     settings
	Matrix                   []axis
	Scales                   map[string]scaleBlock
	Cells                    []cell
	Conclusions              []conclusion
}

// cell selects matrix cells (every condition must hold) and changes them:
// extra settings, a label, exclusion, the published figures.
type cell struct {
	Node      *yaml.Node
	When      []condition
	Set       settings
	Label     string
	Exclude   bool
	Published map[string]float64
	Note      string // beside the published figures: another load than ours
}

type condition struct {
	Key, Value string
	Node       *yaml.Node
}

// conclusion is a published claim as the suite states it (decoded straight
// into result.Conclusion), with its node for error positions.
type conclusion struct {
	result.Conclusion
	Node *yaml.Node
}

// runs names every run the conclusion compares: A and B, or its points'.
func (c conclusion) runs() []string {
	var ids []string
	for _, id := range []string{c.A, c.B} {
		if id != "" {
			ids = append(ids, id)
		}
	}
	for _, pt := range c.Points {
		ids = append(ids, pt.A)
		if pt.B != "" {
			ids = append(ids, pt.B)
		}
	}
	return ids
}

// Metrics are the keys a published figure may have (result.RunInfo.Published).
// Latencies are in milliseconds, percentiles as ab and wrk print them.
var Metrics = []string{
	"rps", "requests", "failed",
	"latency_mean_ms", "latency_stdev_ms", "latency_min_ms", "latency_max_ms",
	"p50_ms", "p66_ms", "p75_ms", "p80_ms", "p90_ms", "p95_ms", "p98_ms", "p99_ms", "p100_ms",
	"cpu_pct", "rss_mb",
	"probe_mean_ms", "probe_median_ms", "probe_min_ms", "probe_max_ms",
	"cores_busy_pct",
}

// conclusionMetrics are what a conclusion may compare: any published key,
// and the shape of the tail, p99/p50 (verdict.ShapeKey).
var conclusionMetrics = append(slices.Clone(Metrics), "p99_p50")

var conclusionKeys = []string{"text", "metric", "a", "b", "published", "claim", "low", "high", "tolerance", "over", "points", "note"}

var experimentKeys = []string{"name", "title", "description", "impls", "matrix", "scales", "cells", "conclusions"}

func (p *parser) parseExperiments(n *yaml.Node) ([]*experiment, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, p.errorf(n, "experiments", "must be a list of experiments (- name: ...)")
	}
	var out []*experiment
	names := map[string]bool{}
	for _, en := range n.Content {
		e, err := p.parseExperiment(en)
		if err != nil {
			return nil, err
		}
		if names[e.Name] {
			return nil, p.errorf(en, "name", "experiment %q is defined twice", e.Name)
		}
		names[e.Name] = true
		out = append(out, e)
	}
	return out, nil
}

func (p *parser) parseExperiment(n *yaml.Node) (*experiment, error) {
	base, err := p.parseSettings(n, "experiment", experimentKeys)
	if err != nil {
		return nil, err
	}
	e := &experiment{Node: n, Base: base}
	ps, _ := p.pairs(n, "experiment", nil)
	for _, kv := range ps {
		switch kv.Key {
		case "name":
			e.Name, err = p.nonEmpty(kv.Value, "name")
			if err == nil && strings.ContainsAny(e.Name, "/ ") {
				err = p.errorf(kv.Value, "name", "%q: use letters, digits and dashes (it starts every run id)", e.Name)
			}
		case "title":
			e.Title, err = p.scalar(kv.Value, "title")
		case "description":
			e.Description, err = p.scalar(kv.Value, "description")
		case "impls":
			var items []*yaml.Node
			if items, err = p.seq(kv.Value, "impls"); err == nil {
				for _, it := range items {
					var id string
					if id, err = p.nonEmpty(it, "impls"); err != nil {
						break
					}
					if len(p.impls) > 0 && !contains(p.impls, id) {
						err = p.errorf(it, "impls", "unknown implementation %q (known: %s)", id, strings.Join(sorted(p.impls), ", "))
						break
					}
					if contains(e.Impls, id) {
						err = p.errorf(it, "impls", "%q is listed twice", id)
						break
					}
					e.Impls = append(e.Impls, id)
				}
			}
		case "matrix":
			e.Matrix, err = p.parseMatrix(kv.Value)
		case "scales":
			e.Scales, err = p.parseScales(kv.Value, true)
		case "cells":
			e.Cells, err = p.parseCells(kv.Value)
		case "conclusions":
			e.Conclusions, err = p.parseConclusions(kv.Value)
		}
		if err != nil {
			return nil, err
		}
	}
	switch {
	case e.Name == "":
		return nil, p.errorf(n, "name", "missing (every experiment needs a name)")
	case len(e.Impls) == 0:
		return nil, p.errorf(n, "impls", "missing (the implementations this experiment compares)")
	}
	for _, sb := range e.Scales {
		for _, ax := range sb.Matrix {
			if e.axis(ax.Key) == nil {
				return nil, p.errorf(ax.Node, ax.Key, "a scale can only change the values of an axis of the experiment's matrix")
			}
		}
	}
	return e, e.checkCells(p)
}

func (e *experiment) axis(key string) *axis {
	for i := range e.Matrix {
		if e.Matrix[i].Key == key {
			return &e.Matrix[i]
		}
	}
	return nil
}

// checkCells makes sure every condition names the impl or a matrix axis and
// one of its values, so a typo cannot silently select nothing.
func (e *experiment) checkCells(p *parser) error {
	for _, c := range e.Cells {
		for _, w := range c.When {
			if w.Key == "impl" {
				if !contains(e.Impls, w.Value) {
					return p.errorf(w.Node, "impl", "%q is not in this experiment's impls (%s)", w.Value, strings.Join(e.Impls, ", "))
				}
				continue
			}
			ax := e.axis(w.Key)
			if ax == nil {
				return p.errorf(w.Node, w.Key, "not an axis of this experiment's matrix (match on impl or a matrix parameter)")
			}
			var values []string
			for _, v := range ax.Values {
				values = append(values, v.Text)
			}
			if !contains(values, w.Value) {
				return p.errorf(w.Node, w.Key, "%s is not one of the matrix values (%s)", w.Value, strings.Join(values, ", "))
			}
		}
	}
	return nil
}

func (p *parser) parseCells(n *yaml.Node) ([]cell, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, p.errorf(n, "cells", "must be a list (- when: {...})")
	}
	var out []cell
	for _, cn := range n.Content {
		ps, err := p.pairs(cn, "cells", []string{"when", "set", "label", "exclude", "published", "note"})
		if err != nil {
			return nil, err
		}
		c := cell{Node: cn}
		for _, kv := range ps {
			switch kv.Key {
			case "when":
				c.When, err = p.parseWhen(kv.Value)
			case "set":
				c.Set, err = p.parseSettings(kv.Value, "set", nil)
			case "label":
				c.Label, err = p.nonEmpty(kv.Value, "label")
				if err == nil && strings.Contains(c.Label, "/") {
					err = p.errorf(kv.Value, "label", "%q: no / in a label (a run id is experiment/label)", c.Label)
				}
			case "exclude":
				c.Exclude, err = p.boolean(kv.Value, "exclude")
			case "published":
				c.Published, err = p.parsePublished(kv.Value)
			case "note":
				c.Note, err = p.nonEmpty(kv.Value, "note")
			}
			if err != nil {
				return nil, err
			}
		}
		out = append(out, c)
	}
	return out, nil
}

func (p *parser) parseWhen(n *yaml.Node) ([]condition, error) {
	ps, err := p.pairs(n, "when", nil)
	if err != nil {
		return nil, err
	}
	var out []condition
	for _, kv := range ps {
		v, err := p.scalar(kv.Value, kv.Key)
		if err != nil {
			return nil, err
		}
		out = append(out, condition{Key: kv.Key, Value: v, Node: kv.KeyN})
	}
	return out, nil
}

func (p *parser) parsePublished(n *yaml.Node) (map[string]float64, error) {
	ps, err := p.pairs(n, "published", Metrics)
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for _, kv := range ps {
		f, err := p.float(kv.Value, kv.Key)
		if err != nil {
			return nil, p.errorf(kv.Value, kv.Key, "%q is not a number (write the figure as printed, in the unit of the key: 12900 for \"12.9K\")", kv.Value.Value)
		}
		out[kv.Key] = f
	}
	return out, nil
}

func (p *parser) parseConclusions(n *yaml.Node) ([]conclusion, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, p.errorf(n, "conclusions", "must be a list (- text: ...)")
	}
	var out []conclusion
	for _, cn := range n.Content {
		ps, err := p.pairs(cn, "conclusions", conclusionKeys)
		if err != nil {
			return nil, err
		}
		c := conclusion{Node: cn}
		if err := cn.Decode(&c.Conclusion); err != nil {
			return nil, p.errorf(cn, "conclusions", "%v (see docs/suites.md, Conclusions)", err)
		}
		for _, kv := range ps {
			switch kv.Key {
			case "metric":
				_, err = p.enum(kv.Value, "metric", conclusionMetrics...)
			case "claim":
				_, err = p.enum(kv.Value, "claim", result.Claims...)
			case "published", "low", "high", "tolerance":
				_, err = p.positiveFloat(kv.Value, kv.Key)
			}
			if err != nil {
				return nil, err
			}
		}
		trend := c.Claim == result.ClaimGrows || c.Claim == result.ClaimShrinks
		switch {
		case c.Text == "" || c.Metric == "":
			return nil, p.errorf(cn, "conclusions", "each needs text and metric")
		case trend && len(c.Points) < 2:
			return nil, p.errorf(cn, "points", "a %s claim needs two or more points ({x: 100, a: RUN, b: RUN})", c.Claim)
		case !trend && (c.A == "" || c.B == ""):
			return nil, p.errorf(cn, "conclusions", "each needs text, metric, a and b (run ids)")
		case c.Claim == result.ClaimBand && c.Low == 0:
			return nil, p.errorf(cn, "low", "a band needs low (and high, unless it is open above): \"about 2x\" is low: 1.6, high: 2.5")
		case c.High != 0 && c.High <= c.Low:
			return nil, p.errorf(cn, "high", "%g is not above low %g", c.High, c.Low)
		}
		for _, pt := range c.Points {
			if pt.A == "" {
				return nil, p.errorf(cn, "points", "each point needs x and a (and b for a ratio)")
			}
		}
		out = append(out, c)
	}
	return out, nil
}
