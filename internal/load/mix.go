package load

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// mixEntry is one target as a mix file writes it.
type mixEntry struct {
	Name    string   `yaml:"name"`
	Method  string   `yaml:"method"`
	Path    string   `yaml:"path"`
	Headers []string `yaml:"headers"`
	Body    string   `yaml:"body"` // literal, or @file relative to the mix file
	Weight  float64  `yaml:"weight"`
}

// ParseMix reads a mix file: a YAML list of targets, for example
//
//   - {name: time, path: /time, weight: 99}
//   - {name: work, path: "/time?work=1", weight: 1}
//   - {name: echo, method: POST, path: /echo, body: "@../fixtures/echo-body.json", headers: ["Content-Type: application/json"]}
//
// A body "@file" is read relative to the mix file's folder.
func ParseMix(path string) ([]Target, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("mix: %w", err)
	}
	var entries []mixEntry
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&entries); err != nil {
		return nil, fmt.Errorf("mix %s: %w (expected a list of {name, method, path, headers, body, weight})", path, err)
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("mix %s has no targets (expected a list of {name, method, path, headers, body, weight})", path)
	}
	seen := map[string]bool{}
	out := make([]Target, len(entries))
	for i, e := range entries {
		where := fmt.Sprintf("mix %s: target %d", path, i+1)
		if !strings.HasPrefix(e.Path, "/") {
			return nil, fmt.Errorf("%s: path %q must start with / (the host comes from the URL)", where, e.Path)
		}
		if e.Weight < 0 {
			return nil, fmt.Errorf("%s: weight %v must not be negative", where, e.Weight)
		}
		name := e.Name
		if name == "" {
			name = e.Path
		}
		if seen[name] {
			return nil, fmt.Errorf("%s: name %q is used twice; give each target its own name", where, name)
		}
		seen[name] = true
		body := []byte(e.Body)
		if file, ok := strings.CutPrefix(e.Body, "@"); ok {
			if !filepath.IsAbs(file) {
				file = filepath.Join(filepath.Dir(path), file)
			}
			if body, err = os.ReadFile(file); err != nil {
				return nil, fmt.Errorf("%s: body: %w", where, err)
			}
		}
		out[i] = Target{Name: name, Method: e.Method, Path: e.Path, Headers: e.Headers, Body: body, Weight: e.Weight}
	}
	return out, nil
}
