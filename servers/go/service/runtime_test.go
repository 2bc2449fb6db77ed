package service

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
)

// TestRuntime asks GET /runtime twice with garbage made in between: the
// answer names this runtime and its GOMAXPROCS, and the heap and goroutine
// counts are live figures.
func TestRuntime(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(Runtime))
	defer srv.Close()
	get := func() RuntimeStats {
		resp, err := http.Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var s RuntimeStats
		if err := json.NewDecoder(resp.Body).Decode(&s); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d: %v", resp.StatusCode, err)
		}
		return s
	}
	get()
	var keep [][]byte
	for i := 0; i < 1000; i++ {
		keep = append(keep, make([]byte, 64<<10))
	}
	runtime.GC()
	s := get()
	if !strings.HasPrefix(s.Runtime, "go1.") || s.GOMAXPROCS != runtime.GOMAXPROCS(0) || s.Goroutines == 0 || s.HeapObjectsB == 0 {
		t.Errorf("%+v", s)
	}
	if s.GCPauses == 0 || s.GCCPUSeconds <= 0 {
		t.Errorf("a runtime.GC() between two calls: %d pauses, %v s of GC CPU in %+v", s.GCPauses, s.GCCPUSeconds, s)
	}
	_ = keep
}
