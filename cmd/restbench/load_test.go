package main

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"restbench/internal/result"
	"restbench/internal/threshold"
)

// TestLoadThresholds loads a real server that answers in 10 ms: a p99 under
// 1 ms cannot pass and exits with threshold.ExitCode, a p99 under 10 s
// passes, and a threshold that needs -R is refused before any load.
func TestLoadThresholds(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(10 * time.Millisecond)
		w.Write([]byte(`{"ok":true}`))
	}))
	defer srv.Close()
	tests := []struct {
		name string
		args []string
		code int // 0: no error
	}{
		{"p99 under 1 ms fails", []string{"--threshold", "p99<1ms", "--threshold", "errors<0.1%"}, threshold.ExitCode},
		{"p99 under 10 s passes", []string{"--threshold", "p99<10s", "--threshold", "errors<1%", "--allow-flags"}, 0},
		{"achieved without -R is a usage error", []string{"--threshold", "achieved>95%"}, 2},
		{"a malformed threshold is a usage error", []string{"--threshold", "p99=5"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"-q", "-c", "2", "-n", "40", srv.URL}, tt.args...)
			err := cmdLoad(context.Background(), args)
			if tt.code == 0 {
				if err != nil {
					t.Fatalf("restbench load %v: %v", args, err)
				}
				return
			}
			var ee *exitError
			if !errors.As(err, &ee) || ee.code != tt.code {
				t.Fatalf("restbench load %v: %v, want exit %d", args, err, tt.code)
			}
		})
	}
}

// TestLoadHlog: --hlog writes one interval per second of the window that
// HdrHistogram's own log reader reads back, and together the intervals hold
// the responses of the window, each at least the server's 10 ms.
func TestLoadHlog(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(10 * time.Millisecond)
		w.Write([]byte(`{"ok":true}`))
	}))
	defer srv.Close()
	dir := t.TempDir()
	hlog, js := filepath.Join(dir, "load.hlog"), filepath.Join(dir, "load.json")
	if err := cmdLoad(context.Background(), []string{"-q", "-c", "2", "-d", "2", "--hlog", hlog, "--json", js, srv.URL}); err != nil {
		t.Fatal(err)
	}
	var res result.Load
	if err := result.ReadJSON(js, &res); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(hlog)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := hdrhistogram.NewHistogramLogReader(f)
	var n, count int64
	for {
		h, err := r.NextIntervalHistogram()
		if err != nil {
			t.Fatal(err)
		}
		if h == nil {
			break
		}
		n++
		count += h.TotalCount()
		// Min is the lowest value of its bucket (at 2 significant digits,
		// 10,012 µs reads as 9,984), so the bound is 10 ms's bucket.
		if min := h.Min(); h.TotalCount() > 0 && min < 10000 && !h.ValuesAreEquivalent(min, 10000) {
			t.Errorf("interval %d: min %d µs, below the bucket of the server's 10 ms", n, min)
		}
	}
	if n != 2 || count != res.Responses || count == 0 {
		t.Errorf("%d intervals holding %d latencies; want 2 holding the %d responses", n, count, res.Responses)
	}
}
