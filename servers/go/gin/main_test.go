package main

import (
	"net/http/httptest"
	"testing"

	"restbench/servers/go/service/servicetest"
)

func TestContract(t *testing.T) {
	srv := httptest.NewServer(newRouter())
	defer srv.Close()
	servicetest.Check(t, srv.URL)
}
