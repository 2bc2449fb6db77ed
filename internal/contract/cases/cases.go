// Package cases reads the contract's table of request/response cases,
// fixtures/contract-cases.json, and judges a response against a case. The
// table is the one list of what a server must answer: `restbench verify`
// (internal/contract) and the Go servers' tests (servers/go/service/servicetest)
// run it through this package, the Node servers' tests read the same file.
package cases

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
)

// File is the table, relative to the repository root.
const File = "fixtures/contract-cases.json"

// Case is one request and what the answer must be.
type Case struct {
	// Check is the row of the verify table the case belongs to.
	Check  string            `json:"check"`
	Name   string            `json:"name"`
	Method string            `json:"method"`
	Path   string            `json:"path"`
	Header map[string]string `json:"headers,omitempty"`

	// The request body is one of Body (literal), BodyFixture (a file of
	// fixtures/) or BodyPadded (made to a size); none sends no body.
	Body        *string `json:"body,omitempty"`
	BodyFixture string  `json:"bodyFixture,omitempty"`
	BodyPadded  *Padded `json:"bodyPadded,omitempty"`
	// NoContentType sends a body without Content-Type: application/json.
	NoContentType bool `json:"noContentType,omitempty"`
	// Chunked sends the body without Content-Length.
	Chunked bool `json:"chunked,omitempty"`

	// Status is the status the answer must have. Every answer is
	// application/json, and every error answer is {"error": "<message>"}.
	Status int `json:"status"`
	// JSON, when set, must be JSON-equal to the response body, and its
	// integers written as integers (10476, not 10476.0).
	JSON json.RawMessage `json:"json,omitempty"`
	// Echo: the response body must be JSON-equal to the request body.
	Echo bool `json:"echo,omitempty"`
	// Encoding is the Content-Encoding the answer must have: "gzip", or ""
	// for none (identity).
	Encoding string `json:"encoding,omitempty"`

	body []byte
}

// Padded is a body of exactly Bytes bytes: "object", a valid JSON object
// {"a":1,"b":2,"pad":"xx…"}; "string", a valid JSON string "aa…"; or
// "spaces", whitespace that is no JSON value at all.
type Padded struct {
	Bytes int    `json:"bytes"`
	Fill  string `json:"fill"`
}

// Load reads the table of the repository at root, checks it and reads or
// makes every request body.
func Load(root string) ([]Case, error) {
	path := filepath.Join(root, File)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("contract cases: %w (run inside the restbench checkout)", err)
	}
	defer f.Close()
	var table struct {
		About string `json:"about"`
		Cases []Case `json:"cases"`
	}
	dec := json.NewDecoder(f)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&table); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	seen := map[string]bool{}
	for i := range table.Cases {
		c := &table.Cases[i]
		if err := c.resolve(root); err != nil {
			return nil, fmt.Errorf("%s: case %d (%q): %w", path, i+1, c.Name, err)
		}
		if seen[c.Name] {
			return nil, fmt.Errorf("%s: case %d: name %q is taken: names must be unique, they name the tests", path, i+1, c.Name)
		}
		seen[c.Name] = true
	}
	return table.Cases, nil
}

// resolve checks the case and reads or makes its body.
func (c *Case) resolve(root string) error {
	switch {
	case c.Check == "" || c.Name == "" || c.Method == "" || !strings.HasPrefix(c.Path, "/"):
		return fmt.Errorf("check, name, method and path (starting with /) are required")
	case c.Status < 100 || c.Status > 599:
		return fmt.Errorf("status %d is not an HTTP status", c.Status)
	case c.Encoding != "" && c.Encoding != "gzip":
		return fmt.Errorf(`encoding %q: use "gzip" or leave it out`, c.Encoding)
	}
	sources := 0
	for _, set := range []bool{c.Body != nil, c.BodyFixture != "", c.BodyPadded != nil} {
		if set {
			sources++
		}
	}
	if sources > 1 {
		return fmt.Errorf("give one of body, bodyFixture and bodyPadded")
	}
	switch {
	case c.Body != nil:
		c.body = []byte(*c.Body)
	case c.BodyFixture != "":
		b, err := os.ReadFile(filepath.Join(root, "fixtures", c.BodyFixture))
		if err != nil {
			return err
		}
		c.body = b
	case c.BodyPadded != nil:
		b, err := c.BodyPadded.make()
		if err != nil {
			return err
		}
		c.body = b
	}
	if c.Echo && c.body == nil {
		return fmt.Errorf("echo needs a request body")
	}
	if c.JSON != nil && !json.Valid(c.JSON) {
		return fmt.Errorf("json is not valid JSON")
	}
	return nil
}

