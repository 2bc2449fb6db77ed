package contract

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"restbench/internal/payload"
)

// The error cases: 400, 413, 404, 405, and bad input that must not crash or
// wedge a server.

// BodyLimit is the largest body /echo, /echo/any and /sum accept.
const BodyLimit = 1 << 20

func checkBadJSON(ctx context.Context, t *Target) (string, error) {
	bodies := []string{`{"a":`, `not json`, `{"colors":[{]}`, ``}
	for _, path := range []string{"/echo", "/echo/any", "/sum"} {
		for _, b := range bodies {
			if err := expectCall(ctx, t, "POST", path, []byte(b), 400); err != nil {
				return "", err
			}
		}
	}
	// /filter finds these at the first token, before any output byte, so it
	// can still answer 400 (later errors abort the stream; see robust).
	for _, b := range []string{`not json`, `{"name":"x"}`, `]`} {
		if err := expectCall(ctx, t, "POST", "/filter", []byte(b), 400); err != nil {
			return "", err
		}
	}
	return "", nil
}

func checkBadParams(ctx context.Context, t *Target) (string, error) {
	for _, q := range []string{"delay=abc", "delay=-1", "delay=10001", "delay=1.5", "delay=", "work=x", "work=10001", "work=-5", "delay=5&work=1e3"} {
		if err := expectCall(ctx, t, "GET", "/time?"+q, nil, 400); err != nil {
			return "", err
		}
	}
	for _, q := range []string{"min_version=abc", "min_version="} {
		if err := expectCall(ctx, t, "POST", "/filter?"+q, []byte(`[]`), 400); err != nil {
			return "", err
		}
	}
	// The bounds themselves are valid.
	for _, q := range []string{"delay=0", "work=0", "delay=0&work=0"} {
		r, err := t.call(ctx, "GET", "/time?"+q, nil)
		if err != nil {
			return "", err
		}
		if err := expectStatus(r, 200); err != nil {
			return "", fmt.Errorf("GET /time?%s: %w", q, err)
		}
	}
	return "", nil
}

func checkTooLarge(ctx context.Context, t *Target) (string, error) {
	over := paddedJSON(BodyLimit + 1024)
	for _, path := range []string{"/echo", "/echo/any", "/sum"} {
		if err := expectCall(ctx, t, "POST", path, over, 413); err != nil {
			return "", closedEarly(err)
		}
		// Without Content-Length (chunked), the limit must hold as the body is read.
		r, err := t.callReader(ctx, "POST", path, io.MultiReader(bytes.NewReader(over)))
		if err != nil {
			return "", closedEarly(fmt.Errorf("chunked: %w", err))
		}
		if err := expectError(r, 413); err != nil {
			return "", fmt.Errorf("POST %s, %d bytes chunked: %w", path, len(over), err)
		}
	}
	// Just under the limit passes.
	under := paddedJSON(BodyLimit - 1024)
	r, err := t.call(ctx, "POST", "/echo/any", under)
	if err != nil {
		return "", err
	}
	if err := expectJSON(r, 200, under); err != nil {
		return "", fmt.Errorf("POST /echo/any, %d bytes (under the 1 MiB limit): %w", len(under), err)
	}
	return "", nil
}

// closedEarly explains the usual cause of a write error here.
func closedEarly(err error) error {
	if msg := err.Error(); strings.Contains(msg, "connection reset") || strings.Contains(msg, "broken pipe") {
		return fmt.Errorf("%w\n(the server closed the connection while the body was still arriving, so its 413 was lost "+
			"to the reset: read and discard the rest of the body, or close gracefully, RFC 9112 section 9.6)", err)
	}
	return err
}

// paddedJSON is a valid JSON object of exactly n bytes (n >= 32).
func paddedJSON(n int) []byte {
	head, tail := `{"a":1,"b":2,"pad":"`, `"}`
	return []byte(head + strings.Repeat("x", n-len(head)-len(tail)) + tail)
}

func checkNotFound(ctx context.Context, t *Target) (string, error) {
	for _, c := range [][2]string{{"GET", "/"}, {"GET", "/nope"}, {"POST", "/nope"}, {"GET", "/status/more"}, {"POST", "/echo/any/more"}} {
		if err := expectCall(ctx, t, c[0], c[1], nil, 404); err != nil {
			return "", err
		}
	}
	return "", nil
}

func checkBadMethod(ctx context.Context, t *Target) (string, error) {
	cases := [][2]string{
		{"POST", "/status"}, {"GET", "/echo"}, {"PUT", "/echo"}, {"GET", "/echo/any"},
		{"GET", "/sum"}, {"DELETE", "/sum"}, {"POST", "/hello"}, {"POST", "/time"}, {"GET", "/filter"},
	}
	for _, c := range cases {
		var body []byte
		if c[0] != "GET" && c[0] != "DELETE" {
			body = []byte(`{}`)
		}
		if err := expectCall(ctx, t, c[0], c[1], body, 405); err != nil {
			return "", err
		}
	}
	return "", nil
}

func expectCall(ctx context.Context, t *Target, method, path string, body []byte, status int) error {
	r, err := t.call(ctx, method, path, body)
	if err != nil {
		return err
	}
	if err := expectError(r, status); err != nil {
		if body != nil {
			return fmt.Errorf("%s %s %s: %w", method, path, clip(body), err)
		}
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	return nil
}

// checkRobust sends input that has crashed or wedged servers: a /filter body
// that breaks after the response started streaming, a body cut off by the
// client, deep nesting. Any answer will do, or a closed connection; what
// counts is that the server still answers /status afterwards.
func checkRobust(ctx context.Context, t *Target) (string, error) {
	var good bytes.Buffer
	payload.Filter(&good, 200_000, 9)
	broken := append(bytes.TrimSuffix(good.Bytes(), []byte("]")), `,{"name":"x","version":}]`...)
	deep := strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)
	var notes []string
	note := func(what string, r *response, err error) {
		switch {
		case err != nil:
			notes = append(notes, what+": connection closed")
		default:
			notes = append(notes, fmt.Sprintf("%s: %d", what, r.status))
		}
	}
	r, err := t.call(ctx, "POST", "/filter", broken)
	note("filter broken mid-stream", r, err)
	r, err = t.call(ctx, "POST", "/echo/any", []byte(deep))
	note("echo/any 100k-deep array", r, err)
	r, err = t.call(ctx, "POST", "/sum", []byte(`{"a":`+strings.Repeat("[", 100_000)+`}`))
	note("sum deep garbage", r, err)
	if err := truncatedRequest(ctx, t, "/echo"); err != nil {
		return "", err
	}
	if err := truncatedRequest(ctx, t, "/filter"); err != nil {
		return "", err
	}
	// Let a crash show before looking.
	time.Sleep(100 * time.Millisecond)
	r, err = t.call(ctx, "GET", "/status", nil)
	if err != nil {
		return "", fmt.Errorf("server no longer answers after bad input (%s): %w", strings.Join(notes, "; "), err)
	}
	if err := expectJSON(r, 200, `{"status":"ok"}`); err != nil {
		return "", fmt.Errorf("after bad input (%s): GET /status: %w", strings.Join(notes, "; "), err)
	}
	return strings.Join(notes, "; "), nil
}

// truncatedRequest announces a body and closes the connection half-way.
func truncatedRequest(ctx context.Context, t *Target, path string) error {
	host := strings.TrimPrefix(t.URL, "http://")
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", host)
	if err != nil {
		return fmt.Errorf("dial %s: %w", host, err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n[{\"name\":\"cut", path, host)
	time.Sleep(20 * time.Millisecond)
	return nil
}
