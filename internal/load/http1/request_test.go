package http1

import (
	"strings"
	"testing"
)

func TestSerialise(t *testing.T) {
	const host = "127.0.0.1:8080"
	for _, c := range []struct {
		name      string
		t         Request
		common    []string
		keepAlive bool
		want      string
	}{
		{"get", Request{Path: "/p?q=1"}, nil, true, "GET /p?q=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n"},
		{"post body", Request{Path: "/echo", Body: []byte("{}")}, []string{"Content-Type: application/json"}, true,
			"POST /echo HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"},
		{"override and close", Request{Method: "put", Path: "/", Headers: []string{"X-A: 1"}}, []string{"x-a: 2", "Host: evil", "X-B:3"}, false,
			"PUT / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nX-A: 1\r\nX-B: 3\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"},
	} {
		raw, err := Serialise(c.t, host, c.common, c.keepAlive)
		if err != nil || string(raw) != c.want {
			t.Errorf("%s: got %q, %v\nwant %q", c.name, raw, err, c.want)
		}
	}
	if _, err := Serialise(Request{Path: "/", Headers: []string{"no colon"}}, host, nil, true); err == nil || !strings.Contains(err.Error(), "Name: value") {
		t.Errorf("bad header accepted: %v", err)
	}
}

func TestIdempotent(t *testing.T) {
	for method, want := range map[string]bool{"GET": true, "HEAD": true, "PUT": true, "DELETE": true, "OPTIONS": true, "POST": false, "PATCH": false} {
		if got := Idempotent([]byte(method + " / HTTP/1.1\r\n")); got != want {
			t.Errorf("Idempotent(%s) = %v, want %v", method, got, want)
		}
	}
}
