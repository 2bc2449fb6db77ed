// Package servicetest checks a running Go reference server against the
// contract's table of cases, so that every server's test runs the same cases
// over a real socket. It is the quick, in-process counterpart of `restbench
// verify`, which runs the same table.
package servicetest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"restbench/internal/contract/cases"
)

// root is the repository root: servicetest lives in servers/go/service/servicetest.
func root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "..")
}

// Check runs every case of the contract's table (fixtures/contract-cases.json)
// against the server at baseURL, and two cases of the Go servers' own: a
// /filter body that turns malformed after streaming began (no table row can
// hold it) and the typed /echo.
func Check(t *testing.T, baseURL string) {
	all, err := cases.Load(root())
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{
		Timeout: 10 * time.Second,
		// Compression is checked by hand: the default transport would
		// decompress silently and hide a missing Content-Encoding.
		Transport: &http.Transport{DisableCompression: true},
	}
	t.Run("filter malformed after streaming", func(t *testing.T) { checkFilterAbort(t, client, baseURL) })
	t.Run("echo wrong type", func(t *testing.T) { checkTypedEcho(t, client, baseURL) })
	for _, c := range all {
		t.Run(c.Name, func(t *testing.T) {
			req, err := c.NewRequest(context.Background(), baseURL)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatalf("%s: %v", &c, err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatalf("%s: reading the response: %v", &c, err)
			}
			if err := c.Verify(resp.StatusCode, resp.Header, body); err != nil {
				t.Errorf("%s: %v", &c, err)
			}
		})
	}
}

// checkTypedEcho: beyond the contract (Node's /echo is JSON.parse), the Go
// servers decode /echo into the fixture's structs, so a body of the wrong
// shape is a 400.
func checkTypedEcho(t *testing.T, client *http.Client, baseURL string) {
	resp, err := client.Post(baseURL+"/echo", "application/json", strings.NewReader(`{"colors":"red"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf(`POST /echo {"colors":"red"}: status %d, want 400 (a typed decode refuses a string for an array)`, resp.StatusCode)
	}
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
