package result

import (
	"math"
	"slices"
	"testing"
)

func TestHistogramRoundTripAndMerge(t *testing.T) {
	a, b := NewHistogram(), NewHistogram()
	for i := int64(1); i <= 1000; i++ {
		a.RecordValue(i * 10) // 10 µs .. 10 ms
		b.RecordValue(i * 1000)
	}
	enc, err := EncodeHistogram(a)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := DecodeHistogram(enc)
	if err != nil {
		t.Fatal(err)
	}
	if !dec.Equals(a) {
		t.Fatalf("decoded histogram differs from the original")
	}
	dec.Merge(b)
	if got := dec.TotalCount(); got != 2000 {
		t.Fatalf("merged count = %d, want 2000", got)
	}
	l := Summarize(a)
	if math.Abs(l.P50-5.0) > 0.01 || math.Abs(l.Max-10.0) > 0.01 || math.Abs(l.Min-0.01) > 0.0001 {
		t.Fatalf("summary = %+v, want p50≈5ms max≈10ms min=0.01ms", l)
	}
}

func TestErrorsTotal(t *testing.T) {
	e := Errors{Connect: 1, Timeout: 2, Read: 3, Status: 4, Body: 5}
	e.Add(Errors{Connect: 1})
	if e.Total() != 16 {
		t.Fatalf("Total = %d, want 16", e.Total())
	}
}

func TestTrialFile(t *testing.T) {
	for _, c := range []struct {
		id   string
		n    int
		want string
	}{
		{"single-thread/node-http", 1, "single-thread_node-http.t1.json"},
		{"quota/go-nethttp GOMAXPROCS=4", 3, "quota_go-nethttp_GOMAXPROCS=4.t3.json"},
	} {
		if got := TrialFile(c.id, c.n); got != c.want {
			t.Errorf("TrialFile(%q, %d) = %q, want %q", c.id, c.n, got, c.want)
		}
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		v    []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3}, 3},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
	} {
		in := append([]float64(nil), c.v...)
		if got := Median(c.v); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.v, got, c.want)
		}
		if !slices.Equal(in, c.v) {
			t.Errorf("Median reordered its input: %v", c.v)
		}
	}
}
