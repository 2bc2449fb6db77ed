// Command go-nethttp serves the restbench contract with the standard
// library only: net/http and its ServeMux with method patterns.
package main

import (
	"net/http"

	"restbench/servers/go/service"
)

func newHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /status", service.Status)
	mux.HandleFunc("POST /echo", service.Echo)
	mux.HandleFunc("POST /echo/any", service.EchoAny)
	mux.HandleFunc("POST /sum", service.SumHandler)
	mux.Handle("GET /hello", service.Gzip(http.HandlerFunc(service.Hello)))
	mux.HandleFunc("GET /time", service.Time)
	mux.HandleFunc("POST /filter", service.FilterHandler)
	mux.HandleFunc("GET /runtime", service.Runtime)

	// ServeMux answers a wrong method with a plain-text 405. A pattern
	// without a method is less specific than one with, so it catches
	// exactly the other methods and answers in JSON.
	for path, methods := range map[string]string{
		"/status": "GET, HEAD", "/echo": "POST", "/echo/any": "POST", "/sum": "POST",
		"/hello": "GET, HEAD", "/time": "GET, HEAD", "/filter": "POST", "/runtime": "GET, HEAD",
	} {
		mux.Handle(path, service.Allow(methods))
	}
	mux.HandleFunc("/", service.NotFound)
	return mux
}

func main() {
	service.MainHTTP("go-nethttp", newHandler())
}
