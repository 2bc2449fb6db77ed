package suite

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// hugeMatrix is a 1 KB suite of 20^7 = 1.28 billion runs: expanded, it
// would take the machine's memory.
func hugeMatrix() string {
	values := func(f func(i int) string) string {
		var v []string
		for i := range 20 {
			v = append(v, f(i))
		}
		return "[" + strings.Join(v, ", ") + "]"
	}
	num := func(i int) string { return fmt.Sprint(i + 1) }
	lines := append([]string(nil), baseSuite[:10]...)
	lines = append(lines,
		"      connections: "+values(num),
		"      rate: "+values(num),
		"      threads: "+values(num),
		"      gomaxprocs: "+values(num),
		"      delay: "+values(num),
		"      work: "+values(num),
		"      requests: "+values(num),
	)
	return strings.Join(lines, "\n") + "\n"
}

// TestRunCountLimit: a suite's run count is computed before it is
// expanded and refused past the limit, the count and the limit in the
// error at the experiment's line; a higher limit lets a big (but not huge)
// suite load.
func TestRunCountLimit(t *testing.T) {
	start := time.Now()
	_, err := Load(writeSuite(t, hugeMatrix()), Options{Impls: []string{"a", "b"}})
	if err == nil || !strings.Contains(err.Error(), "t.yaml:8: matrix: 2560000000 runs at full scale") ||
		!strings.Contains(err.Error(), "limit of 2000") || !strings.Contains(err.Error(), "--max-runs") {
		t.Fatalf("error = %v, want the count, the limit and --max-runs at line 8", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("refusing took %v: the matrix was expanded", d)
	}

	if _, err := Load(writeSuite(t, variant(11, "      connections: [10, 100]")), Options{MaxRuns: 3}); err == nil || !strings.Contains(err.Error(), "4 runs at full scale") {
		t.Errorf("4 runs under --max-runs 3: %v, want refused", err)
	}
	if _, err := Load(writeSuite(t, variant(0, "")), Options{MaxRuns: 4}); err != nil {
		t.Errorf("4 runs under --max-runs 4: %v", err)
	}
}

// TestBinarySuiteFile: a file that is not text says so, with the line of
// the first byte that is not, instead of yaml's message without one.
func TestBinarySuiteFile(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"NUL", "name: t\ntitle: x\x00y\n", "t.yaml:2: file: not a text file"},
		{"invalid UTF-8", "name: t\n\n\xff\xfe\n", "t.yaml:3: file: not a text file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(writeSuite(t, tc.text), Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want %q", err, tc.want)
			}
		})
	}
}
