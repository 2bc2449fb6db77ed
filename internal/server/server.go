// Package server runs one server under test: it starts an implementation as
// the leader of its own process group with PORT=0, reads the readiness line
// the server prints (docs/contract.md) for its port, threads, GOMAXPROCS and
// workers, waits for GET /status, and stops the whole group. Its members
// rule and usage reader (members.go) say which processes are the server and
// what they use, for the monitor, verify and Stop alike.
package server

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	"restbench/internal/impl"
	"restbench/internal/result"
)

// Options say how to start a server.
type Options struct {
	Dir  string            // working folder: the repository root
	Host string            // HOST, the address it listens on; default 127.0.0.1
	Env  map[string]string // the cell's THREADS, GOMAXPROCS, CLUSTER, ...
	// Port is PORT. 0, the default, lets the kernel pick a free port, which
	// the readiness line names: no port is chosen ahead and raced for. A
	// fixed port is only for where a Service needs one (docs/contract.md).
	Port int
	// Wrap is prepended to the start command, e.g. ["taskset", "-c", "1"],
	// a shell wrapper that joins a cgroup before exec, or ["ip", "netns",
	// "exec", NS] to start it in a network namespace. Each must exec the
	// command, so that the server leads the process group restbench made.
	Wrap []string
	// Dial connects to the server's address where restbench cannot reach
	// it directly (from a generator's namespace): WaitReady's GET /status
	// and every other request of restbench's own (Transport) go through
	// it. nil: from here.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// Stdout and Stderr also receive the server's output when set; the last
	// 64 KiB of stderr are always kept for StderrTail.
	Stdout, Stderr io.Writer
}

// Command is the command line that starts im and its whole environment
// (Environ). The runtime is chosen before: impl.Impl.On puts the pinned
// runtime's binary and flags into im.Start.
func Command(im impl.Impl, opt Options) (argv []string, env map[string]string) {
	argv = append(append([]string{}, opt.Wrap...), im.Start...)
	return argv, Environ(os.Environ(), im.Env, opt)
}

// Process is a running server, leader of its own process group so that
// cluster workers and PM2 daemons are stopped with it.
type Process struct {
	Impl  impl.Impl
	Host  string
	Env   map[string]string // the whole environment it was started with
	Ready Ready             // the readiness line; set by WaitReady
	dial  func(ctx context.Context, network, addr string) (net.Conn, error)
	cmd   *exec.Cmd
	done  chan struct{}
	err   error // exit status, valid after done is closed
	errs  *ringBuffer
	lines *readyWriter
}

// Start starts im. The caller must call Stop, whatever happens, and
// WaitReady before it uses the server.
func Start(im impl.Impl, opt Options) (*Process, error) {
	if opt.Host == "" {
		opt.Host = "127.0.0.1"
	}
	argv, env := Command(im, opt)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = opt.Dir
	cmd.Env = list(env)
	// Own process group: Stop signals the whole tree. Pdeathsig: if restbench
	// itself is killed, the leader dies with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	p := &Process{Impl: im, Host: opt.Host, Env: env, dial: opt.Dial, cmd: cmd, done: make(chan struct{}), errs: &ringBuffer{max: 64 << 10}, lines: newReadyWriter()}
	cmd.Stdout = p.lines
	if opt.Stdout != nil {
		cmd.Stdout = io.MultiWriter(p.lines, opt.Stdout)
	}
	cmd.Stderr = p.errs
	if opt.Stderr != nil {
		cmd.Stderr = io.MultiWriter(p.errs, opt.Stderr)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", im.ID, err)
	}
	track(p)
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// Pid is the process id of the group leader (also the group id).
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Port is the port the server reported; 0 before WaitReady.
func (p *Process) Port() int { return p.Ready.Port() }

// URL returns the base URL of the server, e.g. http://127.0.0.1:41234.
func (p *Process) URL() string {
	return "http://" + net.JoinHostPort(p.Host, strconv.Itoa(p.Port()))
}

// Transport carries restbench's own requests to the server (GET /status,
// GET /runtime), on connections of their own, dialled through
// Options.Dial where one was given. Never through a proxy: the server is
// restbench's to reach, and HTTP_PROXY would send a namespace's address
// to a proxy outside it.
func (p *Process) Transport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	if p.dial != nil {
		t.DialContext = p.dial
	}
	return t
}

// Done is closed when the leader process has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Exited says whether the leader has exited.
func (p *Process) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// ExitErr is the leader's exit status; valid once Done is closed.
func (p *Process) ExitErr() error { return p.err }

