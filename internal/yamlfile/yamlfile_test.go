package yamlfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

type inner struct {
	Size Name `yaml:"size"`
}

func (i *inner) UnmarshalYAML(n *yaml.Node) error { return DecodeFields(n, "", i) }

type common struct {
	Weight float64 `yaml:"weight"`
}

type outer struct {
	Name   Name     `yaml:"name"`
	Title  Text     `yaml:"title"`
	Tags   []string `yaml:"tags"`
	Inner  *inner   `yaml:"inner"`
	Skip   string   `yaml:"-"`
	common `yaml:",inline"`
}

func (o *outer) UnmarshalYAML(n *yaml.Node) error { return DecodeFields(n, "thing", o) }

func TestDecodeFields(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"valid", "name: a\ntitle: ''\ntags: [x]\ninner: {size: big}\nweight: 2\n", ""},
		{"unknown key", "name: a\nnmae: b\n", "f.yaml:2: nmae: unknown field in thing (known: inner, name, tags, title, weight)"},
		{"a key yaml must skip", "name: a\nskip: x\n", "f.yaml:2: skip: unknown field in thing"},
		{"given twice", "name: a\nname: b\n", "f.yaml:2: name: given twice in thing"},
		{"unknown key of a nested mapping names its key", "inner:\n  sise: 1\n", "f.yaml:2: sise: unknown field in inner (known: size)"},
		{"nested not a mapping", "inner: [1]\n", "f.yaml:1: inner: must be a mapping (key: value lines), not a list"},
		{"empty value", "name:\n", "f.yaml:1: name: is empty"},
		{"blank name", "name: ' '\n", "f.yaml:1: name: is empty"},
		{"list for a single value", "title: [a]\n", "f.yaml:1: title: must be a single value, not a list"},
		{"yaml's own type error becomes a sentence", "weight: heavy\n", `f.yaml:1: weight: "heavy" is not a number`},
		{"not a mapping", "- a\n", "f.yaml:1: thing: must be a mapping"},
		{"empty file", "", "the file is empty"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f.yaml")
			if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			var o outer
			err := Read(path, &o)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("Read: %v", err)
			case c.want == "":
				if o.Name.V != "a" || o.Name.Line() != 1 || o.Inner.Size.V != "big" || o.Weight != 2 || o.Tags[0] != "x" {
					t.Errorf("decoded %+v", o)
				}
			case err == nil || !strings.HasPrefix(err.Error(), path[:len(path)-len("f.yaml")]) || !strings.Contains(err.Error(), c.want):
				t.Errorf("error = %v, want the path and %q", err, c.want)
			}
		})
	}
}

func TestChecks(t *testing.T) {
	node := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: s, Line: 3} }
	if v, err := Int(node("1_000"), 1, 2000); v != 1000 || err != nil {
		t.Errorf("Int(1_000) = %d, %v", v, err)
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{second(Int(node("x"), 0, 1)), `"x" is not a whole number`},
		{second(Int(node("5"), 0, 1)), "5 is out of range (use 0 to 1)"},
		{second(Float(node("1,5"))), `"1,5" is not a number`},
		{second(OneOf(node("c"), "a", "b")), `"c" is not one of a, b`},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) || !strings.HasPrefix(c.err.Error(), ":3: ") {
			t.Errorf("error = %v, want line 3 and %q", c.err, c.want)
		}
	}
}

func second[T any](_ T, err error) error { return err }

func TestOnce(t *testing.T) {
	id := func(s string) string { return s }
	for _, c := range []struct {
		doc, want string
	}{
		{"items: [a, b, c]", ""},
		{"items:\n- a\n- b\n- a\n", ":4: items: a is listed twice"},
		{"items:\n- a\n- b\n- b\n- a\n", ":4: items: b is listed twice"},
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(c.doc), &doc); err != nil {
			t.Fatal(err)
		}
		var v struct{ Items []string }
		if err := doc.Decode(&v); err != nil {
			t.Fatal(err)
		}
		err := Once(doc.Content[0], "items", v.Items, id)
		if got := fmt.Sprint(err); (c.want == "" && err != nil) || (c.want != "" && got != c.want) {
			t.Errorf("Once(%q) = %v, want %q", c.doc, err, c.want)
		}
	}
}
