package suite

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// The parts of a request: path, headers, body, and the targets of a mix.

func (p *parser) path(n *yaml.Node, key string) (string, error) {
	v, err := p.scalar(n, key)
	if err == nil && !strings.HasPrefix(v, "/") {
		err = p.errorf(n, key, "%q must start with / (the server's address is added by the runner)", v)
	}
	return v, err
}

func (p *parser) headers(n *yaml.Node) ([]string, error) {
	hs, err := p.stringList(n, "headers")
	if err != nil {
		return nil, err
	}
	for i, h := range hs {
		name, _, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(name) == "" || strings.ContainsAny(name, " \t") {
			return nil, p.errorf(n.Content[i], "headers", "%q is not \"Name: value\"", h)
		}
	}
	return hs, nil
}

// body reads a literal string, "@file" or {generate: filter, size: 5MB, seed: 1}.
func (p *parser) body(n *yaml.Node) (*bodyValue, error) {
	if n.Kind == yaml.ScalarNode {
		if f, ok := strings.CutPrefix(n.Value, "@"); ok {
			if f == "" {
				return nil, p.errorf(n, "body", "\"@\" needs a file name, e.g. @../fixtures/echo-body.json")
			}
			return &bodyValue{File: f, Node: n}, nil
		}
		return &bodyValue{Literal: []byte(n.Value)}, nil
	}
	ps, err := p.pairs(n, "body", []string{"generate", "size", "seed"})
	if err != nil {
		return nil, err
	}
	b := &bodyValue{Seed: 1, Node: n}
	for _, kv := range ps {
		switch kv.Key {
		case "generate":
			b.Generate, err = p.enum(kv.Value, "generate", "filter")
		case "size":
			b.Size, err = p.size(kv.Value, "size")
		case "seed":
			var s int
			s, err = p.intIn(kv.Value, "seed", 0, 1<<31)
			b.Seed = int64(s)
		}
		if err != nil {
			return nil, err
		}
	}
	if b.Generate == "" || b.Size == 0 {
		return nil, p.errorf(n, "body", "a generated body needs generate: filter and size: (e.g. 5MB)")
	}
	return b, nil
}

func (p *parser) mix(n *yaml.Node) ([]targetValue, error) {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		return nil, p.errorf(n, "mix", "must be a list of targets ({name, path, weight, ...})")
	}
	var out []targetValue
	for _, item := range n.Content {
		ps, err := p.pairs(item, "mix", []string{"name", "method", "path", "headers", "body", "weight"})
		if err != nil {
			return nil, err
		}
		t := targetValue{Weight: 1}
		for _, kv := range ps {
			switch kv.Key {
			case "name":
				t.Name, err = p.nonEmpty(kv.Value, "name")
			case "method":
				t.Method, err = p.enum(kv.Value, "method", "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
			case "path":
				t.Path, err = p.path(kv.Value, "path")
			case "headers":
				t.Headers, err = p.headers(kv.Value)
			case "body":
				t.Body, err = p.body(kv.Value)
			case "weight":
				t.Weight, err = p.positiveFloat(kv.Value, "weight")
			}
			if err != nil {
				return nil, err
			}
		}
		if t.Name == "" || t.Path == "" {
			return nil, p.errorf(item, "mix", "every target needs a name and a path")
		}
		out = append(out, t)
	}
	return out, nil
}
