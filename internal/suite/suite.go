package suite

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"restbench/internal/result"
)

// Scales are the run lengths a suite can be loaded at: quick (seconds per
// run, for CI), standard (the default; all five suites within 20 minutes on a
// 2-core machine) and full (the published durations and counts).
var Scales = []string{"quick", "standard", "full"}

// DefaultScale is the scale used when Options.Scale is empty.
const DefaultScale = "standard"

// Suite is a suite file expanded at one scale: the runs to measure, in
// execution order, and the description the runner writes as suite.json.
type Suite struct {
	Name, Title, Source, File, Scale string
	Runs                             []Run // in execution order; Run.ID unique
	Info                             result.Suite
}

// Options tune Load.
type Options struct {
	Scale string   // quick, standard or full; "" is standard
	Impls []string // known implementation ids; empty skips the check
	// Fits, when set, checks a runtime: an error for one that is not pinned,
	// false for one that cannot run the implementation. A matrix cell whose
	// runtime cannot run its implementation (go@1.22 with node-http) is left
	// out, so one runtime axis can list the Node and the Go runtimes of an
	// experiment with both.
	Fits func(impl, runtime string) (bool, error)
}

// Load reads the suite file at path and expands it at opt.Scale. Every
// scale is expanded to check the file, so a suite that loads at quick also
// loads at full. Errors name the file and line:
// "suites/heysphere.yaml:14: rate: "10k" is not a number (use 10000 or 0.75x)".
func Load(path string, opt Options) (*Suite, error) {
	scale := opt.Scale
	if scale == "" {
		scale = DefaultScale
	}
	if !contains(Scales, scale) {
		return nil, fmt.Errorf("unknown scale %q (use %s)", scale, strings.Join(Scales, ", "))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read suite: %w", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		// yaml's own messages carry "line N"; put the file in front.
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, fmt.Errorf("%s: the file is empty (see docs/suites.md for an example)", path)
	}
	p := &parser{file: path, impls: opt.Impls, fits: opt.Fits}
	f, err := p.parseFile(doc.Content[0])
	if err != nil {
		return nil, err
	}
	var chosen []Run
	var pends []pending
	var info result.Suite
	// full first: its errors (cells that select nothing, conclusions on
	// missing runs) are about the file itself, not about a scale.
	for _, sc := range []string{"full", "standard", "quick"} {
		runs, pd, inf, err := f.expand(p, sc)
		if err != nil {
			return nil, err
		}
		if sc == scale {
			chosen, pends, info = runs, pd, inf
		}
	}
	bodies := &bodyCache{dir: filepath.Dir(path), p: p, cache: map[string][]byte{}}
	for i := range chosen {
		if err := bodies.resolve(&chosen[i], pends[i]); err != nil {
			return nil, err
		}
	}
	s := &Suite{Name: f.Name, Title: f.Title, Source: f.source(), File: path, Scale: scale, Runs: chosen}
	info.Name, info.Title, info.Source, info.File, info.Scale = s.Name, s.Title, s.Source, s.File, s.Scale
	s.Info = info
	return s, nil
}

// file is a parsed suite file, before expansion.
type file struct {
	Name, Title, Description string
	WriteUp, URL             string
	Defaults                 settings
	Scales                   map[string]scaleBlock
	Experiments              []*experiment
}

// scaleBlock overrides settings (and, in an experiment, matrix axes) at one scale.
type scaleBlock struct {
	Set    settings
	Matrix []axis
}

// axis is one parameter of an experiment's matrix and the values it takes.
type axis struct {
	Key    string
	Node   *yaml.Node
	Values []setting
}

func (f *file) source() string {
	if f.URL == "" {
		return f.WriteUp
	}
	return f.WriteUp + " (" + f.URL + ")"
}

