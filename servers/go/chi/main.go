// Command go-chi serves the restbench contract with github.com/go-chi/chi.
package main

import (
	"compress/gzip"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"restbench/servers/go/service"
)

func newRouter() http.Handler {
	r := chi.NewRouter()
	// No logger or recoverer: per-request logging would dominate the
	// measurement, and net/http already survives a panicking handler.
	r.NotFound(service.NotFound)
	r.MethodNotAllowed(service.MethodNotAllowed)

	r.Get("/status", service.Status)
	r.Post("/echo", service.Echo)
	r.Post("/echo/any", service.EchoAny)
	r.Post("/sum", service.SumHandler)
	// gzip's default level (6), as the other Go servers and Node's zlib use.
	r.With(middleware.Compress(gzip.DefaultCompression, "application/json")).Get("/hello", service.Hello)
	r.Get("/time", service.Time)
	r.Post("/filter", service.FilterHandler)
	r.Get("/runtime", service.Runtime)
	return r
}

func main() {
	service.MainHTTP("go-chi", newRouter())
}
