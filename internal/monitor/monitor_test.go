package monitor

import (
	"os/exec"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"restbench/internal/result"
)

func TestSummarize(t *testing.T) {
	for _, c := range []struct {
		name       string
		samples    []result.Sample
		clientCPUs float64
		mean, peak float64
		share      float64
		bound      bool
	}{
		{"empty", nil, 1, 0, 0, 0, false},
		{"idle client", []result.Sample{{ServerCPU: 50, ClientCPU: 10}, {ServerCPU: 150, ClientCPU: 30}}, 1, 100, 150, 0.2, false},
		{"saturated client", []result.Sample{{ServerCPU: 90, ClientCPU: 95}, {ServerCPU: 90, ClientCPU: 97}}, 1, 90, 90, 0.96, true},
		{"two client CPUs, half used", []result.Sample{{ClientCPU: 100}, {ClientCPU: 100}}, 2, 0, 0, 0.5, false},
		{"at the threshold", []result.Sample{{ClientCPU: 180}}, 2, 0, 0, 0.9, true},
		// run --server-cpu 0.5 holds ab beside a shared server to half a
		// CPU: 48 % of one core is 96 % of that.
		{"a quota of half a CPU, saturated", []result.Sample{{ClientCPU: 48}}, 0.5, 0, 0, 0.96, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := Summarize(c.samples, 250, c.clientCPUs)
			if m.ServerCPUMean != c.mean || m.ServerCPUPeak != c.peak || abs(m.ClientCPUShare-c.share) > 1e-9 || ClientBound(m) != c.bound {
				t.Errorf("mean %v peak %v share %v bound %v; want %v %v %v %v",
					m.ServerCPUMean, m.ServerCPUPeak, m.ClientCPUShare, ClientBound(m), c.mean, c.peak, c.share, c.bound)
			}
			if m.Samples == nil {
				t.Error("samples is null: the JSON would say null, not []")
			}
		})
	}
}

// TestServerCPUSeconds: each sample's CPU counts over the time since the
// previous sample; the first counts over at most one interval, since the
// sampler's baseline may lie in the warm-up.
func TestServerCPUSeconds(t *testing.T) {
	for _, c := range []struct {
		name    string
		samples []result.Sample
		want    float64
	}{
		{"none", nil, 0},
		{"first within an interval", []result.Sample{{T: 0.1, ServerCPU: 100}, {T: 0.35, ServerCPU: 200}, {T: 0.6, ServerCPU: 50}}, 0.1 + 0.5 + 0.125},
		{"first after a warm-up", []result.Sample{{T: 0.3, ServerCPU: 100}, {T: 0.55, ServerCPU: 100}}, 0.25 + 0.25},
		{"a late tick covers its whole gap", []result.Sample{{T: 0.25, ServerCPU: 40}, {T: 1.25, ServerCPU: 40}}, 0.1 + 0.4},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Summarize(c.samples, 250, 1).ServerCPUS; abs(got-c.want) > 1e-9 {
				t.Errorf("server CPU %v s, want %v", got, c.want)
			}
		})
	}
}

func abs(x float64) float64 { return max(x, -x) }

// TestTreeSamplesRealProcesses starts a process group whose leader forks two
// busy workers, as a cluster does, and busies this process too: the sampler
// must see all three server processes, their CPU and RSS, the busiest
// thread's CPU, the client's CPU, and every core.
func TestTreeSamplesRealProcesses(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sh -c 'while :; do :; done' & sh -c 'while :; do :; done' & wait")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() }()
	var stop atomic.Bool
	go func() { // the "generator": spin in this process
		for !stop.Load() {
		}
	}()
	defer stop.Store(true)

	tree := NewTree(cmd.Process.Pid)
	poll(t, "the leader and its two workers", func() bool { s, err := tree.Sample(); return err == nil && s.Procs == 3 })
	m := Start(tree, 100*time.Millisecond, time.Now())
	poll(t, "6 samples at 100 ms", func() bool { return m.count() >= 6 })
	got := m.Stop(1)
	last := got.Samples[len(got.Samples)-1]
	// Generous bounds: the machine is shared, the workers may get little.
	if last.Procs != 3 || got.ServerRSSPeak <= 0 || got.ServerCPUMean < 10 || got.ClientCPUMean < 10 {
		t.Errorf("procs %d rss %d server cpu %.0f%% client cpu %.0f%%: want 3 processes, some RSS, both busy",
			last.Procs, got.ServerRSSPeak, got.ServerCPUMean, got.ClientCPUMean)
	}
	// Each worker is one thread: the busiest is most of a core, and no
	// thread reads more than one.
	if last.ServerThreadCPU < 10 || last.ServerThreadCPU > 100 {
		t.Errorf("busiest server thread %.0f%%: want 10-100%% (a busy worker)", last.ServerThreadCPU)
	}
	if len(last.Cores) != runtime.NumCPU() {
		t.Errorf("%d per-core figures, want %d", len(last.Cores), runtime.NumCPU())
	}
	t.Logf("server %.0f%% (peak %.0f%%), client %.0f%%, cores %v", got.ServerCPUMean, got.ServerCPUPeak, got.ClientCPUMean, last.Cores)
}

// busySampler reads a server that is always at 100% of a core.
type busySampler struct{}

func (busySampler) Sample() (result.Sample, error) { return result.Sample{ServerCPU: 100}, nil }

func TestStopKeepsNoSliver(t *testing.T) {
	for _, c := range []struct {
		name  string
		ticks int // stop right after this many ticks
		want  int
	}{
		// Shorter than one interval: the stop reading is the only sample.
		{"short load", 0, 1},
		// Stopped just after a tick of a 1 s interval: the sliver is left out.
		{"sliver after a tick", 1, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := Start(busySampler{}, time.Second, time.Now())
			poll(t, "the ticks", func() bool { return m.count() >= c.ticks })
			got := m.Stop(1)
			if len(got.Samples) != c.want {
				t.Fatalf("%d samples, want %d: %+v", len(got.Samples), c.want, got.Samples)
			}
		})
	}
}

// poll waits for cond, checking every few milliseconds: a test waits for
// what it needs, not for a time that a loaded machine may overrun.
func poll(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("gave up after 30 s waiting for %s", what)
		}
	}
}
