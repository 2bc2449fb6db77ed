// Package request reads the HTTP requests that files describe — a suite's
// request: and mix: settings, and the targets of `restbench load --mix` —
// under one set of rules, with file:line errors (package yamlfile).
package request

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"restbench/internal/payload"
	"restbench/internal/yamlfile"
)

// Methods are the HTTP methods a request may use.
var Methods = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}

// Method is an HTTP method, one of Methods.
type Method struct {
	yamlfile.At
	V string
}

func (m *Method) UnmarshalYAML(n *yaml.Node) (err error) {
	m.Node = n
	m.V, err = yamlfile.OneOf(n, Methods...)
	return err
}

// MethodFor is the method of a request: the one given, else POST with a
// body and GET without.
func MethodFor(m *Method, hasBody bool) string {
	switch {
	case m != nil:
		return m.V
	case hasBody:
		return "POST"
	}
	return "GET"
}

// Path is a path and query; the host is put in front of it by whoever sends.
type Path struct {
	yamlfile.At
	V string
}

func (p *Path) UnmarshalYAML(n *yaml.Node) (err error) {
	p.Node = n
	if p.V, err = yamlfile.Scalar(n, ""); err == nil {
		if err = CheckPath(p.V); err != nil {
			err = yamlfile.Errorf(n, "", "%v", err)
		}
	}
	return err
}

// CheckPath says why p cannot be a request's path, or nil: it starts with
// / and holds no space or control character, which would end the request
// line early or start a header of its own.
func CheckPath(p string) error {
	if !strings.HasPrefix(p, "/") {
		return fmt.Errorf("%q must start with / (the server's address is put in front of it)", p)
	}
	if i := strings.IndexFunc(p, func(r rune) bool { return r <= ' ' || r == 0x7f }); i >= 0 {
		return fmt.Errorf("%q has a space or control character at byte %d: write it as %%%02X", p, i, p[i])
	}
	return nil
}

// Headers are "Name: value" lines; a lone string is a list of one.
type Headers struct {
	yamlfile.At
	V []string
}

func (h *Headers) UnmarshalYAML(n *yaml.Node) error {
	h.Node = n
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
	}
	for _, it := range items {
		v, err := yamlfile.Scalar(it, "")
		if err != nil {
			return err
		}
		name, _, ok := strings.Cut(v, ":")
		if !ok || strings.TrimSpace(name) == "" || strings.ContainsAny(name, " \t") {
			return yamlfile.Errorf(it, "", "%q is not \"Name: value\"", v)
		}
		h.V = append(h.V, v)
	}
	return nil
}

// WithJSONType adds "Content-Type: application/json" to the headers of a
// request with a body unless they name a Content-Type: every body of the
// contract is JSON, and express.json() ignores a body sent without it.
func WithJSONType(headers []string, hasBody bool) []string {
	if !hasBody || HasHeader(headers, "Content-Type") {
		return headers
	}
	return append(append([]string(nil), headers...), "Content-Type: application/json")
}

// HasHeader tells whether headers has one called name (any case).
func HasHeader(headers []string, name string) bool {
	for _, h := range headers {
		if n, _, _ := strings.Cut(h, ":"); strings.EqualFold(strings.TrimSpace(n), name) {
			return true
		}
	}
	return false
}

// Size is a positive byte count in payload.ParseSize's units: 5104, 256KB, 5MB
// (decimal, as the published texts write them) or 1MiB.
type Size struct {
	yamlfile.At
	V int64
}

func (s *Size) UnmarshalYAML(n *yaml.Node) error {
	s.Node = n
	v, err := yamlfile.Scalar(n, "")
	if err != nil {
		return err
	}
	if s.V, err = payload.ParseSize(v); err != nil || s.V <= 0 {
		return yamlfile.Errorf(n, "", "%q is not a size (use 5104, 256KB or 5MB)", v)
	}
	return nil
}

// Body is a request body: a literal string, "@file" (relative to the file
// that names it) or {generate: filter, size: 5MB, seed: 1}.
type Body struct {
	yamlfile.At
	Literal  []byte
	File     string
	Generate string // "filter": payload.Filter's JSON array
	Size     int64
	Seed     int64
}

func (b *Body) UnmarshalYAML(n *yaml.Node) error {
	b.Node = n
	if n.Kind == yaml.ScalarNode {
		f, isFile := strings.CutPrefix(n.Value, "@")
		switch {
		case !isFile:
			b.Literal = []byte(n.Value)
		case f == "":
			return yamlfile.Errorf(n, "", "\"@\" needs a file name, e.g. @../fixtures/echo-body.json")
		default:
			b.File = f
		}
		return nil
	}
	var g struct {
		Generate bodyKind `yaml:"generate"`
		Size     Size     `yaml:"size"`
		Seed     *seed    `yaml:"seed"`
	}
	if err := yamlfile.DecodeFields(n, "body", &g); err != nil {
		return err
	}
	if g.Generate.V == "" || g.Size.V == 0 {
		return yamlfile.Errorf(n, "body", "a generated body needs generate: filter and size: (e.g. 5MB)")
	}
	b.Generate, b.Size, b.Seed = g.Generate.V, g.Size.V, 1
	if g.Seed != nil {
		b.Seed = g.Seed.V
	}
	return nil
}

// bodyKind is what a generated body is made of: "filter" only so far.
// ("generator" in restbench means the process that makes the load.)
type bodyKind struct{ V string }

func (g *bodyKind) UnmarshalYAML(n *yaml.Node) (err error) {
	g.V, err = yamlfile.OneOf(n, "filter")
	return err
}

type seed struct{ V int64 }

func (s *seed) UnmarshalYAML(n *yaml.Node) error {
	v, err := yamlfile.Int(n, 0, 1<<31)
	s.V = int64(v)
	return err
}

// WithSize is the body with another size: only a generated body has one.
func (b *Body) WithSize(size int64) (*Body, error) {
	if b == nil || b.Generate == "" {
		return nil, fmt.Errorf("only a generated body ({generate: filter, size: ...}) has a size to change")
	}
	c := *b
	c.Size = size
	return &c, nil
}
