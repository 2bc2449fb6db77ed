package load

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// tcpServer accepts connections on a real socket and hands each to serve,
// for responses no well-behaved HTTP server would write.
func tcpServer(t testing.TB, serve func(c net.Conn, br *bufio.Reader)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				serve(c, bufio.NewReader(c))
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

// readRequest reads one request and its Content-Length body; false at EOF.
func readRequest(br *bufio.Reader) (*http.Request, bool) {
	req, err := http.ReadRequest(br)
	if err != nil {
		return nil, false
	}
	io.Copy(io.Discard, req.Body)
	return req, true
}

func TestInterimResponsesSkipped(t *testing.T) {
	for _, interim := range []string{"100 Continue\r\n", "103 Early Hints\r\nLink: </a.css>; rel=preload\r\n"} {
		url := tcpServer(t, func(c net.Conn, br *bufio.Reader) {
			for {
				if _, ok := readRequest(br); !ok {
					return
				}
				// The interim and the final response in separate writes,
				// so the final one may arrive in a later read.
				io.WriteString(c, "HTTP/1.1 "+interim+"\r\n")
				time.Sleep(time.Millisecond)
				io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n{\"ok\":true}")
			}
		})
		res := run(t, Config{URL: url + "/", Connections: 2, MaxRequests: 50, KeepAlive: true, ExpectJSON: true})
		if res.Responses != 50 || res.Errors.Total() != 0 || res.StatusCodes["200"] != 50 {
			t.Errorf("interim %q: %d responses, errors %+v, codes %v; want 50 × 200 and no errors", interim, res.Responses, res.Errors, res.StatusCodes)
		}
	}
}

func TestBytesAfterResponseAreBodyError(t *testing.T) {
	url := tcpServer(t, func(c net.Conn, br *bufio.Reader) {
		for {
			if _, ok := readRequest(br); !ok {
				return
			}
			// Content-Length says 5, the server sends 10: one write, so
			// the extra bytes arrive with the response.
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloWORLD")
		}
	})
	res := run(t, Config{URL: url + "/", Connections: 1, MaxRequests: 20, KeepAlive: true})
	if res.Errors.Body != 20 || res.OKRPS != 0 {
		t.Errorf("errors %+v, ok req/s %.0f: want 20 body errors and no ok throughput", res.Errors, res.OKRPS)
	}
}

// TestGarbageIsReadError: bytes that cannot begin an HTTP response are a
// read error as soon as they arrive, whether or not a line ending follows;
// without one the connection used to wait for the whole --timeout and count
// a timeout.
func TestGarbageIsReadError(t *testing.T) {
	for _, garbage := range []string{"garbage", "SSH-2.0-OpenSSH_9.6", "\x00\x01\x02", "HTTP/2 200", "garbage\r\n\r\n"} {
		url := tcpServer(t, func(c net.Conn, br *bufio.Reader) {
			for {
				if _, ok := readRequest(br); !ok {
					return
				}
				io.WriteString(c, garbage) // and the connection stays open
			}
		})
		start := time.Now()
		res := run(t, Config{URL: url + "/", Connections: 1, MaxRequests: 5, KeepAlive: true, Timeout: 3 * time.Second})
		if res.Errors.Read != 5 || res.Errors.Timeout != 0 {
			t.Errorf("%q: errors %+v in %v, want 5 read errors and no timeout", garbage, res.Errors, time.Since(start))
		}
	}
}

// TestCloseDelimitedBody: a body without length ends when the server
// closes. Its last data and the close usually arrive in one wake-up of
// edge-triggered epoll, which reports neither again: the response must
// complete then, not at the timeout.
func TestCloseDelimitedBody(t *testing.T) {
	url := tcpServer(t, func(c net.Conn, br *bufio.Reader) {
		if _, ok := readRequest(br); ok {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nstreamed until close")
		}
	})
	start := time.Now()
	res := run(t, Config{URL: url + "/", Connections: 2, MaxRequests: 40, KeepAlive: true, Timeout: 3 * time.Second})
	if res.Responses != 40 || res.Errors.Total() != 0 || res.Latency.Max > 500 {
		t.Errorf("%d responses, errors %+v, max %.0f ms in %v: want 40 prompt responses", res.Responses, res.Errors, res.Latency.Max, time.Since(start))
	}
}

// TestStreamingUpload: a 64 MB POST to a server that streams its answer
// while the upload still arrives, as /filter does. A writer that does not
// read until it is done deadlocks: the server's writes fill the client's
// receive buffer, the server stops reading, and the client's writes block.
func TestStreamingUpload(t *testing.T) {
	url := tcpServer(t, func(c net.Conn, br *bufio.Reader) {
		for {
			req, err := http.ReadRequest(br)
			if err != nil {
				return
			}
			bw := bufio.NewWriter(c)
			io.WriteString(bw, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
			buf := make([]byte, 32<<10)
			for {
				n, err := req.Body.Read(buf)
				if n > 0 {
					fmt.Fprintf(bw, "%x\r\n", n)
					bw.Write(buf[:n])
					io.WriteString(bw, "\r\n")
					bw.Flush()
				}
				if err != nil {
					break
				}
			}
			io.WriteString(bw, "0\r\n\r\n")
			bw.Flush()
		}
	})
	body := bytes.Repeat([]byte("x"), 64<<20)
	res := run(t, Config{URL: url + "/filter", Body: body, Connections: 1, MaxRequests: 2, KeepAlive: true, Timeout: 30 * time.Second})
	if res.Responses != 2 || res.Errors.Total() != 0 || res.BytesRead < 2*64<<20 {
		t.Errorf("%d responses, errors %+v, %d bytes read: want 2 responses echoing 64 MB each", res.Responses, res.Errors, res.BytesRead)
	}
}

// TestRetryOnlyIdempotent: the server answers the first request on each
// connection and closes the connection when the second arrives, without a
// byte of answer: the stale keep-alive socket. A GET is sent again on a new
// connection; a POST, which the server may have acted on, is an error.
func TestRetryOnlyIdempotent(t *testing.T) {
	var received atomic.Int64
	url := tcpServer(t, func(c net.Conn, br *bufio.Reader) {
		for i := 0; ; i++ {
			if _, ok := readRequest(br); !ok || i == 1 {
				return
			}
			received.Add(1)
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
		}
	})
	for _, c := range []struct {
		method     string
		body       []byte
		ok, errors int64
	}{
		{"GET", nil, 10, 0},
		{"DELETE", nil, 10, 0},
		{"POST", []byte("{}"), 5, 5}, // every second request meets a stale socket
	} {
		received.Store(0)
		res := run(t, Config{URL: url + "/", Method: c.method, Body: c.body, Connections: 1, MaxRequests: 10, KeepAlive: true})
		if res.Responses != c.ok || res.Errors.Read != c.errors || received.Load() != c.ok {
			t.Errorf("%s: %d responses, %d read errors, server answered %d; want %d, %d, %d",
				c.method, res.Responses, res.Errors.Read, received.Load(), c.ok, c.errors, c.ok)
		}
	}
}

// TestServerClosesFirst: without keep-alive the server closes every
// connection after its response ("Connection: close"), and the generator
// leaves that close to it, as ab does: a client that closed first would
// hold every connection's port in TIME_WAIT for a minute. The server here
// answers after 10 ms and waits 2 ms for the client's close before its own:
// only a connection still open when the load ends (one per connection of
// the load, at most) may be closed by the client first. A server that
// never closes costs the generator nothing but descriptors until the load
// ends: its requests complete all the same.
func TestServerClosesFirst(t *testing.T) {
	const conns = 4
	for _, c := range []struct {
		name       string
		serverWait time.Duration // how long the server waits for the client's close before its own; 0: forever
	}{
		{"server closes after 2 ms", 2 * time.Millisecond},
		{"server never closes", 0},
	} {
		var clientFirst, served atomic.Int64
		url := tcpServer(t, func(conn net.Conn, br *bufio.Reader) {
			if _, ok := readRequest(br); !ok {
				return
			}
			time.Sleep(10 * time.Millisecond)
			io.WriteString(conn, "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello")
			served.Add(1)
			if c.serverWait > 0 {
				conn.SetReadDeadline(time.Now().Add(c.serverWait))
			}
			if _, err := br.ReadByte(); err == io.EOF {
				clientFirst.Add(1)
			}
		})
		res := run(t, Config{URL: url + "/", Connections: conns, MaxRequests: 40, Timeout: 5 * time.Second})
		if res.Responses != 40 || res.Errors.Total() != 0 {
			t.Errorf("%s: %d responses, errors %+v: want 40 and none", c.name, res.Responses, res.Errors)
		}
		if c.serverWait > 0 && clientFirst.Load() > conns {
			t.Errorf("%s: the client closed first on %d of %d connections, want at most the %d open at the end", c.name, clientFirst.Load(), served.Load(), conns)
		}
	}
}
