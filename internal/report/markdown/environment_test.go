package markdown

import (
	"strings"
	"testing"

	"restbench/internal/report/model"
	"restbench/internal/result"
)

// TestRuntimesLine: the environment names each runtime's version and what
// servers/runtimes.yaml adds to the servers on it.
func TestRuntimesLine(t *testing.T) {
	for _, c := range []struct {
		name string
		rts  map[string]result.Runtime
		want string
	}{
		{"version only", map[string]result.Runtime{"node@24": {Name: "node@24", Version: "v24.21.0"}}, "Runtimes: node@24 = v24.21.0\n"},
		{"flags and env", map[string]result.Runtime{
			"node@26": {Name: "node@26", Version: "v26.10.0", Flags: []string{"--max-old-space-size=256"}},
			"bun":     {Name: "bun", Version: "1.4.5", Env: map[string]string{"B": "2", "A": "1"}},
		}, "Runtimes: bun = 1.4.5 (A=1 B=2), node@26 = v26.10.0 (--max-old-space-size=256)\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			writeEnvs(&b, []*model.SuiteReport{{Suite: result.Suite{Name: "s"}, Env: result.Env{Runtimes: c.rts}}})
			if !strings.Contains(b.String(), c.want) {
				t.Errorf("got\n%s\nwant a line %q", b.String(), c.want)
			}
		})
	}
}
