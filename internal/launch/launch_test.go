package launch

import (
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"restbench/internal/impl"
	"restbench/internal/runtimes"
	"restbench/internal/server"
)

// TestStart launches the repository's reference servers, a Go one and a
// Node one, as the manifest says: each is built (or found built), becomes
// ready on a port the kernel picked, says so in its readiness line and
// answers GET /status.
func TestStart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts real servers")
	}
	root, err := impl.FindRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	m, err := impl.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	defer server.StopAll(time.Second)
	l := &Launcher{Manifest: m}
	for _, tc := range []struct {
		id, command string // command: what the server needs on PATH
	}{
		{"go-nethttp", "go"},
		{"node-http", "node"},
	} {
		t.Run(tc.id, func(t *testing.T) {
			if _, err := exec.LookPath(tc.command); err != nil {
				t.Skipf("%s is not on PATH", tc.command)
			}
			im, err := m.Get(tc.id)
			if err != nil {
				t.Fatal(err)
			}
			res, err := l.On(context.Background(), im, "", nil, false)
			if err != nil || res.Runtime != nil || res.NotSupported != "" {
				t.Fatalf("on no lock file: %+v, %v; want the manifest's implementation", res, err)
			}
			if err := l.Build(context.Background(), res.Impl); err != nil {
				t.Fatal(err)
			}
			p, err := l.Start(context.Background(), res.Impl, server.Options{Env: map[string]string{"THREADS": "1"}})
			if p != nil {
				defer p.Stop(time.Second)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Ready.Fields["id"]; got != tc.id || p.Port() == 0 || p.Reported().Port != p.Port() {
				t.Errorf("readiness line %q: want id=%s and a port", p.Ready.Line, tc.id)
			}
			resp, err := (&http.Client{Transport: p.Transport(), Timeout: 5 * time.Second}).Get(p.URL() + "/status")
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("GET /status: %s", resp.Status)
			}
		})
	}
}

// TestStartFails: a server that exits before it is ready, one that never
// prints its readiness line and one that cannot be started at all each get
// an error that says what happened; the first two come back with their
// process, whose stderr the caller reads before it stops it.
func TestStartFails(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name    string
		start   []string
		want    []string // in the error
		stderr  string   // in the process's stderr; "": no process
		timeout time.Duration
	}{
		{
			name:   "exits before ready",
			start:  []string{"sh", "-c", "echo cannot start: no configuration >&2; exit 3"},
			want:   []string{"test exited before it was ready (exit status 3); stderr:\n", "cannot start: no configuration"},
			stderr: "cannot start: no configuration",
		},
		{
			name:    "no readiness line",
			start:   []string{"sh", "-c", "echo listening somewhere >&2; exec sleep 60"},
			want:    []string{"test printed no readiness line after 300ms", "docs/contract.md"},
			stderr:  "listening somewhere",
			timeout: 300 * time.Millisecond,
		},
		{
			name:  "not a command",
			start: []string{filepath.Join(dir, "no-such-server")},
			want:  []string{"start test: ", "no such file or directory"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &Launcher{Manifest: &impl.Manifest{Root: dir}, ReadyTimeout: tc.timeout}
			p, err := l.Start(context.Background(), impl.Impl{ID: "test", Start: tc.start}, server.Options{})
			if p != nil {
				defer p.Stop(time.Second)
			}
			if err == nil {
				t.Fatal("started; want an error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			switch {
			case tc.stderr == "" && p != nil:
				t.Errorf("a process came back (pid %d); want none", p.Pid())
			case tc.stderr != "" && p == nil:
				t.Error("no process came back; want the one that started")
			case tc.stderr != "" && !strings.Contains(p.StderrTail(1000), tc.stderr):
				t.Errorf("stderr %q, want %q in it", p.StderrTail(1000), tc.stderr)
			}
		})
	}
}

