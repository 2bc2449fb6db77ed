package contract

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"restbench/internal/contract/cases"
	"restbench/internal/rawhttp"
)

// framingBound is how long a body case may take to be answered in the
// framing check. Every case is a small JSON body or a 2 MiB one over
// loopback: a server that needs more has stopped reading, or never answers.
const framingBound = 3 * time.Second

// framingChecks are the table checks whose cases carry a body.
var framingChecks = []string{"echo", "echo-any", "sum", "bad-json", "too-large"}

// checkFraming sends every body case of the table in each framing
// (Content-Length, chunked, split across writes), with and without
// Connection: close, from a raw socket and without Expect, and judges each
// answer as the table does. A case answered on a kept-alive connection is
// followed by GET /status on the same connection: a server that left part
// of the body unread would parse it as the next request.
func checkFraming(ctx context.Context, t *Target) (string, error) {
	all, err := loadCases(t.Root)
	if err != nil {
		return "", err
	}
	host := hostOf(t.URL)
	n, slowest := 0, time.Duration(0)
	for _, c := range all {
		if c.RequestBody() == nil || !slices.Contains(framingChecks, c.Check) {
			continue
		}
		for _, f := range rawhttp.Framings {
			for _, close := range []bool{false, true} {
				if ctx.Err() != nil {
					return "", ctx.Err()
				}
				n++
				elapsed, err := framedCase(ctx, host, &c, f, close)
				if err != nil {
					return "", fmt.Errorf("%s, sent %s: %w", &c, rawhttp.SentAs(f, close), err)
				}
				slowest = max(slowest, elapsed)
			}
		}
	}
	if n == 0 {
		return "", fmt.Errorf("%s has no case with a body: restore it (git checkout %s)", cases.File, cases.File)
	}
	return fmt.Sprintf("%d requests, slowest answer %v", n, slowest.Round(time.Millisecond)), nil
}

// framedCase sends one case in framing f and judges the answer.
func framedCase(ctx context.Context, host string, c *cases.Case, f rawhttp.Framing, close bool) (time.Duration, error) {
	var header []string
	for k, v := range c.Header {
		header = append(header, k+": "+v)
	}
	if !c.NoContentType {
		header = append(header, "Content-Type: application/json")
	}
	pieces := rawhttp.Build(c.Method, c.Path, host, header, c.RequestBody(), f, close)
	a, err := rawhttp.Exchange(ctx, host, pieces, framingBound)
	if err != nil {
		if errors.Is(err, rawhttp.ErrReset) && c.Status == 413 {
			err = closedEarly(err)
		}
		return 0, err
	}
	defer a.Conn.Close()
	if err := c.Verify(a.Resp.StatusCode, a.Resp.Header, a.Body); err != nil {
		return 0, err
	}
	if close || a.Resp.Close {
		return a.Elapsed, nil
	}
	next, err := a.Next(rawhttp.Build("GET", "/status", host, nil, nil, rawhttp.Length, true), framingBound)
	if errors.Is(err, rawhttp.ErrClosed) {
		// A server may close an idle connection at any time, and a client
		// retries a GET on a fresh one: not a fault.
		return a.Elapsed, nil
	}
	if err != nil {
		return 0, fmt.Errorf("answered %d and kept the connection open, but GET /status on it: %w", a.Resp.StatusCode, err)
	}
	if next.Resp.StatusCode != 200 {
		return 0, fmt.Errorf("answered %d and kept the connection open, but GET /status on it got %d %s "+
			"(was the rest of the body read as a request?)", a.Resp.StatusCode, next.Resp.StatusCode, cases.Clip(next.Body))
	}
	return a.Elapsed, nil
}
