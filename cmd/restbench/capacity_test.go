package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"restbench/internal/result"
)

// TestCapacityJSON runs restbench capacity with load's flags against a real
// server and reads its --json back: every step printed is kept, and the
// capacity is the highest sustained target.
func TestCapacityJSON(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Test") != "yes" {
			w.WriteHeader(http.StatusBadRequest) // -H did not reach the steps
		}
	}))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "capacity.json")
	err := cmdCapacity(context.Background(), []string{"-c", "20", "-d", "1s", "--warmup", "100ms", "-H", "X-Test: yes",
		"--start", "50", "--max-steps", "4", "--pause", "50ms", "--json", out, srv.URL + "/"})
	if err != nil {
		t.Fatal(err)
	}
	var c result.Capacity
	if err := result.ReadJSON(out, &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Steps) != 4 || c.Settings.Connections != 20 || len(c.Settings.Headers) != 1 {
		t.Fatalf("%d steps, settings %+v: want the 4 steps of -max-steps 4 with -c 20 and the header", len(c.Steps), c.Settings)
	}
	high := 0.0
	for _, s := range c.Steps {
		if s.Sustained {
			high = max(high, s.TargetRPS)
		}
		if s.Errors > 0 {
			t.Errorf("step %+v: errors", s)
		}
	}
	if c.CapacityRPS != high || high == 0 {
		t.Errorf("capacity_rps %.0f, highest sustained step %.0f", c.CapacityRPS, high)
	}
}
