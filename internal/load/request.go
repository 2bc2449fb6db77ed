package load

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
)

// endpoint is where the load goes: the resolved address of Config.URL's
// host and the Host header to send.
type endpoint struct {
	addr *net.TCPAddr
	host string // Host header value
	path string // path and query of Config.URL
}

// resolve parses rawURL and resolves its host once, before any traffic.
// Unless allowRemote is set, a host that is not loopback is refused here, so
// that a typo in a benchmark never sends load to a machine on the network.
func resolve(rawURL string, allowRemote bool) (endpoint, error) {
	if !strings.Contains(rawURL, "://") {
		return endpoint{}, fmt.Errorf("url %q has no scheme: add http:// (http://%s)", rawURL, rawURL)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return endpoint{}, fmt.Errorf("url %q: %w", rawURL, err)
	}
	if u.Scheme != "http" {
		return endpoint{}, fmt.Errorf("url %q: only http:// is supported (the generator speaks plain HTTP/1.1)", rawURL)
	}
	host, port := u.Hostname(), u.Port()
	if host == "" {
		return endpoint{}, fmt.Errorf("url %q has no host (write it like http://127.0.0.1:8080/)", rawURL)
	}
	if port == "" {
		port = "80"
	}
	addr, err := net.ResolveTCPAddr("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return endpoint{}, fmt.Errorf("resolve %s: %w", host, err)
	}
	if !allowRemote && !addr.IP.IsLoopback() && host != "localhost" {
		return endpoint{}, fmt.Errorf("refusing to load %s: it is not a loopback address (127.0.0.0/8, ::1, localhost); pass --allow-remote if you really mean to send load over the network", host)
	}
	path := u.RequestURI()
	return endpoint{addr: addr, host: u.Host, path: path}, nil
}

// CheckURL says why Run would refuse rawURL, or nil: for a command to
// refuse it as a usage error before anything starts.
func CheckURL(rawURL string, allowRemote bool) error {
	_, err := resolve(rawURL, allowRemote)
	return err
}

// target is one kind of request, serialised once: every send writes the
// same bytes.
type target struct {
	name string
	raw  []byte
	head bool // HEAD: the response has no body
	// idempotent methods may be sent again when a stale keep-alive socket
	// fails before any response byte (conn.fail).
	idempotent bool
	cumul      float64 // cumulative weight, for picking a target of a mix
}

// buildTargets serialises the requests of cfg: the mix, or the single
// request of URL/Method/Headers/Body.
func buildTargets(cfg *Config, ep endpoint) ([]target, error) {
	mix := cfg.Mix
	if len(mix) == 0 {
		mix = []Target{{Name: "default", Method: cfg.Method, Path: ep.path, Headers: cfg.Headers, Body: cfg.Body, Weight: 1}}
	}
	var total float64
	out := make([]target, len(mix))
	for i, t := range mix {
		if t.Weight < 0 {
			return nil, fmt.Errorf("target %q: weight %v is negative", t.Name, t.Weight)
		}
		w := t.Weight
		if w == 0 {
			w = 1
		}
		total += w
		name := t.Name
		if name == "" {
			name = t.Path
		}
		raw, err := serialise(t, ep, cfg.Headers, cfg.KeepAlive)
		if err != nil {
			return nil, fmt.Errorf("target %q: %w", name, err)
		}
		out[i] = target{name: name, raw: raw, head: strings.EqualFold(t.Method, "HEAD"), idempotent: idempotent(raw), cumul: total}
	}
	for i := range out {
		out[i].cumul /= total
	}
	return out, nil
}

// idempotent says whether the request raw (as serialise wrote it) may be
// repeated without changing what the server did: GET, HEAD, PUT, DELETE and
// OPTIONS. POST and PATCH may not.
func idempotent(raw []byte) bool {
	method, _, _ := strings.Cut(string(raw), " ")
	switch method {
	case "GET", "HEAD", "PUT", "DELETE", "OPTIONS":
		return true
	}
	return false
}

// serialise writes the request bytes. Headers of the target override the
// common headers of the same name; Host, Content-Length and Connection are
// the generator's to set.
func serialise(t Target, ep endpoint, common []string, keepAlive bool) ([]byte, error) {
	method := strings.ToUpper(t.Method)
	if method == "" {
		method = "GET"
		if len(t.Body) > 0 {
			method = "POST"
		}
	}
	path := t.Path
	if path == "" {
		path = "/"
	}
	if !strings.HasPrefix(path, "/") {
		return nil, fmt.Errorf("path %q must start with /", path)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\n", method, path, ep.host)
	seen := map[string]bool{}
	for _, list := range [][]string{t.Headers, common} {
		for _, h := range list {
			name, value, ok := strings.Cut(h, ":")
			name = strings.TrimSpace(name)
			if !ok || name == "" || strings.ContainsAny(h, "\r\n") {
				return nil, fmt.Errorf("header %q is not 'Name: value'", h)
			}
			key := strings.ToLower(name)
			if seen[key] || key == "host" || key == "content-length" || key == "connection" {
				continue
			}
			seen[key] = true
			fmt.Fprintf(&b, "%s: %s\r\n", name, strings.TrimSpace(value))
		}
	}
	if len(t.Body) > 0 || method == "POST" || method == "PUT" || method == "PATCH" {
		b.WriteString("Content-Length: " + strconv.Itoa(len(t.Body)) + "\r\n")
	}
	if !keepAlive {
		b.WriteString("Connection: close\r\n")
	}
	b.WriteString("\r\n")
	b.Write(t.Body)
	return []byte(b.String()), nil
}

// ReadBody reads a request body argument as curl and ab users write it:
// "@file" reads the file, anything else is the body itself.
func ReadBody(arg string) ([]byte, error) {
	if name, ok := strings.CutPrefix(arg, "@"); ok {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("body: %w", err)
		}
		return b, nil
	}
	return []byte(arg), nil
}
