package server

import (
	"context"
	"testing"
	"time"
)

// TestIdleCPU measures two real servers at rest: one that burns a core
// while idle reads as busy, one that only waits on its socket reads as much
// less. The margins are wide: the machine is shared.
func TestIdleCPU(t *testing.T) {
	idle := map[string]float64{}
	for _, mode := range []string{"serve", "spin"} {
		p, err := Start(testImpl(t, mode), Options{Env: map[string]string{"THREADS": "1"}})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Stop(time.Second)
		if err := p.WaitReady(context.Background(), 10*time.Second); err != nil {
			t.Fatal(err)
		}
		before, ok := RunTime(p.Pid())
		if !ok {
			t.Skip("no /proc/PID/task/TID/schedstat here")
		}
		pct, ok := IdleCPU(context.Background(), p.Pid(), 500*time.Millisecond)
		after, _ := RunTime(p.Pid())
		if !ok || pct < 0 || after < before {
			t.Fatalf("%s: idle %v%% (ok %v), run time %v s then %v s", mode, pct, ok, before, after)
		}
		idle[mode] = pct
		p.Stop(time.Second)
	}
	if idle["spin"] < 10 || idle["serve"] >= idle["spin"] {
		t.Errorf("idle CPU %% of a core: quiet server %.2f, spinning server %.2f; want the spinner busy (>= 10) and above the quiet one", idle["serve"], idle["spin"])
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, ok := IdleCPU(ctx, 1, time.Hour); ok {
		t.Error("IdleCPU went on after its context ended")
	}
}
