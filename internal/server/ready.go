package server

import (
	"net"
	"strconv"
	"strings"
	"sync"

	"restbench/internal/result"
)

// Ready is the line a server prints once it serves:
// restbench-server id=<id> pid=<pid> threads=<THREADS> gomaxprocs=<n or -> listening=<host:port>
type Ready struct {
	Line   string
	Fields map[string]string
}

// ParseReady reads a readiness line; ok is false when line is not one.
func ParseReady(line string) (Ready, bool) {
	line = strings.TrimSpace(line)
	rest, ok := strings.CutPrefix(line, "restbench-server ")
	if !ok {
		return Ready{}, false
	}
	r := Ready{Line: line, Fields: map[string]string{}}
	for _, f := range strings.Fields(rest) {
		if k, v, ok := strings.Cut(f, "="); ok {
			r.Fields[k] = v
		}
	}
	return r, true
}

// Port is the port of listening=; 0 when there is none.
func (r Ready) Port() int {
	_, port, err := net.SplitHostPort(r.Fields["listening"])
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(port)
	return n
}

// Server is what the line reports. Workers come from a workers= field when
// the server prints one; otherwise, for a server without GOMAXPROCS (Node),
// threads=N>1 means N worker processes under a master (docs/contract.md).
func (r Ready) Server() *result.Server {
	if r.Line == "" {
		return nil
	}
	num := func(k string) int { n, _ := strconv.Atoi(r.Fields[k]); return n }
	s := &result.Server{PID: num("pid"), Port: r.Port(), Threads: num("threads"), GOMAXPROCS: num("gomaxprocs"), Workers: num("workers"), Line: r.Line}
	if _, ok := r.Fields["workers"]; !ok && r.Fields["gomaxprocs"] == "-" && s.Threads > 1 {
		s.Workers = s.Threads
	}
	return s
}

// readyWriter receives a server's stdout and keeps its readiness lines.
type readyWriter struct {
	mu      sync.Mutex
	partial []byte
	lines   []Ready
	seen    chan struct{} // closed at the first readiness line
}

func newReadyWriter() *readyWriter { return &readyWriter{seen: make(chan struct{})} }

func (w *readyWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.partial = append(w.partial, b...)
	for {
		i := strings.IndexByte(string(w.partial), '\n')
		if i < 0 {
			break
		}
		if r, ok := ParseReady(string(w.partial[:i])); ok {
			if len(w.lines) == 0 {
				close(w.seen)
			}
			w.lines = append(w.lines, r)
		}
		w.partial = w.partial[i+1:]
	}
	if len(w.partial) > 4096 { // a server that prints without newlines
		w.partial = w.partial[len(w.partial)-4096:]
	}
	return len(b), nil
}

// first returns the first readiness line; call it once seen is closed.
func (w *readyWriter) first() Ready {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.lines[0]
}
