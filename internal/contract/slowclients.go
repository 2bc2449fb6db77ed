package contract

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strings"
	"time"

	"restbench/internal/rawhttp"
)

// slowClients is how many connections send half a request and stop, and
// slowStatusBound how soon /status must answer meanwhile.
const (
	slowClients     = 100
	slowStatusBound = 100 * time.Millisecond
)

// checkSlowClients opens slowClients connections that each send half a
// request (a head cut short, or a head and part of its body) and then
// nothing, and checks that GET /status still answers within
// slowStatusBound: a server may time such clients out, but must not let
// them hold up the others. The best of three tries counts, for a shared
// machine's hiccups.
func checkSlowClients(ctx context.Context, t *Target) (string, error) {
	host := hostOf(t.URL)
	halves := []string{
		"POST /sum HTTP/1.1\r\nHost: " + host + "\r\nContent-Ty",
		"POST /echo HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"colors\":[",
		"POST /filter HTTP/1.1\r\nHost: " + host + "\r\nTransfer-Encoding: chunked\r\n\r\n40\r\n[{\"name\":\"a\"",
		"GET /stat",
	}
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	var d net.Dialer
	for i := range slowClients {
		c, err := d.DialContext(ctx, "tcp", host)
		if err != nil {
			return "", fmt.Errorf("slow client %d of %d: dial: %w", i+1, slowClients, err)
		}
		conns = append(conns, c)
		if _, err := c.Write([]byte(halves[i%len(halves)])); err != nil {
			return "", fmt.Errorf("slow client %d of %d: %w", i+1, slowClients, err)
		}
	}
	// Let the server take in what was sent before asking.
	time.Sleep(50 * time.Millisecond)
	var took []time.Duration
	for range 3 {
		a, err := rawhttp.Exchange(ctx, host, rawhttp.Build("GET", "/status", host, nil, nil, rawhttp.Length, true), 5*time.Second)
		if err != nil {
			return "", fmt.Errorf("GET /status with %d clients stalled half-way through a request: %w", slowClients, err)
		}
		a.Conn.Close()
		if a.Resp.StatusCode != 200 {
			return "", fmt.Errorf("GET /status with %d stalled clients: status %d", slowClients, a.Resp.StatusCode)
		}
		took = append(took, a.Elapsed)
	}
	var s []string
	for _, d := range took {
		s = append(s, d.Round(10*time.Microsecond).String())
	}
	detail := fmt.Sprintf("GET /status with %d stalled clients answered in %s", slowClients, strings.Join(s, ", "))
	if slices.Min(took) > slowStatusBound {
		return "", fmt.Errorf("%s, want one within %v", detail, slowStatusBound)
	}
	return detail, nil
}
