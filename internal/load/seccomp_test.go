package load

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"restbench/internal/result"
)

// TestWaitFallsBackUnderSeccomp runs a load in a child process whose seccomp
// filter answers epoll_pwait2 with EPERM, as container runtimes' profiles
// that predate the call do: the loops must fall back to epoll_pwait and
// finish the load, not panic.
func TestWaitFallsBackUnderSeccomp(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "RESTBENCH_TEST_SECCOMP=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "load done") {
		t.Fatalf("load under a seccomp filter refusing epoll_pwait2: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

// loadUnderSeccomp is the child of TestWaitFallsBackUnderSeccomp (TestMain).
func loadUnderSeccomp() error {
	if err := refuseEpollPwait2(); err != nil {
		return fmt.Errorf("install the seccomp filter: %w", err)
	}
	var ev [1]unix.EpollEvent
	if _, e := epollPwait2(-1, ev[:], &unix.Timespec{}); e != unix.EPERM {
		return fmt.Errorf("epoll_pwait2 under the filter: %v, want EPERM", e)
	}
	srv := httptest.NewServer(http.HandlerFunc(hello))
	defer srv.Close()
	for _, cfg := range []Config{
		{URL: srv.URL + "/", Connections: 2, MaxRequests: 200, KeepAlive: true},
		{URL: srv.URL + "/", Connections: 2, Rate: 200, Duration: 300 * time.Millisecond, KeepAlive: true},
	} {
		res, err := Run(context.Background(), cfg)
		if err != nil {
			return err
		}
		if err := result.CheckAccounting(res); err != nil {
			return err
		}
		if res.Responses == 0 || res.Errors.Total() != 0 {
			return fmt.Errorf("%d responses, errors %+v", res.Responses, res.Errors)
		}
		fmt.Printf("load done: %d responses, rate %.0f\n", res.Responses, cfg.Rate)
	}
	return nil
}

// refuseEpollPwait2 installs, on every thread of this process, a seccomp
// filter that fails epoll_pwait2 with EPERM and allows everything else. It
// does not check the architecture: the child only makes native calls.
func refuseEpollPwait2() error {
	prog := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0}, // seccomp_data.nr
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: unix.SYS_EPOLL_PWAIT2, Jt: 0, Jf: 1},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW},
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	if _, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog))); e != 0 {
		return e
	}
	return nil
}
