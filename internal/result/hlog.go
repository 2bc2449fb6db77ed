package result

import (
	"fmt"
	"io"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// IntervalLength is how long second i of a window of windowS seconds
// lasted: 1, or what remained of the window for its last second (1 when
// windowS is 0, not known).
func IntervalLength(i int, windowS float64) float64 {
	if windowS > float64(i) {
		return min(1, windowS-float64(i))
	}
	return 1
}

// HlogWriter writes the latency of each second of a measured window as an
// HdrHistogram interval log (.hlog, log format 1.3), one interval at a time,
// so that a long load writes each second as it ends instead of keeping them
// all. It is the format wrk2 writes and HdrHistogram's HistogramLogReader
// and HistogramLogProcessor read. Values are microseconds from the intended
// send time (HistogramLogProcessor -outputValueUnitRatio 1000 prints ms);
// each line's max column is in milliseconds. Interval timestamps count
// seconds from StartTime, the window's start.
type HlogWriter struct {
	w io.Writer
}

// NewHlogWriter writes the log's header, for a window that opened at
// start, to w.
func NewHlogWriter(w io.Writer, start time.Time) *HlogWriter {
	lw := hdrhistogram.NewHistogramLogWriter(w)
	ms := start.UnixMilli()
	lw.OutputLogFormatVersion()
	lw.OutputComment("[restbench: latency in microseconds from the intended send time, one interval per second of the measured window]")
	lw.OutputStartTime(ms)
	lw.OutputBaseTime(ms)
	lw.OutputLegend()
	return &HlogWriter{w: w}
}

// Interval writes second i of the window, length seconds long.
func (w *HlogWriter) Interval(i int, length float64, h *hdrhistogram.Histogram) error {
	// The library's own interval writer scales the max column for
	// nanoseconds; these are microseconds, so the line is written here, in
	// the same format.
	enc, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return fmt.Errorf("interval %d: %w", i, err)
	}
	_, err = fmt.Fprintf(w.w, "%.3f,%.3f,%.3f,%s\n", float64(i), length, float64(h.Max())/1000, enc)
	return err
}
