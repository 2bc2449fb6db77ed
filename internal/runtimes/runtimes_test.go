package runtimes

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"restbench/internal/suite/settings"
)

// repoRoot is the checkout holding this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestLockFile checks the repository's own lock file: the defaults the
// issue asks for, and a module file present for every older Go toolchain.
func TestLockFile(t *testing.T) {
	root := repoRoot(t)
	l, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string]string{Node: "node@24", Go: "go@1.27"} {
		if r, err := l.Resolve(lang, ""); err != nil || r.Name != want {
			t.Errorf("default for %s = %q (%v), want %s", lang, r.Name, err, want)
		}
	}
	for _, want := range []string{"node@20", "node@22", "node@24", "node@26", "bun", "deno", "go@1.22", "go@1.24", "go@1.26", "go@1.27"} {
		if !slices.Contains(l.Names(), want) {
			t.Errorf("%s is not pinned", want)
		}
	}
	for _, r := range l.Runtimes {
		if r.Modfile != "" {
			if _, err := os.Stat(filepath.Join(root, r.Modfile)); err != nil {
				t.Errorf("%s: %v", r.Name, err)
			}
		}
	}
	if _, err := l.Resolve(Node, "go@1.22"); err == nil || !strings.Contains(err.Error(), "runs go implementations") {
		t.Errorf("Resolve(node, go@1.22) = %v, want a language error", err)
	}
	if _, err := l.Get("node@18"); err == nil || !strings.Contains(err.Error(), "node@24") {
		t.Errorf("Get(node@18) = %v, want an error listing the pinned ones", err)
	}
}

func TestLoadErrors(t *testing.T) {
	for _, c := range []struct{ name, lock, want string }{
		{"no integrity", "runtimes:\n  - {name: n, language: node, npm: p, version: 1.0.0, bin: b}\n", `runtimes.yaml:2: integrity: runtime "n": want sha512-`},
		{"twice", "runtimes:\n  - {name: g, language: go, toolchain: go1.2.3}\n  - {name: g, language: go, toolchain: go1.2.3}\n", "runtimes.yaml:3: runtimes: g is listed twice"},
		{"bad toolchain", "runtimes:\n  - {name: g, language: go, toolchain: 1.22}\n", `runtimes.yaml:2: toolchain: runtime "g": want go1.X.Y`},
		{"default of another language", "defaults: {node: g}\nruntimes:\n  - {name: g, language: go, toolchain: go1.2.3}\n", "g runs go servers"},
		{"unknown default", "defaults: {go: x}\nruntimes:\n  - {name: g, language: go, toolchain: go1.2.3}\n", `runtimes.yaml:1: defaults: go: unknown runtime "x"`},
		{"language", "runtimes:\n  - {name: r, language: rust}\n", `runtimes.yaml:2: language: runtime "r": "rust": want node or go`},
		{"unknown key", "runtimes:\n  - name: g\n    language: go\n    toolchain: go1.2.3\n    toolchian: go1.2.4\n", "runtimes.yaml:5: toolchian: unknown field in runtimes (known: "},
		{"unknown top-level key", "runtime:\n  - {name: g, language: go, toolchain: go1.2.3}\n", "runtimes.yaml:1: runtime: unknown field"},
		{"wrong shape", "runtimes:\n  - {name: g, language: go, toolchain: go1.2.3, flags: -x}\n", "runtimes.yaml:2: flags: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			os.MkdirAll(filepath.Join(root, "servers"), 0o755)
			os.WriteFile(filepath.Join(root, LockPath), []byte(c.lock), 0o644)
			_, err := Load(root)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Load = %v, want an error containing %q", err, c.want)
			}
		})
	}
}

