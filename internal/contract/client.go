package contract

import (
	"bytes"
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
	"time"
)

// NewClient returns the HTTP client the checks use: plain net/http, no
// transparent gzip (the gzip check must see the raw encoding), keep-alive on.
func NewClient() *http.Client {
	return &http.Client{Transport: &http.Transport{
		DisableCompression:  true,
		MaxIdleConnsPerHost: 16,
		IdleConnTimeout:     10 * time.Second,
	}}
}

// response is a whole response, read into memory (checks that stream read
// the body themselves).
type response struct {
	status  int
	header  http.Header
	body    []byte
	elapsed time.Duration
}

// call sends one request and reads the whole response. hdr is name, value
// pairs. A JSON Content-Type is sent with every body.
func (t *Target) call(ctx context.Context, method, path string, body []byte, hdr ...string) (*response, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	return t.callReader(ctx, method, path, r, hdr...)
}

func (t *Target) callReader(ctx context.Context, method, path string, body io.Reader, hdr ...string) (*response, error) {
	req, err := http.NewRequestWithContext(ctx, method, t.URL+path, body)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	start := time.Now()
	resp, err := t.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("%s %s: reading the response: %w", method, path, err)
	}
	return &response{resp.StatusCode, resp.Header, data, time.Since(start)}, nil
}

// expectJSON checks the status, the Content-Type and that the body is
// JSON-equal to want (any value encoding/json can marshal, or a
// json.RawMessage).
func expectJSON(r *response, status int, want any) error {
	if err := expectStatus(r, status); err != nil {
		return err
	}
	if err := expectJSONType(r); err != nil {
		return err
	}
	if !jsonEqual(r.body, want) {
		return fmt.Errorf("body %s, want %s", clip(r.body), clip(marshal(want)))
	}
	return nil
}

// expectError checks an error response: the status and a JSON body
// {"error": "<message>"}.
func expectError(r *response, status int) error {
	if err := expectStatus(r, status); err != nil {
		return err
	}
	if err := expectJSONType(r); err != nil {
		return err
	}
	var e struct {
		Error *string `json:"error"`
	}
	if err := json.Unmarshal(r.body, &e); err != nil || e.Error == nil || *e.Error == "" {
		return fmt.Errorf("body %s, want {\"error\": \"<message>\"}", clip(r.body))
	}
	return nil
}

func expectStatus(r *response, status int) error {
	if r.status != status {
		return fmt.Errorf("status %d, want %d (body %s)", r.status, status, clip(r.body))
	}
	return nil
}

func expectJSONType(r *response) error {
	ct := r.header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
		return fmt.Errorf("Content-Type %q, want application/json", ct)
	}
	return nil
}

// jsonEqual says whether got decodes to the same value as want.
func jsonEqual(got []byte, want any) bool {
	var a, b any
	if json.Unmarshal(got, &a) != nil {
		return false
	}
	if json.Unmarshal(marshal(want), &b) != nil {
		return false
	}
	return reflect.DeepEqual(a, b)
}

func marshal(v any) []byte {
	switch v := v.(type) {
	case []byte:
		return v
	case json.RawMessage:
		return v
	case string:
		return []byte(v)
	}
	b, _ := json.Marshal(v)
	return b
}

// clip shortens a body for a message.
func clip(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ") // one line, however the body was indented
	if len(s) > 160 {
		s = s[:160] + fmt.Sprintf("… (%d bytes)", len(b))
	}
	if s == "" {
		return "(empty)"
	}
	return s
}

// fixture reads a shared request body from fixtures/.
func (t *Target) fixture(name string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(t.Root, "fixtures", name))
	if err != nil {
		return nil, fmt.Errorf("fixture: %w (run restbench inside the checkout)", err)
	}
	return b, nil
}
