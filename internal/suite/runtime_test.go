package suite

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// fitsFor is Options.Fits for implementations a (node) and b (go) and the
// runtimes n1, n2 (node) and g1 (go).
func fitsFor(impl, runtime string) (bool, error) {
	lang := map[string]string{"n1": "node", "n2": "node", "g1": "go"}[runtime]
	if lang == "" {
		return false, fmt.Errorf("unknown runtime %q (pinned: g1, n1, n2)", runtime)
	}
	return lang == map[string]string{"a": "node", "b": "go"}[impl], nil
}

// TestRuntimeMatrix: one runtime axis lists the runtimes of both
// languages; each implementation runs on those of its own language only.
func TestRuntimeMatrix(t *testing.T) {
	text := strings.Join([]string{
		"name: t", "title: test", "source: {write_up: seeds/x.md}",
		"defaults: {path: /hello, duration: 1s}",
		"experiments:",
		"  - name: e",
		"    impls: [a, b]",
		"    matrix:",
		"      runtime: [n1, n2, g1]",
		"    conclusions:",
		"      - {text: t, metric: rps, a: e/a n2, b: e/b g1, published: 2}",
	}, "\n") + "\n"
	s, err := Load(writeSuite(t, text), Options{Impls: []string{"a", "b"}, Fits: fitsFor})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range s.Runs {
		got = append(got, r.ID+" on "+r.Runtime)
	}
	want := []string{"e/a n1 on n1", "e/a n2 on n2", "e/b g1 on g1"}
	if !slices.Equal(got, want) {
		t.Fatalf("runs = %q, want %q", got, want)
	}
}

func TestRuntimeErrors(t *testing.T) {
	for _, c := range []struct{ name, line, want string }{
		{"unknown in matrix", "      connections: [10, 100]\n      runtime: [n1, zz]", `:12: runtime: unknown runtime "zz"`},
		{"fixed runtime of another language", "    runtime: g1\n    matrix:", ":10: runtime: g1 cannot run a"},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := 11
			if strings.HasPrefix(c.line, "    runtime") {
				n = 10
			}
			_, err := Load(writeSuite(t, variant(n, c.line)), Options{Impls: []string{"a", "b"}, Fits: fitsFor})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}
