package suite

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// fileError is the one shape every suite-file error takes, so a user can
// jump to it: "suites/heysphere.yaml:14: rate: "10k" is not a number (use
// 10000 or 0.75x)".
func fileError(file string, n *yaml.Node, field, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return fmt.Errorf("%s:%d: %s: %s", file, line, field, fmt.Sprintf(format, args...))
}

// pair is one key: value of a YAML mapping, with the key's node for its line.
type pair struct {
	Key   string
	KeyN  *yaml.Node
	Value *yaml.Node
}

// parser walks yaml.Nodes of one file, so that every error can carry the
// file and line. Decoding into structs would lose the lines and would not
// tell which field was unknown where.
type parser struct {
	file  string
	impls []string // known implementation ids; empty: not checked
	fits  func(impl, runtime string) (bool, error)
}

func (p *parser) errorf(n *yaml.Node, field, format string, args ...any) error {
	return fileError(p.file, n, field, format, args...)
}

// pairs returns the entries of a mapping, refusing keys not in known (when
// known is non-nil) and keys given twice.
func (p *parser) pairs(n *yaml.Node, field string, known []string) ([]pair, error) {
	if n.Kind != yaml.MappingNode {
		return nil, p.errorf(n, field, "must be a mapping (key: value lines), not %s", kindName(n))
	}
	var out []pair
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, p.errorf(k, field, "keys must be plain names")
		}
		if known != nil && !contains(known, k.Value) {
			return nil, p.errorf(k, k.Value, "unknown field in %s (known: %s)", field, strings.Join(sorted(known), ", "))
		}
		if seen[k.Value] {
			return nil, p.errorf(k, k.Value, "given twice in %s", field)
		}
		seen[k.Value] = true
		out = append(out, pair{Key: k.Value, KeyN: k, Value: v})
	}
	return out, nil
}

// scalar returns the text of a scalar node.
func (p *parser) scalar(n *yaml.Node, field string) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", p.errorf(n, field, "must be a single value, not %s", kindName(n))
	}
	return n.Value, nil
}

// seq returns the items of a sequence; a lone scalar counts as a list of one.
func (p *parser) seq(n *yaml.Node, field string) ([]*yaml.Node, error) {
	switch n.Kind {
	case yaml.SequenceNode:
		return n.Content, nil
	case yaml.ScalarNode:
		return []*yaml.Node{n}, nil
	}
	return nil, p.errorf(n, field, "must be a list, not %s", kindName(n))
}

// stringList returns a list of plain strings.
func (p *parser) stringList(n *yaml.Node, field string) ([]string, error) {
	items, err := p.seq(n, field)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, err := p.scalar(it, field)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return fmt.Sprintf("%q", n.Value)
	case yaml.AliasNode:
		return "an alias"
	}
	return "empty"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sorted(list []string) []string {
	out := append([]string(nil), list...)
	sort.Strings(out)
	return out
}
