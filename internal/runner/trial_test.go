package runner

import (
	"strings"
	"testing"

	"restbench/internal/result"
)

// TestSeeTail: a failed trial's error points at stderr_tail only when the
// server wrote something there.
func TestSeeTail(t *testing.T) {
	if got := seeTail(&result.Trial{}); strings.Contains(got, "stderr_tail") {
		t.Errorf("no stderr: %q points at stderr_tail", got)
	}
	if got := seeTail(&result.Trial{StderrTail: "panic: x"}); got != "; see stderr_tail" {
		t.Errorf("stderr: %q", got)
	}
}

// ab is one thread: client-bound is a share of one core for it, of every
// CPU the generator may use for the built-in generator and wrk.
func TestClientBudget(t *testing.T) {
	for _, c := range []struct {
		engine     string
		cpus, want int
	}{
		{"ab", 2, 1}, {"ab", 1, 1}, {"ab", 0, 0},
		{"", 2, 2}, {"restbench", 2, 2}, {"wrk", 4, 4},
	} {
		if got := clientBudget(c.engine, c.cpus); got != c.want {
			t.Errorf("%q on %d CPUs: %d, want %d", c.engine, c.cpus, got, c.want)
		}
	}
}
