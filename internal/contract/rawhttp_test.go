package contract

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"restbench/internal/impl"
	"restbench/servers/go/service"
)

// contractMux serves the contract with the Go servers' shared handlers, so
// that a test can break one thing and nothing else.
func contractMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /status", service.Status)
	mux.HandleFunc("POST /echo", service.Echo)
	mux.HandleFunc("POST /echo/any", service.EchoAny)
	mux.HandleFunc("POST /sum", service.SumHandler)
	mux.HandleFunc("GET /time", service.Time)
	mux.HandleFunc("POST /filter", service.FilterHandler)
	return mux
}

// serveContract serves h as the four net/http servers do
// (service.MainHTTP).
func serveContract(h http.Handler) *httptest.Server {
	srv := httptest.NewUnstartedServer(nil)
	srv.Config = service.NewHTTPServer(h)
	srv.Listener = service.NoteFraming(srv.Listener)
	srv.Start()
	return srv
}

// TestRawChecksFail runs the framing, malformed and slow-clients checks
// against servers with the bugs they exist to catch, and the first two
// against the same server without the bug.
func TestRawChecksFail(t *testing.T) {
	if testing.Short() {
		t.Skip("sends a few thousand requests")
	}
	dir := root(t)
	mux := contractMux()
	tests := []struct {
		check   string
		handler http.Handler
		plain   bool   // served by net/http alone, without the listener that notes conflicting framing
		want    string // in the failure
	}{
		// go-fasthttp before issue 20: a chunked body with an error in it
		// was never answered.
		{"framing", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/sum" && len(r.TransferEncoding) > 0 {
				io.ReadAll(r.Body) // then net/http sees the client leave
				<-r.Context().Done()
				return
			}
			mux.ServeHTTP(w, r)
		}), false, "no answer within"},
		// net/http before issue 20: a refused body left unread, and the
		// connection closed under it.
		{"malformed", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.ContentLength > service.MaxBodyBytes {
				c, _, err := http.NewResponseController(w).Hijack()
				if err == nil {
					c.(interface{ SetLinger(int) error }).SetLinger(0)
					c.Close()
				}
				return
			}
			mux.ServeHTTP(w, r)
		}), false, "its 413 was lost"},
		// net/http as it is (go1.27.4): a request with Content-Length and
		// Transfer-Encoding read chunked, and the connection kept.
		{"malformed", mux, true, "RFC 9112 section 6.3"},
	}
	for _, tt := range tests {
		t.Run(tt.check, func(t *testing.T) {
			c, _ := Find(tt.check)
			for _, broken := range []bool{true, false} {
				var srv *httptest.Server
				switch {
				case !broken:
					srv = serveContract(mux)
				case tt.plain:
					srv = httptest.NewServer(tt.handler)
				default:
					srv = serveContract(tt.handler)
				}
				target := &Target{Impl: impl.Impl{ID: "t", Language: "go"}, URL: srv.URL, Root: dir, Client: NewClient(), Pid: os.Getpid()}
				r := target.Run(context.Background(), c)
				srv.Close()
				switch {
				case broken && (r.Status != Fail || !strings.Contains(r.Detail, tt.want)):
					t.Errorf("%s: %s with the bug, want a failure that says %q: %s", tt.check, r.Status, tt.want, r.Detail)
				case !broken && r.Status != Pass:
					t.Errorf("%s: %s without the bug: %s", tt.check, r.Status, r.Detail)
				}
				t.Logf("broken=%v: %s %s", broken, r.Status, r.Detail)
			}
		})
	}
	t.Run("slow-clients", func(t *testing.T) {
		// One connection at a time: a client that stops half-way through
		// its request holds up every other.
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				if _, err := http.ReadRequest(bufio.NewReader(c)); err == nil {
					c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15\r\nConnection: close\r\n\r\n{\"status\":\"ok\"}"))
				}
				c.Close()
			}
		}()
		c, _ := Find("slow-clients")
		target := &Target{Impl: impl.Impl{ID: "t", Language: "go"}, URL: "http://" + ln.Addr().String(), Root: dir}
		r := target.Run(context.Background(), c)
		if r.Status != Fail || !strings.Contains(r.Detail, "no answer") {
			t.Errorf("slow-clients: %s against a server that serves one connection at a time: %s", r.Status, r.Detail)
		}
	})
}
