package server

import (
	"maps"
	"strings"
	"testing"
	"time"
)

func TestEnviron(t *testing.T) {
	parent := []string{"PATH=/usr/bin", "HOME=/root", "LANG=C.UTF-8", "TMPDIR=/tmp/x",
		"GOMAXPROCS=7", "THREADS=3", "CLUSTER=1", "HOST=0.0.0.0", "PORT=80",
		"NODE_OPTIONS=--max-old-space-size=64", "GOGC=off", "GODEBUG=x=1", "GOMEMLIMIT=1GiB", "UV_THREADPOOL_SIZE=64",
		"SSH_AUTH_SOCK=/s", "NOEQUALS"}
	tests := []struct {
		name  string
		imEnv map[string]string
		opt   Options
		want  map[string]string
	}{
		{"only the allowlist passes; HOST and PORT are restbench's",
			nil, Options{Host: "127.0.0.1"},
			map[string]string{"PATH": "/usr/bin", "HOME": "/root", "LANG": "C.UTF-8", "TMPDIR": "/tmp/x", "HOST": "127.0.0.1", "PORT": "0"}},
		{"the cell's variables are the ones the server sees",
			nil, Options{Host: "10.77.0.1", Port: 8080, Env: map[string]string{"THREADS": "1", "GOMAXPROCS": "2"}},
			map[string]string{"PATH": "/usr/bin", "HOME": "/root", "LANG": "C.UTF-8", "TMPDIR": "/tmp/x", "HOST": "10.77.0.1", "PORT": "8080", "THREADS": "1", "GOMAXPROCS": "2"}},
		{"the implementation's, then the cell's, win over the parent's",
			map[string]string{"PATH": "/opt/bin", "DENO_NO_PROMPT": "1", "THREADS": "4"}, Options{Host: "::1", Env: map[string]string{"THREADS": "2"}},
			map[string]string{"PATH": "/opt/bin", "HOME": "/root", "LANG": "C.UTF-8", "TMPDIR": "/tmp/x", "HOST": "::1", "PORT": "0", "THREADS": "2", "DENO_NO_PROMPT": "1"}},
		{"a cell cannot move the port",
			nil, Options{Host: "127.0.0.1", Env: map[string]string{"PORT": "9", "HOST": "0.0.0.0"}},
			map[string]string{"PATH": "/usr/bin", "HOME": "/root", "LANG": "C.UTF-8", "TMPDIR": "/tmp/x", "HOST": "127.0.0.1", "PORT": "0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Environ(parent, tt.imEnv, tt.opt); !maps.Equal(got, tt.want) {
				t.Errorf("got  %v\nwant %v", got, tt.want)
			}
		})
	}
}

// TestCleanEnvironment starts a real server from a polluted environment:
// what it reports having got is the allowlist and the cell's variables,
// and the trial's record (Reported().Env) is exactly that.
func TestCleanEnvironment(t *testing.T) {
	for k, v := range map[string]string{"GOMAXPROCS": "7", "THREADS": "3", "NODE_OPTIONS": "--inspect", "GOGC": "off", "RESTBENCH_POLLUTED": "1"} {
		t.Setenv(k, v)
	}
	p := startReady(t, "env")
	defer p.Stop(time.Second)
	got := map[string]string{}
	for _, kv := range strings.Split(p.Ready.Fields["env"], ",") {
		k, v, _ := strings.Cut(kv, "=")
		got[k] = v
	}
	for _, k := range []string{"GOMAXPROCS", "NODE_OPTIONS", "GOGC", "RESTBENCH_POLLUTED"} {
		if v, ok := got[k]; ok {
			t.Errorf("the server inherited %s=%s", k, v)
		}
	}
	if got["THREADS"] != "1" || got["PORT"] != "0" || got["HOST"] != "127.0.0.1" || got["RESTBENCH_TEST_SERVER"] != "env" {
		t.Errorf("the server got %v", got)
	}
	if rep := p.Reported(); rep == nil || !maps.Equal(rep.Env, got) {
		t.Errorf("recorded %v, the server saw %v", rep.Env, got)
	}
}
