package suite

import (
	"cmp"
	"strings"

	"go.yaml.in/yaml/v3"

	"restbench/internal/metric"
	"restbench/internal/result"
	"restbench/internal/suite/settings"
	"restbench/internal/yamlfile"
)

// The types below are the suite file's schema (docs/suites.md). Each
// decodes itself strictly (yamlfile.DecodeFields): an unknown key, a key
// given twice or a value of the wrong kind is an error with its line.

// file is a suite file, before expansion.
type file struct {
	Name        yamlfile.Name          `yaml:"name"`
	Title       yamlfile.Text          `yaml:"title"`
	Description yamlfile.Text          `yaml:"description"`
	Source      source                 `yaml:"source"`
	Defaults    *settings.Layer        `yaml:"defaults"`
	Scales      scales[settings.Layer] `yaml:"scales"`
	Experiments experimentList         `yaml:"experiments"`
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
	// Window is how long the write-up's loads ran, in its words: "20 s
	// (wrk -d 20s)", "1,000,000 requests (ab -n)".
	Window yamlfile.Text `yaml:"window"`
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
	// AA measures one run twice in every round (the A/A arm): the ratio of
	// the twins is the noise floor the experiment's verdicts sit on.
	AA *aaArm `yaml:"aa"`
	// PublishedLoad is the load the write-up measured the table with; a
	// cell's own replaces it for the runs the cell selects.
	PublishedLoad  *publishedLoad `yaml:"published_load"`
	settings.Layer `yaml:",inline"`
	node           *yaml.Node
}

// aaArm names the run an A/A arm repeats, by its label, and the metric its
// noise floor is read on.
type aaArm struct {
	Run    yamlfile.Text `yaml:"run"`
	Metric yamlfile.Text `yaml:"metric"`
	node   *yaml.Node
}

func (a *aaArm) UnmarshalYAML(n *yaml.Node) error {
	a.node = n
	if err := yamlfile.DecodeFields(n, "aa", a); err != nil {
		return err
	}
	switch {
	case a.Run.V == "" || a.Metric.V == "":
		return yamlfile.Errorf(n, "aa", "needs run (a run's label in this experiment) and metric, e.g. {run: node-http, metric: rps}")
	case !contains(conclusionMetrics, a.Metric.V):
		return yamlfile.Errorf(n, "metric", "%q is not one of %s", a.Metric.V, strings.Join(conclusionMetrics, ", "))
	}
	return nil
}

