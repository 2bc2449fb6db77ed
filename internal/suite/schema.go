package suite

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"restbench/internal/result"
	"restbench/internal/yamlfile"
)

// The types below are the suite file's schema (docs/suites.md). Each
// decodes itself strictly (yamlfile.DecodeFields): an unknown key, a key
// given twice or a value of the wrong kind is an error with its line.

// file is a suite file, before expansion.
type file struct {
	Name        yamlfile.Name    `yaml:"name"`
	Title       yamlfile.Text    `yaml:"title"`
	Description yamlfile.Text    `yaml:"description"`
	Source      source           `yaml:"source"`
	Defaults    *settings        `yaml:"defaults"`
	Scales      scales[settings] `yaml:"scales"`
	Experiments experimentList   `yaml:"experiments"`
}

func (f *file) UnmarshalYAML(n *yaml.Node) error {
	if err := yamlfile.DecodeFields(n, "suite", f); err != nil {
		return err
	}
	switch {
	case f.Name.V == "":
		return yamlfile.Errorf(n, "name", "missing (the suite's name, e.g. heysphere)")
	case f.Source.WriteUp.V == "":
		return yamlfile.Errorf(n, "source", "missing (the published write-up this suite reproduces)")
	case len(f.Experiments.Items) == 0:
		return yamlfile.Errorf(n, "experiments", "missing (a suite needs at least one experiment)")
	}
	names := map[string]bool{}
	for _, e := range f.Experiments.Items {
		if names[e.Name.V] {
			return yamlfile.Errorf(e.node, "name", "experiment %q is defined twice", e.Name.V)
		}
		names[e.Name.V] = true
	}
	return nil
}

func (f *file) source() string {
	if f.Source.URL.V == "" {
		return f.Source.WriteUp.V
	}
	return f.Source.WriteUp.V + " (" + f.Source.URL.V + ")"
}

// source is the published write-up the suite reproduces.
type source struct {
	WriteUp yamlfile.Name `yaml:"write_up"`
	URL     yamlfile.Name `yaml:"url"`
}

func (s *source) UnmarshalYAML(n *yaml.Node) error {
	if err := yamlfile.DecodeFields(n, "source", s); err != nil {
		return err
	}
	if s.WriteUp.V == "" {
		return yamlfile.Errorf(n, "source", "write_up: missing (e.g. seeds/4-heysphere-node-vs-go.md)")
	}
	return nil
}

// scales holds what changes at each scale: settings (a suite's scales:) or
// settings and matrix axes (an experiment's).
type scales[T any] struct {
	Quick    *T `yaml:"quick"`
	Standard *T `yaml:"standard"`
	Full     *T `yaml:"full"`
}

func (s *scales[T]) UnmarshalYAML(n *yaml.Node) error { return yamlfile.DecodeFields(n, "scales", s) }

func (s *scales[T]) at(scale string) *T {
	return map[string]*T{"quick": s.Quick, "standard": s.Standard, "full": s.Full}[scale]
}

// The lists of a suite file. Each refuses anything else with a hint.
type (
	experimentList struct{ Items []*experiment }
	cellList       struct{ Items []cell }
	conclusionList struct{ Items []conclusion }
)

func (l *experimentList) UnmarshalYAML(n *yaml.Node) (err error) {
	l.Items, err = yamlfile.List[*experiment](n, "", "of experiments (- name: ...)")
	return err
}

func (l *cellList) UnmarshalYAML(n *yaml.Node) (err error) {
	l.Items, err = yamlfile.List[cell](n, "", "(- when: {...})")
	return err
}

func (l *conclusionList) UnmarshalYAML(n *yaml.Node) (err error) {
	l.Items, err = yamlfile.List[conclusion](n, "", "(- text: ...)")
	return err
}

// experiment is one table of the published write-up: implementations × a
// matrix of parameters, with per-cell overrides and the published figures.
type experiment struct {
	Name        yamlfile.Name         `yaml:"name"`
	Title       yamlfile.Text         `yaml:"title"`
	Description yamlfile.Text         `yaml:"description"`
	Impls       impls                 `yaml:"impls"`
	Matrix      matrix                `yaml:"matrix"`
	Scales      scales[scaleSettings] `yaml:"scales"`
	Cells       cellList              `yaml:"cells"`
	Conclusions conclusionList        `yaml:"conclusions"`
	settings    `yaml:",inline"`
	node        *yaml.Node
}

// scaleSettings is an experiment's scale block: settings, and matrix axes
// whose values replace the experiment's.
type scaleSettings struct {
	settings `yaml:",inline"`
	Matrix   matrix `yaml:"matrix"`
}

func (s *scaleSettings) UnmarshalYAML(n *yaml.Node) error { return yamlfile.DecodeFields(n, "", s) }

