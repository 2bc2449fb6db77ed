package contract

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"restbench/internal/payload"
)

// Bad input that must not crash or wedge a server. The plain error cases
// (400, 413, 404, 405) are rows of the contract's table of cases.

// closedEarly explains the usual cause of a write error here.
func closedEarly(err error) error {
	if msg := err.Error(); strings.Contains(msg, "connection reset") || strings.Contains(msg, "broken pipe") {
		return fmt.Errorf("%w\n(the server closed the connection while the body was still arriving, so its 413 was lost "+
			"to the reset: read and discard the rest of the body, or close gracefully, RFC 9112 section 9.6)", err)
	}
	return err
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