// scaleSettings is an experiment's scale block: settings, and matrix axes
// whose values replace the experiment's.
type scaleSettings struct {
	settings.Layer `yaml:",inline"`
	Matrix         matrix `yaml:"matrix"`
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

// checkCells makes sure every condition names the impl, the scale or a
// matrix axis and one of its values, so a typo cannot silently select
// nothing.
func (e *experiment) checkCells() error {
	for _, c := range e.Cells.Items {
		for _, w := range c.When {
			if w.Key == "impl" {
				if !contains(e.Impls.ids(), w.Value) {
					return yamlfile.Errorf(w.Node, "impl", "%q is not in this experiment's impls (%s)", w.Value, strings.Join(e.Impls.ids(), ", "))
				}
				continue
			}
			if w.Key == "scale" {
				// A cell for one scale: quick's short warm-ups, say.
				if !contains(Scales, w.Value) {
					return yamlfile.Errorf(w.Node, "scale", "%q is not a scale (%s)", w.Value, strings.Join(Scales, ", "))
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
	Set  *settings.Layer
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
		if !contains(settings.AxisKeys, kv.Key) {
			return yamlfile.Errorf(kv.KeyN, kv.Key, "cannot vary in a matrix (matrix parameters: %s)", strings.Join(sorted(settings.AxisKeys), ", "))
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
			layer := &settings.Layer{}
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
// extra settings, a label, exclusion, the published figures and a note
// beside them (when they came from another load than the scale sends).
type cell struct {
	When      when              `yaml:"when"`
	Set       *settings.Layer   `yaml:"set"`
	Label     yamlfile.Name     `yaml:"label"`
	Exclude   *settings.Boolean `yaml:"exclude"`
	Published published         `yaml:"published"`
	Note      yamlfile.Name     `yaml:"note"`
	// PublishedLoad replaces the experiment's published_load for these runs.
	PublishedLoad *publishedLoad `yaml:"published_load"`
	node          *yaml.Node
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

// publishedMetrics are the keys a published figure may have
// (result.RunInfo.Published); conclusionMetrics what a conclusion may
// compare. Both are the vocabulary's (package metric).
var (
	publishedMetrics  = metric.Published()
	conclusionMetrics = metric.Compared()
)

// published is the figures the write-up printed for a cell, by metric.
type published map[string]float64

func (p *published) UnmarshalYAML(n *yaml.Node) error {
	pairs, err := yamlfile.Pairs(n, "published")
	if err != nil {
		return err
	}
	*p = published{}
	for _, kv := range pairs {
		if !contains(publishedMetrics, kv.Key) {
			return yamlfile.Errorf(kv.KeyN, kv.Key, "unknown field in published (known: %s)", strings.Join(sorted(publishedMetrics), ", "))
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
	if v := yamlfile.Value(n, "requires"); v != nil {
		var rq result.Requires // strictly: a misspelt premise must not pass unnoticed
		if err := yamlfile.DecodeFields(v, "requires", &rq); err != nil {
			return err
		}
	}
	trend := c.Claim == result.ClaimGrows || c.Claim == result.ClaimShrinks
	switch {
	case c.Text == "" || c.Metric == "":
		return yamlfile.Errorf(n, "conclusions", "each needs text and metric")
	case c.Claim != "" && !contains(result.Claims, c.Claim):
		return yamlfile.Errorf(c.at("claim"), "claim", "%q is not one of %s", c.Claim, strings.Join(result.Claims, ", "))
	case trend && len(c.Points) < 2:
		return yamlfile.Errorf(n, "points", "a %s claim needs two or more points ({x: 100, a: RUN, b: RUN}; b optional)", c.Claim)
	case c.Kind != "" && c.Kind != result.KindConclusion && c.Kind != result.KindCheck && c.Kind != result.KindReplay:
		return yamlfile.Errorf(c.at("kind"), "kind", "%q is not one of %s (the write-up's), %s (restbench's own) or %s (a write-up's claim graded again on another runtime)", c.Kind, result.KindConclusion, result.KindCheck, result.KindReplay)
	case !trend && c.A == "":
		return yamlfile.Errorf(n, "conclusions", "each needs text, metric, a and b (run ids; b may be left out of a band on one run's own figure)")
	case !trend && c.B == "" && c.Claim != result.ClaimBand:
		return yamlfile.Errorf(n, "b", "a %s claim compares two runs: give b (only a band may grade one run's own figure)", cmp.Or(c.Claim, result.ClaimDirection))
	case !contains(conclusionMetrics, c.Metric):
		return yamlfile.Errorf(c.at("metric"), "metric", "%q is not one of %s", c.Metric, strings.Join(conclusionMetrics, ", "))
	case c.Claim == result.ClaimBand && (c.Low < 0 || c.Low == 0 && c.High <= 0):
		return yamlfile.Errorf(n, "low", "a band needs low, high or both (no high: open above; no low: open below): \"about 2x\" is low: 1.6, high: 2.5, \"at most 100 ms\" is high: 100")
	case c.High != 0 && c.High <= c.Low:
		return yamlfile.Errorf(c.at("high"), "high", "%g is not above low %g", c.High, c.Low)
	}
	for _, key := range []string{"published", "tolerance"} {
		if v := yamlfile.Value(n, key); v != nil && (key == "published" && c.Published <= 0 || key == "tolerance" && c.Tolerance <= 0) {
			return yamlfile.Errorf(v, key, "%s must be more than 0", v.Value)
		}
	}
	for _, p := range c.Points {
		if p.A == "" {
			return yamlfile.Errorf(c.at("points"), "points", "each point needs x and a (and b for a ratio)")
		}
	}
	return nil
}

// runs names every run the conclusion compares: A and B, or its points'.
func (c *conclusion) runs() []string {
	var ids []string
	for _, id := range []string{c.A, c.B} {
		if id != "" {
			ids = append(ids, id)
		}
	}
	for _, p := range c.Points {
		ids = append(ids, p.A)
		if p.B != "" {
			ids = append(ids, p.B)
		}
	}
	return ids
}

// at is the node of a conclusion's key, for errors about its value.
func (c *conclusion) at(key string) *yaml.Node {
	if v := yamlfile.Value(c.node, key); v != nil {
		return v
	}
	return c.node
}
