// Command go-gorilla serves the restbench contract with github.com/gorilla/mux.
package main

import (
	"net/http"

	"github.com/gorilla/mux"

	"restbench/servers/go/service"
)

func newRouter() http.Handler {
	r := mux.NewRouter()
	r.NotFoundHandler = http.HandlerFunc(service.NotFound)
	r.MethodNotAllowedHandler = http.HandlerFunc(service.MethodNotAllowed)

	r.HandleFunc("/status", service.Status).Methods(http.MethodGet)
	r.HandleFunc("/echo", service.Echo).Methods(http.MethodPost)
	r.HandleFunc("/echo/any", service.EchoAny).Methods(http.MethodPost)
	r.HandleFunc("/sum", service.SumHandler).Methods(http.MethodPost)
	// gorilla/mux has no compressor (gorilla/handlers does, as a separate
	// module); the shared one keeps it to /hello.
	r.Handle("/hello", service.Gzip(http.HandlerFunc(service.Hello))).Methods(http.MethodGet)
	r.HandleFunc("/time", service.Time).Methods(http.MethodGet)
	r.HandleFunc("/filter", service.FilterHandler).Methods(http.MethodPost)
	r.HandleFunc("/runtime", service.Runtime).Methods(http.MethodGet)
	return r
}

func main() {
	service.MainHTTP("go-gorilla", newRouter())
}
