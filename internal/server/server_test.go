package server

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"restbench/internal/impl"
)

// The test binary doubles as the server, chosen by RESTBENCH_TEST_SERVER:
// "serve" listens on HOST:PORT and prints the readiness line; "escape" does
// the same after starting a worker in a session (and group) of its own, as
// a cluster manager might; "silent" serves but never prints the line;
// "spin" serves and burns a core while idle; "worker" sleeps until killed.
func TestMain(m *testing.M) {
	switch mode := os.Getenv("RESTBENCH_TEST_SERVER"); mode {
	case "":
		os.Exit(m.Run())
	case "worker":
		time.Sleep(time.Hour)
	default:
		serve(mode)
	}
}

func serve(mode string) {
	extra := ""
	if mode == "burnt" {
		burnOnExitingThread(300 * time.Millisecond)
	}
	if mode == "spin" {
		go func() {
			for {
			}
		}()
	}
	if mode == "escape" {
		w := exec.Command(os.Args[0])
		w.Env = append(os.Environ(), "RESTBENCH_TEST_SERVER=worker")
		w.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := w.Start(); err != nil {
			panic(err)
		}
		extra = " workers=1 worker=" + strconv.Itoa(w.Process.Pid)
	}
	l, err := net.Listen("tcp", net.JoinHostPort(os.Getenv("HOST"), os.Getenv("PORT")))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if mode == "env" { // the environment it got, for TestCleanEnvironment
		extra = " env=" + strings.Join(os.Environ(), ",")
	}
	if mode != "silent" {
		fmt.Printf("restbench-server id=test pid=%d threads=%s gomaxprocs=1 listening=%s%s\n", os.Getpid(), os.Getenv("THREADS"), l.Addr(), extra)
	}
	http.Serve(l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"status":"ok"}`)) }))
}

func testImpl(t *testing.T, mode string) impl.Impl {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return impl.Impl{ID: "test-" + mode, Start: []string{self}, Env: map[string]string{"RESTBENCH_TEST_SERVER": mode}}
}

// startReady starts the test server in mode with THREADS=1 and waits for
// its readiness line; the caller stops it.
func startReady(t *testing.T, mode string) *Process {
	t.Helper()
	p, err := Start(testImpl(t, mode), Options{Env: map[string]string{"THREADS": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.WaitReady(context.Background(), 10*time.Second); err != nil {
		p.Stop(time.Second)
		t.Fatal(err)
	}
	return p
}

// TestServerLifecycle starts a server with PORT=0, learns its port from the
// readiness line, counts a worker that left the group as a member, and stops
// every member.
func TestServerLifecycle(t *testing.T) {
	p := startReady(t, "escape")
	defer p.Stop(time.Second)
	got := p.Reported()
	if got.PID != p.Pid() || got.Port == 0 || got.Port != p.Port() || got.Threads != 1 || got.GOMAXPROCS != 1 || got.Workers != 1 {
		t.Errorf("reported %+v, pid %d", got, p.Pid())
	}
	if !strings.HasPrefix(p.URL(), "http://127.0.0.1:") {
		t.Errorf("url %s", p.URL())
	}
	worker, _ := strconv.Atoi(p.Ready.Fields["worker"])
	members := Members(p.Pid())
	if !slices.Contains(members, p.Pid()) || !slices.Contains(members, worker) || len(members) != 2 {
		t.Errorf("members %v, want the leader %d and the worker %d that left its group", members, p.Pid(), worker)
	}
	if RSS(p.Pid()) <= 0 {
		t.Error("no resident memory")
	}
	if u, ok := ReadUsage(p.Pid()); !ok || u.RSS <= 0 {
		t.Errorf("usage %+v %v", u, ok)
	}
	p.Stop(time.Second)
	for i := 0; i < 40 && alive(worker); i++ {
		time.Sleep(50 * time.Millisecond)
	}
	if alive(worker) {
		t.Errorf("the worker %d outlived Stop", worker)
	}
}

// TestNotReady: a server that exits, or never prints its line, gets an
// error that says what to do.
func TestNotReady(t *testing.T) {
	p, err := Start(testImpl(t, "silent"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop(time.Second)
	err = p.WaitReady(context.Background(), 500*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "printed no readiness line") || !strings.Contains(err.Error(), "docs/contract.md") {
		t.Errorf("err = %v", err)
	}
	im := impl.Impl{ID: "test-false", Start: []string{"false"}}
	q, err := Start(im, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Stop(time.Second)
	if err := q.WaitReady(context.Background(), 5*time.Second); err == nil || !strings.Contains(err.Error(), "exited before it was ready") {
		t.Errorf("err = %v", err)
	}
}

func alive(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return err == nil && !strings.Contains(string(data), ") Z ")
}
