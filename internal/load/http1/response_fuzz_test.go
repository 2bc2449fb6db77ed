package http1

import (
	"bytes"
	"testing"
)

// parsed is what the parser made of a whole input.
type parsed struct {
	n      int // bytes consumed
	done   bool
	failed bool
	status int
	close  bool
	body   string
}

// parseIn feeds in to a fresh parser in pieces of at most step bytes, as
// reads split a response anywhere.
func parseIn(t *testing.T, in []byte, step int, noBody bool) parsed {
	var r Response
	r.Reset()
	r.KeepBody, r.NoBody = true, noBody
	var p parsed
	for p.n < len(in) && !p.done {
		piece := in[p.n:min(p.n+step, len(in))]
		k, done, err := r.Feed(piece)
		if k < 0 || k > len(piece) {
			t.Fatalf("feed consumed %d of %d bytes", k, len(piece))
		}
		p.n += k
		p.done = done
		if err != nil {
			p.failed = true
			return p
		}
		if !done && k < len(piece) {
			t.Fatalf("feed stopped at %d of %d bytes without being done or failing", k, len(piece))
		}
	}
	if !p.done {
		p.done = r.EOF()
	}
	p.status, p.close, p.body = r.Status, r.Close, string(r.Body)
	return p
}

// FuzzResponse feeds arbitrary bytes to the load generator's response
// parser, whole and split, and checks that it never panics, never consumes
// more than it is given, and reads a response the same way however the
// reads split it.
func FuzzResponse(f *testing.F) {
	for _, s := range []string{
		"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nX-T: 1\r\n\r\n",
		"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 413 Payload Too Large\r\nConnection: close\r\nContent-Length: 2\r\n\r\nno",
		"HTTP/1.0 200 OK\r\n\r\nuntil close",
		"HTTP/1.1 204 No Content\r\nContent-Length: 9\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffff\r\n",
	} {
		f.Add([]byte(s), uint8(1), false)
	}
	f.Fuzz(func(t *testing.T, in []byte, step uint8, noBody bool) {
		whole := parseIn(t, in, len(in)+1, noBody)
		split := parseIn(t, in, int(step)%16+1, noBody)
		if whole.failed != split.failed || (!whole.failed && whole != split) {
			t.Fatalf("read whole: %+v; read %d bytes at a time: %+v", whole, int(step)%16+1, split)
		}
		if whole.done && !whole.failed && whole.status < 200 && whole.status != 101 {
			t.Fatalf("done with interim status %d", whole.status)
		}
		if whole.done && !whole.failed && !bytes.Contains(in[:whole.n], []byte("\r\n\r\n")) {
			t.Fatalf("done after %d bytes with no complete head", whole.n)
		}
	})
}
