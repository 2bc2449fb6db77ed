package settings

import (
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

func decode(t *testing.T, text string) (*Layer, error) {
	t.Helper()
	var l Layer
	return &l, yaml.Unmarshal([]byte(text), &l)
}

// TestApply: a later layer replaces what it sets and keeps the rest, and
// request: sets its four keys, the shorthand itself left out.
func TestApply(t *testing.T) {
	base, err := decode(t, "{connections: 10, duration: 2s, method: GET, path: /time}")
	if err != nil {
		t.Fatal(err)
	}
	top, err := decode(t, "{connections: 50, request: {method: POST, path: /echo}}")
	if err != nil {
		t.Fatal(err)
	}
	got := base.With(top)
	if got.Connections.V.N != 50 || got.Duration.V != 2*time.Second || got.Method.V != "POST" || got.Path.V != "/echo" || got.Request != nil {
		t.Errorf("base with top = connections %d, duration %v, %s %s, request %v; want 50, 2s, POST /echo, nil",
			got.Connections.V.N, got.Duration.V, got.Method.V, got.Path.V, got.Request)
	}
	if base.Connections.V.N != 10 || base.Method.V != "GET" {
		t.Errorf("With changed its receiver: connections %d, method %s", base.Connections.V.N, base.Method.V)
	}
	if texts := got.AxisTexts(); texts["connections"] != "50" || texts["path"] != "/echo" || texts["method"] != "" {
		t.Errorf("AxisTexts = %v, want connections 50 and path /echo, and no method (not an axis)", texts)
	}
}

// TestValues: each kind reads its forms and refuses the rest with a line
// and a hint.
func TestValues(t *testing.T) {
	for _, c := range []struct {
		yaml string
		ok   func(*Layer) bool
		err  string
	}{
		{yaml: "rate: 0.75x", ok: func(l *Layer) bool { return l.Rate.V == RateValue{Frac: 0.75} }},
		{yaml: "rate: 10000", ok: func(l *Layer) bool { return l.Rate.V == RateValue{Abs: 10000} }},
		{yaml: "rate: 10k", err: `1: rate: "10k" is not a number (use 10000 or 0.75x)`},
		{yaml: "connections: little(1.5)", ok: func(l *Layer) bool { return l.Connections.V == ConnectionsValue{Little: 1.5} }},
		{yaml: "connections: little(0.5)", err: "write little(M) with a margin M of at least 1"},
		{yaml: "quota: 0.25x", ok: func(l *Layer) bool { return l.Quota.V.CPUsOn(4) == 1 }},
		{yaml: "quota: 1.5", ok: func(l *Layer) bool { return l.Quota.V.CPUsOn(4) == 1.5 }},
		{yaml: "placement: {server: \"0\", client: 1-3}", ok: func(l *Layer) bool { return l.Placement.V == PlacementValue{Server: "0", Client: "1-3"} }},
		{yaml: "placement: {server: \"0\", client: 3-1}", err: `"3-1" is not a CPU list (use 0, 0-1 or 0,2)`},
		{yaml: "placement: {cores: 6}", ok: func(l *Layer) bool { return l.Placement.V == PlacementValue{Cores: 6} }},
		{yaml: "placement: {cores: 0}", err: "cores is how many CPUs the server gets, 1 or more (got 0)"},
		{yaml: "placement: {cores: 2, server: \"0\"}", err: "give either cores or the server and client CPU lists, not both"},
		{yaml: "probe: /status@5s", ok: func(l *Layer) bool { return l.Probe.V == ProbeValue{Path: "/status", Every: 5 * time.Second} }},
		{yaml: "probe: status", err: `"status" is not PATH@INTERVAL (use /status@5s)`},
		{yaml: "gomaxprocs: cores", ok: func(l *Layer) bool { return l.Gomaxprocs.V == "cores" }},
		{yaml: "threads: 0", err: `"0" is not a positive whole number or auto`},
		{yaml: "runtime: node@24", ok: func(l *Layer) bool { return l.Runtime.V == "node@24" }},
		{yaml: "runtime_flags: none", err: "runtime_flags"},
		{yaml: "window: {requests: 20}", err: "window: needs max:"},
		{yaml: "work_share: 101", err: "101 is not a percentage (use 0 to 100)"},
		{yaml: "keepalive: maybe", err: `"maybe" is not true or false`},
		{yaml: "speed: 3", err: "speed: unknown field"},
	} {
		l, err := decode(t, c.yaml)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one saying %q", c.yaml, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.yaml, err)
		case c.err == "" && !c.ok(l):
			t.Errorf("%s: decoded as %+v", c.yaml, *l)
		}
	}
}
