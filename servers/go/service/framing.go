package service

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"sync/atomic"
)

// RFC 9112 §6.3: a server that reads a request with both Content-Length and
// Transfer-Encoding by its chunked framing must close the connection after
// the answer (a front end that framed it by Content-Length would read the
// rest as a second, smuggled request). net/http reads it chunked but keeps
// the connection (golang/go#80942, still so in go1.27.4), and it deletes the
// Content-Length before a handler sees the request, so no handler can tell.
// The four net/http servers therefore serve through a listener whose
// connections note, as their bytes go by, each request head that carries
// both; the handler of the next chunked request on that connection answers
// with Connection: close.

// MainHTTP serves h with net/http as Main does, closing connections after
// a request with conflicting framing.
func MainHTTP(id string, h http.Handler) {
	srv := NewHTTPServer(h)
	Main(id, func(ln net.Listener) error { return srv.Serve(NoteFraming(ln)) }, srv.Shutdown)
}

// NewHTTPServer is an http.Server for h whose handler closes the connection
// after a request whose head had Content-Length and Transfer-Encoding. It
// must serve a listener from NoteFraming, which notes them.
func NewHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if len(r.TransferEncoding) > 0 {
				if c, ok := r.Context().Value(framingKey{}).(*framingConn); ok && c.conflicts.Load() > 0 {
					c.conflicts.Add(-1)
					w.Header().Set("Connection", "close")
				}
			}
			h.ServeHTTP(w, r)
		}),
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			if fc, ok := c.(*framingConn); ok {
				return context.WithValue(ctx, framingKey{}, fc)
			}
			return ctx
		},
	}
}

// NoteFraming wraps ln for a server from NewHTTPServer.
func NoteFraming(ln net.Listener) net.Listener { return framingListener{ln} }

type framingKey struct{}

type framingListener struct{ net.Listener }

func (l framingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	// Embedding the *net.TCPConn keeps CloseWrite, which net/http needs to
	// close without a reset (docs/contract.md, the 413 after Connection:
	// close), and ReadFrom.
	if tc, ok := c.(*net.TCPConn); ok {
		return &framingConn{TCPConn: tc}, nil
	}
	return c, err
}

type framingConn struct {
	*net.TCPConn
	heads     headScanner // touched by Read only; net/http never reads concurrently
	conflicts atomic.Int32
}

func (c *framingConn) Read(p []byte) (int, error) {
	n, err := c.TCPConn.Read(p)
	if k := c.heads.feed(p[:n]); k > 0 { // no atomic write on a read without one
		c.conflicts.Add(int32(k))
	}
	return n, err
}

// headScanner finds the header blocks in a connection's bytes and counts
// those with both Content-Length and Transfer-Encoding. It looks at the first
// bytes of each line only, and skips a Content-Length body whole, so a
// request costs it a few IndexByte calls. A chunked body is scanned by line:
// a body line that looks like those headers can at worst close a connection
// that could have stayed open, never keep one open that should close.
type headScanner struct {
	line   [len("transfer-encoding:") + 20]byte // the start of the current line
	n      int                                  // bytes of it in line (may exceed len(line))
	skip   int64                                // body bytes still to pass over
	cl, te bool                                 // the current block's headers so far
	length int64                                // its Content-Length, 0 if unreadable
}

// feed scans b and returns how many blocks with both headers ended in it.
func (s *headScanner) feed(b []byte) (conflicts int) {
	for len(b) > 0 {
		if s.skip > 0 {
			k := min(s.skip, int64(len(b)))
			s.skip -= k
			b = b[k:]
			continue
		}
		i := bytes.IndexByte(b, '\n')
		end := i
		if i < 0 {
			end = len(b)
		}
		if s.n < len(s.line) {
			s.n += copy(s.line[s.n:], b[:end])
		} else {
			s.n += end
		}
		if i < 0 {
			return conflicts
		}
		b = b[i+1:]
		if s.endLine() {
			conflicts++
		}
	}
	return conflicts
}

// endLine reads the line just ended and says whether it closed a block with
// both headers.
func (s *headScanner) endLine() bool {
	line := s.line[:min(s.n, len(s.line))]
	full := s.n <= len(s.line)
	s.n = 0
	if full {
		line = bytes.TrimSuffix(line, []byte("\r"))
	}
	if full && len(line) == 0 {
		conflict := s.cl && s.te
		if s.cl && !s.te && s.length > 0 {
			s.skip = s.length
		}
		s.cl, s.te, s.length = false, false, 0
		return conflict
	}
	if name, value, ok := bytes.Cut(line, []byte(":")); ok {
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			s.cl = true
			s.length = 0
			if full {
				s.length = digits(bytes.TrimSpace(value))
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			s.te = true
		}
	}
	return false
}

// digits reads a decimal Content-Length, 0 for anything else (net/http
// refuses those, and an unskipped body is only scanned).
func digits(b []byte) int64 {
	if len(b) == 0 || len(b) > 18 {
		return 0
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int64(c-'0')
	}
	return n
}
