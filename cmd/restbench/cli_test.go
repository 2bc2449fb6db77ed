package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"restbench/internal/k8s"
	"restbench/internal/load"
	"restbench/internal/load/summary"
	"restbench/internal/loadflags"
	"restbench/internal/result"
	"restbench/internal/suite"
)

// command is restbench's command name as the function the tests call, as
// main runs it: restbench NAME args...
func command(name string) func(context.Context, []string) error {
	return func(ctx context.Context, args []string) error {
		return execute(ctx, append([]string{name}, args...))
	}
}

var (
	cmdLoad     = command("load")
	cmdCapacity = command("capacity")
	cmdRun      = command("run")
	cmdReport   = command("report")
	cmdMerge    = command("merge")
	cmdK8s      = command("k8s")
	cmdImpls    = command("impls")
)

// stdout runs f with os.Stdout captured, and returns what it printed.
func stdout(t *testing.T, f func() error) (string, error) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stdout
	os.Stdout = w
	var buf bytes.Buffer
	done := make(chan struct{})
	go func() { io.Copy(&buf, r); close(done) }()
	err = f()
	os.Stdout = saved
	w.Close()
	<-done
	return buf.String(), err
}

func exitOf(err error) int {
	var ee *exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.code
	}
	return 1
}

// TestHelpAndUsageExits: -h and --help print the usage and exit 0 on every
// command (impls -h exited 2), before a flag that is wrong or an argument
// that is missing; a bare restbench and an unknown command exit 2.
func TestHelpAndUsageExits(t *testing.T) {
	root := newRoot(&globals{})
	for _, c := range root.Commands() {
		for _, h := range []string{"-h", "--help"} {
			args := []string{c.Name(), h}
			out, err := stdout(t, func() error { return execute(context.Background(), args) })
			if err != nil || !strings.Contains(out, "Usage:") {
				t.Errorf("restbench %s: exit %d (%v), printed %q; want the usage and exit 0", strings.Join(args, " "), exitOf(err), err, out)
			}
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "name a command"},
		{[]string{"bogus"}, `unknown command "bogus"`},
		{[]string{"impls", "--bogus"}, "impls: unknown flag: --bogus"},
		{[]string{"impls", "extra"}, "impls: takes no arguments"},
		{[]string{"compare", "one"}, "compare: name two results folders"},
	} {
		_, err := stdout(t, func() error {
			root := newRoot(&globals{})
			root.SetOut(io.Discard)
			root.SetErr(io.Discard)
			root.SetArgs(tc.args)
			return root.Execute()
		})
		if exitOf(err) != 2 || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("restbench %q: exit %d (%v), want 2 saying %q", tc.args, exitOf(err), err, tc.want)
		}
	}
}

// TestOutSpellings: gen and merge write --out, and -o, the spelling they
// took before, still works; the flags may follow the arguments.
func TestOutSpellings(t *testing.T) {
	dir := t.TempDir()
	for _, flag := range []string{"--out", "-o"} {
		file := filepath.Join(dir, "body"+flag+".json")
		if err := execute(context.Background(), []string{"gen", "filter", "--size", "2KB", flag, file}); err != nil {
			t.Fatalf("gen filter %s: %v", flag, err)
		}
		if st, err := os.Stat(file); err != nil || st.Size() < 1000 {
			t.Errorf("gen filter %s %s: %v, want a body of about 2 KB", flag, file, err)
		}
	}
	a, _ := os.ReadFile(filepath.Join(dir, "body--out.json"))
	b, _ := os.ReadFile(filepath.Join(dir, "body-o.json"))
	if !bytes.Equal(a, b) {
		t.Errorf("gen filter --out and -o wrote different bytes")
	}
}

// TestLoadJSONToStdoutAndReprint: load --json - writes the result, and
// only it, to stdout; restbench report FILE prints the saved result as
// load printed it (vegeta report reading what attack wrote).
func TestLoadJSONToStdoutAndReprint(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"ok":true}`))
	}))
	defer srv.Close()
	out, err := stdout(t, func() error {
		return cmdLoad(context.Background(), []string{srv.URL, "-c", "2", "-n", "50", "--json", "-", "-q"})
	})
	if err != nil {
		t.Fatal(err)
	}
	var res result.Load
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("stdout of load --json - is not one JSON result: %v\n%s", err, out)
	}
	if res.Requests != 50 || res.Responses != 50 {
		t.Fatalf("%d requests, %d responses; want the 50 of -n 50", res.Requests, res.Responses)
	}
	file := filepath.Join(t.TempDir(), "load.json")
	os.WriteFile(file, []byte(out), 0o644)
	printed, err := stdout(t, func() error { return cmdReport(context.Background(), []string{file}) })
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	summary.Print(&want, &res)
	if printed != want.String() || !strings.Contains(printed, "50 requests") {
		t.Errorf("report %s printed\n%s\nwant what load printed:\n%s", file, printed, want.String())
	}
	os.WriteFile(file, []byte(`{"name": "not a result"}`), 0o644)
	if err := cmdReport(context.Background(), []string{file}); exitOf(err) != 2 {
		t.Errorf("report of a JSON that is no result: %v, want a usage error", err)
	}
}

// TestK8sArgvParses is the round trip of the generator command: for every
// cell of every suite that placement hosts can measure, the argv
// internal/k8s builds (the kubelet's $(VARS) expanded) parses as restbench
// load's command line, and gives the load the suite describes.
func TestK8sArgvParses(t *testing.T) {
	m, err := manifestFromCwd()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(m.Root, "suites", "*.yaml"))
	dir := t.TempDir()
	body := filepath.Join(dir, "body")
	const server = "http://10.0.0.7:8080"
	cells := 0
	for _, file := range files {
		s, err := suite.Load(file, suite.Options{Scale: "standard", Impls: m.IDs()})
		if err != nil {
			t.Fatal(err)
		}
		for _, run := range s.Runs {
			argv, err := k8s.GeneratorArgs(run, server, 1, time.Now().Add(time.Hour), 2)
			if err != nil {
				continue // not measurable on other hosts (k8s.Supported)
			}
			cells++
			os.WriteFile(body, run.Load.Body, 0o644)
			env := map[string]string{k8s.IndexEnv: "0", k8s.ResultsEnv: dir, k8s.BodyEnv: body}
			for i := range argv {
				argv[i] = k8s.Expand(argv[i], env)
			}
			var got load.Config
			g := &globals{prepared: func(cfg load.Config) error { got = cfg; return errPrepared }}
			root := newRoot(g)
			root.SetArgs(argv[1:])
			if err := root.Execute(); err != errPrepared {
				t.Errorf("%s: %q does not parse as restbench load: %v", run.ID, argv, err)
				continue
			}
			want := loadflags.WithDefaults(run.Load)
			want.URL, want.Threads, want.AllowRemote = server+run.Load.URL, 2, true
			got.Begin = nil // --start-at's wait
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: %q parses as\n%q %s, want\n%q %s", run.ID, argv,
					loadflags.Args(got, "BODY"), got.URL, loadflags.Args(want, "BODY"), want.URL)
			}
		}
	}
	if cells < 10 {
		t.Errorf("only %d cells of suites/ can be measured on other hosts: the test checks too little", cells)
	}
}

var errPrepared = errors.New("prepared")
