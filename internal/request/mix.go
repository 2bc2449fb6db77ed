package request

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"

	"restbench/internal/payload"
	"restbench/internal/yamlfile"
)

// Target is one request of a mix, for example
//
//	{name: echo, method: POST, path: /echo, body: "@../fixtures/echo-body.json", weight: 1}
//
// name defaults to the path, method to GET (POST with a body), weight to 1.
type Target struct {
	Name    yamlfile.Name `yaml:"name"`
	Method  *Method       `yaml:"method"`
	Path    Path          `yaml:"path"`
	Headers Headers       `yaml:"headers"`
	Body    *Body         `yaml:"body"`
	Weight  Weight        `yaml:"weight"`
}

func (t *Target) UnmarshalYAML(n *yaml.Node) error {
	*t = Target{Weight: Weight{V: 1}}
	if err := yamlfile.DecodeFields(n, "mix", t); err != nil {
		return err
	}
	if t.Path.V == "" {
		return yamlfile.Errorf(n, "mix", "every target needs a name and a path (a name left out is the path)")
	}
	if t.Name.V == "" {
		t.Name.V = t.Path.V
	}
	return nil
}

// Weight is a target's share of the requests: more than 0.
type Weight struct {
	yamlfile.At
	V float64
}

func (w *Weight) UnmarshalYAML(n *yaml.Node) (err error) {
	w.Node = n
	if w.V, err = yamlfile.Float(n); err == nil && w.V <= 0 {
		err = yamlfile.Errorf(n, "", "%s must be more than 0 (a negative or zero weight never sends; leave weight out for 1)", n.Value)
	}
	return err
}

// Mix is a weighted list of targets, each with its own name.
type Mix struct {
	yamlfile.At
	Targets []Target
}

const mixHint = "({name, method, path, headers, body, weight}, ...)"

func (m *Mix) UnmarshalYAML(n *yaml.Node) (err error) {
	m.Node = n
	if m.Targets, err = yamlfile.List[Target](n, "mix", "of targets "+mixHint); err != nil {
		return err
	}
	if len(m.Targets) == 0 {
		return yamlfile.Errorf(n, "mix", "has no targets (a list of %s)", mixHint)
	}
	seen := map[string]bool{}
	for i, t := range m.Targets {
		if seen[t.Name.V] {
			return yamlfile.Errorf(n.Content[i], "mix", "name %q is used twice; give each target its own name", t.Name.V)
		}
		seen[t.Name.V] = true
	}
	return nil
}

// ReadMix reads a mix file (`restbench load --mix`): a YAML list of targets.
func ReadMix(path string) (Mix, error) {
	var m Mix
	if err := yamlfile.Read(path, &m); err != nil {
		return m, fmt.Errorf("mix: %w", err)
	}
	return m, nil
}

// Bodies reads each file and generates each filter array once, so requests
// with the same body share one slice (a 5 MB body in 6 runs is 5 MB, not 30).
type Bodies struct {
	dir   string // "@file" is relative to it: the folder of the file that names it
	cache map[string][]byte
}

// NewBodies resolves bodies named in a file in dir.
func NewBodies(dir string) *Bodies {
	return &Bodies{dir: dir, cache: map[string][]byte{}}
}

// Get returns the bytes of b (nil for no body).
func (c *Bodies) Get(b *Body) ([]byte, error) {
	switch {
	case b == nil:
		return nil, nil
	case b.File == "" && b.Generate == "":
		return b.Literal, nil
	}
	key := "file:" + b.File
	if b.Generate != "" {
		key = fmt.Sprintf("%s:%d:%d", b.Generate, b.Size, b.Seed)
	}
	if data, ok := c.cache[key]; ok {
		return data, nil
	}
	var data []byte
	if b.File != "" {
		path := b.File
		if !filepath.IsAbs(path) {
			path = filepath.Join(c.dir, path)
		}
		d, err := os.ReadFile(path)
		if err != nil {
			return nil, yamlfile.Errorf(b.Node, "body", "%v (the path is relative to the file that names it)", err)
		}
		data = d
	} else {
		var buf bytes.Buffer
		buf.Grow(int(b.Size) + 4096)
		if err := payload.Filter(&buf, b.Size, b.Seed); err != nil {
			return nil, yamlfile.Errorf(b.Node, "body", "generate %s of %d bytes: %v", b.Generate, b.Size, err)
		}
		data = buf.Bytes()
	}
	c.cache[key] = data
	return data, nil
}