func (e *experiment) UnmarshalYAML(n *yaml.Node) error {
	e.node = n
	if err := yamlfile.DecodeFields(n, "experiment", e); err != nil {
		return err
	}
	switch {
	case e.Name.V == "":
		return yamlfile.Errorf(n, "name", "missing (every experiment needs a name)")
	case strings.ContainsAny(e.Name.V, "/ "):
		return yamlfile.Errorf(e.Name.Node, "name", "%q: use letters, digits and dashes (it starts every run id)", e.Name.V)
	case len(e.Impls.IDs) == 0:
		return yamlfile.Errorf(n, "impls", "missing (the implementations this experiment compares)")
	}
	for _, s := range []*scaleSettings{e.Scales.Quick, e.Scales.Standard, e.Scales.Full} {
		for _, ax := range axesOf(s) {
			if e.axis(ax.Key) == nil {
				return yamlfile.Errorf(ax.KeyN, ax.Key, "a scale can only change the values of an axis of the experiment's matrix")
			}
		}
	}
	return nil
}

func axesOf(s *scaleSettings) []axis {
	if s == nil {
		return nil
	}
	return s.Matrix.Axes
}

func (e *experiment) axis(key string) *axis {
	for i := range e.Matrix.Axes {
		if e.Matrix.Axes[i].Key == key {
			return &e.Matrix.Axes[i]
		}
	}
	return nil
}

// checkCells makes sure every condition names the impl or a matrix axis and
// one of its values, so a typo cannot silently select nothing.
func (e *experiment) checkCells() error {
	for _, c := range e.Cells.Items {
		for _, w := range c.When {
			if w.Key == "impl" {
				if !contains(e.Impls.ids(), w.Value) {
					return yamlfile.Errorf(w.Node, "impl", "%q is not in this experiment's impls (%s)", w.Value, strings.Join(e.Impls.ids(), ", "))
				}
				continue
			}
			ax := e.axis(w.Key)
			if ax == nil {
				return yamlfile.Errorf(w.Node, w.Key, "not an axis of this experiment's matrix (match on impl or a matrix parameter)")
			}
			var values []string
			for _, v := range ax.Values {
				values = append(values, v.Text)
			}
			if !contains(values, w.Value) {
				return yamlfile.Errorf(w.Node, w.Key, "%s is not one of the matrix values (%s)", w.Value, strings.Join(values, ", "))
			}
		}
	}
	return nil
}

// impls are the implementation ids an experiment compares; a lone id is a
// list of one. Load checks them against the manifest.
type impls struct{ IDs []yamlfile.Name }

func (l *impls) UnmarshalYAML(n *yaml.Node) error {
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
	} else if n.Kind != yaml.ScalarNode {
		return yamlfile.Errorf(n, "", "must be a list, not %s", yamlfile.KindName(n))
	}
	for _, it := range items {
		var id yamlfile.Name
		if err := it.Decode(&id); err != nil {
			return err
		}
		if contains(l.ids(), id.V) {
			return yamlfile.Errorf(it, "", "%q is listed twice", id.V)
		}
		l.IDs = append(l.IDs, id)
	}
	return nil
}

func (l impls) ids() []string {
	var out []string
	for _, id := range l.IDs {
		out = append(out, id.V)
	}
	return out
}

// matrix is an experiment's axes, in file order: the first varies slowest.
type matrix struct{ Axes []axis }

// axis is one parameter of the matrix and the values it takes.
type axis struct {
	Key    string
	KeyN   *yaml.Node
	Values []axisValue
}

// axisValue is one value of an axis: its text as written (for labels, Params
// and cells' when:) and the layer of settings it makes.
type axisValue struct {
	Text string
	Set  *settings
}

func (m *matrix) UnmarshalYAML(n *yaml.Node) error {
	pairs, err := yamlfile.Pairs(n, "matrix")
	if err != nil {
		return err
	}
	for _, kv := range pairs {
		if kv.Key == "impl" || kv.Key == "impls" {
			return yamlfile.Errorf(kv.KeyN, kv.Key, "implementations are listed in the experiment's impls:, not in the matrix")
		}
		if !contains(axisKeys, kv.Key) {
			return yamlfile.Errorf(kv.KeyN, kv.Key, "cannot vary in a matrix (matrix parameters: %s)", strings.Join(sorted(axisKeys), ", "))
		}
		items := []*yaml.Node{kv.Value}
		switch kv.Value.Kind {
		case yaml.SequenceNode:
			items = kv.Value.Content
		case yaml.ScalarNode:
		default:
			return yamlfile.Errorf(kv.Value, kv.Key, "must be a list, not %s", yamlfile.KindName(kv.Value))
		}
		if len(items) == 0 {
			return yamlfile.Errorf(kv.Value, kv.Key, "the list of values is empty")
		}
		ax := axis{Key: kv.Key, KeyN: kv.KeyN}
		for _, it := range items {
			if it.Kind != yaml.ScalarNode {
				return yamlfile.Errorf(it, kv.Key, "matrix values must be single values")
			}
			// A value is read as the layer {key: value}, by the setting's own rules.
			layer := &settings{}
			one := &yaml.Node{Kind: yaml.MappingNode, Line: it.Line, Content: []*yaml.Node{kv.KeyN, it}}
			if err := yamlfile.DecodeFields(one, "matrix", layer); err != nil {
				return err
			}
			for _, v := range ax.Values {
				if v.Text == it.Value {
					return yamlfile.Errorf(it, kv.Key, "%s is listed twice", it.Value)
				}
			}
			ax.Values = append(ax.Values, axisValue{Text: it.Value, Set: layer})
		}
		m.Axes = append(m.Axes, ax)
	}
	return nil
}

