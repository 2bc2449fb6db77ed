// Package impl knows the implementations of the server contract: the
// manifest that lists them (servers/implementations.yaml) and how to build
// them. Package server starts, watches and stops them.
package impl

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"restbench/internal/runtimes"
	"restbench/internal/yamlfile"
)

// ManifestPath is where the manifest lives, relative to the repository root.
const ManifestPath = "servers/implementations.yaml"

// Impl is one implementation of the server contract.
type Impl struct {
	ID        string            `yaml:"id" json:"id"`
	Language  string            `yaml:"language" json:"language"`
	Framework string            `yaml:"framework" json:"framework"`
	Version   string            `yaml:"version" json:"version"`
	Notes     string            `yaml:"notes" json:"notes,omitempty"`
	Build     string            `yaml:"build" json:"build,omitempty"`     // shell command run in the repository root
	Creates   string            `yaml:"creates" json:"creates,omitempty"` // when this path exists, Build is skipped
	Start     []string          `yaml:"start" json:"start"`               // argv, run in the repository root
	Env       map[string]string `yaml:"env" json:"env,omitempty"`         // extra environment
	// BuildEnv is extra environment of Build, set by On (GOTOOLCHAIN).
	BuildEnv map[string]string `yaml:"-" json:"-"`
	// RuntimeFlags are the flags Start gives the runtime, set by On.
	RuntimeFlags []string `yaml:"-" json:"-"`
}

// On returns im as it builds and starts on the installed runtime rt (see
// runtimes.Installed.Command).
func (im Impl) On(rt *runtimes.Installed) (Impl, error) {
	l, err := rt.Command(im.Language, im.Build, im.Start)
	if err != nil {
		return im, fmt.Errorf("%s on %s: %w", im.ID, rt.Name, err)
	}
	im.Build, im.Start, im.BuildEnv, im.RuntimeFlags = l.Build, l.Start, l.BuildEnv, l.Flags
	im.Env = maps.Clone(im.Env)
	if im.Env == nil && len(l.Env) > 0 {
		im.Env = map[string]string{}
	}
	maps.Copy(im.Env, l.Env)
	return im, nil
}

// WithoutFlags returns im started without the flags its start command gives
// the runtime (the options between `node` and the script): the runtime's
// defaults, as a user who types `node main.js` gets them.
func (im Impl) WithoutFlags() Impl {
	if len(im.Start) < 2 {
		return im
	}
	rest := slices.IndexFunc(im.Start[1:], func(a string) bool { return !strings.HasPrefix(a, "-") })
	if rest < 0 {
		rest = len(im.Start) - 1
	}
	im.Start = slices.Concat(im.Start[:1], im.Start[1+rest:])
	return im
}

// Manifest is the list of implementations, in file order.
type Manifest struct {
	Root  string `yaml:"-" json:"root"` // repository root; commands run here
	Impls []Impl `yaml:"implementations" json:"implementations"`
}

// Load reads the manifest below root, strictly: an unknown key or a bad
// value is an error at its line (internal/yamlfile), as in a suite.
func Load(root string) (*Manifest, error) {
	var m Manifest
	if err := yamlfile.Read(filepath.Join(root, ManifestPath), &m); err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	m.Root = root
	return &m, nil
}

// UnmarshalYAML decodes the manifest strictly and refuses an id given twice.
func (m *Manifest) UnmarshalYAML(n *yaml.Node) error {
	type plain Manifest
	if err := yamlfile.DecodeFields(n, "", (*plain)(m)); err != nil {
		return err
	}
	return yamlfile.Once(n, "implementations", m.Impls, func(im Impl) string { return im.ID })
}

// UnmarshalYAML decodes one implementation strictly; id and start are
// required.
func (im *Impl) UnmarshalYAML(n *yaml.Node) error {
	type plain Impl
	if err := yamlfile.DecodeFields(n, "", (*plain)(im)); err != nil {
		return err
	}
	switch {
	case im.ID == "":
		return yamlfile.Errorf(n, "id", "missing: every implementation needs an id (<language>-<framework>)")
	case len(im.Start) == 0:
		return yamlfile.Errorf(n, "start", "%s: missing (the command that runs the server, as a list: [bin/servers/%s])", im.ID, im.ID)
	}
	return nil
}

// IDs returns every implementation id, sorted.
func (m *Manifest) IDs() []string {
	ids := make([]string, 0, len(m.Impls))
	for _, im := range m.Impls {
		ids = append(ids, im.ID)
	}
	sort.Strings(ids)
	return ids
}

// Languages maps every implementation id to its language (go, node).
func (m *Manifest) Languages() map[string]string {
	out := make(map[string]string, len(m.Impls))
	for _, im := range m.Impls {
		out[im.ID] = im.Language
	}
	return out
}

// Get returns the implementation with this id, or an error that lists the
// known ones.
func (m *Manifest) Get(id string) (Impl, error) {
	for _, im := range m.Impls {
		if im.ID == id {
			return im, nil
		}
	}
	return Impl{}, fmt.Errorf("unknown implementation %q (known: %s)", id, strings.Join(m.IDs(), ", "))
}

// Select returns the implementations named by ids, or all of them when ids is
// empty.
func (m *Manifest) Select(ids []string) ([]Impl, error) {
	if len(ids) == 0 {
		return m.Impls, nil
	}
	out := make([]Impl, 0, len(ids))
	for _, id := range ids {
		im, err := m.Get(id)
		if err != nil {
			return nil, err
		}
		out = append(out, im)
	}
	return out, nil
}

// FindRoot walks up from dir to the folder holding the manifest, so the CLI
// works from any folder of the checkout.
func FindRoot(dir string) (string, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, ManifestPath)); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("no %s found above %s (run restbench inside the restbench checkout)", ManifestPath, dir)
		}
		d = parent
	}
}
