package result

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// TestWriteHlog writes, through HlogWriter, three seconds of latencies and reads them back with
// HdrHistogram's own log reader: every interval, its values, and the start.
func TestWriteHlog(t *testing.T) {
	var in []*hdrhistogram.Histogram
	for _, values := range [][]int64{{1000, 2000, 3000}, {}, {10400, 10500, 99000, 250}} {
		h := NewHistogram()
		for _, v := range values {
			h.RecordValue(v)
		}
		in = append(in, h)
	}
	path := filepath.Join(t.TempDir(), "run.t1.hlog")
	start := time.Date(2026, 11, 23, 23, 0, 0, 0, time.UTC)
	var b bytes.Buffer
	w := NewHlogWriter(&b, start)
	for i, h := range in {
		if err := w.Interval(i, IntervalLength(i, 2.5), h); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteFile(path, b.Bytes()); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), fmt.Sprintf("#[StartTime: %d ", start.Unix())) || !strings.Contains(string(data), "\n2.000,0.500,99.0") {
		t.Errorf("log:\n%s", data)
	}
	r := hdrhistogram.NewHistogramLogReader(strings.NewReader(string(data)))
	for i, want := range in {
		got, err := r.NextIntervalHistogram()
		if err != nil || got == nil {
			t.Fatalf("interval %d: %v %v", i, got, err)
		}
		if got.TotalCount() != want.TotalCount() || got.Max() != want.Max() || got.ValueAtQuantile(50) != want.ValueAtQuantile(50) {
			t.Errorf("interval %d: count %d max %d p50 %d, want %d %d %d", i, got.TotalCount(), got.Max(), got.ValueAtQuantile(50),
				want.TotalCount(), want.Max(), want.ValueAtQuantile(50))
		}
	}
	if h, err := r.NextIntervalHistogram(); h != nil || err != nil {
		t.Errorf("after the last interval: %v %v", h, err)
	}
}