// cell selects matrix cells (every condition must hold) and changes them:
// extra settings, a label, exclusion, the published figures.
type cell struct {
	When      when          `yaml:"when"`
	Set       *settings     `yaml:"set"`
	Label     yamlfile.Name `yaml:"label"`
	Exclude   *boolean      `yaml:"exclude"`
	Published published     `yaml:"published"`
	node      *yaml.Node
}

func (c *cell) UnmarshalYAML(n *yaml.Node) error {
	c.node = n
	if err := yamlfile.DecodeFields(n, "cells", c); err != nil {
		return err
	}
	if strings.Contains(c.Label.V, "/") {
		return yamlfile.Errorf(c.Label.Node, "label", "%q: no / in a label (a run id is experiment/label)", c.Label.V)
	}
	return nil
}

// when is a cell's conditions, in file order.
type when []condition

type condition struct {
	Key, Value string
	Node       *yaml.Node
}

func (w *when) UnmarshalYAML(n *yaml.Node) error {
	pairs, err := yamlfile.Pairs(n, "when")
	if err != nil {
		return err
	}
	for _, kv := range pairs {
		v, err := yamlfile.Scalar(kv.Value, kv.Key)
		if err != nil {
			return err
		}
		*w = append(*w, condition{Key: kv.Key, Value: v, Node: kv.KeyN})
	}
	return nil
}

// Metrics are the keys a published figure may have (result.RunInfo.Published).
// Latencies are in milliseconds, percentiles as ab and wrk print them.
var Metrics = []string{
	"rps", "requests", "failed",
	"latency_mean_ms", "latency_stdev_ms", "latency_min_ms", "latency_max_ms",
	"p50_ms", "p66_ms", "p75_ms", "p80_ms", "p90_ms", "p95_ms", "p98_ms", "p99_ms", "p100_ms",
	"cpu_pct", "rss_mb",
	"probe_mean_ms", "probe_median_ms", "probe_min_ms", "probe_max_ms",
}

// published is the figures the write-up printed for a cell, by metric.
type published map[string]float64

func (p *published) UnmarshalYAML(n *yaml.Node) error {
	pairs, err := yamlfile.Pairs(n, "published")
	if err != nil {
		return err
	}
	*p = published{}
	for _, kv := range pairs {
		if !contains(Metrics, kv.Key) {
			return yamlfile.Errorf(kv.KeyN, kv.Key, "unknown field in published (known: %s)", strings.Join(sorted(Metrics), ", "))
		}
		f, err := yamlfile.Float(kv.Value)
		if err != nil {
			return yamlfile.Errorf(kv.Value, kv.Key, "%q is not a number (write the figure as printed, in the unit of the key: 12900 for \"12.9K\")", kv.Value.Value)
		}
		(*p)[kv.Key] = f
	}
	return nil
}

// conclusion is a published claim, decoded straight into
// result.Conclusion: a field added there (with its yaml tag) is a key of
// the suite file without a change here.
type conclusion struct {
	result.Conclusion
	node *yaml.Node
}

func (c *conclusion) UnmarshalYAML(n *yaml.Node) error {
	c.node = n
	if err := yamlfile.DecodeFields(n, "conclusions", &c.Conclusion); err != nil {
		return err
	}
	if c.Text == "" || c.Metric == "" || c.A == "" || c.B == "" {
		return yamlfile.Errorf(n, "conclusions", "each needs text, metric, a and b (run ids)")
	}
	if !contains(Metrics, c.Metric) {
		return yamlfile.Errorf(yamlfile.Value(n, "metric"), "metric", "%q is not one of %s", c.Metric, strings.Join(Metrics, ", "))
	}
	if v := yamlfile.Value(n, "published"); v != nil && c.Published <= 0 {
		return yamlfile.Errorf(v, "published", "%s must be more than 0", v.Value)
	}
	return nil
}

// at is the node of a conclusion's key, for errors about its value.
func (c *conclusion) at(key string) *yaml.Node {
	if v := yamlfile.Value(c.node, key); v != nil {
		return v
	}
	return c.node
}
