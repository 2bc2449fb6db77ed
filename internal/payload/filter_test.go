package payload

import (
	"bytes"
	"encoding/json"
	"io"
	"regexp"
	"testing"
	"unicode/utf8"
)

func TestFilterSizeAndValidity(t *testing.T) {
	for _, size := range []int64{0, 2, 100, 1000, 100_000, 1_000_000, 5_000_000} {
		var buf bytes.Buffer
		if err := Filter(&buf, size, 1); err != nil {
			t.Fatal(err)
		}
		n := int64(buf.Len())
		switch {
		case size < 2 && n != 2:
			t.Errorf("size %d: got %d bytes, want the empty array", size, n)
		case size >= 2 && n > size:
			t.Errorf("size %d: got %d bytes, more than asked", size, n)
		case size >= 2 && n < size-500: // a record is at most about 450 bytes
			t.Errorf("size %d: got %d bytes, want within a record of it", size, n)
		case size >= 100_000 && float64(n) < 0.99*float64(size):
			t.Errorf("size %d: got %d bytes, want within 1%%", size, n)
		}
		var recs []Record
		if err := json.Unmarshal(buf.Bytes(), &recs); err != nil {
			t.Fatalf("size %d: invalid JSON: %v", size, err)
		}
		var count int
		Records(size, 1, func(Record) error { count++; return nil })
		if count != len(recs) {
			t.Errorf("size %d: Records gave %d records, the body holds %d", size, count, len(recs))
		}
	}
}

func TestFilterDeterministic(t *testing.T) {
	gen := func(seed int64) []byte {
		var buf bytes.Buffer
		Filter(&buf, 200_000, seed)
		return buf.Bytes()
	}
	a, b, c := gen(7), gen(7), gen(8)
	if !bytes.Equal(a, b) {
		t.Error("the same seed gave different bodies")
	}
	if bytes.Equal(a, c) {
		t.Error("different seeds gave the same body")
	}
	// A longer body starts with the records of a shorter one: the checker
	// relies on the record stream depending on the seed alone.
	var short, long []Record
	Records(10_000, 7, func(r Record) error { short = append(short, r); return nil })
	Records(20_000, 7, func(r Record) error { long = append(long, r); return nil })
	for i := range short {
		if short[i] != long[i] {
			t.Fatalf("record %d differs between sizes", i)
		}
	}
}

func TestFilterFieldRanges(t *testing.T) {
	var buf bytes.Buffer
	Filter(&buf, 2_000_000, 3)
	var recs []map[string]any
	if err := json.Unmarshal(buf.Bytes(), &recs); err != nil {
		t.Fatal(err)
	}
	hexID := regexp.MustCompile(`^[0-9a-f]{16}$`)
	versions := map[float64]int{}
	for i, r := range recs {
		if len(r) != 5 {
			t.Fatalf("record %d has %d fields, want 5: %v", i, len(r), r)
		}
		name, _ := r["name"].(string)
		lang, _ := r["language"].(string)
		id, _ := r["id"].(string)
		bio, _ := r["bio"].(string)
		v, ok := r["version"].(float64)
		switch {
		case name == "" || lang == "" || !utf8.ValidString(name):
			t.Fatalf("record %d: bad name or language: %v", i, r)
		case !hexID.MatchString(id):
			t.Fatalf("record %d: id %q is not 16 hex digits", i, id)
		case len(bio) < 100 || len(bio) > 300:
			t.Fatalf("record %d: bio of %d bytes, want 100..300: %q", i, len(bio), bio)
		case !ok || v < 0 || v > 10:
			t.Fatalf("record %d: version %v, want a number in 0..10", i, r["version"])
		}
		versions[v]++
	}
	// Exact 5.0 values catch servers that filter with >= instead of >.
	if versions[5] == 0 || versions[0] == 0 || versions[10] == 0 {
		t.Errorf("versions 0, 5 and 10 should all occur in %d records: %d, %d, %d", len(recs), versions[0], versions[5], versions[10])
	}
}

func TestFilterExpected(t *testing.T) {
	var buf bytes.Buffer
	Filter(&buf, 300_000, 5)
	var all []Record
	json.Unmarshal(buf.Bytes(), &all)
	for _, min := range []float64{-1, 0, 5, 7.5, 10} {
		got, err := FilterExpected(300_000, 5, min)
		if err != nil {
			t.Fatal(err)
		}
		var want []Record
		for _, r := range all {
			if r.Version > min {
				want = append(want, r)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("min %v: %d records, want %d", min, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("min %v: record %d: %v, want %v", min, i, got[i], want[i])
			}
		}
	}
}

func TestWordLists(t *testing.T) {
	for _, w := range loremWords {
		if len(w) > 12 || w[0] < 'a' || w[0] > 'z' {
			t.Errorf("lorem word %q: bio needs at most 12 bytes, starting lower-case", w)
		}
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		err  bool
	}{
		{"5MB", 5_000_000, false},
		{"200mb", 200_000_000, false},
		{"1.5GB", 1_500_000_000, false},
		{"512KiB", 512 << 10, false},
		{"1MiB", 1 << 20, false},
		{"100000", 100000, false},
		{"10 K", 10_000, false},
		{"", 0, true},
		{"MB", 0, true},
		{"-5MB", 0, true},
		{"five", 0, true},
		{"NaN", 0, true},
	}
	for _, tt := range tests {
		got, err := ParseSize(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func BenchmarkFilter(b *testing.B) {
	b.SetBytes(10_000_000)
	for b.Loop() {
		Filter(io.Discard, 10_000_000, 1)
	}
}