// StderrTail returns the last n bytes the server wrote to stderr.
func (p *Process) StderrTail(n int) string {
	b := p.errs.Bytes()
	return string(b[max(0, len(b)-n):])
}

// Reported is what the server said in its readiness line, with the
// environment restbench started it with.
func (p *Process) Reported() *result.Server {
	s := p.Ready.Server()
	if s != nil {
		s.Env = p.Env
	}
	return s
}

// WaitReady waits for the readiness line (which names the port), then polls
// GET /status until it answers 200. It fails when the process exits first or
// timeout passes.
func (p *Process) WaitReady(ctx context.Context, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	select {
	case <-p.lines.seen:
		p.Ready = p.lines.first()
	case <-p.done:
		return fmt.Errorf("%s exited before it was ready (%v); stderr:\n%s", p.Impl.ID, p.err, p.StderrTail(2000))
	case <-ctx.Done():
		return fmt.Errorf("%s printed no readiness line after %s (restbench-server id=%s pid=… threads=… gomaxprocs=… listening=…, see docs/contract.md); stderr:\n%s",
			p.Impl.ID, timeout, p.Impl.ID, p.StderrTail(2000))
	}
	if p.Port() == 0 {
		return fmt.Errorf("%s: readiness line has no port in listening= (%s): print the address the server really listens on, see docs/contract.md", p.Impl.ID, p.Ready.Line)
	}
	client := &http.Client{Transport: p.Transport(), Timeout: time.Second}
	defer client.CloseIdleConnections()
	url := p.URL() + "/status"
	for {
		if status, err := getStatus(client, url); err == nil && status == http.StatusOK {
			return nil
		}
		select {
		case <-p.done:
			return fmt.Errorf("%s exited before it was ready (%v); stderr:\n%s", p.Impl.ID, p.err, p.StderrTail(2000))
		case <-ctx.Done():
			return fmt.Errorf("%s not ready on %s after %s; stderr:\n%s", p.Impl.ID, url, timeout, p.StderrTail(2000))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func getStatus(client *http.Client, url string) (int, error) {
	resp, err := client.Get(url)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}

// Stop sends SIGTERM to the process group, waits up to grace for the leader
// to exit, then sends SIGKILL to the group and to any member that left it.
// It is safe to call more than once.
func (p *Process) Stop(grace time.Duration) {
	defer untrack(p)
	pgid := p.cmd.Process.Pid
	members := Members(pgid)
	syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(grace):
	}
	// Workers of a cluster may outlive their master; the group goes in any
	// case, and so does a descendant that moved to a group of its own.
	syscall.Kill(-pgid, syscall.SIGKILL)
	for _, pid := range members {
		if pid != pgid {
			syscall.Kill(pid, syscall.SIGKILL) // ESRCH when it is gone already
		}
	}
	<-p.done
}

// Terminate sends SIGTERM to the group and waits until every member has
// ended: the contract's promptly-stops rule.
func (p *Process) Terminate(within time.Duration) error {
	start := time.Now()
	syscall.Kill(-p.Pid(), syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(within):
		return fmt.Errorf("still running %s after SIGTERM", within)
	}
	for len(Members(p.Pid())) > 0 {
		if time.Since(start) > within {
			return fmt.Errorf("%d processes of the group still running %s after SIGTERM (the master must stop its workers)", len(Members(p.Pid())), within)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil
}

// Running processes, so that StopAll can clean up on Ctrl-C.
var (
	mu      sync.Mutex
	running = map[*Process]bool{}
)

func track(p *Process)   { mu.Lock(); running[p] = true; mu.Unlock() }
func untrack(p *Process) { mu.Lock(); delete(running, p); mu.Unlock() }

// StopAll stops every process started by this package that is still running.
func StopAll(grace time.Duration) {
	mu.Lock()
	ps := make([]*Process, 0, len(running))
	for p := range running {
		ps = append(ps, p)
	}
	mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range ps {
		wg.Add(1)
		go func() { defer wg.Done(); p.Stop(grace) }()
	}
	wg.Wait()
}

type ringBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (r *ringBuffer) Write(b []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf = append(r.buf, b...)
	if len(r.buf) > r.max {
		r.buf = append(r.buf[:0], r.buf[len(r.buf)-r.max:]...)
	}
	return len(b), nil
}

func (r *ringBuffer) Bytes() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]byte(nil), r.buf...)
}
