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
