package runner

import (
	"bytes"
	"context"
	"testing"
	"time"

	"restbench/internal/load"
	"restbench/internal/result"
)

// recorder is an engine that keeps the configs it was asked to run.
type recorder struct{ got []load.Config }

func (r *recorder) Run(_ context.Context, cfg load.Config) (*result.Load, error) {
	r.got = append(r.got, cfg)
	return &result.Load{Stats: result.Stats{Responses: 7}}, nil
}

// The prewarm is a closed loop of its own length (or of its own count of
// requests, its length then the cap) on the run's connections and request,
// measuring nothing: no rate, no warm-up, no probe, no hlog.
func TestPrewarm(t *testing.T) {
	cases := []struct {
		name string
		cfg  load.Config
		n    int64
	}{
		{"open loop", load.Config{URL: "http://127.0.0.1:1/time", Connections: 100, Rate: 37000, Duration: time.Second, Warmup: 400 * time.Millisecond, Hlog: &bytes.Buffer{}}, 0},
		{"open loop that may grow", load.Config{URL: "http://127.0.0.1:1/time", Connections: 10, MaxConnections: 50, Rate: 5000, Duration: time.Second, Probe: "/status"}, 0},
		{"counted closed loop", load.Config{URL: "http://127.0.0.1:1/time", Connections: 1000, MaxRequests: 50000, KeepAlive: true}, 0},
		{"prewarm counted in requests", load.Config{URL: "http://127.0.0.1:1/time", Connections: 100, Rate: 37000, Duration: time.Second, Warmup: 400 * time.Millisecond}, 40000},
	}
	for _, tc := range cases {
		var r recorder
		took, got, err := prewarm(context.Background(), &r, tc.cfg, 1200*time.Millisecond, tc.n)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(r.got) != 1 {
			t.Fatalf("%s: %d loads, want 1", tc.name, len(r.got))
		}
		if got != 7 || took <= 0 || took > 1200*time.Millisecond {
			t.Errorf("%s: took %v and got %d responses; want the engine's 7, within the 1.2 s cap", tc.name, took, got)
		}
		g := r.got[0]
		if g.Rate != 0 || g.MaxConnections != 0 || g.MaxRequests != tc.n || g.Warmup != 0 || g.Duration != 1200*time.Millisecond {
			t.Errorf("%s: rate %v, max connections %d, requests %d, warm-up %v, duration %v: want a closed loop of 1.2 s at most and %d requests", tc.name, g.Rate, g.MaxConnections, g.MaxRequests, g.Warmup, g.Duration, tc.n)
		}
		if g.Probe != "" || g.Hlog != nil || g.Progress != nil || g.Begin != nil {
			t.Errorf("%s: the prewarm records or waits for something", tc.name)
		}
		if g.URL != tc.cfg.URL || g.Connections != tc.cfg.Connections || g.KeepAlive != tc.cfg.KeepAlive {
			t.Errorf("%s: %s on %d connections, want the run's %s on %d", tc.name, g.URL, g.Connections, tc.cfg.URL, tc.cfg.Connections)
		}
	}
}
