// The servers' dependencies for building with Go 1.22 (restbench runtime
// go@1.22): `go build -modfile=servers/go/toolchains/go1.22.mod`. chi v5.5.0
// and fasthttp v1.70.0 need Go 1.24 and gin v1.12.0 Go 1.25, so only
// go-nethttp and go-gorilla are supported here. golang.org/x/sys v0.30.0 is
// the newest that says go 1.18 (the /time CPU clock).
module restbench

go 1.22

require github.com/gorilla/mux v1.8.1

require golang.org/x/sys v0.30.0 // indirect
