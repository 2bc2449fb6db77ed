package server

import (
	"io"
	"reflect"
	"testing"
	"time"

	"restbench/internal/result"
)

func TestReadyWriter(t *testing.T) {
	// The writer finds the line among other output, split across writes.
	w := newReadyWriter()
	io.WriteString(w, "starting\nrestbench-server id=x pid=1 thr")
	io.WriteString(w, "eads=1 gomaxprocs=- listening=h:1\nmore\n")
	select {
	case <-w.seen:
		if r := w.first(); r.Fields["threads"] != "1" || r.Fields["listening"] != "h:1" {
			t.Errorf("readyWriter: %v", r)
		}
	case <-time.After(time.Second):
		t.Error("readyWriter: no line seen")
	}
}

// TestReported reads what a server reports, for Go and Node lines.
func TestReported(t *testing.T) {
	tests := []struct {
		line string
		want result.Server
	}{
		{"restbench-server id=go-x pid=12 threads=1 gomaxprocs=4 listening=127.0.0.1:4321",
			result.Server{PID: 12, Port: 4321, Threads: 1, GOMAXPROCS: 4}},
		{"restbench-server id=go-x pid=12 threads=auto gomaxprocs=2 listening=[::1]:80",
			result.Server{PID: 12, Port: 80, GOMAXPROCS: 2}},
		{"restbench-server id=node-http pid=7 threads=1 gomaxprocs=- listening=127.0.0.1:9",
			result.Server{PID: 7, Port: 9, Threads: 1}},
		{"restbench-server id=node-http pid=7 threads=4 gomaxprocs=- listening=127.0.0.1:9",
			result.Server{PID: 7, Port: 9, Threads: 4, Workers: 4}},
		{"restbench-server id=other pid=7 threads=2 gomaxprocs=- listening=127.0.0.1:9 workers=3",
			result.Server{PID: 7, Port: 9, Threads: 2, Workers: 3}},
		{"restbench-server id=bad pid=7 threads=1 gomaxprocs=- listening=nowhere",
			result.Server{PID: 7, Threads: 1}},
	}
	for _, tt := range tests {
		r, ok := ParseReady(tt.line)
		if !ok {
			t.Fatalf("ParseReady(%q) failed", tt.line)
		}
		got := r.Server()
		tt.want.Line = tt.line
		if !reflect.DeepEqual(*got, tt.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.line, *got, tt.want)
		}
	}
	if (Ready{}).Server() != nil {
		t.Error("no line: want no report")
	}
}
