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
	return &result.Load{}, nil
}

// The prewarm is a closed loop of its own length on the run's connections
// and request, measuring nothing: no rate, no warm-up, no probe, no hlog.
func TestPrewarm(t *testing.T) {
	cases := []struct {
		name string
		cfg  load.Config
	}{
		{"open loop", load.Config{URL: "http://127.0.0.1:1/time", Connections: 100, Rate: 37000, Duration: time.Second, Warmup: 400 * time.Millisecond, Hlog: &bytes.Buffer{}}},
		{"open loop that may grow", load.Config{URL: "http://127.0.0.1:1/time", Connections: 10, MaxConnections: 50, Rate: 5000, Duration: time.Second, Probe: "/status"}},
		{"counted closed loop", load.Config{URL: "http://127.0.0.1:1/time", Connections: 1000, MaxRequests: 50000, KeepAlive: true}},
	}
	for _, tc := range cases {
		var r recorder
		if err := prewarm(context.Background(), &r, tc.cfg, 1200*time.Millisecond); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(r.got) != 1 {
			t.Fatalf("%s: %d loads, want 1", tc.name, len(r.got))
		}
		g := r.got[0]
		if g.Rate != 0 || g.MaxConnections != 0 || g.MaxRequests != 0 || g.Warmup != 0 || g.Duration != 1200*time.Millisecond {
			t.Errorf("%s: rate %v, max connections %d, requests %d, warm-up %v, duration %v: want a 1.2 s closed loop", tc.name, g.Rate, g.MaxConnections, g.MaxRequests, g.Warmup, g.Duration)
		}
		if g.Probe != "" || g.Hlog != nil || g.Progress != nil || g.Begin != nil {
			t.Errorf("%s: the prewarm records or waits for something", tc.name)
		}
		if g.URL != tc.cfg.URL || g.Connections != tc.cfg.Connections || g.KeepAlive != tc.cfg.KeepAlive {
			t.Errorf("%s: %s on %d connections, want the run's %s on %d", tc.name, g.URL, g.Connections, tc.cfg.URL, tc.cfg.Connections)
		}
	}
}
