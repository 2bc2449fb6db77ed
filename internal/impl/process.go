package impl

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Build runs the implementation's build command in the repository root,
// unless its Creates path already exists. Output goes to out.
func (m *Manifest) Build(ctx context.Context, im Impl, out io.Writer) error {
	if im.Build == "" {
		return nil
	}
	if im.Creates != "" {
		if _, err := os.Stat(filepath.Join(m.Root, im.Creates)); err == nil {
			return nil
		}
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", im.Build)
	cmd.Dir = m.Root
	cmd.Env = os.Environ()
	for k, v := range im.BuildEnv {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var buf bytes.Buffer
	cmd.Stdout = io.MultiWriter(out, &buf)
	cmd.Stderr = io.MultiWriter(out, &buf)
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("build %s (%s): %w\n%s", im.ID, im.Build, err, tail(buf.Bytes(), 2000))
	}
	return nil
}

// StartOptions says how to start a server.
type StartOptions struct {
	Host string            // default 127.0.0.1
	Port int               // 0: pick a free one
	Env  map[string]string // THREADS, GOMAXPROCS, CLUSTER, ...
	// Wrap is prepended to the start command, e.g. ["taskset", "-c", "1"],
	// or a shell wrapper that joins a cgroup before exec.
	Wrap []string
	// Stdout and Stderr also receive the server's output when set; the last
	// 64 KiB of stderr are always kept for StderrTail.
	Stdout, Stderr io.Writer
}

// Process is a running server, leader of its own process group so that
// cluster workers and PM2 daemons are stopped with it.
type Process struct {
	Impl Impl
	Host string
	Port int
	cmd  *exec.Cmd
	done chan struct{}
	err  error // exit status, valid after done is closed
	errs *ringBuffer
}

// Start starts im. The caller must call Stop, whatever happens.
func (m *Manifest) Start(im Impl, opts StartOptions) (*Process, error) {
	if opts.Host == "" {
		opts.Host = "127.0.0.1"
	}
	if opts.Port == 0 {
		p, err := FreePort(opts.Host)
		if err != nil {
			return nil, err
		}
		opts.Port = p
	}
	argv := append(append([]string{}, opts.Wrap...), im.Start...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = m.Root
	cmd.Env = os.Environ()
	for k, v := range im.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	for k, v := range opts.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Env = append(cmd.Env, "HOST="+opts.Host, "PORT="+strconv.Itoa(opts.Port))
	// Own process group: Stop signals the whole tree. Pdeathsig: if restbench
	// itself is killed, the leader dies with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	p := &Process{Impl: im, Host: opts.Host, Port: opts.Port, cmd: cmd, done: make(chan struct{}), errs: &ringBuffer{max: 64 << 10}}
	cmd.Stdout = io.Discard
	if opts.Stdout != nil {
		cmd.Stdout = opts.Stdout
	}
	cmd.Stderr = p.errs
	if opts.Stderr != nil {
		cmd.Stderr = io.MultiWriter(p.errs, opts.Stderr)
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

// URL returns the base URL of the server, e.g. http://127.0.0.1:41234.
func (p *Process) URL() string {
	return "http://" + net.JoinHostPort(p.Host, strconv.Itoa(p.Port))
}

// Done is closed when the leader process has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// ExitErr is the leader's exit status; valid once Done is closed.
func (p *Process) ExitErr() error { return p.err }

// StderrTail returns the last n bytes the server wrote to stderr.
func (p *Process) StderrTail(n int) string { return string(tail(p.errs.Bytes(), n)) }

// WaitReady polls GET /status until it answers 200, the process exits, or
// timeout passes.
func (p *Process) WaitReady(ctx context.Context, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	client := &http.Client{Timeout: time.Second}
	url := p.URL() + "/status"
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		resp, err := client.Do(req)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
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

// Stop sends SIGTERM to the process group, waits up to grace for the leader
// to exit, then sends SIGKILL to the group. It is safe to call more than once.
func (p *Process) Stop(grace time.Duration) {
	defer untrack(p)
	pgid := p.cmd.Process.Pid
	syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(grace):
	}
	// Workers of a cluster may outlive their master; the group goes in any case.
	syscall.Kill(-pgid, syscall.SIGKILL)
	<-p.done
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

// FreePort asks the kernel for a free TCP port on host.
func FreePort(host string) (int, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
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

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
