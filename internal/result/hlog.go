package result

import (
	"bytes"
	"fmt"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// WriteHlog writes intervals, the latency of each second of a measured
// window that opened at start, as an HdrHistogram interval log (.hlog, log
// format 1.3): the format wrk2 writes and HdrHistogram's HistogramLogReader
// and HistogramLogProcessor read. Values are microseconds from the intended
// send time (HistogramLogProcessor -outputValueUnitRatio 1000 prints ms);
// each line's max column is in milliseconds. Interval timestamps count
// seconds from StartTime; the last is as long as what remained of windowS
// (the whole second when windowS is 0). The file is written atomically,
// like WriteJSON.
func WriteHlog(path string, start time.Time, windowS float64, intervals []*hdrhistogram.Histogram) error {
	var b bytes.Buffer
	w := hdrhistogram.NewHistogramLogWriter(&b)
	ms := start.UnixMilli()
	w.OutputLogFormatVersion()
	w.OutputComment("[restbench: latency in microseconds from the intended send time, one interval per second of the measured window]")
	w.OutputStartTime(ms)
	w.OutputBaseTime(ms)
	w.OutputLegend()
	for i, h := range intervals {
		// The library's own interval writer scales the max column for
		// nanoseconds; these are microseconds, so the line is written
		// here, in the same format.
		enc, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
		if err != nil {
			return fmt.Errorf("%s: interval %d: %w", path, i, err)
		}
		length := 1.0
		if windowS > float64(i) {
			length = min(length, windowS-float64(i))
		}
		fmt.Fprintf(&b, "%.3f,%.3f,%.3f,%s\n", float64(i), length, float64(h.Max())/1000, enc)
	}
	return writeFile(path, b.Bytes())
}
