// Package servicetest checks a running Go reference server against the
// contract, so that every server's test runs the same cases over a real
// socket. It is the quick, in-process counterpart of `restbench verify`.
package servicetest

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Case is one request and what the answer must be.
type Case struct {
	Name   string
	Method string
	Path   string
	Header map[string]string
	Body   []byte
	Status int
	// Want, when set, must be JSON-equal to the response body.
	Want string
}

// Fixture reads a file of the repository's fixtures/ folder.
func Fixture(t testing.TB, name string) []byte {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..", "..", "..")
	b, err := os.ReadFile(filepath.Join(root, "fixtures", name))
	if err != nil {
		t.Fatalf("read fixture: %v (run the tests inside the restbench checkout)", err)
	}
	return b
}

// Cases are the contract's positive and error cases.
func Cases(t testing.TB) []Case {
	echo := Fixture(t, "echo-body.json")
	big := append(append([]byte(`{"x":"`), bytes.Repeat([]byte("a"), 1<<20)...), `"}`...)
	records := `[{"name":"a","language":"go","id":"0123456789abcdef","bio":"b","version":6},` +
		`{"name":"c","language":"js","id":"fedcba9876543210","bio":"d","version":4.5}]`
	return []Case{
		{Name: "status", Method: "GET", Path: "/status", Status: 200, Want: `{"status":"ok"}`},
		{Name: "echo", Method: "POST", Path: "/echo", Body: echo, Status: 200, Want: string(echo)},
		{Name: "echo any", Method: "POST", Path: "/echo/any", Body: echo, Status: 200, Want: string(echo)},
		{Name: "echo malformed", Method: "POST", Path: "/echo", Body: []byte(`{"colors":[`), Status: 400},
		{Name: "echo wrong type", Method: "POST", Path: "/echo", Body: []byte(`{"colors":"red"}`), Status: 400},
		{Name: "echo any malformed", Method: "POST", Path: "/echo/any", Body: []byte(`nope`), Status: 400},
		{Name: "echo too large", Method: "POST", Path: "/echo", Body: big, Status: 413},
		{Name: "echo any too large", Method: "POST", Path: "/echo/any", Body: big, Status: 413},
		{Name: "sum", Method: "POST", Path: "/sum", Body: Fixture(t, "sum-body.json"), Status: 200, Want: `{"result":10476}`},
		{Name: "sum float", Method: "POST", Path: "/sum", Body: []byte(`{"a":1.5,"b":2}`), Status: 200, Want: `{"result":3.5}`},
		{Name: "sum string", Method: "POST", Path: "/sum", Body: []byte(`{"a":"1","b":2}`), Status: 400},
		{Name: "sum missing", Method: "POST", Path: "/sum", Body: []byte(`{"a":1}`), Status: 400},
		{Name: "sum too large", Method: "POST", Path: "/sum", Body: big, Status: 413},
		{Name: "hello", Method: "GET", Path: "/hello", Status: 200, Want: `{"result":"Hello world"}`},
		{Name: "hello gzip", Method: "GET", Path: "/hello", Header: map[string]string{"Accept-Encoding": "gzip"}, Status: 200, Want: `{"result":"Hello world"}`},
		{Name: "time", Method: "GET", Path: "/time?delay=1&work=1", Status: 200},
		{Name: "time not a number", Method: "GET", Path: "/time?delay=soon", Status: 400},
		{Name: "time decimal", Method: "GET", Path: "/time?work=1.5", Status: 400},
		{Name: "time out of range", Method: "GET", Path: "/time?delay=10001", Status: 400},
		{Name: "filter", Method: "POST", Path: "/filter", Body: []byte(records), Status: 200,
			Want: `[{"name":"a","language":"go","id":"0123456789abcdef","bio":"b","version":6}]`},
		{Name: "filter min_version", Method: "POST", Path: "/filter?min_version=4", Body: []byte(records), Status: 200, Want: records},
		{Name: "filter none kept", Method: "POST", Path: "/filter?min_version=10", Body: []byte(records), Status: 200, Want: `[]`},
		{Name: "filter bad min_version", Method: "POST", Path: "/filter?min_version=x", Body: []byte(records), Status: 400},
		{Name: "filter malformed", Method: "POST", Path: "/filter", Body: []byte(`[{"name":`), Status: 400},
		{Name: "filter not an array", Method: "POST", Path: "/filter", Body: []byte(`{"a":1}`), Status: 400},
		{Name: "unknown path", Method: "GET", Path: "/nope", Status: 404},
		{Name: "wrong method", Method: "POST", Path: "/status", Status: 405},
		{Name: "wrong method echo", Method: "GET", Path: "/echo", Status: 405},
	}
}

// Check runs every case against the server at baseURL.
func Check(t *testing.T, baseURL string) {
	client := &http.Client{
		Timeout: 10 * time.Second,
		// Compression is checked by hand: the default transport would
		// decompress silently and hide a missing Content-Encoding.
		Transport: &http.Transport{DisableCompression: true},
	}
	t.Run("filter malformed after streaming", func(t *testing.T) { checkFilterAbort(t, client, baseURL) })
	for _, c := range Cases(t) {
		t.Run(c.Name, func(t *testing.T) {
			req, err := http.NewRequest(c.Method, baseURL+c.Path, bytes.NewReader(c.Body))
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range c.Header {
				req.Header.Set(k, v)
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, err := readBody(resp)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != c.Status {
				t.Fatalf("status %d, want %d; body %.200s", resp.StatusCode, c.Status, body)
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
			if resp.StatusCode >= 400 {
				var e struct{ Error string }
				if err := json.Unmarshal(body, &e); err != nil || e.Error == "" {
					t.Errorf(`error body %.200q is not {"error": "..."}`, body)
				}
			}
			if c.Header["Accept-Encoding"] == "gzip" && resp.Header.Get("Content-Encoding") != "gzip" {
				t.Errorf("Content-Encoding %q, want gzip", resp.Header.Get("Content-Encoding"))
			}
			if c.Want != "" && !JSONEqual(body, []byte(c.Want)) {
				t.Errorf("body %.300s\nwant %.300s", body, c.Want)
			}
		})
	}
}

func readBody(resp *http.Response) ([]byte, error) {
	if resp.Header.Get("Content-Encoding") != "gzip" {
		return io.ReadAll(resp.Body)
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// JSONEqual reports whether a and b hold equal JSON values.
func JSONEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x) // Marshal sorts map keys: a canonical form
	jb, _ := json.Marshal(y)
	return bytes.Equal(ja, jb)
}

// checkFilterAbort sends a /filter body that turns malformed after more
// than one output buffer: the server has answered 200 by then and must
// close the connection, not end the array as if it were complete.
func checkFilterAbort(t *testing.T, client *http.Client, baseURL string) {
	var body bytes.Buffer
	body.WriteString("[")
	for i := range 20000 {
		fmt.Fprintf(&body, `{"name":"n","language":"go","id":"%016x","bio":"%s","version":9},`, i, strings.Repeat("b", 100))
	}
	body.WriteString(`{"name":`)
	resp, err := client.Post(baseURL+"/filter?min_version=0", "application/json", &body)
	if err != nil {
		return // aborted before the headers: also a refusal
	}
	defer resp.Body.Close()
	_, err = io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusOK && err == nil {
		t.Errorf("a /filter body that ends malformed got a complete 200 response; the server must abort it")
	}
}
