package service

import (
	"bytes"
	"net"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"restbench/internal/listenq"
)

func TestLoadConfig(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	tests := []struct {
		name           string
		env            map[string]string
		wantAddr       string
		wantGOMAXPROCS int // 0: left as it was
		wantErr        string
	}{
		{"defaults", map[string]string{"PORT": "8080"}, "127.0.0.1:8080", 1, ""},
		{"threads", map[string]string{"PORT": "8080", "THREADS": "3"}, "127.0.0.1:8080", 3, ""},
		{"ipv6 host", map[string]string{"PORT": "8080", "HOST": "::1"}, "[::1]:8080", 1, ""},
		{"explicit GOMAXPROCS wins", map[string]string{"PORT": "1", "THREADS": "3", "GOMAXPROCS": "5"}, "127.0.0.1:1", 0, ""},
		{"auto", map[string]string{"PORT": "1", "THREADS": "auto"}, "127.0.0.1:1", 0, ""},
		{"no port", map[string]string{}, "", 0, "PORT is not set"},
		{"bad port", map[string]string{"PORT": "http"}, "", 0, "not a port number"},
		{"bad threads", map[string]string{"PORT": "1", "THREADS": "0"}, "", 0, "THREADS"},
		{"backlog", map[string]string{"PORT": "1", "BACKLOG": "4096"}, "127.0.0.1:1", 1, ""},
		{"bad backlog", map[string]string{"PORT": "1", "BACKLOG": "0"}, "", 0, "BACKLOG"},
		{"backlog not a number", map[string]string{"PORT": "1", "BACKLOG": "lots"}, "", 0, "BACKLOG"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runtime.GOMAXPROCS(7)
			c, err := LoadConfig("go-test", func(k string) string { return tt.env[k] })
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Addr() != tt.wantAddr {
				t.Errorf("Addr %q, want %q", c.Addr(), tt.wantAddr)
			}
			want := tt.wantGOMAXPROCS
			if want == 0 {
				want = 7
			}
			if got := runtime.GOMAXPROCS(0); got != want {
				t.Errorf("GOMAXPROCS %d, want %d", got, want)
			}
		})
	}
}

func TestReadyLine(t *testing.T) {
	var buf bytes.Buffer
	c := Config{ID: "go-x", Host: "127.0.0.1", Port: "0", Threads: "auto"}
	c.Ready(&buf, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 4321})
	re := regexp.MustCompile(`^restbench-server id=go-x pid=\d+ threads=auto gomaxprocs=\d+ listening=127\.0\.0\.1:4321\n$`)
	if !re.MatchString(buf.String()) {
		t.Errorf("ready line %q does not match %s", buf.String(), re)
	}
}

// TestSetBacklog: BACKLOG resizes the accept queue of the listener Go
// opened, as the kernel reports it (ss -lt's Send-Q).
func TestSetBacklog(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if err := setBacklog(ln, 7); err != nil {
		t.Fatal(err)
	}
	socks, err := listenq.Listeners(0, ln.Addr().(*net.TCPAddr).Port)
	if err != nil || len(socks) != 1 {
		t.Fatalf("listener: %+v, %v", socks, err)
	}
	if socks[0].Backlog != 7 {
		t.Errorf("backlog %d, want 7", socks[0].Backlog)
	}
}
