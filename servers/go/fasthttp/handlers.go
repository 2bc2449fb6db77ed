package main

import (
	"encoding/json"
	"io"
	"net/http"

	"github.com/valyala/fasthttp"

	"restbench/servers/go/service"
)

func status(ctx *fasthttp.RequestCtx) {
	writeJSON(ctx, http.StatusOK, service.StatusResponse{Status: "ok"})
}

func hello(ctx *fasthttp.RequestCtx) {
	writeJSON(ctx, http.StatusOK, service.HelloResponse{Result: "Hello world"})
}

func echo(ctx *fasthttp.RequestCtx) {
	body, err := readBody(ctx)
	if err != nil {
		writeError(ctx, err)
		return
	}
	colors, err := service.DecodeColors(body)
	if err != nil {
		writeError(ctx, err)
		return
	}
	writeJSON(ctx, http.StatusOK, colors)
}

func echoAny(ctx *fasthttp.RequestCtx) {
	body, err := readBody(ctx)
	if err != nil {
		writeError(ctx, err)
		return
	}
	v, err := service.DecodeAny(body)
	if err != nil {
		writeError(ctx, err)
		return
	}
	writeJSON(ctx, http.StatusOK, v)
}

func sum(ctx *fasthttp.RequestCtx) {
	body, err := readBody(ctx)
	if err != nil {
		writeError(ctx, err)
		return
	}
	res, err := service.Sum(body)
	if err != nil {
		writeError(ctx, err)
		return
	}
	writeJSON(ctx, http.StatusOK, res)
}

func timeNow(ctx *fasthttp.RequestCtx) {
	p, err := service.ParseTime(query{ctx.QueryArgs()})
	if err != nil {
		writeError(ctx, err)
		return
	}
	// fasthttp runs each connection on its own goroutine, so sleeping here
	// does not hold up other requests. ctx is a context.Context that ends
	// when the server shuts down.
	if service.Wait(ctx, p.Delay) != nil {
		return
	}
	service.Work(p.Work)
	writeJSON(ctx, http.StatusOK, service.Now())
}

// filter streams /filter. The response body is pulled from a reader after
// this handler returns, while the filter still reads the request body;
// service.FilterReader keeps that safe (see its doc) and aborts the
// connection when the body turns out malformed after output was sent.
func filter(ctx *fasthttp.RequestCtx) {
	min, err := service.ParseMinVersion(query{ctx.QueryArgs()})
	if err != nil {
		writeError(ctx, err)
		return
	}
	r, err := service.StartFilter(requestBody(ctx), min)
	if err != nil {
		writeError(ctx, err)
		return
	}
	ctx.SetContentType("application/json")
	ctx.SetBodyStream(r, -1)
}

// readBody reads a body of at most service.MaxBodyBytes. With
// StreamRequestBody, ctx.PostBody would read any length into memory.
func readBody(ctx *fasthttp.RequestCtx) ([]byte, error) {
	return service.ReadBody(requestBody(ctx), int64(ctx.Request.Header.ContentLength()))
}

type bodyKey struct{}

// requestBody is the request body as a stream that stays at io.EOF once it
// got there. fasthttp's chunked body stream does not: a read after its end
// waits for a next chunk that never comes, so the error answer to a chunked
// body, which drains what is left of it, hung until the client gave up.
func requestBody(ctx *fasthttp.RequestCtx) io.Reader {
	if b, ok := ctx.UserValue(bodyKey{}).(*stickyEOF); ok {
		return b
	}
	s := ctx.RequestBodyStream()
	if s == nil { // no body at all
		return eofReader{}
	}
	b := &stickyEOF{r: s}
	ctx.SetUserValue(bodyKey{}, b)
	return b
}

type stickyEOF struct {
	r   io.Reader
	eof bool
}

func (s *stickyEOF) Read(p []byte) (int, error) {
	if s.eof {
		return 0, io.EOF
	}
	n, err := s.r.Read(p)
	s.eof = err == io.EOF
	return n, err
}

func writeJSON(ctx *fasthttp.RequestCtx, status int, v any) {
	ctx.SetContentType("application/json")
	ctx.SetStatusCode(status)
	_ = json.NewEncoder(ctx).Encode(v) // writes into the response buffer
}

func writeError(ctx *fasthttp.RequestCtx, err error) {
	// service.Drain says why; past its bound, give up on the connection.
	if !service.Drain(requestBody(ctx)) {
		ctx.SetConnectionClose()
	}
	writeJSON(ctx, service.StatusOf(err), service.BodyOf(err))
}

// query adapts fasthttp's query arguments to service.Query.
type query struct{ *fasthttp.Args }

func (q query) Get(key string) string { return string(q.Peek(key)) }

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
