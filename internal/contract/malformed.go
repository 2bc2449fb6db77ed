package contract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"strings"
	"time"

	"restbench/internal/malformed"
	"restbench/internal/rawhttp"
)

// checkMalformed sends the corpus, one request per connection, and judges
// each answer; /status must answer after every 50 requests and at the end.
func checkMalformed(ctx context.Context, t *Target) (string, error) {
	c, err := malformed.Load(t.Root)
	if err != nil {
		return "", err
	}
	host := hostOf(t.URL)
	reqs, err := c.Requests(t.Root, host)
	if err != nil {
		return "", err
	}
	bound := time.Duration(c.BoundMs) * time.Millisecond
	for i, m := range reqs {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if err := sendMalformed(ctx, host, m, bound); err != nil {
			return "", fmt.Errorf("%s (seed %d of %s): %w", m.Name, c.Seed, malformed.CorpusFile, err)
		}
		if (i+1)%50 == 0 || i == len(reqs)-1 {
			if err := statusAnswers(ctx, t, bound); err != nil {
				return "", fmt.Errorf("after %s: %w", m.Name, err)
			}
		}
	}
	return fmt.Sprintf("%d requests (seed %d)", len(reqs), c.Seed), nil
}

// sendMalformed sends one request and judges what came back.
func sendMalformed(ctx context.Context, host string, m malformed.Request, bound time.Duration) error {
	exchange := rawhttp.Exchange
	if m.EOF {
		exchange = rawhttp.ExchangeEOF
	}
	a, err := exchange(ctx, host, m.Pieces, bound)
	switch {
	case errors.Is(err, rawhttp.ErrClosed) && m.Expect == malformed.AnyAnswer:
		return nil // a clean close is an answer to garbage
	case errors.Is(err, rawhttp.ErrClosed) && m.Expect == malformed.JSONAnswer && strings.Contains(err.Error(), "body"):
		return nil // a /filter aborted after its 200 head
	case errors.Is(err, rawhttp.ErrReset) && m.Flood:
		return nil
	case errors.Is(err, rawhttp.ErrReset) && m.Expect == malformed.Refused413:
		return closedEarly(err)
	case err != nil:
		return err
	}
	defer a.Conn.Close()
	status := a.Resp.StatusCode
	switch m.Expect {
	case malformed.Refused413:
		if status != 413 {
			return fmt.Errorf("status %d, want 413 (body %s)", status, clip(a.Body))
		}
	case malformed.JSONError:
		if status < 400 || status > 499 {
			return fmt.Errorf("status %d, want 400 (body %s)", status, clip(a.Body))
		}
	}
	if m.Expect != malformed.AnyAnswer && status >= 400 {
		if err := jsonError(a); err != nil {
			return fmt.Errorf("status %d: %w", status, err)
		}
	}
	if m.Smuggle && !a.Resp.Close {
		if a.More(bound) {
			return errors.New("answered the request after it on the same connection; RFC 9112 section 6.3: close the connection after a request with both Content-Length and Transfer-Encoding (or refuse it)")
		}
	}
	return nil
}

// jsonError checks the contract's error body: application/json and
// {"error": "<message>"}.
func jsonError(a *rawhttp.Answer) error {
	ct := a.Resp.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
		return fmt.Errorf("Content-Type %q, want application/json", ct)
	}
	var e struct {
		Error *string `json:"error"`
	}
	if err := json.Unmarshal(a.Body, &e); err != nil || e.Error == nil || *e.Error == "" {
		return fmt.Errorf(`body %s, want {"error": "<message>"}`, clip(a.Body))
	}
	return nil
}

// statusAnswers checks that GET /status answers 200 on a new connection
// within bound.
func statusAnswers(ctx context.Context, t *Target, bound time.Duration) error {
	a, err := rawhttp.Exchange(ctx, hostOf(t.URL), rawhttp.Build("GET", "/status", hostOf(t.URL), nil, nil, rawhttp.Length, true), bound)
	if err != nil {
		return fmt.Errorf("GET /status: %w", err)
	}
	defer a.Conn.Close()
	if a.Resp.StatusCode != 200 {
		return fmt.Errorf("GET /status: status %d (body %s)", a.Resp.StatusCode, clip(a.Body))
	}
	return nil
}
