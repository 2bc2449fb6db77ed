package runner

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"restbench/internal/impl"
)

// The test binary doubles as the servers of these tests, chosen by
// RESTBENCH_TEST_SERVER:
//
//	ok        serve every request with 200
//	crash=N   exit with status 3 after N requests, saying why on stderr
//	exit      exit at once with a message on stderr, never ready
//	tree      start a child process (a cluster worker stand-in), then serve
//	child     the worker: sleep until killed
//
// At start the server writes RESTBENCH_TEST_INFO: its pid, its
// Cpus_allowed_list, and the Cpus_allowed_list of every thread of its parent
// (restbench), so the tests read the real affinities.
func TestMain(m *testing.M) {
	switch mode := os.Getenv("RESTBENCH_TEST_SERVER"); {
	case mode == "":
		os.Exit(m.Run())
	case mode == "child":
		time.Sleep(time.Hour)
	case mode == "exit":
		fmt.Fprintln(os.Stderr, "test server: cannot start: no configuration (on purpose)")
		os.Exit(1)
	default:
		serve(mode)
	}
}

func serve(mode string) {
	info := []string{"pid " + strconv.Itoa(os.Getpid()), "server " + allowedList("/proc/self/status")}
	if cg, err := os.ReadFile("/proc/self/cgroup"); err == nil {
		// Every hierarchy's line (v1 has several): the cpu quota's among them.
		for _, line := range strings.Split(strings.TrimSpace(string(cg)), "\n") {
			info = append(info, "cgroup "+line)
		}
	}
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/status", os.Getppid()))
	for _, t := range tasks {
		info = append(info, "client "+allowedList(t))
	}
	if mode == "tree" {
		child := exec.Command(os.Args[0])
		child.Env = append(os.Environ(), "RESTBENCH_TEST_SERVER=child")
		if err := child.Start(); err != nil {
			panic(err)
		}
		info = append(info, "child "+strconv.Itoa(child.Process.Pid))
	}
	if path := os.Getenv("RESTBENCH_TEST_INFO"); path != "" {
		os.WriteFile(path, []byte(strings.Join(info, "\n")+"\n"), 0o644)
	}
	crashAfter := int64(-1)
	if n, ok := strings.CutPrefix(mode, "crash="); ok {
		crashAfter, _ = strconv.ParseInt(n, 10, 64)
	}
	var served atomic.Int64
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/status" && served.Add(1) == crashAfter {
			fmt.Fprintf(os.Stderr, "test server: crashing after %d requests (on purpose)\n", crashAfter)
			os.Exit(3)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"ok":true}`))
	})
	l, err := net.Listen("tcp", net.JoinHostPort(os.Getenv("HOST"), os.Getenv("PORT")))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// The contract's readiness line: restbench learns the port from it.
	fmt.Printf("restbench-server id=test pid=%d threads=%s gomaxprocs=%d listening=%s\n", os.Getpid(), os.Getenv("THREADS"), runtime.GOMAXPROCS(0), l.Addr())
	http.Serve(l, h)
}

func allowedList(statusFile string) string {
	data, _ := os.ReadFile(statusFile)
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}

// testManifest lists one implementation per server mode; each writes its
// info file into dir.
func testManifest(t *testing.T, dir string) *impl.Manifest {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	m := &impl.Manifest{Root: dir}
	for _, mode := range []string{"ok", "crash=40", "exit", "tree"} {
		id := "test-" + strings.ReplaceAll(mode, "=", "")
		m.Impls = append(m.Impls, impl.Impl{ID: id, Framework: "test", Start: []string{self},
			Env: map[string]string{"RESTBENCH_TEST_SERVER": mode, "RESTBENCH_TEST_INFO": filepath.Join(dir, id+".info")}})
	}
	return m
}

// serverInfo reads what a test server wrote at start.
type serverInfo struct {
	pid, child int
	server     string
	client     []string
	cgroups    []string // /proc/self/cgroup's lines
}

func readInfo(t *testing.T, path string) serverInfo {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the server never wrote %s: %v", path, err)
	}
	var si serverInfo
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		k, v, _ := strings.Cut(line, " ")
		switch k {
		case "pid":
			si.pid, _ = strconv.Atoi(v)
		case "child":
			si.child, _ = strconv.Atoi(v)
		case "server":
			si.server = v
		case "client":
			si.client = append(si.client, v)
		case "cgroup":
			si.cgroups = append(si.cgroups, v)
		}
	}
	return si
}

// gone says whether no process with this pid exists any more (a zombie
// that nobody reaped counts as alive: it would be a leak too).
func gone(pid int) bool {
	_, err := os.Stat(fmt.Sprintf("/proc/%d", pid))
	return os.IsNotExist(err)
}
