// Package rawhttp provides raw HTTP/1.1 exchanges: request bytes written to
// a TCP connection exactly as given, in pieces, while the answer is read.
package rawhttp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"syscall"
	"time"
)

// A raw exchange: request bytes written to a TCP connection exactly as
// given, in pieces, while the answer is read at the same time. net/http's
// client cannot send a body in both framings at will, nor send an
// ill-formed request, and it hides a reset behind a retry; verify's
// framing, malformed and slow-client checks need all three.

// Framing is how a request body is sent.
type Framing string

const (
	// Length sends Content-Length and the body in the same write as the head.
	Length Framing = "length"
	// Chunked sends Transfer-Encoding: chunked, one write per chunk.
	Chunked Framing = "chunked"
	// Split sends Content-Length, then the body in several writes with
	// pauses between them, so that the server reads it in pieces.
	Split Framing = "split"
)

// Framings are every framing, in the order checks send them.
var Framings = []Framing{Length, Chunked, Split}

// SentAs names a framing for a message.
func SentAs(f Framing, close bool) string {
	s := map[Framing]string{Length: "with Content-Length", Chunked: "chunked", Split: "with Content-Length in several writes"}[f]
	if close {
		s += " and Connection: close"
	}
	return s
}

// Build writes a request with this framing and returns its pieces,
// each to be sent in its own write. header lines are "Name: value".
// No Expect header is ever sent: a client that sends its body at once is
// what a server must cope with.
func Build(method, target, host string, header []string, body []byte, f Framing, close bool) [][]byte {
	var head bytes.Buffer
	fmt.Fprintf(&head, "%s %s HTTP/1.1\r\nHost: %s\r\n", method, target, host)
	for _, h := range header {
		head.WriteString(h + "\r\n")
	}
	if close {
		head.WriteString("Connection: close\r\n")
	}
	if body == nil && f != Chunked {
		head.WriteString("\r\n")
		return [][]byte{head.Bytes()}
	}
	switch f {
	case Chunked:
		head.WriteString("Transfer-Encoding: chunked\r\n\r\n")
		pieces := [][]byte{head.Bytes()}
		for _, c := range splitN(body, 3, 64<<10) {
			pieces = append(pieces, fmt.Appendf(nil, "%x\r\n%s\r\n", len(c), c))
		}
		return append(pieces, []byte("0\r\n\r\n"))
	case Split:
		fmt.Fprintf(&head, "Content-Length: %d\r\n\r\n", len(body))
		return append([][]byte{head.Bytes()}, splitN(body, 3, 64<<10)...)
	default:
		fmt.Fprintf(&head, "Content-Length: %d\r\n\r\n", len(body))
		return [][]byte{append(head.Bytes(), body...)}
	}
}

// splitN cuts b into at least n non-empty pieces of at most max bytes
// (fewer when b is shorter than n).
func splitN(b []byte, n, max int) [][]byte {
	size := min(max, (len(b)+n-1)/n)
	var out [][]byte
	for len(b) > 0 {
		k := min(size, len(b))
		out = append(out, b[:k])
		b = b[k:]
	}
	return out
}

// Answer is what came back for a raw request.
type Answer struct {
	Resp    *http.Response // nil when the server closed without an answer
	Body    []byte
	Elapsed time.Duration // from the first byte sent to the end of the answer
	Conn    net.Conn      // still open, for a next request on the same connection
	br      *bufio.Reader
}

// Errors of a raw exchange, for the checks to tell apart.
var (
	ErrNoAnswer = errors.New("no answer")
	ErrReset    = errors.New("connection reset before the answer could be read")
	ErrClosed   = errors.New("connection closed without an answer")
)

// pieceGap is the pause between the writes of a split body.
const pieceGap = 5 * time.Millisecond

// Exchange dials addr, writes the pieces (pausing between them) while
// reading the answer, and returns once a whole response has been read, the
// server closed, or bound has passed. The caller closes the answer's Conn.
func Exchange(ctx context.Context, addr string, pieces [][]byte, bound time.Duration) (*Answer, error) {
	return dialExchange(ctx, addr, pieces, false, bound)
}

// ExchangeEOF is Exchange that shuts down the sending side after the
// last piece, as a client does that has nothing more to send: the server
// sees the end of its input.
func ExchangeEOF(ctx context.Context, addr string, pieces [][]byte, bound time.Duration) (*Answer, error) {
	return dialExchange(ctx, addr, pieces, true, bound)
}

func dialExchange(ctx context.Context, addr string, pieces [][]byte, shut bool, bound time.Duration) (*Answer, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", addr, err)
	}
	a, err := exchange(c, bufio.NewReader(c), pieces, shut, bound)
	if err != nil {
		c.Close()
		return nil, err
	}
	return a, nil
}

// Next sends another request on the answer's connection.
func (a *Answer) Next(pieces [][]byte, bound time.Duration) (*Answer, error) {
	return exchange(a.Conn, a.br, pieces, false, bound)
}

// More reports whether the server sends anything more on the answer's
// connection within bound: a smuggled second request it answered.
func (a *Answer) More(bound time.Duration) bool {
	a.Conn.SetReadDeadline(time.Now().Add(bound))
	_, err := a.br.Peek(1)
	return err == nil
}

func exchange(c net.Conn, br *bufio.Reader, pieces [][]byte, shut bool, bound time.Duration) (*Answer, error) {
	start := time.Now()
	c.SetDeadline(start.Add(bound))
	wrote := make(chan error, 1)
	go func() {
		for i, p := range pieces {
			if i > 0 && len(pieces) > 2 {
				time.Sleep(pieceGap)
			}
			if _, err := c.Write(p); err != nil {
				wrote <- err
				return
			}
		}
		if tc, ok := c.(*net.TCPConn); ok && shut {
			wrote <- tc.CloseWrite()
			return
		}
		wrote <- nil
	}()
	resp, err := http.ReadResponse(br, nil)
	var body []byte
	if err == nil {
		body, err = io.ReadAll(io.LimitReader(resp.Body, 64<<20))
		resp.Body.Close()
	}
	elapsed := time.Since(start)
	if err != nil {
		// Unblock the writer: a server that neither reads nor answers
		// would leave it stuck in Write.
		c.SetDeadline(time.Now())
		werr := <-wrote
		return nil, exchangeError(err, werr, resp != nil, bound)
	}
	// Wait for the writer only briefly: a server may answer (413) before
	// the body is all sent, and is then free to stop reading it.
	select {
	case <-wrote:
	case <-time.After(time.Until(start.Add(bound))):
	}
	c.SetDeadline(time.Time{})
	return &Answer{Resp: resp, Body: body, Elapsed: elapsed, Conn: c, br: br}, nil
}

// exchangeError names what went wrong: no answer in time, a reset, or a close.
func exchangeError(err, werr error, gotHead bool, bound time.Duration) error {
	what := "the answer"
	if gotHead {
		what = "the answer's body"
	}
	var ne net.Error
	switch {
	case errors.Is(err, syscall.ECONNRESET) || errors.Is(werr, syscall.ECONNRESET):
		return fmt.Errorf("%w (reading %s: %v; writing: %v)", ErrReset, what, err, werr)
	case errors.As(err, &ne) && ne.Timeout() || errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("%w within %v (writing: %v)", ErrNoAnswer, bound, orNone(werr))
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%w (reading %s: %v)", ErrClosed, what, err)
	}
	return fmt.Errorf("reading %s: %w", what, err)
}

func orNone(err error) string {
	if err == nil {
		return "all sent"
	}
	return err.Error()
}
