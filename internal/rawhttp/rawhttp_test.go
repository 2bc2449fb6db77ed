package rawhttp

import (
	"bytes"
	"testing"
)

// TestBuildRequest: each framing writes the same request in its own pieces.
func TestBuildRequest(t *testing.T) {
	body := []byte(`{"a":1,"b":2}`)
	for _, tt := range []struct {
		f     Framing
		close bool
		want  string
		n     int
	}{
		{Length, false, "POST /sum HTTP/1.1\r\nHost: h\r\nContent-Length: 13\r\n\r\n{\"a\":1,\"b\":2}", 1},
		{Split, true, "POST /sum HTTP/1.1\r\nHost: h\r\nConnection: close\r\nContent-Length: 13\r\n\r\n{\"a\":1,\"b\":2}", 4},
		{Chunked, false, "POST /sum HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n5\r\n1,\"b\"\r\n3\r\n:2}\r\n0\r\n\r\n", 5},
	} {
		pieces := Build("POST", "/sum", "h", nil, body, tt.f, tt.close)
		if got := string(bytes.Join(pieces, nil)); got != tt.want || len(pieces) != tt.n {
			t.Errorf("%s close=%v: %d pieces %q, want %d pieces %q", tt.f, tt.close, len(pieces), got, tt.n, tt.want)
		}
	}
}
