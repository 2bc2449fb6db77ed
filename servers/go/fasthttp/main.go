// Command go-fasthttp serves the restbench contract with
// github.com/valyala/fasthttp. fasthttp has no router; a switch on the path,
// as in fasthttp's own examples, is the idiomatic one.
package main

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/valyala/fasthttp"

	"restbench/servers/go/service"
)

func handler(ctx *fasthttp.RequestCtx) {
	if smuggled(&ctx.Request.Header) {
		// RFC 9112 section 6.3: fasthttp reads such a body by its chunked
		// framing, as allowed, but the connection MUST then close.
		ctx.SetConnectionClose()
	}
	switch string(ctx.Path()) {
	case "/status":
		route(ctx, http.MethodGet, status)
	case "/echo":
		route(ctx, http.MethodPost, echo)
	case "/echo/any":
		route(ctx, http.MethodPost, echoAny)
	case "/sum":
		route(ctx, http.MethodPost, sum)
	case "/hello":
		route(ctx, http.MethodGet, gzipped(hello))
	case "/time":
		route(ctx, http.MethodGet, timeNow)
	case "/filter":
		route(ctx, http.MethodPost, filter)
	case "/runtime":
		route(ctx, http.MethodGet, func(ctx *fasthttp.RequestCtx) { writeJSON(ctx, http.StatusOK, service.ReadRuntime()) })
	default:
		writeError(ctx, service.ErrNotFound)
	}
}

// route runs h when the request has the method, and answers 405 otherwise.
func route(ctx *fasthttp.RequestCtx, method string, h fasthttp.RequestHandler) {
	if string(ctx.Method()) != method {
		ctx.Response.Header.Set("Allow", method)
		writeError(ctx, service.ErrMethodNotAllowed)
		return
	}
	h(ctx)
}

// smuggled reports a request that has both Transfer-Encoding: chunked
// (fasthttp's ContentLength -1) and a Content-Length header.
func smuggled(h *fasthttp.RequestHeader) bool {
	if h.ContentLength() != -1 {
		return false
	}
	for _, line := range bytes.Split(h.RawHeaders(), []byte("\n")) {
		if name, _, ok := bytes.Cut(line, []byte(":")); ok && strings.EqualFold(string(bytes.TrimSpace(name)), "Content-Length") {
			return true
		}
	}
	return false
}

func newServer() *fasthttp.Server {
	return &fasthttp.Server{
		Handler: handler,
		// Call the handler before the body has arrived, and let it read the
		// body as a stream: /filter must not hold a 200 MB body in memory.
		StreamRequestBody: true,
	}
}

func main() {
	srv := newServer()
	service.Main("go-fasthttp", srv.Serve, srv.ShutdownWithContext)
}
