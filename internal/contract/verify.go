package contract

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"restbench/internal/impl"
	"restbench/internal/launch"
	"restbench/internal/listenq"
	"restbench/internal/runtimes"
	"restbench/internal/server"
)

// Verifier builds, starts and checks implementations from a manifest.
type Verifier struct {
	// Launcher resolves, builds and starts the servers (its manifest's,
	// on its lock file's runtimes; its BuildLog receives the builds).
	Launcher *launch.Launcher
	// Runtime is what the servers run on (servers/runtimes.yaml): ""
	// their language's default; as the manifest says when the launcher
	// has no lock file.
	Runtime string
	// Log receives progress (one line per step); nil: none.
	Log io.Writer
	// FilterSize and MaxRSS set the filter-memory check (see Target).
	FilterSize, MaxRSS int64
}

// Verify runs every check of CheckNames against im and returns one result
// per row, in that order. It stops every process it started before it
// returns, whatever happens.
func (v *Verifier) Verify(ctx context.Context, im impl.Impl) []Result {
	rows := map[string]Result{}
	v.logf("== %s\n", im.ID)
	start := time.Now()
	on, err := v.Launcher.On(ctx, im, v.Runtime, nil, false)
	rt, im := on.Runtime, on.Impl
	add := func(r Result) {
		if rt != nil {
			r.Runtime = rt.Name
		}
		rows[r.Check] = r
		v.logf("  %-14s %s %s\n", r.Check, r.Status, firstLine(r.Detail))
	}
	if on.NotSupported != "" {
		err = notSupported(on.NotSupported)
	}
	if rt != nil {
		v.logf("  on %s (%s)\n", rt.Name, rt.Printed)
	}
	if err == nil {
		err = v.Launcher.Build(ctx, im)
	}
	add(outcome(im.ID, "build", start, "", err))
	if err == nil {
		v.main(ctx, im, add)
		v.variants(ctx, im, rt, add)
	}
	out := make([]Result, 0, len(rows))
	for _, name := range CheckNames() {
		r, ok := rows[name]
		if !ok {
			r = Result{Impl: im.ID, Check: name, Status: Skip}
			if rt != nil {
				r.Runtime = rt.Name
			}
		}
		out = append(out, r)
	}
	return out
}

// main starts im with THREADS=1 and runs Checks, then stops it with SIGTERM.
func (v *Verifier) main(ctx context.Context, im impl.Impl, add func(Result)) {
	start := time.Now()
	t, p, err := v.start(ctx, im, map[string]string{"THREADS": "1"})
	if p != nil {
		defer p.Stop(time.Second)
	}
	add(outcome(im.ID, "start", start, "", err))
	if err != nil {
		return
	}
	for _, c := range Checks {
		if ctx.Err() != nil {
			return
		}
		r := t.Run(ctx, c)
		if r.Status == Fail && p.Exited() {
			r.Detail += fmt.Sprintf("\nthe server exited (%v); its stderr ends:\n%s", p.ExitErr(), p.StderrTail(1500))
		}
		add(r)
		if p.Exited() {
			return // the rest stay "-"
		}
	}
	start = time.Now()
	add(outcome(im.ID, "sigterm", start, "", p.Terminate(5*time.Second)))
}

// variants starts im with more threads and checks that they are there:
// GOMAXPROCS from the readiness line (Go), processes in the group (Node).
// rt is the runtime im runs on; nil: as the manifest says.
func (v *Verifier) variants(ctx context.Context, im impl.Impl, rt *runtimes.Installed, add func(Result)) {
	type variant struct {
		row  string
		env  map[string]string
		want func(t *Target) error
	}
	vs := []variant{{"threads=2", map[string]string{"THREADS": "2"}, nil}}
	switch im.Language {
	case "go":
		vs[0].want = wantGOMAXPROCS(2)
		vs = append(vs, variant{"gomaxprocs=4", map[string]string{"THREADS": "1", "GOMAXPROCS": "4"}, wantGOMAXPROCS(4)})
	case "node":
		vs[0].want = wantProcesses(3)
		vs = append(vs, variant{"pm2", map[string]string{"THREADS": "2", "CLUSTER": "pm2"}, wantProcesses(3)})
	}
	vs = append(vs, variant{"backlog=1024", map[string]string{"THREADS": "1", "BACKLOG": "1024"}, wantBacklog(1024)})
	for _, va := range vs {
		if ctx.Err() != nil {
			return
		}
		start := time.Now()
		if rt != nil {
			if why := rt.NotSupported(im.ID, va.env); why != "" {
				add(outcome(im.ID, va.row, start, "", notSupported(why)))
				continue
			}
		}
		add(outcome(im.ID, va.row, start, "", v.variant(ctx, im, va.env, va.want)))
	}
}

