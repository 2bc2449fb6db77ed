// Package http1 writes the HTTP/1.1 requests restbench's load generator
// sends and reads their responses incrementally, allocating nothing per request.
package http1

import (
	"fmt"
	"strconv"
	"strings"
)

// Request is one request to serialise: Method "" is GET, or POST when
// there is a body; Path is the path and query, "" for "/".
type Request struct {
	Method  string
	Path    string
	Headers []string // "Name: value"
	Body    []byte
}

// Serialise writes the bytes of request t to host, once for every send.
// Headers of t override the common headers of the same name; Host,
// Content-Length and Connection are the generator's to set (Connection:
// close without keepAlive).
func Serialise(t Request, host string, common []string, keepAlive bool) ([]byte, error) {
	method := strings.ToUpper(t.Method)
	if method == "" {
		method = "GET"
		if len(t.Body) > 0 {
			method = "POST"
		}
	}
	path := t.Path
	if path == "" {
		path = "/"
	}
	if !strings.HasPrefix(path, "/") {
		return nil, fmt.Errorf("path %q must start with /", path)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\n", method, path, host)
	seen := map[string]bool{}
	for _, list := range [][]string{t.Headers, common} {
		for _, h := range list {
			name, value, ok := strings.Cut(h, ":")
			name = strings.TrimSpace(name)
			if !ok || name == "" || strings.ContainsAny(h, "\r\n") {
				return nil, fmt.Errorf("header %q is not 'Name: value'", h)
			}
			key := strings.ToLower(name)
			if seen[key] || key == "host" || key == "content-length" || key == "connection" {
				continue
			}
			seen[key] = true
			fmt.Fprintf(&b, "%s: %s\r\n", name, strings.TrimSpace(value))
		}
	}
	if len(t.Body) > 0 || method == "POST" || method == "PUT" || method == "PATCH" {
		b.WriteString("Content-Length: " + strconv.Itoa(len(t.Body)) + "\r\n")
	}
	if !keepAlive {
		b.WriteString("Connection: close\r\n")
	}
	b.WriteString("\r\n")
	b.Write(t.Body)
	return []byte(b.String()), nil
}

// Idempotent says whether the request raw (as Serialise wrote it) may be
// repeated without changing what the server did: GET, HEAD, PUT, DELETE and
// OPTIONS. POST and PATCH may not.
func Idempotent(raw []byte) bool {
	method, _, _ := strings.Cut(string(raw), " ")
	switch method {
	case "GET", "HEAD", "PUT", "DELETE", "OPTIONS":
		return true
	}
	return false
}
