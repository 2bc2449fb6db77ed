package load

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"

	"restbench/internal/load/http1"
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
		raw, err := http1.Serialise(http1.Request{Method: t.Method, Path: t.Path, Headers: t.Headers, Body: t.Body}, ep.host, cfg.Headers, cfg.KeepAlive)
		if err != nil {
			return nil, fmt.Errorf("target %q: %w", name, err)
		}
		out[i] = target{name: name, raw: raw, head: strings.EqualFold(t.Method, "HEAD"), idempotent: http1.Idempotent(raw), cumul: total}
	}
	for i := range out {
		out[i].cumul /= total
	}
	return out, nil
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
