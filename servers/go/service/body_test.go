package service

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"
)

func TestColorsRoundTrip(t *testing.T) {
	in, err := os.ReadFile("../../../fixtures/echo-body.json")
	if err != nil {
		t.Fatal(err)
	}
	colors, err := DecodeColors(in)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(colors)
	var a, b any
	json.Unmarshal(in, &a)
	json.Unmarshal(out, &b)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Errorf("echo is not JSON-equal to the fixture:\n%s\n%s", ja, jb)
	}
}

func TestReadBody(t *testing.T) {
	tests := []struct {
		name          string
		size          int
		contentLength int64
		wantStatus    int // 0: success
	}{
		{"empty", 0, 0, 0},
		{"at the limit", MaxBodyBytes, MaxBodyBytes, 0},
		{"one byte over", MaxBodyBytes + 1, -1, 413},
		{"declared too large", 10, MaxBodyBytes + 1, 413},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := ReadBody(bytes.NewReader(make([]byte, tt.size)), tt.contentLength)
			if tt.wantStatus != 0 {
				if StatusOf(err) != tt.wantStatus {
					t.Fatalf("err %v (status %d), want status %d", err, StatusOf(err), tt.wantStatus)
				}
				return
			}
			if err != nil || len(b) != tt.size {
				t.Fatalf("got %d bytes, %v; want %d bytes", len(b), err, tt.size)
			}
		})
	}
}

func TestSum(t *testing.T) {
	tests := []struct {
		body string
		want string // "" means 400
	}{
		{`{"a":1923,"b":8553}`, "10476"},
		{`{"a":1.5,"b":2}`, "3.5"},
		{`{"a":-1,"b":1}`, "0"},
		{`{"a":1e2,"b":1}`, "101"},
		{`{"a":9223372036854775807,"b":1}`, "9223372036854775808"},
		{`{"a":1e308,"b":1e308}`, ""},
		{`{"a":"1","b":2}`, ""},
		{`{"a":null,"b":2}`, ""},
		{`{"a":true,"b":2}`, ""},
		{`{"a":1}`, ""},
		{`{"a":1,"b":2`, ""},
		{`[1,2]`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			got, err := Sum([]byte(tt.body))
			if tt.want == "" {
				if StatusOf(err) != http.StatusBadRequest {
					t.Fatalf("got %v, %v; want a 400", got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if f, _ := got.Result.Float64(); string(got.Result) != tt.want && f != mustFloat(tt.want) {
				t.Errorf("result %s, want %s", got.Result, tt.want)
			}
		})
	}
}

func mustFloat(s string) float64 {
	var f float64
	json.Unmarshal([]byte(s), &f)
	return f
}

func TestParseTime(t *testing.T) {
	tests := []struct {
		query     string
		wantDelay time.Duration
		wantWork  time.Duration
		wantErr   bool
	}{
		{"", 0, 0, false},
		{"delay=10&work=20", 10 * time.Millisecond, 20 * time.Millisecond, false},
		{"delay=10000&work=0", 10 * time.Second, 0, false},
		{"delay=10001", 0, 0, true},
		{"work=-1", 0, 0, true},
		{"work=+1", 0, 0, true},
		{"work=1.5", 0, 0, true},
		{"delay=", 0, 0, true},
		{"delay=soon", 0, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			q, _ := url.ParseQuery(tt.query)
			p, err := ParseTime(q)
			if tt.wantErr {
				if StatusOf(err) != http.StatusBadRequest {
					t.Fatalf("got %+v, %v; want a 400", p, err)
				}
				return
			}
			if err != nil || p.Delay != tt.wantDelay || p.Work != tt.wantWork {
				t.Fatalf("got %+v, %v; want delay %v work %v", p, err, tt.wantDelay, tt.wantWork)
			}
		})
	}
}

// TestWork checks that Work takes at least the time asked. No upper bound:
// a busy machine may stretch it, and speed is not what is tested here.
func TestWork(t *testing.T) {
	for _, d := range []time.Duration{0, 5 * time.Millisecond, 30 * time.Millisecond} {
		start := time.Now()
		Work(d)
		if got := time.Since(start); got < d {
			t.Errorf("Work(%v) returned after %v", d, got)
		}
	}
}

func TestAcceptsGzip(t *testing.T) {
	tests := map[string]bool{
		"":                      false,
		"gzip":                  true,
		"deflate, gzip;q=0.5":   true,
		"GZIP":                  true,
		"br":                    false,
		"gzip;q=0":              false,
		"gzip; q=0.0, deflate":  false,
		"x-gzip":                false,
		"deflate, gzip , br":    true,
		"gzip;level=1;q=0.001":  true,
		"identity;q=1, *;q=0.5": false,
	}
	for header, want := range tests {
		if got := AcceptsGzip(header); got != want {
			t.Errorf("AcceptsGzip(%q) = %v, want %v", header, got, want)
		}
	}
}

func TestStatusOf(t *testing.T) {
	tests := []struct {
		err  error
		want int
	}{
		{ErrNotFound, 404},
		{ErrMethodNotAllowed, 405},
		{ErrTooLarge, 413},
		{&http.MaxBytesError{Limit: 1}, 413},
		{Errorf(400, "x"), 400},
		{os.ErrClosed, 500},
	}
	for _, tt := range tests {
		if got := StatusOf(tt.err); got != tt.want {
			t.Errorf("StatusOf(%v) = %d, want %d", tt.err, got, tt.want)
		}
		if body := BodyOf(tt.err); strings.TrimSpace(body.Error) == "" {
			t.Errorf("BodyOf(%v) has no message", tt.err)
		}
	}
}
