package contract

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"time"

	"restbench/internal/contract/cases"
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

// call sends one request and reads the whole response. A JSON Content-Type
// is sent with every body.
func (t *Target) call(ctx context.Context, method, path string, body []byte) (*response, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, t.URL+path, r)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return t.send(req)
}

// send sends a request and reads the whole response.
func (t *Target) send(req *http.Request) (*response, error) {
	method, path := req.Method, req.URL.RequestURI()
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
// JSON-equal to want.
func expectJSON(r *response, status int, want string) error {
	if err := expectStatus(r, status); err != nil {
		return err
	}
	if err := expectJSONType(r); err != nil {
		return err
	}
	if !cases.Equal(r.body, []byte(want)) {
		return fmt.Errorf("body %s, want %s", clip(r.body), want)
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

// clip shortens a body for a message.
func clip(b []byte) string { return cases.Clip(b) }
