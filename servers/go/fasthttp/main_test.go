package main

import (
	"net"
	"testing"

	"restbench/servers/go/service/servicetest"
)

func TestContract(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer()
	go srv.Serve(ln)
	defer srv.Shutdown()
	servicetest.Check(t, "http://"+ln.Addr().String())
}
