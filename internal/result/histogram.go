package result

import (
	"fmt"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Latency histograms record microseconds from 1 µs to one hour with three
// significant figures: 0.1% resolution at every magnitude, which is what
// makes a 10.0–10.5 ms accuracy check meaningful.
const (
	HistLowestUS  = 1
	HistHighestUS = 3600 * 1000 * 1000
	HistSigFigs   = 3
)

// NewHistogram returns an empty latency histogram (microseconds).
func NewHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(HistLowestUS, HistHighestUS, HistSigFigs)
}

// Summarize turns a histogram of microseconds into a Latency in milliseconds.
func Summarize(h *hdrhistogram.Histogram) Latency {
	if h == nil || h.TotalCount() == 0 {
		return Latency{}
	}
	ms := func(us int64) float64 { return float64(us) / 1000 }
	return Latency{
		Min:   ms(h.Min()),
		Mean:  h.Mean() / 1000,
		Stdev: h.StdDev() / 1000,
		P50:   ms(h.ValueAtQuantile(50)),
		P75:   ms(h.ValueAtQuantile(75)),
		P90:   ms(h.ValueAtQuantile(90)),
		P99:   ms(h.ValueAtQuantile(99)),
		P999:  ms(h.ValueAtQuantile(99.9)),
		P9999: ms(h.ValueAtQuantile(99.99)),
		Max:   ms(h.Max()),
	}
}

// EncodeHistogram returns the compressed base64 form stored in Stats.Histogram.
func EncodeHistogram(h *hdrhistogram.Histogram) (string, error) {
	b, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return "", fmt.Errorf("encode histogram: %w", err)
	}
	return string(b), nil
}

// DecodeHistogram is the inverse of EncodeHistogram.
func DecodeHistogram(s string) (*hdrhistogram.Histogram, error) {
	h, err := hdrhistogram.Decode([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("decode histogram: %w", err)
	}
	return h, nil
}
