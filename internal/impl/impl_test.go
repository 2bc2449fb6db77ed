package impl

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"restbench/internal/runtimes"
)

// manifest writes text as the manifest of a fresh checkout and loads it.
func manifest(t *testing.T, text string) (*Manifest, error) {
	t.Helper()
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "servers"), 0o755)
	if err := os.WriteFile(filepath.Join(root, ManifestPath), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return Load(root)
}

func TestLoadErrors(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"unknown key, at its line", "implementations:\n  - id: a\n    start: [x]\n    strat: [y]\n", "implementations.yaml:4: strat: unknown field in implementations (known: build, creates, env, framework, id, language, notes, start, version)"},
		{"unknown top-level key", "impls:\n  - {id: a, start: [x]}\n", "implementations.yaml:1: impls: unknown field"},
		{"no id", "implementations:\n  - start: [x]\n", "implementations.yaml:2: id: missing"},
		{"no start", "implementations:\n  - id: a\n    language: go\n", "implementations.yaml:2: start: a: missing"},
		{"start as a string", "implementations:\n  - id: a\n    start: bin/a\n", "implementations.yaml:3: start: \"bin/a\" is not a list"},
		{"listed twice", "implementations:\n  - {id: a, start: [x]}\n  - {id: a, start: [y]}\n", "implementations.yaml:3: implementations: a is listed twice"},
		{"env as a list", "implementations:\n  - {id: a, start: [x], env: [A=1]}\n", "implementations.yaml:2: env: "},
		{"empty file", "", "the file is empty"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := manifest(t, c.text)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Load = %v\nwant an error containing %q", err, c.want)
			}
		})
	}
}

// TestRepositoryManifest: the manifest in the checkout reads strictly, and
// every Go and Node implementation runs on its language's default runtime.
func TestRepositoryManifest(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	m, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Impls) < 8 || !slices.IsSorted(m.IDs()) {
		t.Errorf("%d implementations, ids %v", len(m.Impls), m.IDs())
	}
	langs := m.Languages()
	for _, id := range []string{"go-nethttp", "node-http"} {
		if langs[id] == "" {
			t.Errorf("%s is missing (languages %v)", id, langs)
		}
	}
	lock, err := runtimes.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, im := range m.Impls {
		rt, err := lock.Resolve(im.Language, "")
		if err != nil {
			t.Errorf("%s: %v", im.ID, err)
			continue
		}
		if _, err := im.On(&runtimes.Installed{Runtime: rt, Path: "/rt/" + rt.Name}); err != nil {
			t.Errorf("%s: %v", im.ID, err)
		}
	}
}

