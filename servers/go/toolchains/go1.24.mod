// The servers' dependencies for building with Go 1.24 (restbench runtime
// go@1.24): `go build -modfile=servers/go/toolchains/go1.24.mod`. The main
// go.mod says go 1.26.8, which Go 1.24 refuses, and lists restbench's own
// dependencies, some of which need Go 1.25. Same versions as go.mod; gin
// v1.12.0 needs Go 1.25, so go-gin is not supported here.
module restbench

go 1.24.0

require (
	github.com/andybalholm/brotli v1.2.1
	github.com/go-chi/chi/v5 v5.5.0
	github.com/gorilla/mux v1.8.1
	github.com/klauspost/compress v1.18.5
	github.com/valyala/bytebufferpool v1.0.0
	github.com/valyala/fasthttp v1.69.0
)

require golang.org/x/sys v0.40.0 // indirect