func (v *Verifier) variant(ctx context.Context, im impl.Impl, env map[string]string, want func(*Target) error) error {
	t, p, err := v.start(ctx, im, env)
	if p != nil {
		defer p.Stop(time.Second)
	}
	if err != nil {
		return err
	}
	for _, path := range []string{"/status", "/hello", "/status", "/hello"} {
		r, err := t.call(ctx, "GET", path, nil)
		if err != nil {
			return err
		}
		if err := expectStatus(r, 200); err != nil {
			return fmt.Errorf("GET %s: %w", path, err)
		}
	}
	if want == nil {
		return info("%s (%d processes)", t.Ready.Line, len(server.Members(t.Pid)))
	}
	if err := want(t); err != nil {
		return err
	}
	return p.Terminate(10 * time.Second)
}

func wantGOMAXPROCS(n int) func(*Target) error {
	return func(t *Target) error {
		if got := t.Ready.Fields["gomaxprocs"]; got != strconv.Itoa(n) {
			return fmt.Errorf("readiness line says gomaxprocs=%s, want %d (%s)", got, n, t.Ready.Line)
		}
		return nil
	}
}

// wantBacklog checks the accept queue's size of the server's listener, as
// the kernel reports it, against BACKLOG=n (capped by net.core.somaxconn,
// as the kernel caps it).
func wantBacklog(n int) func(*Target) error {
	return func(t *Target) error {
		if b, err := os.ReadFile("/proc/sys/net/core/somaxconn"); err == nil {
			if max, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && max < n {
				n = max
			}
		}
		u, err := url.Parse(t.URL)
		if err != nil {
			return err
		}
		port, _ := strconv.Atoi(u.Port())
		socks, err := listenq.Listeners(t.Pid, port)
		if err != nil {
			return fmt.Errorf("read the listener of port %d: %w", port, err)
		}
		for _, s := range socks {
			if s.Backlog != n {
				return fmt.Errorf("listen queue of %d, want BACKLOG=%d: pass it to listen(2) (docs/contract.md)", s.Backlog, n)
			}
		}
		if len(socks) == 0 {
			return fmt.Errorf("no listener on port %d", port)
		}
		return nil
	}
}

// wantProcesses waits up to 5 s for at least n processes in the group: a
// cluster master may announce readiness before every worker is counted.
func wantProcesses(n int) func(*Target) error {
	return func(t *Target) error {
		deadline := time.Now().Add(5 * time.Second)
		for {
			got := len(server.Members(t.Pid))
			if got >= n {
				return nil
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("%d processes in the server's group, want at least %d (a master and its workers)", got, n)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// start starts im with env, waits for its readiness line and /status, and
// returns the target. The process, when not nil, must be stopped.
func (v *Verifier) start(ctx context.Context, im impl.Impl, env map[string]string) (*Target, *server.Process, error) {
	p, err := v.Launcher.Start(ctx, im, server.Options{Env: env})
	if err != nil {
		return nil, p, err
	}
	t := &Target{
		Impl: im, URL: p.URL(), Pid: p.Pid(), Ready: p.Ready, Root: v.Launcher.Manifest.Root,
		Client: NewClient(), FilterSize: v.FilterSize, MaxRSS: v.MaxRSS,
	}
	return t, p, nil
}

func (v *Verifier) logf(format string, a ...any) {
	if v.Log != nil {
		fmt.Fprintf(v.Log, format, a...)
	}
}

func firstLine(s string) string {
	for i := range len(s) {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}
