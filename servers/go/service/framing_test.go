package service

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

const (
	clte    = "POST /sum HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n0\r\n\r\n"
	chunked = "POST /sum HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n0\r\n\r\n"
	status  = "GET /status HTTP/1.1\r\nHost: h\r\n\r\n"
)

// withLength is a Content-Length request whose body looks like a head with
// both headers: skipped whole, it must not count.
var withLength = func() string {
	body := "x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n"
	return "POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
}()

func TestHeadScanner(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int
	}{
		{"both", clte, 1},
		{"both, lower case, bare LF", strings.NewReplacer("\r\n", "\n", "Content-Length", "content-length", "Transfer-Encoding", "TRANSFER-ENCODING").Replace(clte), 1},
		{"chunked only", chunked, 0},
		{"Content-Length only", withLength, 0},
		{"a GET", status, 0},
		{"pipelined: length, both, chunked, both", withLength + clte + chunked + clte, 2},
		{"a header named like one", "GET / HTTP/1.1\r\nX-Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 0},
		{"a long header line before", "GET / HTTP/1.1\r\nCookie: " + strings.Repeat("a", 5000) + "\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var whole headScanner
			if got := whole.feed([]byte(tt.in)); got != tt.want {
				t.Errorf("in one read: %d blocks with both, want %d", got, tt.want)
			}
			// Reads end anywhere: one byte at a time must count the same.
			var bytewise headScanner
			got := 0
			for i := range len(tt.in) {
				got += bytewise.feed([]byte(tt.in[i : i+1]))
			}
			if got != tt.want {
				t.Errorf("a byte per read: %d blocks with both, want %d", got, tt.want)
			}
		})
	}
}

// TestConflictingFramingCloses sends each sequence in one write to a real
// net/http server served as the four net/http servers are, and counts the
// answers: after a request with both headers the connection must close.
func TestConflictingFramingCloses(t *testing.T) {
	srv := NewHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Write([]byte(`{}`))
	}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(NoteFraming(ln))
	defer srv.Close()

	tests := []struct {
		name    string
		in      string
		answers int
		closes  bool // after the answers
	}{
		{"both, then a GET: the GET is never read", clte + status, 1, true},
		{"chunked, then a GET", chunked + status, 2, false},
		{"a Content-Length body that looks like both, then chunked, then a GET", withLength + chunked + status, 3, false},
		{"a GET, then both, then a GET", status + clte + status, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(10 * time.Second))
			if _, err := io.WriteString(c, tt.in); err != nil {
				t.Fatal(err)
			}
			r := bufio.NewReader(c)
			var last *http.Response
			for i := range tt.answers {
				resp, err := http.ReadResponse(r, nil)
				if err != nil {
					t.Fatalf("answer %d of %d: %v", i+1, tt.answers, err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				last = resp
			}
			if last.Close != tt.closes {
				t.Errorf("last answer's Connection: close is %v, want %v", last.Close, tt.closes)
			}
			if tt.closes {
				if resp, err := http.ReadResponse(r, nil); err == nil {
					t.Errorf("an answer (%s) after the one that closed: the request after was read", resp.Status)
				}
			}
		})
	}
}

// BenchmarkHeadScanner is what the scanner adds to each request's bytes on
// the four net/http servers: a wrk-style GET and a POST /sum.
func BenchmarkHeadScanner(b *testing.B) {
	for _, in := range []struct{ name, req string }{
		{"GET", "GET /status HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n"},
		{"POST", "POST /sum HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"a\":1,\"b\":2}"},
	} {
		b.Run(in.name, func(b *testing.B) {
			req := []byte(in.req)
			var s headScanner
			b.SetBytes(int64(len(req)))
			b.ReportAllocs()
			for b.Loop() {
				s.feed(req)
			}
		})
	}
}