func TestGetAndSelect(t *testing.T) {
	m, err := manifest(t, "implementations:\n  - {id: b, language: go, start: [bin/b]}\n  - {id: a, language: node, start: [node, a.js]}\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ids     []string
		want    []string
		wantErr string
	}{
		{nil, []string{"b", "a"}, ""}, // all, in file order
		{[]string{"a"}, []string{"a"}, ""},
		{[]string{"a", "b"}, []string{"a", "b"}, ""},
		{[]string{"c"}, nil, `unknown implementation "c" (known: a, b)`},
	} {
		got, err := m.Select(c.ids)
		var ids []string
		for _, im := range got {
			ids = append(ids, im.ID)
		}
		if c.wantErr != "" {
			if err == nil || err.Error() != c.wantErr {
				t.Errorf("Select(%v) = %v, want error %q", c.ids, err, c.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(ids, c.want) {
			t.Errorf("Select(%v) = %v, %v; want %v", c.ids, ids, err, c.want)
		}
	}
	if got := m.Languages(); !reflect.DeepEqual(got, map[string]string{"a": "node", "b": "go"}) {
		t.Errorf("Languages = %v", got)
	}
}

// TestOn: the runtime's command and environment replace the manifest's,
// and never write through to the manifest's own maps.
func TestOn(t *testing.T) {
	t.Setenv("PATH", "/usr/bin") // the pinned node's folder goes first on it
	node := &runtimes.Installed{Runtime: runtimes.Runtime{Name: "node@24", Language: runtimes.Node, Env: map[string]string{"R": "1"}}, Path: "/rt/node"}
	gort := &runtimes.Installed{Runtime: runtimes.Runtime{Name: "go@1.22", Language: runtimes.Go, Toolchain: "go1.22.12"}}
	shared := map[string]string{"A": "x"}
	for _, c := range []struct {
		name      string
		im        Impl
		rt        *runtimes.Installed
		wantStart []string
		wantEnv   map[string]string
		wantBuild map[string]string
		wantErr   string
	}{
		{"node: the pinned binary, the runtime's env beside the manifest's",
			Impl{ID: "n", Language: "node", Start: []string{"node", "--x", "main.js"}, Env: shared}, node,
			[]string{"/rt/node", "--x", "main.js"}, map[string]string{"A": "x", "R": "1", "PATH": "/rt:/usr/bin"}, nil, ""},
		{"go: the toolchain builds it, into a folder of its own",
			Impl{ID: "g", Language: "go", Build: "go build -o bin/g .", Start: []string{"bin/g"}}, gort,
			[]string{"bin/go1.22.12/g"}, nil, map[string]string{"GOTOOLCHAIN": "go1.22.12"}, ""},
		{"another language's runtime",
			Impl{ID: "g", Language: "go", Start: []string{"bin/g"}}, node,
			nil, nil, nil, "g on node@24: runtime node@24 runs node implementations, not go ones"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.im.On(c.rt)
			if c.wantErr != "" {
				if err == nil || err.Error() != c.wantErr {
					t.Fatalf("err = %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Start, c.wantStart) || len(got.Env)+len(c.wantEnv) > 0 && !reflect.DeepEqual(got.Env, c.wantEnv) || !reflect.DeepEqual(got.BuildEnv, c.wantBuild) {
				t.Errorf("got start %v env %v build env %v", got.Start, got.Env, got.BuildEnv)
			}
		})
	}
	if !reflect.DeepEqual(shared, map[string]string{"A": "x"}) {
		t.Errorf("On wrote into the manifest's env: %v", shared)
	}
}

// TestBuild runs real build commands: skipped when Creates exists, with
// the build environment, and a failure that shows the output.
func TestBuild(t *testing.T) {
	m := &Manifest{Root: t.TempDir()}
	os.WriteFile(filepath.Join(m.Root, "made"), nil, 0o644)
	for _, c := range []struct {
		name     string
		im       Impl
		wantFile string // written by the build
		wantErr  string
	}{
		{"runs in the root with BuildEnv", Impl{ID: "a", Build: `printf %s "$GOTOOLCHAIN" > out-a`, BuildEnv: map[string]string{"GOTOOLCHAIN": "go1.22.12"}}, "out-a", ""},
		{"skipped when creates exists", Impl{ID: "b", Build: "touch out-b", Creates: "made"}, "", ""},
		{"no build", Impl{ID: "c"}, "", ""},
		{"failure shows the output", Impl{ID: "d", Build: "echo broken >&2; exit 3"}, "", "build d (echo broken >&2; exit 3): exit status 3\nbroken"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var log bytes.Buffer
			err := m.Build(context.Background(), c.im, &log)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.wantFile != "" {
				if b, err := os.ReadFile(filepath.Join(m.Root, c.wantFile)); err != nil || string(b) != c.im.BuildEnv["GOTOOLCHAIN"] {
					t.Errorf("%s = %q, %v", c.wantFile, b, err)
				}
			}
		})
	}
	if _, err := os.Stat(filepath.Join(m.Root, "out-b")); err == nil {
		t.Error("the build ran although creates exists")
	}
}

func TestFindRoot(t *testing.T) {
	m, err := manifest(t, "implementations:\n  - {id: a, start: [x]}\n")
	if err != nil {
		t.Fatal(err)
	}
	deep := filepath.Join(m.Root, "servers", "go", "x")
	os.MkdirAll(deep, 0o755)
	for _, dir := range []string{m.Root, deep} {
		if got, err := FindRoot(dir); err != nil || got != m.Root {
			t.Errorf("FindRoot(%s) = %s, %v; want %s", dir, got, err, m.Root)
		}
	}
	if _, err := FindRoot(t.TempDir()); err == nil || !strings.Contains(err.Error(), "inside the restbench checkout") {
		t.Errorf("FindRoot outside a checkout: %v", err)
	}
}
