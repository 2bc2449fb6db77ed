package main

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

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
