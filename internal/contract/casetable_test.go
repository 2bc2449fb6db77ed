package contract

import (
	"slices"
	"testing"
)

// TestCaseTableMatchesChecks: every case of the table belongs to a check
// that runs it, and every check made of the table has cases.
func TestCaseTableMatchesChecks(t *testing.T) {
	all, err := loadCases(root(t))
	if err != nil {
		t.Fatal(err)
	}
	checks := map[string]int{}
	for _, c := range all {
		checks[c.Check]++
	}
	table := []string{"status", "echo", "echo-any", "sum", "hello", "gzip", "bad-json", "bad-params", "too-large", "not-found", "bad-method", "filter"}
	for name, n := range checks {
		if !slices.Contains(table, name) {
			t.Errorf("%d cases of check %q, which no check runs", n, name)
		}
	}
	for _, name := range table {
		if _, ok := Find(name); !ok || checks[name] == 0 {
			t.Errorf("check %q: in Checks %v, %d cases", name, ok, checks[name])
		}
	}
}
