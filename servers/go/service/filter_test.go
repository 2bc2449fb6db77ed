package service

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

const twoRecords = `[{"name":"a","language":"go","id":"0123456789abcdef","bio":"b","version":6},` +
	` {"name":"c","language":"js","id":"fedcba9876543210","bio":"d","version":4.5, "extra": true}]`

func TestFilter(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		min     float64
		wantIDs []string // nil: a 400
	}{
		{"keeps newer", twoRecords, 5, []string{"0123456789abcdef"}},
		{"keeps all", twoRecords, 4, []string{"0123456789abcdef", "fedcba9876543210"}},
		{"strictly greater", twoRecords, 6, []string{}},
		{"empty array", ` [ ] `, 5, []string{}},
		{"not an array", `{"a":1}`, 5, nil},
		{"truncated", `[{"name":"a"`, 5, nil},
		{"no closing bracket", `[{"version":9}`, 5, nil},
		{"trailing data", `[] []`, 5, nil},
		{"wrong type", `[{"version":"9"}]`, 5, nil},
		{"empty body", ``, 5, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			err := Filter(&out, strings.NewReader(tt.body), tt.min)
			if tt.wantIDs == nil {
				if StatusOf(err) != http.StatusBadRequest {
					t.Fatalf("err %v, want a 400", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []Record
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatalf("output %q is not a JSON array of records: %v", out.String(), err)
			}
			ids := []string{}
			for _, r := range got {
				ids = append(ids, r.ID)
			}
			if fmt.Sprint(ids) != fmt.Sprint(tt.wantIDs) {
				t.Errorf("kept %v, want %v", ids, tt.wantIDs)
			}
		})
	}
}

func TestParseMinVersion(t *testing.T) {
	tests := []struct {
		query   string
		want    float64
		wantErr bool
	}{
		{"", DefaultMinVersion, false},
		{"min_version=2.5", 2.5, false},
		{"min_version=-1", -1, false},
		{"min_version=x", 0, true},
		{"min_version=", 0, true},
		{"min_version=NaN", 0, true},
		{"min_version=Inf", 0, true},
	}
	for _, tt := range tests {
		q, _ := url.ParseQuery(tt.query)
		got, err := ParseMinVersion(q)
		if (err != nil) != tt.wantErr || !tt.wantErr && got != tt.want {
			t.Errorf("%q: got %v, %v; want %v (error: %v)", tt.query, got, err, tt.want, tt.wantErr)
		}
	}
}

// records is an endless-looking body: n records generated on demand, so a
// test can stream megabytes without holding them.
type records struct {
	n, i int
	buf  bytes.Buffer
	tail string // appended after the records instead of "]"
}

func (r *records) Read(p []byte) (int, error) {
	for r.buf.Len() < len(p) && r.i <= r.n {
		switch {
		case r.i == 0:
			r.buf.WriteString("[")
		case r.i == r.n:
			r.buf.WriteString(r.tail)
		default:
			if r.i > 1 {
				r.buf.WriteString(",")
			}
			fmt.Fprintf(&r.buf, `{"name":"n%d","language":"go","id":"%016x","bio":"%s","version":%d.5}`,
				r.i, r.i, strings.Repeat("bio ", 50), r.i%10)
		}
		r.i++
	}
	if r.buf.Len() == 0 {
		return 0, io.EOF
	}
	return r.buf.Read(p)
}

// heapWatcher samples the live heap every MiB written through it.
type heapWatcher struct {
	n, max uint64
}

func (h *heapWatcher) Write(p []byte) (int, error) {
	before := h.n
	h.n += uint64(len(p))
	if before>>20 != h.n>>20 {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		h.max = max(h.max, m.HeapAlloc)
	}
	return len(p), nil
}

// TestFilterStreams checks that memory does not grow with the body: about
// 64 MB in, with the live heap bounded far below that.
func TestFilterStreams(t *testing.T) {
	body := &records{n: 300_000, tail: "]"}
	var h heapWatcher
	if err := Filter(&h, body, 4); err != nil {
		t.Fatal(err)
	}
	if h.n < 30<<20 {
		t.Fatalf("only %d bytes of output; the test body is too small to show streaming", h.n)
	}
	if h.max > 32<<20 {
		t.Errorf("live heap reached %d MiB while filtering; it should not grow with the body", h.max>>20)
	}
}

func TestStreamFilterStarted(t *testing.T) {
	tests := []struct {
		name        string
		body        io.Reader
		wantStarted bool
		wantErr     bool
	}{
		{"short and valid", strings.NewReader(twoRecords), true, false},
		{"malformed early", strings.NewReader(`[{"version":`), false, true},
		{"malformed after a full buffer", &records{n: 1000, tail: `,{"name":`}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			started, err := StreamFilter(&out, tt.body, 0)
			if started != tt.wantStarted || (err != nil) != tt.wantErr {
				t.Errorf("started %v, err %v; want started %v, error %v", started, err, tt.wantStarted, tt.wantErr)
			}
		})
	}
}

func TestFilterReader(t *testing.T) {
	t.Run("malformed early is an error before any output", func(t *testing.T) {
		if _, err := StartFilter(strings.NewReader(`[{"version":`), 0); StatusOf(err) != 400 {
			t.Fatalf("err %v, want a 400", err)
		}
	})
	t.Run("valid body reads to the end", func(t *testing.T) {
		f, err := StartFilter(&records{n: 1000, tail: "]"}, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		out, err := io.ReadAll(f)
		var got []Record
		if err != nil || json.Unmarshal(out, &got) != nil || len(got) != 999 {
			t.Fatalf("read %d bytes, %d records, err %v; want 999 records", len(out), len(got), err)
		}
	})
	t.Run("malformed late fails the read, not io.EOF", func(t *testing.T) {
		f, err := StartFilter(&records{n: 1000, tail: `,{"name":`}, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := io.ReadAll(f); err == nil {
			t.Fatal("reading a response cut short by a malformed body ended cleanly")
		}
	})
	t.Run("Close stops the filter reading the request", func(t *testing.T) {
		src := &countingReader{r: &records{n: 1_000_000, tail: "]"}}
		f, err := StartFilter(src, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		n := src.reads.Load()
		io.Copy(io.Discard, io.LimitReader(f, 1<<20)) // reads after Close must not revive it
		if src.reads.Load() != n {
			t.Errorf("the filter read the request body after Close returned")
		}
	})
}

type countingReader struct {
	r     io.Reader
	reads atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	c.reads.Add(1)
	return c.r.Read(p)
}
