package server

import (
	"context"
	"testing"
	"time"
)

// TestIdleCPU measures two real servers at rest: one that burns a core
// while idle reads as busier than one that only waits on its socket. On a
// shared machine the spinner may get little of a core, so it is measured
// again, up to five times, until it shows more than the quiet one.
func TestIdleCPU(t *testing.T) {
	measure := func(mode string, tries int, above float64) float64 {
		p := startReady(t, mode)
		defer p.Stop(time.Second)
		var pct float64
		for i := 0; i < tries; i++ {
			before, ok := RunTime(p.Pid())
			if !ok {
				t.Skip("no /proc/PID/task/TID/schedstat here")
			}
			pct, ok = IdleCPU(context.Background(), p.Pid(), 500*time.Millisecond)
			after, _ := RunTime(p.Pid())
			if !ok || pct < 0 || after < before {
				t.Fatalf("%s: idle %v%% (ok %v), run time %v s then %v s", mode, pct, ok, before, after)
			}
			if pct > above {
				break
			}
		}
		return pct
	}
	quiet := measure("serve", 1, -1)
	if spin := measure("spin", 5, quiet); spin <= quiet {
		t.Errorf("idle CPU %% of a core: quiet server %.2f, spinning server %.2f; want the spinner above the quiet one", quiet, spin)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, ok := IdleCPU(ctx, 1, time.Hour); ok {
		t.Error("IdleCPU went on after its context ended")
	}
}
