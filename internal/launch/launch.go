// Package launch launches a server on a runtime: it resolves the runtime an
// implementation runs on (servers/runtimes.yaml), installs that runtime and
// builds the implementation once per invocation, starts the server and waits
// until it is ready (the readiness line and GET /status of
// docs/contract.md). The runner, the contract checks and restbench verify
// all launch through it; internal/server is the process it starts.
package launch

import (
	"context"
	"fmt"
	"io"
	"time"

	"restbench/internal/impl"
	"restbench/internal/runtimes"
	"restbench/internal/server"
)

// ReadyTimeout is how long a server may take from its start to answering
// GET /status, unless the launcher is told otherwise (restbench run
// --ready-timeout).
const ReadyTimeout = 20 * time.Second

// Launcher launches the servers of one invocation. Zero values of its
// optional fields get the documented defaults. It remembers what it
// installed and built, so it is made once per invocation; it is not safe
// for concurrent use.
type Launcher struct {
	Manifest *impl.Manifest // the implementations (required)
	// Runtimes pins what the servers run on; nil starts them as the
	// manifest says, with whatever node and go are on PATH.
	Runtimes *runtimes.Lock
	// Log receives one line per runtime download; BuildLog the builds'
	// output. nil: none.
	Log, BuildLog io.Writer
	ReadyTimeout  time.Duration // default ReadyTimeout

	installed map[string]install // by runtime name
	built     map[string]error   // by implementation and build command
}

// install is the outcome of installing one runtime.
type install struct {
	in  *runtimes.Installed
	err error
}

// Install returns the runtime rt installed, installing it the first time
// it is asked for; a failure is remembered too, so that it is reported once
// and not retried between two trials. A cancelled install is not
// remembered.
func (l *Launcher) Install(ctx context.Context, rt runtimes.Runtime) (*runtimes.Installed, error) {
	if got, ok := l.installed[rt.Name]; ok {
		return got.in, got.err
	}
	in, err := l.Runtimes.Install(ctx, rt, writer(l.Log))
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if l.installed == nil {
		l.installed = map[string]install{}
	}
	l.installed[rt.Name] = install{in, err}
	return in, err
}

// Installed lists the runtimes installed so far, by name.
func (l *Launcher) Installed() map[string]*runtimes.Installed {
	out := map[string]*runtimes.Installed{}
	for name, got := range l.installed {
		if got.in != nil {
			out[name] = got.in
		}
	}
	return out
}

// Resolved is an implementation as it builds and starts on its runtime.
type Resolved struct {
	Impl impl.Impl
	// Runtime is the runtime as installed (its own flags included, even for
	// a bare launch); nil when the launcher has no lock file.
	Runtime *runtimes.Installed
	// NotSupported is why Impl cannot run on Runtime with the environment
	// asked for (servers/runtimes.yaml's unsupported), or "". Impl is then
	// as the manifest says.
	NotSupported string
}

// On resolves im on the runtime named runtime ("": its language's default)
// for a server environment env, installing the runtime when it is not yet.
// bare starts it without the runtime flags of the manifest and the lock file
// (a suite's runtime_flags: default). Without a lock file im stays as the
// manifest says.
func (l *Launcher) On(ctx context.Context, im impl.Impl, runtime string, env map[string]string, bare bool) (Resolved, error) {
	if bare {
		im = im.WithoutFlags()
	}
	if l.Runtimes == nil {
		return Resolved{Impl: im}, nil
	}
	rt, err := l.Runtimes.Resolve(im.Language, runtime)
	if err != nil {
		return Resolved{Impl: im}, err
	}
	in, err := l.Install(ctx, rt)
	if err != nil {
		return Resolved{Impl: im}, fmt.Errorf("runtime %s: %v", rt.Name, err)
	}
	res := Resolved{Impl: im, Runtime: in, NotSupported: rt.NotSupported(im.ID, env)}
	if res.NotSupported != "" {
		return res, nil
	}
	if bare {
		// Nor the runtime's own flags (the copy keeps the installed
		// runtime as it is).
		b := *in
		b.Flags = nil
		in = &b
	}
	res.Impl, err = im.On(in)
	return res, err
}

// Build builds im once per launcher: a second call with the same build
// command returns the first one's outcome. A cancelled build is not
// remembered.
func (l *Launcher) Build(ctx context.Context, im impl.Impl) error {
	// The build command differs per runtime (a Go toolchain of its own).
	key := im.ID + " " + im.Build
	if err, done := l.built[key]; done {
		return err
	}
	err := l.Manifest.Build(ctx, im, writer(l.BuildLog))
	if ctx.Err() == nil {
		if l.built == nil {
			l.built = map[string]error{}
		}
		l.built[key] = err
	}
	return err
}

// Start starts im from the repository root as opt says and waits until it
// is ready. The caller stops the process it returns, with the error too when
// the server started but did not become ready (its stderr can be read
// first); when it could not start, the process is nil.
func (l *Launcher) Start(ctx context.Context, im impl.Impl, opt server.Options) (*server.Process, error) {
	opt.Dir = l.Manifest.Root
	p, err := server.Start(im, opt)
	if err != nil {
		return nil, err
	}
	timeout := l.ReadyTimeout
	if timeout <= 0 {
		timeout = ReadyTimeout
	}
	return p, p.WaitReady(ctx, timeout)
}

func writer(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}
