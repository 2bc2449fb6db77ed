package service

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// Fuzz targets for the decoders that read untrusted bytes. Their seed
// corpora are the bodies of the contract's fixtures plus testdata/fuzz;
// scripts/fuzz.sh runs each for a set time (go test -fuzz, not in CI).

// seedFixtures adds the contract's own fixture bodies as seeds.
func seedFixtures(f *testing.F, names ...string) {
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", "fixtures", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// wantBadRequest fails unless err is the contract's 400: a decoder of an
// in-memory body has no other way to fail.
func wantBadRequest(t *testing.T, what string, err error) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Status != http.StatusBadRequest {
		t.Fatalf("%s: error %v (%T), want a 400 *Error", what, err, err)
	}
}

func FuzzEcho(f *testing.F) {
	seedFixtures(f, "echo-body.json", "sum-body.json")
	for _, s := range []string{`{"colors":[{"code":{"rgba":[1,2,3,0.5]}}]}`, `{"colors":"red"}`, `[1,"a",null]`, `"\ud800"`, `1e999`, `{"a":`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		c, err := DecodeColors(body)
		if err != nil {
			wantBadRequest(t, "DecodeColors", err)
		} else if _, err := json.Marshal(c); err != nil {
			t.Fatalf("a decoded /echo body does not encode: %v", err)
		}
		v, err := DecodeAny(body)
		if err != nil {
			wantBadRequest(t, "DecodeAny", err)
			return
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("a decoded /echo/any body does not encode: %v", err)
		}
		var again any
		if err := json.Unmarshal(out, &again); err != nil {
			t.Fatalf("the /echo/any answer %q is not JSON: %v", out, err)
		}
	})
}

func FuzzSum(f *testing.F) {
	seedFixtures(f, "sum-body.json")
	for _, s := range []string{`{"a":1.5,"b":2}`, `{"a":9223372036854775807,"b":1}`, `{"a":1e308,"b":1e308}`, `{"a":"1","b":2}`, `{"a":-0,"b":-0.0}`, `[1,2]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		res, err := Sum(body)
		if err != nil {
			wantBadRequest(t, "Sum", err)
			return
		}
		out, err := json.Marshal(res)
		if err != nil {
			t.Fatalf("the /sum answer does not encode: %v", err)
		}
		var back struct{ Result float64 }
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("the /sum answer %s does not decode: %v", out, err)
		}
	})
}

func FuzzFilter(f *testing.F) {
	for _, s := range []string{`[]`, `[{"name":"a","version":6},{"name":"b","version":5}]`, `[{"version":"6"}]`, `[{"name":"x","version":}]`, `[1,2]`, `[{}] x`, `{"a":1}`} {
		f.Add([]byte(s), 5.0)
	}
	f.Fuzz(func(t *testing.T, body []byte, min float64) {
		var out bytes.Buffer
		started, err := StreamFilter(&out, bytes.NewReader(body), min)
		if err != nil {
			wantBadRequest(t, "StreamFilter", err)
			if !started && out.Len() > 0 {
				t.Fatalf("not started, yet %d bytes out", out.Len())
			}
			return
		}
		var recs []Record
		if err := json.Unmarshal(out.Bytes(), &recs); err != nil {
			t.Fatalf("the /filter answer %q is not an array of records: %v", out.Bytes(), err)
		}
		for i, r := range recs {
			if !(r.Version > min) {
				t.Fatalf("record %d has version %v, not above min_version %v", i, r.Version, min)
			}
		}
	})
}

// timeValue is what docs/contract.md accepts for delay and work (and what
// the Node servers test): decimal digits only, at most 10000.
var timeValue = regexp.MustCompile(`^[0-9]{1,5}$`)

func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"delay=200&work=200", "delay=", "delay=-0", "work=+1", "work=1.5", "delay=1e3", "delay=10001", "delay=%30", "delay=00001&work=0", "delay=1&delay=2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return // the servers' routers refuse or drop such a query before the handler
		}
		p, err := ParseTime(q)
		want := true
		for _, key := range []string{"delay", "work"} {
			if !q.Has(key) {
				continue
			}
			s := q.Get(key)
			n, _ := strconv.Atoi(s)
			if !timeValue.MatchString(s) || n > MaxMillis {
				want = false
			}
		}
		switch {
		case err != nil && want:
			t.Fatalf("%q: refused (%v), but the contract accepts it", raw, err)
		case err == nil && !want:
			t.Fatalf("%q: accepted as %+v, but the contract refuses it", raw, p)
		case err != nil:
			wantBadRequest(t, "ParseTime", err)
		case p.Delay < 0 || p.Delay > MaxMillis*time.Millisecond || p.Work < 0 || p.Work > MaxMillis*time.Millisecond:
			t.Fatalf("%q: out of range: %+v", raw, p)
		}
	})
}
