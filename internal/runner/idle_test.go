package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"restbench/internal/cpu"
	"restbench/internal/result"
)

// TestRunRecordsIdle: env.json says which idle states the suite ran with,
// and an unknown mode is refused before anything runs.
func TestRunRecordsIdle(t *testing.T) {
	// Whether this machine lets a process hold the device (root, and a
	// kernel or container that has it): the test expects what it allows.
	release, state := cpu.HoldPollIdle()
	release()
	canHold := cpu.ModeOf(state) == cpu.IdlePoll
	asked := "default (" // what poll gives where this machine refuses
	if canHold {
		asked = "poll ("
	}
	for _, tc := range []struct {
		idle, want string
	}{
		{cpu.IdleDefault, "default ("},
		{"", asked},
		{cpu.IdlePoll, asked},
	} {
		dir := t.TempDir()
		m := testManifest(t, dir)
		o, err := Run(context.Background(), testSuite(testRun("idle/test-ok", "test-ok", 1, 200*time.Millisecond)),
			Options{Manifest: m, Out: filepath.Join(dir, "results"), Idle: tc.idle, ReadyTimeout: 10 * time.Second})
		if err != nil {
			t.Fatalf("idle %q: %v", tc.idle, err)
		}
		var env result.Env
		if err := result.ReadJSON(filepath.Join(o.Dir, result.EnvFile), &env); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(env.Idle, tc.want) {
			t.Errorf("idle %q: env.json idle = %q, want %q...", tc.idle, env.Idle, tc.want)
		}
	}
	// Resumed with other idle states, the folder's env.json stays the first
	// invocation's: the run says so.
	if canHold {
		dir := t.TempDir()
		m := testManifest(t, dir)
		out := filepath.Join(dir, "results")
		s := testSuite(testRun("idle/test-ok", "test-ok", 2, 200*time.Millisecond))
		s.Runs[0].Trials, s.Runs[0].MaxTrials = 1, 1
		if _, err := Run(context.Background(), s, Options{Manifest: m, Out: out, Idle: cpu.IdleDefault, ReadyTimeout: 10 * time.Second}); err != nil {
			t.Fatal(err)
		}
		var log strings.Builder
		s.Runs[0].Trials, s.Runs[0].MaxTrials = 2, 2
		if _, err := Run(context.Background(), s, Options{Manifest: m, Out: out, Resume: true, Idle: cpu.IdlePoll, Log: &log, ReadyTimeout: 10 * time.Second}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(log.String(), "warning: resuming") {
			t.Errorf("resumed with poll after default: log %q, want a warning", log.String())
		}
	}
	if _, err := Run(context.Background(), testSuite(testRun("idle/test-ok", "test-ok", 1, 200*time.Millisecond)),
		Options{Manifest: testManifest(t, t.TempDir()), Out: t.TempDir(), Idle: "halt"}); err == nil || !strings.Contains(err.Error(), "want poll or default") {
		t.Errorf("idle \"halt\": err = %v, want it refused", err)
	}
}
