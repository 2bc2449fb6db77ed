// Package service holds the behaviour of the server contract (docs/contract.md)
// that does not depend on a web framework: decoding and encoding the bodies,
// the /time work, the streaming /filter, the JSON errors, and the start-up
// protocol (environment, GOMAXPROCS, readiness line). Each Go reference server
// in servers/go/<framework> only wires its framework's routes to it, so the
// servers differ in the framework and nothing else.
package service

import (
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"strconv"
)

// Config is what a server reads from its environment.
type Config struct {
	ID      string // implementation id, as in servers/implementations.yaml
	Host    string // HOST, default 127.0.0.1
	Port    string // PORT, required (0 lets the kernel pick one)
	Threads string // THREADS as given: "1" (default), "N" or "auto"
	Backlog int    // BACKLOG: the listen queue's size; 0 keeps Go's (net.core.somaxconn)
}

// Addr is the address to listen on.
func (c Config) Addr() string { return net.JoinHostPort(c.Host, c.Port) }

// LoadConfig reads HOST, PORT, THREADS and BACKLOG and applies THREADS to the Go
// runtime: THREADS=N sets GOMAXPROCS to N, THREADS=auto keeps the runtime's
// own choice (Go >= 1.25 follows the cgroup CPU quota). An explicit
// GOMAXPROCS variable wins over THREADS: the runtime has already applied it,
// and experiments such as "GOMAXPROCS=4 under a 1-CPU quota" depend on it.
func LoadConfig(id string, getenv func(string) string) (Config, error) {
	c := Config{ID: id, Host: getenv("HOST"), Port: getenv("PORT"), Threads: getenv("THREADS")}
	var err error
	if c.Host == "" {
		c.Host = "127.0.0.1"
	}
	if c.Port == "" {
		return c, fmt.Errorf("PORT is not set (run it as PORT=8080 %s)", os.Args[0])
	}
	if p, err := strconv.Atoi(c.Port); err != nil || p < 0 || p > 65535 {
		return c, fmt.Errorf("PORT=%q is not a port number (use 1..65535, or 0 for any free port)", c.Port)
	}
	if b := getenv("BACKLOG"); b != "" {
		if c.Backlog, err = strconv.Atoi(b); err != nil || c.Backlog < 1 {
			return c, fmt.Errorf("BACKLOG=%q is not valid (use a positive number of connections, e.g. 4096, or leave it unset for the default)", b)
		}
	}
	if c.Threads == "" {
		c.Threads = "1"
	}
	n, err := threads(c.Threads)
	if err != nil {
		return c, err
	}
	if n > 0 && getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(n)
	}
	return c, nil
}

// threads parses THREADS: a positive count, or 0 for "auto".
func threads(s string) (int, error) {
	if s == "auto" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("THREADS=%q is not valid (use a positive integer such as 1 or 4, or auto)", s)
	}
	return n, nil
}

// Ready prints the readiness line that restbench waits for, once the server
// listens on addr (the listener's address, so that PORT=0 reports the real
// port).
func (c Config) Ready(w io.Writer, addr net.Addr) {
	fmt.Fprintf(w, "restbench-server id=%s pid=%d threads=%s gomaxprocs=%d listening=%s\n",
		c.ID, os.Getpid(), c.Threads, runtime.GOMAXPROCS(0), addr)
}
