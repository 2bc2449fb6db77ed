package contract

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"restbench/internal/server"
)

// checkReadyLine checks the readiness line of a THREADS=1 start, and that
// THREADS=1 means one process.
func checkReadyLine(ctx context.Context, t *Target) (string, error) {
	if t.Ready.Line == "" {
		return "", skip("no readiness line captured (not started by restbench)")
	}
	f := t.Ready.Fields
	listen := strings.TrimPrefix(t.URL, "http://")
	_, pidErr := strconv.Atoi(f["pid"])
	switch {
	case f["id"] != t.Impl.ID:
		return "", fmt.Errorf("id=%s, want id=%s: %s", f["id"], t.Impl.ID, t.Ready.Line)
	case pidErr != nil:
		return "", fmt.Errorf("pid=%s is not a process id: %s", f["pid"], t.Ready.Line)
	case f["threads"] != "1":
		return "", fmt.Errorf("threads=%s, want 1 (THREADS=1 was set): %s", f["threads"], t.Ready.Line)
	case f["listening"] != listen:
		return "", fmt.Errorf("listening=%s, want %s (HOST and PORT were set): %s", f["listening"], listen, t.Ready.Line)
	case f["gomaxprocs"] == "":
		return "", fmt.Errorf("no gomaxprocs= field (Go: the GOMAXPROCS in effect; other languages: -): %s", t.Ready.Line)
	case t.Impl.Language == "go" && f["gomaxprocs"] != "1":
		return "", fmt.Errorf("gomaxprocs=%s with THREADS=1, want 1: %s", f["gomaxprocs"], t.Ready.Line)
	}
	if n := len(server.Members(t.Pid)); t.Pid > 0 && n != 1 {
		return "", fmt.Errorf("%d processes with THREADS=1, want 1", n)
	}
	return t.Ready.Line, nil
}
