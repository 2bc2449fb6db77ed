package http1

import "testing"

func TestResponseParser(t *testing.T) {
	for _, c := range []struct {
		name     string
		in       string
		noBody   bool
		status   int
		body     string
		close    bool
		needsEOF bool
		bad      bool
	}{
		{name: "content-length", in: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", status: 200, body: "hello"},
		{name: "header case", in: "HTTP/1.1 201 Created\r\ncOnTeNt-LeNgTh:   3 \r\nX: y\r\n\r\nabc", status: 201, body: "abc"},
		{name: "empty body", in: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", status: 200},
		{name: "chunked", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\n\r\n", status: 200, body: "hello, world"},
		{name: "chunked trailer", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nA\r\n0123456789\r\n0\r\nX-T: 1\r\n\r\n", status: 200, body: "0123456789"},
		{name: "connection close", in: "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nhi", status: 200, body: "hi", close: true},
		{name: "http/1.0", in: "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nhi", status: 200, body: "hi", close: true},
		{name: "until close", in: "HTTP/1.1 200 OK\r\n\r\nstreamed", status: 200, body: "streamed", close: true, needsEOF: true},
		{name: "100 continue", in: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi", status: 200, body: "hi"},
		{name: "103 early hints", in: "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\nno", status: 404, body: "no"},
		{name: "204", in: "HTTP/1.1 204 No Content\r\n\r\n", status: 204},
		{name: "HEAD", in: "HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n", noBody: true, status: 200},
		{name: "not http", in: "SSH-2.0-OpenSSH\r\n\r\n", bad: true},
		{name: "bad status", in: "HTTP/1.1 2x0 OK\r\n\r\n", bad: true},
		{name: "bad length", in: "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", bad: true},
		{name: "bad chunk", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", bad: true},
	} {
		// Feed the response whole and in every split size from 1 byte up,
		// since reads split responses anywhere.
		for step := 1; step <= len(c.in); step++ {
			if step > 12 && step < len(c.in) {
				continue
			}
			var r Response
			r.Reset()
			r.KeepBody, r.NoBody = true, c.noBody
			var done bool
			var err error
			for i := 0; i < len(c.in) && !done && err == nil; i += step {
				var n int
				n, done, err = r.Feed([]byte(c.in[i:min(i+step, len(c.in))]))
				if done && i+n != len(c.in) {
					t.Errorf("%s/%d: done after %d of %d bytes", c.name, step, i+n, len(c.in))
				}
			}
			if c.bad {
				if err == nil {
					t.Errorf("%s/%d: no error", c.name, step)
				}
				continue
			}
			if c.needsEOF {
				if done {
					t.Errorf("%s/%d: done before EOF", c.name, step)
				}
				done = r.EOF()
			}
			if err != nil || !done || r.Status != c.status || string(r.Body) != c.body || r.Close != c.close {
				t.Errorf("%s/%d: err %v done %v status %d body %q close %v; want status %d body %q close %v",
					c.name, step, err, done, r.Status, r.Body, r.Close, c.status, c.body, c.close)
			}
		}
	}
}
