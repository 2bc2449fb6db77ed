package impl

import (
	"slices"
	"testing"
)

func TestWithoutFlags(t *testing.T) {
	for _, c := range []struct {
		name        string
		start, want []string
	}{
		{"node's V8 flags go", []string{"node", "--max-semi-space-size=2", "--v8-pool-size=1", "servers/node/main.js", "http"}, []string{"node", "servers/node/main.js", "http"}},
		{"the script's own flags stay", []string{"node", "--x", "main.js", "--port", "1"}, []string{"node", "main.js", "--port", "1"}},
		{"no flags", []string{"node", "main.js"}, []string{"node", "main.js"}},
		{"a binary alone", []string{"bin/servers/go-nethttp"}, []string{"bin/servers/go-nethttp"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			im := Impl{Start: slices.Clone(c.start)}
			got := im.WithoutFlags()
			if !slices.Equal(got.Start, c.want) {
				t.Errorf("Start = %q, want %q", got.Start, c.want)
			}
			if !slices.Equal(im.Start, c.start) {
				t.Errorf("the manifest's argv changed: %q", im.Start)
			}
		})
	}
}
