// Package runtimes knows the pinned runtimes the servers run on: Node
// versions, Bun and Deno from the npm registry and Go toolchains from the Go
// module proxy, as servers/runtimes.yaml (the lock file) pins them. It
// installs one on demand into a cache folder, checks it by its own version
// output, and says how to build and start a server on it.
package runtimes

import (
	"fmt"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"restbench/internal/yamlfile"
)

// LockPath is where the lock file lives, relative to the repository root.
const LockPath = "servers/runtimes.yaml"

// Languages a runtime serves: "node" (Node, Bun and Deno run the Node
// servers) and "go".
const (
	Node = "node"
	Go   = "go"
)

// Runtime is one pinned runtime of the lock file.
type Runtime struct {
	Name     string `yaml:"name"`     // node@24, bun, deno, go@1.26
	Language string `yaml:"language"` // the implementations it runs: node or go
	// npm packages (Node, Bun, Deno): the package, its exact version, the
	// sha512 integrity of its tarball, and the binary inside the package.
	NPM       string `yaml:"npm"`
	Version   string `yaml:"version"`
	Integrity string `yaml:"integrity"`
	Bin       string `yaml:"bin"`
	// Go: the toolchain (GOTOOLCHAIN value) and, for toolchains older than
	// go.mod's go line, the module file the servers are built with instead.
	Toolchain string `yaml:"toolchain"`
	Modfile   string `yaml:"modfile"`
	// Unsupported maps an implementation id, or a mode ("cluster": THREADS
	// > 1, "pm2": CLUSTER=pm2), to why it does not run on this runtime.
	Unsupported map[string]string `yaml:"unsupported"`
	// Flags are added to the Node servers' command on this runtime, after
	// the manifest's V8 flags (node@X only); Env is added to their
	// environment. Both exist for the /filter memory bound, whose fixed
	// costs differ by runtime (see servers/runtimes.yaml).
	Flags []string          `yaml:"flags"`
	Env   map[string]string `yaml:"env"`
}

// Pin is the exact version the lock file pins: 24.21.0, go1.22.12.
func (r Runtime) Pin() string {
	if r.Language == Go {
		return r.Toolchain
	}
	return r.Version
}

// Lock is the lock file: the pinned runtimes and the default per language.
type Lock struct {
	Root     string            `yaml:"-"` // repository root
	Defaults map[string]string `yaml:"defaults"`
	Runtimes []Runtime         `yaml:"runtimes"`
}

// Load reads the lock file below root and checks it, strictly: an unknown
// key or a bad value is an error at its line (internal/yamlfile).
func Load(root string) (*Lock, error) {
	var l Lock
	if err := yamlfile.Read(filepath.Join(root, LockPath), &l); err != nil {
		return nil, fmt.Errorf("read runtimes: %w", err)
	}
	l.Root = root
	return &l, nil
}

// UnmarshalYAML decodes the lock file strictly and checks its defaults.
func (l *Lock) UnmarshalYAML(n *yaml.Node) error {
	type plain Lock
	if err := yamlfile.DecodeFields(n, "", (*plain)(l)); err != nil {
		return err
	}
	if err := yamlfile.Once(n, "runtimes", l.Runtimes, func(r Runtime) string { return r.Name }); err != nil {
		return err
	}
	for lang, name := range l.Defaults {
		at := yamlfile.Value(yamlfile.Value(n, "defaults"), lang)
		r, err := l.Get(name)
		if err != nil {
			return yamlfile.Errorf(at, "defaults", "%s: %v", lang, err)
		}
		if r.Language != lang {
			return yamlfile.Errorf(at, "defaults", "%s: %s runs %s servers", lang, name, r.Language)
		}
	}
	return nil
}

// UnmarshalYAML decodes one runtime strictly and checks that it has what
// its language needs.
func (r *Runtime) UnmarshalYAML(n *yaml.Node) error {
	type plain Runtime
	if err := yamlfile.DecodeFields(n, "", (*plain)(r)); err != nil {
		return err
	}
	bad := func(field, format string, a ...any) error {
		return yamlfile.Errorf(n, field, "runtime %q: %s", r.Name, fmt.Sprintf(format, a...))
	}
	switch {
	case r.Name == "":
		return yamlfile.Errorf(n, "name", "missing: every runtime needs a name (node@24, go@1.26)")
	case r.Language != Node && r.Language != Go:
		return bad("language", "%q: want node or go", r.Language)
	case r.Language == Node && (r.NPM == "" || r.Version == "" || r.Bin == ""):
		return bad("npm", "needs npm, version and bin")
	case r.Language == Node && !strings.HasPrefix(r.Integrity, "sha512-"):
		return bad("integrity", "want sha512-... (npm view %s@%s dist.integrity)", r.NPM, r.Version)
	case r.Language == Go && !strings.HasPrefix(r.Toolchain, "go1."):
		return bad("toolchain", "want go1.X.Y")
	}
	return nil
}

// Get returns the runtime called name, or an error that lists the pinned ones.
func (l *Lock) Get(name string) (Runtime, error) {
	for _, r := range l.Runtimes {
		if r.Name == name {
			return r, nil
		}
	}
	return Runtime{}, fmt.Errorf("unknown runtime %q (pinned in %s: %s)", name, LockPath, strings.Join(l.Names(), ", "))
}

// Names lists the pinned runtimes in file order.
func (l *Lock) Names() []string {
	out := make([]string, len(l.Runtimes))
	for i, r := range l.Runtimes {
		out[i] = r.Name
	}
	return out
}

// Resolve picks the runtime for an implementation of language lang: name,
// or the language's default when name is "". It refuses a runtime of
// another language (go@1.22 cannot run a Node server).
func (l *Lock) Resolve(lang, name string) (Runtime, error) {
	if name == "" {
		name = l.Defaults[lang]
		if name == "" {
			return Runtime{}, fmt.Errorf("no default runtime for %s implementations in %s", lang, LockPath)
		}
	}
	r, err := l.Get(name)
	if err != nil {
		return r, err
	}
	if r.Language != lang {
		return r, fmt.Errorf("runtime %s runs %s implementations, not %s ones", name, r.Language, lang)
	}
	return r, nil
}

// NotSupported says why an implementation cannot run on r with this server
// environment (THREADS, CLUSTER), or "" when it can.
func (r Runtime) NotSupported(implID string, env map[string]string) string {
	why := func(key string) string {
		if s := r.Unsupported[key]; s != "" {
			return fmt.Sprintf("not supported on %s: %s", r.Name, s)
		}
		return ""
	}
	if s := why(implID); s != "" {
		return s
	}
	if env["CLUSTER"] == "pm2" {
		return why("pm2")
	}
	if t := env["THREADS"]; t != "" && t != "1" {
		return why("cluster")
	}
	return ""
}