func TestNotSupported(t *testing.T) {
	r := Runtime{Name: "deno", Unsupported: map[string]string{"pm2": "pm2 fails", "node-x": "x fails"}}
	for _, c := range []struct {
		impl string
		env  map[string]string
		want string
	}{
		{"node-http", nil, ""},
		{"node-http", map[string]string{"THREADS": "2"}, ""}, // cluster is not listed
		{"node-http", map[string]string{"THREADS": "2", "CLUSTER": "pm2"}, "not supported on deno: pm2 fails"},
		{"node-x", map[string]string{"THREADS": "1"}, "not supported on deno: x fails"},
	} {
		if got := r.NotSupported(c.impl, c.env); got != c.want {
			t.Errorf("NotSupported(%s, %v) = %q, want %q", c.impl, c.env, got, c.want)
		}
	}
	r.Unsupported["cluster"] = "no cluster"
	if got := r.NotSupported("node-http", map[string]string{"THREADS": "auto"}); got != "not supported on deno: no cluster" {
		t.Errorf("THREADS=auto: %q, want the cluster reason", got)
	}
}

func TestCommand(t *testing.T) {
	nodeStart := []string{"node", "--max-semi-space-size=4", "--v8-pool-size=1", "servers/node/main.js", "http"}
	goBuild := "go build -o bin/servers/go-nethttp ./servers/go/nethttp"
	t.Setenv("GOFLAGS", "-buildvcs=false")
	t.Setenv("PATH", "/usr/bin")
	pinnedFirst := map[string]string{"PATH": "/c:/usr/bin"}
	for _, c := range []struct {
		name     string
		rt       Installed
		lang     string
		build    string
		start    []string
		want     Launch
		errMatch string
	}{
		{"node keeps V8 flags", Installed{Runtime: Runtime{Name: "node@24", Language: Node}, Path: "/c/node"}, Node, "npm ci", nodeStart,
			Launch{Build: "npm ci", Start: []string{"/c/node", "--max-semi-space-size=4", "--v8-pool-size=1", "servers/node/main.js", "http"},
				Flags: []string{"--max-semi-space-size=4", "--v8-pool-size=1"}, Env: pinnedFirst}, ""},
		{"bun drops them", Installed{Runtime: Runtime{Name: "bun", Language: Node}, Path: "/c/bun"}, Node, "npm ci", nodeStart,
			Launch{Build: "npm ci", Start: []string{"/c/bun", "servers/node/main.js", "http"}}, ""},
		{"deno passes V8's own", Installed{Runtime: Runtime{Name: "deno", Language: Node}, Path: "/c/deno"}, Node, "npm ci", nodeStart,
			Launch{Build: "npm ci", Start: []string{"/c/deno", "run", "-A", "--no-lock", "--v8-flags=--max-semi-space-size=4", "servers/node/main.js", "http"},
				Env: map[string]string{"DENO_NO_UPDATE_CHECK": "1", "DENO_NO_PROMPT": "1"}, Flags: []string{"--v8-flags=--max-semi-space-size=4"}}, ""},
		{"node adds the runtime's flags after the manifest's", Installed{Runtime: Runtime{Name: "node@26", Language: Node, Flags: []string{"--max-old-space-size=256"}}, Path: "/c/node"}, Node, "npm ci", nodeStart,
			Launch{Build: "npm ci", Start: []string{"/c/node", "--max-semi-space-size=4", "--v8-pool-size=1", "--max-old-space-size=256", "servers/node/main.js", "http"},
				Flags: []string{"--max-semi-space-size=4", "--v8-pool-size=1", "--max-old-space-size=256"}, Env: pinnedFirst}, ""},
		{"bun gets the runtime's env", Installed{Runtime: Runtime{Name: "bun", Language: Node, Env: map[string]string{"BUN_JSC_forceRAMSize": "134217728"}}, Path: "/c/bun"}, Node, "npm ci", nodeStart,
			Launch{Build: "npm ci", Start: []string{"/c/bun", "servers/node/main.js", "http"}, Env: map[string]string{"BUN_JSC_forceRAMSize": "134217728"}}, ""},
		{"deno's env and the runtime's", Installed{Runtime: Runtime{Name: "deno", Language: Node, Env: map[string]string{"X": "1"}}, Path: "/c/deno"}, Node, "npm ci", nodeStart,
			Launch{Build: "npm ci", Start: []string{"/c/deno", "run", "-A", "--no-lock", "--v8-flags=--max-semi-space-size=4", "servers/node/main.js", "http"},
				Env: map[string]string{"DENO_NO_UPDATE_CHECK": "1", "DENO_NO_PROMPT": "1", "X": "1"}, Flags: []string{"--v8-flags=--max-semi-space-size=4"}}, ""},
		// Two toolchains that need no module file of their own still get a
		// binary each: in one folder the second would run the first's build.
		{"go module toolchain", Installed{Runtime: Runtime{Name: "go@1.26", Language: Go, Toolchain: "go1.26.8"}}, Go, goBuild, []string{"bin/servers/go-nethttp"},
			Launch{Build: "go build -o bin/servers/go1.26.8/go-nethttp ./servers/go/nethttp", BuildEnv: map[string]string{"GOTOOLCHAIN": "go1.26.8"}, Start: []string{"bin/servers/go1.26.8/go-nethttp"}}, ""},
		{"a binary no build writes stays", Installed{Runtime: Runtime{Name: "go@1.27", Language: Go, Toolchain: "go1.27.4"}}, Go, "", []string{"/usr/local/bin/server"},
			Launch{BuildEnv: map[string]string{"GOTOOLCHAIN": "go1.27.4"}, Start: []string{"/usr/local/bin/server"}}, ""},
		{"a newer toolchain beside it", Installed{Runtime: Runtime{Name: "go@1.27", Language: Go, Toolchain: "go1.27.4"}}, Go, goBuild, []string{"bin/servers/go-nethttp"},
			Launch{Build: "go build -o bin/servers/go1.27.4/go-nethttp ./servers/go/nethttp", BuildEnv: map[string]string{"GOTOOLCHAIN": "go1.27.4"}, Start: []string{"bin/servers/go1.27.4/go-nethttp"}}, ""},
		{"older go: own binary and modfile", Installed{Runtime: Runtime{Name: "go@1.22", Language: Go, Toolchain: "go1.22.12", Modfile: "servers/go/toolchains/go1.22.mod"}}, Go, goBuild, []string{"bin/servers/go-nethttp"},
			Launch{Build: "go build -o bin/servers/go1.22.12/go-nethttp ./servers/go/nethttp",
				BuildEnv: map[string]string{"GOTOOLCHAIN": "go1.22.12", "GOFLAGS": "-buildvcs=false -modfile=servers/go/toolchains/go1.22.mod"},
				Start:    []string{"bin/servers/go1.22.12/go-nethttp"}}, ""},
		{"language mismatch", Installed{Runtime: Runtime{Name: "go@1.22", Language: Go}}, Node, "", nodeStart, Launch{}, "runs go implementations"},
		{"not node", Installed{Runtime: Runtime{Name: "bun", Language: Node}}, Node, "", []string{"python3", "x.py"}, Launch{}, "does not begin with node"},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := slices.Clone(c.start)
			got, err := c.rt.Command(c.lang, c.build, c.start)
			// The manifest's argv is shared by every trial: it must stay as it was.
			if !slices.Equal(start, c.start) {
				t.Fatalf("Command changed its argument: %q, was %q", c.start, start)
			}
			if c.errMatch != "" {
				if err == nil || !strings.Contains(err.Error(), c.errMatch) {
					t.Fatalf("err = %v, want %q", err, c.errMatch)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Build != c.want.Build || !slices.Equal(got.Start, c.want.Start) || !mapsEqual(got.Env, c.want.Env) || !mapsEqual(got.BuildEnv, c.want.BuildEnv) || !slices.Equal(got.Flags, c.want.Flags) {
				t.Fatalf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// tgz builds a package tarball with the given files (name -> content; a
// content starting with "->" is a symlink target).
func tgz(t *testing.T, files map[string]string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, content := range files {
		if target, ok := strings.CutPrefix(content, "->"); ok {
			tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeSymlink, Linkname: target})
			continue
		}
		tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o755, Size: int64(len(content))})
		tw.Write([]byte(content))
	}
	tw.Close()
	zw.Close()
	path := filepath.Join(t.TempDir(), "p.tgz")
	os.WriteFile(path, buf.Bytes(), 0o644)
	return path
}

func TestIntegrityAndUntar(t *testing.T) {
	path := tgz(t, map[string]string{"package/bin/tool": "#!/bin/sh\necho v9.9.9\n", "package/link": "->bin/tool"})
	data, _ := os.ReadFile(path)
	sum := sha512.Sum512(data)
	good := "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
	if err := checkIntegrity(path, good); err != nil {
		t.Fatal(err)
	}
	if err := checkIntegrity(path, "sha512-AAAA"); err == nil || !strings.Contains(err.Error(), "do not use it") {
		t.Fatalf("wrong integrity: %v", err)
	}
	dir := filepath.Join(t.TempDir(), "x")
	if err := untar(path, dir); err != nil {
		t.Fatal(err)
	}
	// The unpacked binary runs and passes the version check.
	in, err := check(context.Background(), Runtime{Name: "tool", Version: "9.9.9"}, filepath.Join(dir, "package", "bin", "tool"))
	if err != nil || in.Printed != "v9.9.9" {
		t.Fatalf("check = %+v, %v", in, err)
	}
	if _, err := check(context.Background(), Runtime{Name: "tool", Version: "1.0.0"}, filepath.Join(dir, "package", "link")); err == nil || !strings.Contains(err.Error(), "want 1.0.0") {
		t.Fatalf("check of a wrong version = %v", err)
	}
	for name, files := range map[string]map[string]string{
		"dot-dot":     {"../evil": "x"},
		"link escape": {"package/l": "->../../etc/passwd"},
	} {
		if err := untar(tgz(t, files), filepath.Join(t.TempDir(), "y")); err == nil {
			t.Errorf("%s: untar accepted it", name)
		}
	}
}

// TestInstallDefaultNode installs the default Node runtime (what make
// verify needs anyway, in the same cache, so CI downloads it once) and
// checks what Find and Install report.
func TestInstallDefaultNode(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads node@24 from the npm registry")
	}
	l, err := Load(repoRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	rt, _ := l.Resolve(Node, "")
	in, err := l.Install(context.Background(), rt, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if in.Printed != "v"+rt.Version || !strings.HasSuffix(in.Path, "/package/bin/node") {
		t.Fatalf("installed %+v, want v%s", in, rt.Version)
	}
	found, err := l.Find(context.Background(), rt)
	if err != nil || found.Path != in.Path {
		t.Fatalf("Find = %+v, %v; want %s", found, err, in.Path)
	}
}

// TestFindGo finds this test's own toolchain without the network.
func TestFindGo(t *testing.T) {
	out, err := goVersion()
	if err != nil {
		t.Skip(err)
	}
	in, err := (&Lock{}).Find(context.Background(), Runtime{Name: "go@here", Language: Go, Toolchain: out})
	if err != nil || in.Printed != out {
		t.Fatalf("Find = %+v, %v", in, err)
	}
}

// goVersion is the version of the go command on PATH (go1.26.8).
func goVersion() (string, error) {
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	return strings.TrimSpace(string(out)), err
}

// TestSuiteKnowsThePins: the suite schema checks runtime: against its own
// list of names; it must be the lock file's, language by language.
func TestSuiteKnowsThePins(t *testing.T) {
	l, err := Load(repoRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	pinned := map[string][]string{}
	for _, r := range l.Runtimes {
		pinned[r.Language] = append(pinned[r.Language], r.Name)
	}
	for lang, names := range pinned {
		if !slices.Equal(settings.Runtimes[lang], names) {
			t.Errorf("settings.Runtimes[%s] = %v, but %s pins %v", lang, settings.Runtimes[lang], LockPath, names)
		}
	}
	if len(settings.Runtimes) != len(pinned) {
		t.Errorf("settings.Runtimes has languages %v, the lock file %v", slices.Collect(maps.Keys(settings.Runtimes)), slices.Collect(maps.Keys(pinned)))
	}
}
