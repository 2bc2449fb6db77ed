package request

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeMix(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "body.json"), []byte(`{"a":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "mix.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The rules every mix follows, in a suite or in `restbench load --mix`.
func TestReadMix(t *testing.T) {
	path := writeMix(t, `
- {path: /time}
- {name: work, path: "/time?work=1", weight: 2.5, headers: "X-A: 1"}
- {name: echo, path: /echo, body: "@body.json"}
- {name: gen, method: PUT, path: /filter, body: {generate: filter, size: 2KB}}
`)
	m, err := ReadMix(path)
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		Name, Method, Path string
		Headers            []string
		Weight             float64
		Body               bool
	}
	var out []got
	for _, tg := range m.Targets {
		out = append(out, got{tg.Name.V, MethodFor(tg.Method, tg.Body != nil), tg.Path.V, tg.Headers.V, tg.Weight.V, tg.Body != nil})
	}
	want := []got{
		{"/time", "GET", "/time", nil, 1, false}, // name defaults to the path, weight to 1
		{"work", "GET", "/time?work=1", []string{"X-A: 1"}, 2.5, false},
		{"echo", "POST", "/echo", nil, 1, true}, // a body makes it a POST
		{"gen", "PUT", "/filter", nil, 1, true},
	}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("targets\n got %+v\nwant %+v", out, want)
	}
	bodies := NewBodies(filepath.Dir(path))
	echo, err := bodies.Get(m.Targets[2].Body)
	if err != nil || string(echo) != `{"a":1}` {
		t.Errorf("@body.json = %q, %v (relative to the mix file)", echo, err)
	}
	g1, _ := bodies.Get(m.Targets[3].Body)
	g2, err := bodies.Get(m.Targets[3].Body)
	if err != nil || len(g1) < 1800 || len(g1) > 2200 || &g1[0] != &g2[0] {
		t.Errorf("generated body: %d bytes, shared %v, %v", len(g1), &g1[0] == &g2[0], err)
	}
}

func TestReadMixErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"- {path: nope}", `:1: path: "nope" must start with /`},
		{"- {path: /a, weight: -1}", ":1: weight: -1 must be more than 0 (a negative or zero weight"},
		{"- {path: /a, weight: 0}", ":1: weight: 0 must be more than 0"},
		{"- {path: /a}\n- {path: /a}", `:2: mix: name "/a" is used twice`},
		{"- {path: /a, colour: red}", ":1: colour: unknown field in mix (known: body, headers, method, name, path, weight)"},
		{"- {name: x}", ":1: mix: every target needs a name and a path"},
		{"- {path: /a, method: FETCH}", `:1: method: "FETCH" is not one of GET, POST`},
		{"- {path: /a, headers: [\"Accept json\"]}", `:1: headers: "Accept json" is not "Name: value"`},
		{"- {path: /a, body: {generate: filter}}", ":1: body: a generated body needs generate: filter and size:"},
		{"- {path: /a, body: {generate: filter, size: huge}}", `:1: size: "huge" is not a size`},
		{"- {path: /a, body: '@'}", `:1: body: "@" needs a file name`},
		{"[]", ":1: mix: has no targets"},
		{"{path: /a}", ":1: mix: must be a list of targets"},
	} {
		path := writeMix(t, c.yaml)
		_, err := ReadMix(path)
		if err == nil || !strings.Contains(err.Error(), path+c.want) {
			t.Errorf("ReadMix(%q) = %v, want %q", c.yaml, err, path+c.want)
		}
	}
	// A missing body file is found when the bodies are read.
	path := writeMix(t, "- {path: /a, body: '@missing.json'}")
	m, err := ReadMix(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewBodies(filepath.Dir(path)).Get(m.Targets[0].Body); err == nil || !strings.Contains(err.Error(), ":1: body: open ") {
		t.Errorf("missing body file: %v", err)
	}
}

func TestWithJSONType(t *testing.T) {
	for _, c := range []struct {
		in      []string
		hasBody bool
		want    []string
	}{
		{nil, false, nil},
		{nil, true, []string{"Content-Type: application/json"}},
		{[]string{"content-type: text/plain"}, true, []string{"content-type: text/plain"}},
		{[]string{"X-A: 1"}, true, []string{"X-A: 1", "Content-Type: application/json"}},
	} {
		if got := WithJSONType(c.in, c.hasBody); !reflect.DeepEqual(got, c.want) {
			t.Errorf("WithJSONType(%q, %v) = %q, want %q", c.in, c.hasBody, got, c.want)
		}
	}
}
