// Package contract checks that an implementation serves the server contract
// of docs/contract.md: every endpoint, every error case, the /time timing,
// streaming /filter with bounded memory, and what THREADS does. Verifier
// builds, starts and stops implementations from the manifest; the checks
// themselves only need a URL (and a process id for the memory and process
// checks), so they run against any server, httptest ones included.
package contract

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"restbench/internal/impl"
	"restbench/internal/server"
)

// Status is the outcome of one check.
type Status string

const (
	Pass Status = "PASS"
	Fail Status = "FAIL"
	Info Status = "INFO" // measured and recorded, not judged (e.g. Go's /time blocking)
	Skip Status = "-"    // not run: does not apply, or an earlier step failed
	// NotSupported: the implementation cannot run this way on the runtime
	// (PM2 on Deno, gin on Go 1.22); neither a pass nor a failure.
	NotSupported Status = "N/S"
)

// Result is the outcome of one check of one implementation.
type Result struct {
	Impl    string  `json:"impl"`
	Runtime string  `json:"runtime,omitempty"` // the pinned runtime it ran on
	Check   string  `json:"check"`
	Status  Status  `json:"status"`
	Detail  string  `json:"detail,omitempty"`
	Millis  float64 `json:"ms"`
}

// Target is a running server under check.
type Target struct {
	Impl   impl.Impl
	URL    string       // base URL, http://host:port
	Pid    int          // leader of the server's process group; 0 when unknown
	Ready  server.Ready // the server's readiness line
	Root   string       // repository root, for fixtures/
	Client *http.Client

	// FilterSize is the body size of the filter-memory check (200 MB when 0)
	// and MaxRSS the bound on the server's resident memory (100 MB when 0).
	FilterSize int64
	MaxRSS     int64
}

// Check is one conformance check. Run returns a detail worth recording
// (measurements) or an error saying what is wrong.
type Check struct {
	Name    string
	Timeout time.Duration // 20 s when 0
	Run     func(ctx context.Context, t *Target) (detail string, err error)
}

// Checks are run in this order against a server started with THREADS=1.
// filter-memory comes first, on a fresh server: the bound is on what
// streaming costs, not on what a runtime keeps from the 1 MiB bodies of the
// checks before it (a Node heap does not shrink back).
var Checks = []Check{
	{Name: "ready-line", Run: checkReadyLine},
	{Name: "status", Run: tableCheck("status")},
	{Name: "filter-memory", Timeout: 3 * time.Minute, Run: checkFilterMemory},
	{Name: "filter", Run: checkFilter},
	{Name: "echo", Run: tableCheck("echo")},
	{Name: "echo-any", Run: tableCheck("echo-any")},
	{Name: "sum", Run: tableCheck("sum")},
	{Name: "hello", Run: tableCheck("hello")},
	{Name: "gzip", Run: tableCheck("gzip")},
	{Name: "bad-json", Run: tableCheck("bad-json")},
	{Name: "bad-params", Run: tableCheck("bad-params")},
	{Name: "too-large", Run: tableCheck("too-large")},
	{Name: "not-found", Run: tableCheck("not-found")},
	{Name: "bad-method", Run: tableCheck("bad-method")},
	{Name: "framing", Timeout: 3 * time.Minute, Run: checkFraming},
	{Name: "malformed", Timeout: 3 * time.Minute, Run: checkMalformed},
	{Name: "slow-clients", Run: checkSlowClients},
	{Name: "time-delay", Run: checkTimeDelay},
	{Name: "time-work", Timeout: time.Minute, Run: checkTimeWork},
	{Name: "time-parallel", Run: checkTimeParallel},
	{Name: "time-blocking", Run: checkTimeBlocking},
	{Name: "robust", Run: checkRobust},
	{Name: "runtime", Run: checkRuntime},
}

// CheckNames lists every row of the verify table, in order: the steps
// around the checks (build, start, sigterm, the THREADS variants) included.
func CheckNames() []string {
	names := []string{"build", "start"}
	for _, c := range Checks {
		names = append(names, c.Name)
	}
	return append(names, "sigterm", "threads=2", "gomaxprocs=4", "pm2", "backlog=1024")
}

// Find returns the check with this name.
func Find(name string) (Check, bool) {
	for _, c := range Checks {
		if c.Name == name {
			return c, true
		}
	}
	return Check{}, false
}

// Run runs c against t and returns its result.
func (t *Target) Run(ctx context.Context, c Check) Result {
	timeout := c.Timeout
	if timeout == 0 {
		timeout = 20 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	detail, err := c.Run(ctx, t)
	return outcome(t.Impl.ID, c.Name, start, detail, err)
}

func outcome(id, check string, start time.Time, detail string, err error) Result {
	r := Result{Impl: id, Check: check, Status: Pass, Detail: detail, Millis: msSince(start)}
	var note *noteError
	switch {
	case errors.As(err, &note):
		r.Status, r.Detail = note.status, note.msg
	case err != nil:
		r.Status, r.Detail = Fail, err.Error()
	}
	return r
}

// noteError turns a check's outcome into Info or Skip instead of Fail.
type noteError struct {
	status Status
	msg    string
}

func (e *noteError) Error() string { return e.msg }

func info(format string, a ...any) error { return &noteError{Info, fmt.Sprintf(format, a...)} }
func skip(format string, a ...any) error { return &noteError{Skip, fmt.Sprintf(format, a...)} }
func notSupported(why string) error      { return &noteError{NotSupported, why} }

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

// hostOf is host:port of a base URL.
func hostOf(url string) string { return strings.TrimPrefix(url, "http://") }
