package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzMix feeds ParseMix what a user may write in a --mix file: it returns
// targets or an error that names the file, never panics, and every target
// it accepts has a path and a positive weight.
func FuzzMix(f *testing.F) {
	for _, s := range []string{
		"- {name: time, path: /time, weight: 99}\n- {name: work, path: \"/time?work=1\", weight: 1}\n",
		"- {name: echo, method: POST, path: /echo, body: \"@body.json\"}\n",
		"- name: f\n  path: /filter\n  body: {filter: 1KB}\n  headers: [\"X-A: b\"]\n",
		"[]\n", "- {}\n",
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	os.WriteFile(filepath.Join(dir, "body.json"), []byte(`{"a":1}`), 0o644)
	path := filepath.Join(dir, "mix.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		targets, err := ParseMix(path)
		if err != nil {
			if !strings.Contains(err.Error(), "mix") {
				t.Errorf("error names neither the file nor the mix: %v", err)
			}
			return
		}
		for _, tg := range targets {
			if !strings.HasPrefix(tg.Path, "/") || strings.ContainsAny(tg.Path, " \r\n") || tg.Weight <= 0 {
				t.Errorf("accepted target %+v", tg)
			}
		}
	})
}
