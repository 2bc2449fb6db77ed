package suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzSuite feeds Load suite files (seeded with every suite of suites/ and
// the test suites here): whatever the file holds, Load returns a suite or
// an error, never panics, and a file it refuses gets an error that names
// the file.
func FuzzSuite(f *testing.F) {
	files, _ := filepath.Glob("../../suites/*.yaml")
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(variant(0, "")))
	f.Add([]byte(hugeMatrix()))
	dir := f.TempDir()
	os.WriteFile(filepath.Join(dir, "body.json"), []byte(`{"a":1}`), 0o644)
	path := filepath.Join(dir, "t.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		// A small limit: the fuzzer's matrices are not the point, and a
		// generated body of hundreds of MB would only be slow.
		_, err := Load(path, Options{MaxRuns: 200})
		if err != nil && !strings.Contains(err.Error(), "t.yaml") {
			t.Errorf("error without the file's name: %v", err)
		}
	})
}