func (p Padded) make() ([]byte, error) {
	var head, tail string
	switch p.Fill {
	case "object":
		head, tail = `{"a":1,"b":2,"pad":"`, `"}`
	case "string":
		head, tail = `"`, `"`
	case "spaces":
		return bytes.Repeat([]byte(" "), p.Bytes), nil
	default:
		return nil, fmt.Errorf(`bodyPadded: fill %q: use "object", "string" or "spaces"`, p.Fill)
	}
	n := p.Bytes - len(head) - len(tail)
	if n < 0 {
		return nil, fmt.Errorf("bodyPadded: %d bytes is too few for a padded %s", p.Bytes, p.Fill)
	}
	return []byte(head + strings.Repeat("a", n) + tail), nil
}

// RequestBody is the body the case sends; nil when it sends none.
func (c *Case) RequestBody() []byte { return c.body }

// NewRequest makes the case's request to the server at baseURL.
func (c *Case) NewRequest(ctx context.Context, baseURL string) (*http.Request, error) {
	var body io.Reader
	if c.body != nil {
		body = bytes.NewReader(c.body)
		if c.Chunked {
			body = io.MultiReader(body) // hides the length: net/http sends it chunked
		}
	}
	req, err := http.NewRequestWithContext(ctx, c.Method, baseURL+c.Path, body)
	if err != nil {
		return nil, err
	}
	if c.body != nil && !c.NoContentType {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range c.Header {
		req.Header.Set(k, v)
	}
	return req, nil
}

// String names the request: POST /sum {"a":1}.
func (c *Case) String() string {
	s := c.Method + " " + c.Path
	if h := c.Header["Accept-Encoding"]; h != "" {
		s += " (Accept-Encoding: " + h + ")"
	}
	switch {
	case c.BodyFixture != "":
		s += " with fixtures/" + c.BodyFixture
	case c.BodyPadded != nil:
		s += fmt.Sprintf(" with %d bytes (%s)", c.BodyPadded.Bytes, c.BodyPadded.Fill)
	case c.body != nil:
		s += " " + Clip(c.body)
	}
	if c.Chunked {
		s += ", chunked"
	}
	return s
}

// Verify judges a response to the case: status, Content-Type, the error
// body, Content-Encoding and the body. body is as it came, compressed
// or not. The error says what is wrong, for the caller to prefix with c.
func (c *Case) Verify(status int, header http.Header, body []byte) error {
	if status != c.Status {
		return fmt.Errorf("status %d, want %d (body %s)", status, c.Status, Clip(body))
	}
	ce := header.Get("Content-Encoding")
	switch {
	case c.Encoding == "gzip" && ce != "gzip":
		return fmt.Errorf("Content-Encoding %q, want gzip", ce)
	case c.Encoding == "" && ce != "" && ce != "identity":
		return fmt.Errorf("Content-Encoding %q, want none (compress /hello only, and only when asked)", ce)
	}
	if ce == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return fmt.Errorf("body is not gzip: %w", err)
		}
		if body, err = io.ReadAll(zr); err != nil {
			return fmt.Errorf("gunzip: %w", err)
		}
	}
	ct := header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
		return fmt.Errorf("Content-Type %q, want application/json", ct)
	}
	if status >= 400 {
		var e struct {
			Error *string `json:"error"`
		}
		if err := json.Unmarshal(body, &e); err != nil || e.Error == nil || *e.Error == "" {
			return fmt.Errorf(`body %s, want {"error": "<message>"}`, Clip(body))
		}
	}
	want := []byte(c.JSON)
	if c.Echo {
		want = c.body
	}
	if want == nil {
		return nil
	}
	if !Equal(body, want) {
		return fmt.Errorf("body %s, want %s", Clip(body), Clip(want))
	}
	if c.JSON != nil {
		return sameIntegers(body, want)
	}
	return nil
}

// Equal reports whether a and b hold equal JSON values.
func Equal(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// sameIntegers checks that every number want writes as an integer, got
// writes as one too: a sum of integers is 10476, not 10476.0 or 1.0476e4.
func sameIntegers(got, want []byte) error {
	var g, w any
	if decodeNumbers(got, &g) != nil || decodeNumbers(want, &w) != nil {
		return nil // Equal has judged the values already
	}
	return walkIntegers(g, w, "")
}

func decodeNumbers(b []byte, v *any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return dec.Decode(v)
}

func walkIntegers(g, w any, at string) error {
	switch w := w.(type) {
	case json.Number:
		if gn, ok := g.(json.Number); ok && !strings.ContainsAny(string(w), ".eE") && strings.ContainsAny(string(gn), ".eE") {
			if at == "" {
				at = "the value"
			}
			return fmt.Errorf("%s is %s, want the integer %s", at, gn, w)
		}
	case map[string]any:
		gm, _ := g.(map[string]any)
		for k, wv := range w {
			if err := walkIntegers(gm[k], wv, strings.TrimPrefix(at+"."+k, ".")); err != nil {
				return err
			}
		}
	case []any:
		ga, _ := g.([]any)
		for i, wv := range w {
			if i < len(ga) {
				if err := walkIntegers(ga[i], wv, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// Clip shortens a body for a message, on one line.
func Clip(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > 160 {
		s = s[:160] + fmt.Sprintf("… (%d bytes)", len(b))
	}
	if s == "" {
		return "(empty)"
	}
	return s
}
