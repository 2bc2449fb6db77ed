package suite

import (
	"cmp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"restbench/internal/result"
	"restbench/internal/suite/settings"
	"restbench/internal/yamlfile"
)

// toolModels are the load generators the write-ups used, and the model each
// runs: a closed loop sends a connection's next request when its last one
// returns; wrk2 sends at a constant rate (-R) and times each request from
// when it was due.
var toolModels = map[string]string{
	"wrk": result.ModelClosed, "ab": result.ModelClosed, "autocannon": result.ModelClosed,
	"hey": result.ModelClosed, "script": result.ModelClosed, "wrk2": result.ModelOpen,
}

// publishedLoad is published_load: the load a write-up measured its table
// with (result.PublishedLoad), in an experiment or a cell.
type publishedLoad struct {
	Tool        yamlfile.Name      `yaml:"tool"`
	Model       yamlfile.Name      `yaml:"model"`
	Connections *settings.Count    `yaml:"connections"`
	Rate        *settings.Rate     `yaml:"rate"`
	Duration    *settings.Duration `yaml:"duration"`
	Saturated   *settings.Boolean  `yaml:"saturated"`
	Overflowed  *settings.Boolean  `yaml:"overflowed"`
	Control     yamlfile.Name      `yaml:"control"`
	node        *yaml.Node
}

func (p *publishedLoad) UnmarshalYAML(n *yaml.Node) error {
	p.node = n
	if err := yamlfile.DecodeFields(n, "published_load", p); err != nil {
		return err
	}
	var tools []string
	for t := range toolModels {
		tools = append(tools, t)
	}
	sort.Strings(tools)
	model := toolModels[p.Tool.V]
	switch {
	case p.Tool.V == "":
		return yamlfile.Errorf(n, "published_load", "tool: missing (the write-up's load generator: %s, or another name with model: closed or open)", strings.Join(tools, ", "))
	case p.Model.V != "" && p.Model.V != result.ModelClosed && p.Model.V != result.ModelOpen:
		return yamlfile.Errorf(p.Model.Node, "model", "%q is not closed or open", p.Model.V)
	case model == "" && p.Model.V == "":
		return yamlfile.Errorf(n, "published_load", "model: missing: %s is not one of %s, so say whether it ran a closed loop or an open loop at a rate", p.Tool.V, strings.Join(tools, ", "))
	case model != "" && p.Model.V != "" && p.Model.V != model:
		return yamlfile.Errorf(p.Model.Node, "model", "%s's loop is %s, not %s (leave model out)", p.Tool.V, model, p.Model.V)
	case p.Rate != nil && p.Rate.V.Frac > 0:
		return yamlfile.Errorf(p.Rate.Node, "rate", "the published rate is a figure in req/s (10000), not a fraction")
	case p.Rate != nil && cmp.Or(p.Model.V, model) != result.ModelOpen:
		return yamlfile.Errorf(p.Rate.Node, "rate", "a closed loop offers no rate")
	case p.Saturated != nil && p.Saturated.V && cmp.Or(p.Model.V, model) != result.ModelOpen:
		return yamlfile.Errorf(p.Saturated.Node, "saturated", "only an open loop falls behind a rate")
	case p.Control.V != "" && (p.Overflowed == nil || !p.Overflowed.V):
		return yamlfile.Errorf(p.Control.Node, "control", "a control lifts a published condition: say which (overflowed: true)")
	}
	return nil
}

// resolve is the published load of one run: nominal is the run's
// connections before a scale capped them, the write-up's unless
// published_load gives its own.
func (p *publishedLoad) resolve(nominal int) *result.PublishedLoad {
	if p == nil {
		return nil
	}
	out := &result.PublishedLoad{Tool: p.Tool.V, Model: cmp.Or(p.Model.V, toolModels[p.Tool.V]), Connections: nominal}
	if p.Connections != nil {
		out.Connections = p.Connections.V
	}
	if p.Rate != nil {
		out.Rate = p.Rate.V.Abs
	}
	if p.Duration != nil {
		out.DurationS = p.Duration.V.Seconds()
	}
	out.Saturated = p.Saturated != nil && p.Saturated.V
	out.Overflowed = p.Overflowed != nil && p.Overflowed.V
	out.Control = p.Control.V
	return out
}

// checkModel makes sure a run with published figures runs the published
// load's model: an open loop where the write-up's was, a closed one where
// it was closed. A run without published figures (a reference, a
// cross-check) may run what it needs.
func (p *publishedLoad) checkModel(r Run) error {
	if p != nil && p.Overflowed != nil && p.Overflowed.V && r.Load.KeepAlive {
		return yamlfile.Errorf(p.Overflowed.Node, "overflowed", "run %s/%s keeps its connections alive, and they open before the window: its listen queue overflowing is never the published condition (only a load that dials every request, ab without -k, overflows as published); give this run a published_load without overflowed", r.Experiment, r.Label)
	}
	if p == nil || len(r.Published) == 0 {
		return nil
	}
	open := r.Load.Rate > 0 || r.RateOf != ""
	switch want := cmp.Or(p.Model.V, toolModels[p.Tool.V]); {
	case want == result.ModelOpen && !open:
		return yamlfile.Errorf(p.node, "published_load", "%s ran an open loop at a rate, and run %s/%s is a closed loop: give it a rate (rate: 10000, or rate: 1x with rate_of:)", p.Tool.V, r.Experiment, r.Label)
	case want == result.ModelClosed && open:
		return yamlfile.Errorf(p.node, "published_load", "%s ran a closed loop, and run %s/%s sends at a rate: leave rate out", p.Tool.V, r.Experiment, r.Label)
	}
	return nil
}