func (p *parser) parseFile(n *yaml.Node) (*file, error) {
	ps, err := p.pairs(n, "suite", []string{"name", "title", "description", "source", "defaults", "scales", "experiments"})
	if err != nil {
		return nil, err
	}
	f := &file{Defaults: settings{}}
	for _, kv := range ps {
		switch kv.Key {
		case "name":
			f.Name, err = p.nonEmpty(kv.Value, "name")
		case "title":
			f.Title, err = p.scalar(kv.Value, "title")
		case "description":
			f.Description, err = p.scalar(kv.Value, "description")
		case "source":
			err = p.parseSource(kv.Value, f)
		case "defaults":
			f.Defaults, err = p.parseSettings(kv.Value, "defaults", nil)
		case "scales":
			f.Scales, err = p.parseScales(kv.Value, false)
		case "experiments":
			f.Experiments, err = p.parseExperiments(kv.Value)
		}
		if err != nil {
			return nil, err
		}
	}
	switch {
	case f.Name == "":
		return nil, p.errorf(n, "name", "missing (the suite's name, e.g. heysphere)")
	case f.WriteUp == "":
		return nil, p.errorf(n, "source", "missing (the published write-up this suite reproduces)")
	case len(f.Experiments) == 0:
		return nil, p.errorf(n, "experiments", "missing (a suite needs at least one experiment)")
	}
	return f, nil
}

func (p *parser) parseSource(n *yaml.Node, f *file) error {
	ps, err := p.pairs(n, "source", []string{"write_up", "url"})
	if err != nil {
		return err
	}
	for _, kv := range ps {
		var v string
		if v, err = p.nonEmpty(kv.Value, kv.Key); err != nil {
			return err
		}
		if kv.Key == "write_up" {
			f.WriteUp = v
		} else {
			f.URL = v
		}
	}
	if f.WriteUp == "" {
		return p.errorf(n, "source", "write_up: missing (e.g. seeds/4-heysphere-node-vs-go.md)")
	}
	return nil
}

// parseScales reads {quick: {...}, standard: {...}, full: {...}}. Only an
// experiment's scales may replace matrix axes.
func (p *parser) parseScales(n *yaml.Node, matrix bool) (map[string]scaleBlock, error) {
	ps, err := p.pairs(n, "scales", Scales)
	if err != nil {
		return nil, err
	}
	out := map[string]scaleBlock{}
	for _, kv := range ps {
		var skip []string
		if matrix {
			skip = []string{"matrix"}
		}
		set, err := p.parseSettings(kv.Value, kv.Key, skip)
		if err != nil {
			return nil, err
		}
		b := scaleBlock{Set: set}
		if matrix {
			if m := lookup(kv.Value, "matrix"); m != nil {
				if b.Matrix, err = p.parseMatrix(m); err != nil {
					return nil, err
				}
			}
		}
		out[kv.Key] = b
	}
	return out, nil
}

// lookup returns the value of key in a mapping node, or nil.
func lookup(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func (p *parser) parseMatrix(n *yaml.Node) ([]axis, error) {
	ps, err := p.pairs(n, "matrix", nil)
	if err != nil {
		return nil, err
	}
	var out []axis
	for _, kv := range ps {
		if kv.Key == "impl" || kv.Key == "impls" {
			return nil, p.errorf(kv.KeyN, kv.Key, "implementations are listed in the experiment's impls:, not in the matrix")
		}
		if !contains(axisKeys, kv.Key) {
			return nil, p.errorf(kv.KeyN, kv.Key, "cannot vary in a matrix (matrix parameters: %s)", strings.Join(sorted(axisKeys), ", "))
		}
		items, err := p.seq(kv.Value, kv.Key)
		if err != nil {
			return nil, err
		}
		if len(items) == 0 {
			return nil, p.errorf(kv.Value, kv.Key, "the list of values is empty")
		}
		ax := axis{Key: kv.Key, Node: kv.KeyN}
		seen := map[string]bool{}
		for _, it := range items {
			v, err := p.parseSetting(kv.Key, it)
			if err != nil {
				return nil, err
			}
			if v.Text == "" {
				return nil, p.errorf(it, kv.Key, "matrix values must be single values")
			}
			if seen[v.Text] {
				return nil, p.errorf(it, kv.Key, "%s is listed twice", v.Text)
			}
			seen[v.Text] = true
			ax.Values = append(ax.Values, v)
		}
		out = append(out, ax)
	}
	return out, nil
}
