package cases

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func gz(s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

// TestVerify judges answers against cases: each wrong answer names what
// is wrong, each right one passes.
func TestVerify(t *testing.T) {
	body := `{"a":1,"b":2}`
	sum := Case{Method: "POST", Path: "/sum", Status: 200, JSON: []byte(`{"result":3}`), body: []byte(body)}
	echo := Case{Method: "POST", Path: "/echo/any", Status: 200, Echo: true, body: []byte(`{"x":[1,2.5]}`)}
	bad := Case{Method: "POST", Path: "/sum", Status: 400, body: []byte(`{}`)}
	hello := Case{Method: "GET", Path: "/hello", Status: 200, Encoding: "gzip", JSON: []byte(`{"result":"Hello world"}`)}
	status := Case{Method: "GET", Path: "/status", Status: 200, JSON: []byte(`{"status":"ok"}`)}
	js := http.Header{"Content-Type": {"application/json; charset=utf-8"}}
	tests := []struct {
		name   string
		c      Case
		status int
		header http.Header
		body   string
		err    string // "" passes
	}{
		{"sum", sum, 200, js, `{"result": 3}`, ""},
		{"sum written as a float", sum, 200, js, `{"result":3.0}`, "result is 3.0, want the integer 3"},
		{"sum in exponent form", sum, 200, js, `{"result":3e0}`, "want the integer 3"},
		{"sum wrong", sum, 200, js, `{"result":4}`, "body"},
		{"wrong status", sum, 500, js, `{"error":"x"}`, "status 500, want 200"},
		{"text/plain", sum, 200, http.Header{"Content-Type": {"text/plain"}}, `{"result":3}`, "Content-Type"},
		{"echo", echo, 200, js, ` { "x" : [1, 2.5] } `, ""},
		{"echo lost a value", echo, 200, js, `{"x":[1]}`, "body"},
		{"error body", bad, 400, js, `{"error":"a and b must be numbers"}`, ""},
		{"error body empty", bad, 400, js, `{"error":""}`, `want {"error": "<message>"}`},
		{"error body not JSON", bad, 400, js, `bad request`, `want {"error": "<message>"}`},
		{"gzip", hello, 200, http.Header{"Content-Type": {"application/json"}, "Content-Encoding": {"gzip"}}, gz(`{"result":"Hello world"}`), ""},
		{"gzip missing", hello, 200, js, `{"result":"Hello world"}`, `Content-Encoding "", want gzip`},
		{"gzip unasked", status, 200, http.Header{"Content-Type": {"application/json"}, "Content-Encoding": {"gzip"}}, gz(`{"status":"ok"}`), "want none"},
		{"identity", status, 200, http.Header{"Content-Type": {"application/json"}, "Content-Encoding": {"identity"}}, `{"status":"ok"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.c.Verify(tt.status, tt.header, []byte(tt.body))
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("rejected a right answer: %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("error %v, want one containing %q", err, tt.err)
			}
		})
	}
}

// TestLoad reads the repository's table and checks what it made of the
// bodies; then broken tables are refused with the case named.
func TestLoad(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	all, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 90 {
		t.Errorf("%d cases, want the 101 of the table", len(all))
	}
	sizes := map[string]int{"echo/any exactly 1 MiB passes": 1 << 20, "echo 1 MiB + 1": 1<<20 + 1, "sum 2 MiB of spaces chunked": 2 << 20}
	for _, c := range all {
		if n, ok := sizes[c.Name]; ok && len(c.RequestBody()) != n {
			t.Errorf("%s: body of %d bytes, want %d", c.Name, len(c.RequestBody()), n)
		}
		if c.Name == "echo fixture" && !bytes.Contains(c.RequestBody(), []byte(`"colors"`)) {
			t.Errorf("echo fixture: body %.80s is not fixtures/echo-body.json", c.RequestBody())
		}
	}

	for _, tt := range []struct{ table, err string }{
		{`{"cases":[{"check":"x","name":"a","method":"GET","path":"/","status":200,"stauts":1}]}`, `unknown field "stauts"`},
		{`{"cases":[{"check":"x","name":"a","method":"GET","path":"/","status":200,"body":"","bodyFixture":"f"}]}`, "one of body"},
		{`{"cases":[{"check":"x","name":"a","method":"GET","path":"/","status":200},{"check":"x","name":"a","method":"GET","path":"/","status":200}]}`, `name "a" is taken`},
		{`{"cases":[{"check":"x","name":"a","method":"POST","path":"/","status":200,"bodyPadded":{"bytes":10,"fill":"zeros"}}]}`, `fill "zeros"`},
		{`{"cases":[{"check":"x","name":"a","method":"GET","path":"nope","status":200}]}`, "case 1"},
		{`{"cases":[{"check":"x","name":"a","method":"GET","path":"/","status":200,"echo":true}]}`, "echo needs a request body"},
	} {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, "fixtures"), 0o755)
		os.WriteFile(filepath.Join(dir, File), []byte(tt.table), 0o644)
		if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("table %s: error %v, want one containing %q", tt.table, err, tt.err)
		}
	}
}