// testLock pins two Go runtimes on this test's own toolchain, so that
// nothing is downloaded: go@here, the default, and go@old, on which
// test-old and any cluster do not run.
func testLock(t *testing.T) *runtimes.Lock {
	tc := runtime.Version()
	if !strings.HasPrefix(tc, "go1.") {
		t.Skipf("toolchain %q is not a release", tc)
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	return &runtimes.Lock{Root: t.TempDir(), Defaults: map[string]string{runtimes.Go: "go@here"}, Runtimes: []runtimes.Runtime{
		{Name: "go@here", Language: runtimes.Go, Toolchain: tc, Flags: []string{"--runtime-flag"}},
		{Name: "go@old", Language: runtimes.Go, Toolchain: tc, Unsupported: map[string]string{"test-old": "needs a newer Go", "cluster": "no cluster here"}},
		{Name: "node@here", Language: runtimes.Node, NPM: "node", Version: "0.0.0"},
	}}
}

// TestOn resolves an implementation on a runtime: the default one, a named
// one, one that does not support it (with the reason, nothing else done),
// an unknown one and one of another language (errors), and a bare launch
// without the start command's runtime flags.
func TestOn(t *testing.T) {
	lock := testLock(t)
	goImpl := impl.Impl{ID: "test", Language: runtimes.Go, Build: "go build -o bin/test .", Start: []string{"bin/test", "--flag", "serve"}}
	old := goImpl
	old.ID = "test-old"
	for _, tc := range []struct {
		name    string
		im      impl.Impl
		runtime string
		env     map[string]string
		bare    bool
		// want: the runtime installed, why it is not supported, the start
		// command, the error (a part of it; "" for none).
		rt, why, start, err string
	}{
		{name: "default", im: goImpl, rt: "go@here", start: "bin/test --flag serve"},
		{name: "named", im: goImpl, runtime: "go@old", rt: "go@old", start: "bin/test --flag serve"},
		{name: "bare", im: goImpl, bare: true, rt: "go@here", start: "bin/test serve"},
		{name: "not supported", im: old, runtime: "go@old", rt: "go@old", why: "not supported on go@old: needs a newer Go", start: "bin/test --flag serve"},
		{name: "no cluster", im: goImpl, runtime: "go@old", env: map[string]string{"THREADS": "2"}, rt: "go@old", why: "not supported on go@old: no cluster here", start: "bin/test --flag serve"},
		{name: "one thread", im: goImpl, runtime: "go@old", env: map[string]string{"THREADS": "1"}, rt: "go@old", start: "bin/test --flag serve"},
		{name: "unknown runtime", im: goImpl, runtime: "go@9", err: `unknown runtime "go@9" (pinned in servers/runtimes.yaml: go@here, go@old, node@here)`},
		{name: "other language", im: goImpl, runtime: "node@here", err: "runtime node@here runs node implementations, not go ones"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &Launcher{Manifest: &impl.Manifest{}, Runtimes: lock}
			res, err := l.On(context.Background(), tc.im, tc.runtime, tc.env, tc.bare)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				if res.Runtime != nil || len(l.Installed()) > 0 {
					t.Errorf("runtime %v, installed %v; want none", res.Runtime, l.Installed())
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Runtime == nil || res.Runtime.Name != tc.rt || res.Runtime.Printed != runtime.Version() {
				t.Fatalf("runtime %+v, want %s as installed", res.Runtime, tc.rt)
			}
			if res.NotSupported != tc.why {
				t.Errorf("not supported %q, want %q", res.NotSupported, tc.why)
			}
			// Where it runs, a pinned toolchain builds a binary of its own.
			want := tc.start
			if tc.why == "" {
				want = strings.Replace(want, "bin/test", "bin/"+runtime.Version()+"/test", 1)
			}
			if got := strings.Join(res.Impl.Start, " "); got != want {
				t.Errorf("start %q, want %q", got, want)
			}
			// On the runtime, a build names the toolchain; not where it
			// does not run.
			if got, want := res.Impl.BuildEnv["GOTOOLCHAIN"], runtime.Version(); (got == want) == (tc.why != "") {
				t.Errorf("build env GOTOOLCHAIN=%q (not supported: %q)", got, tc.why)
			}
			if _, ok := l.Installed()[tc.rt]; !ok {
				t.Errorf("installed %v, want %s among them", l.Installed(), tc.rt)
			}
		})
	}
	// A bare launch leaves the installed runtime as it is: its flags are
	// what env.json records.
	l := &Launcher{Manifest: &impl.Manifest{}, Runtimes: lock}
	if _, err := l.On(context.Background(), goImpl, "", nil, true); err != nil {
		t.Fatal(err)
	}
	if got := l.Installed()["go@here"].Flags; !slices.Equal(got, []string{"--runtime-flag"}) {
		t.Errorf("installed flags after a bare launch %q, want the lock file's", got)
	}
}

// TestInstallRemembered: a runtime that cannot be installed fails every
// launch on it with the same error, without trying again.
func TestInstallRemembered(t *testing.T) {
	lock := testLock(t)
	l := &Launcher{Manifest: &impl.Manifest{}, Runtimes: lock}
	im := impl.Impl{ID: "test", Language: runtimes.Go, Start: []string{"bin/test"}}
	path := os.Getenv("PATH")
	t.Setenv("PATH", t.TempDir()) // no go command: the install fails
	_, first := l.On(context.Background(), im, "", nil, false)
	want := "runtime go@here: go@here needs the go command on PATH"
	if first == nil || !strings.HasPrefix(first.Error(), want) {
		t.Fatalf("error %v, want %q", first, want)
	}
	os.Setenv("PATH", path) // t.Setenv restores it at the end too
	if _, err := l.On(context.Background(), im, "", nil, false); err == nil || err.Error() != first.Error() {
		t.Errorf("second launch: %v, want the first one's error %q", err, first)
	}
	if len(l.Installed()) > 0 {
		t.Errorf("installed %v, want none", l.Installed())
	}
}

// TestBuildOnce: a launcher builds an implementation once per build command
// (another runtime's command builds again) and remembers a failure.
func TestBuildOnce(t *testing.T) {
	dir := t.TempDir()
	l := &Launcher{Manifest: &impl.Manifest{Root: dir}}
	count := func(name string) int {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		return strings.Count(string(b), "x")
	}
	a := impl.Impl{ID: "a", Build: "echo x >> a.builds"}
	other := impl.Impl{ID: "a", Build: "echo x >> a.builds; true"}
	broken := impl.Impl{ID: "b", Build: "echo x >> b.builds; echo no compiler >&2; exit 1"}
	for _, tc := range []struct {
		im     impl.Impl
		file   string
		builds int    // in file after the call
		err    string // a part of the error
	}{
		{a, "a.builds", 1, ""},
		{a, "a.builds", 1, ""},
		{other, "a.builds", 2, ""},
		{broken, "b.builds", 1, "build b (" + broken.Build + "): exit status 1\nno compiler"},
		{broken, "b.builds", 1, "build b"},
	} {
		err := l.Build(context.Background(), tc.im)
		if got := count(tc.file); got != tc.builds {
			t.Errorf("%s: %d builds, want %d", tc.im.Build, got, tc.builds)
		}
		if (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %v, want %q", tc.im.Build, err, tc.err)
		}
	}
}
