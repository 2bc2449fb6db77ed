package load

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"restbench/internal/result"
)

// TestTimelineKeepsFewSeconds: however long the window, the timeline holds
// the histograms of a few seconds only (the generator's memory does not grow
// with the window); each finished second goes to the hlog as it ends, and
// the counts and percentiles of every second are kept. A hand-over that
// comes after its second finished still counts.
func TestTimelineKeepsFewSeconds(t *testing.T) {
	const seconds = 1000
	var log bytes.Buffer
	tl := timeline{hlog: result.NewHlogWriter(&log, time.Unix(0, 0))}
	for sec := range seconds {
		for loop := range 2 { // two loops hand each second over
			a := &secondAgg{requests: 3, errors: 1, hist: newSecondHist()}
			a.hist.RecordValue(int64(1000 * (loop + 1)))
			a.hist.RecordValue(int64(1000 * (loop + 1)))
			tl.add(sec, a)
		}
		if held := len(tl.open) + len(tl.spare); held > openSeconds+1 {
			t.Fatalf("second %d: %d histograms held, want at most %d", sec, held, openSeconds+1)
		}
	}
	tl.add(0, &secondAgg{requests: 5, hist: newSecondHist()}) // late
	// A stall: nothing handed over for 500 s, then a second far ahead.
	stalled := timeline{}
	stalled.add(0, &secondAgg{requests: 1, hist: newSecondHist()})
	stalled.add(500, &secondAgg{requests: 1, hist: newSecondHist()})
	if held := len(stalled.open) + len(stalled.spare); held > openSeconds+1 {
		t.Errorf("after a 500 s gap: %d histograms held, want at most %d", held, openSeconds+1)
	}
	got, err := tl.result(seconds - 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != seconds {
		t.Fatalf("%d seconds, want %d", len(got), seconds)
	}
	if got[0].Requests != 11 || got[1].Requests != 6 || got[1].Errors != 2 {
		t.Errorf("seconds 0 and 1: %+v %+v, want 11 and 6 requests (2 errors)", got[0], got[1])
	}
	if p50, p99 := got[500].P50, got[500].P99; p50 < 0.99 || p50 > 1.01 || p99 < 1.99 || p99 > 2.01 {
		t.Errorf("second 500: p50 %v p99 %v ms, want 1 and 2", p50, p99)
	}
	r := hdrhistogram.NewHistogramLogReader(strings.NewReader(log.String()))
	n := 0
	for {
		h, err := r.NextIntervalHistogram()
		if err != nil || h == nil {
			break
		}
		if h.TotalCount() != 4 {
			t.Errorf("interval %d holds %d latencies, want 4", n, h.TotalCount())
		}
		n++
	}
	if n != seconds || !strings.Contains(log.String(), "\n999.000,0.500,") {
		t.Errorf("the hlog holds %d intervals, want %d, the last half a second", n, seconds)
	}
}
