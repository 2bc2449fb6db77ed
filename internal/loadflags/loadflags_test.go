package loadflags

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"restbench/internal/load"
)

// parse reads args as restbench load does.
func parse(t *testing.T, args []string) load.Config {
	t.Helper()
	fs := pflag.NewFlagSet("load", pflag.ContinueOnError)
	var cfg load.Config
	Register(fs, &cfg, "")
	if err := fs.Parse(args); err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	return cfg
}

// TestArgsRoundTrip: a Config written by Args and read back by Register's
// flags is the Config again, every field that a flag carries included (a
// field added to load.Config without a flag fails the "every field" case),
// and a zero field is left out, so that load.Run's default fills it in.
func TestArgsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	mixFile := filepath.Join(dir, "mix.yaml")
	os.WriteFile(mixFile, []byte("- {name: a, path: /a, weight: 3}\n- {name: b, method: POST, path: /b, body: x}\n"), 0o644)
	mix, err := load.ParseMix(mixFile)
	if err != nil {
		t.Fatal(err)
	}
	every := load.Config{
		Connections: 7, Duration: 1500 * time.Millisecond, MaxRequests: 9000, Warmup: 250 * time.Millisecond,
		Rate: 1234.5, MaxConnections: 70, Drain: 750 * time.Millisecond, KeepAlive: false, MaxDialing: 8,
		Method: "PUT", Headers: []string{"X-A: 1", "X-B: two, three"}, Body: []byte(`{"a": [1, 2]}`),
		Mix: mix, MixFile: mixFile, Probe: "/status", ProbeEvery: 2 * time.Second,
		Expect: 201, ExpectJSON: true, Timeout: 3 * time.Second, CPUs: []int{0, 2, 3}, AllowRemote: true, Threads: 3,
	}
	// Fields that no flag carries: the URL is the argument, the rest are
	// set by code, not by a command line.
	notFlags := []string{"URL", "Begin", "Progress", "Hlog"}
	v := reflect.ValueOf(every)
	for i := 0; i < v.NumField(); i++ {
		name := v.Type().Field(i).Name
		if v.Field(i).IsZero() && !slices.Contains(notFlags, name) && name != "KeepAlive" {
			t.Errorf("the every-field Config leaves %s zero: give it a value (and a flag in Register)", name)
		}
	}
	for _, tc := range []struct {
		name string
		cfg  load.Config
	}{
		{"every field", every},
		{"keep-alive closed loop", load.Config{Connections: 50, Duration: 10 * time.Second, KeepAlive: true, Method: "GET", Expect: 200}},
		{"zero fields are defaults", load.Config{KeepAlive: true}},
		{"no drain", load.Config{Rate: 100, Drain: load.NoDrain, KeepAlive: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := Args(tc.cfg, "")
			got := parse(t, args)
			// A zero field comes back as the default the flag holds.
			if want := WithDefaults(tc.cfg); !reflect.DeepEqual(got, want) {
				t.Errorf("Args %q read back as\n%+v\nwant\n%+v", args, got, want)
			}
		})
	}
	body := filepath.Join(dir, "body")
	os.WriteFile(body, every.Body, 0o644)
	args := Args(every, body)
	if i := slices.Index(args, "-b"); i < 0 || args[i+1] != "@"+body {
		t.Errorf("Args with a body file: %q, want -b @%s", args, body)
	}
	if got := parse(t, args); string(got.Body) != string(every.Body) {
		t.Errorf("-b @file read back %q, want %q", got.Body, every.Body)
	}
}

// TestArgsAsPeopleWriteThem: shorthands where a flag has one, a switch
// alone, the flags in Register's order.
func TestArgsAsPeopleWriteThem(t *testing.T) {
	got := Args(load.Config{Connections: 50, Rate: 2000, Duration: 10 * time.Second, Method: "GET", Headers: []string{"A: b"}, Timeout: 2 * time.Second}, "")
	want := []string{"-c", "50", "-d", "10s", "-R", "2000", "-m", "GET", "-H", "A: b", "--no-keepalive", "--timeout", "2s"}
	if !slices.Equal(got, want) {
		t.Errorf("Args = %q, want %q", got, want)
	}
}

// TestFieldValues: each kind of flag refuses a value it cannot read with
// what it wants (--cpus with cpu.ParseList's own error), and writes back
// what it read.
func TestFieldValues(t *testing.T) {
	var (
		i   int
		i64 int64
		f   float64
		s   string
		b   bool
		l   []int
		d   time.Duration
	)
	for _, c := range []struct {
		v         pflag.Value
		good, bad string
		err       string
	}{
		{intValue(&i), "12", "1.5", `"1.5" is not a whole number`},
		{int64Value(&i64), "1099511627776", "x", `"x" is not a whole number`},
		{floatValue(&f), "0.25", "1,5", `"1,5" is not a number`},
		{stringValue(&s), "POST", "", ""},
		{boolValue(&b), "true", "yes", `"yes" is not true or false`},
		{notBool(&b), "true", "no", `"no" is not true or false`},
		{cpus(&l), "0,2-3", "x", `cpu list "x": "x" is not a CPU number (use a list like 0,2-3)`},
		{drain{&d}, "750ms", "x", `"x" is not a duration (write 10s, 500ms or 10)`},
		{drain{&d}, "off", "", ""},
	} {
		if err := c.v.Set(c.good); err != nil || c.v.String() != c.good {
			t.Errorf("%s: Set(%q) = %v, String() = %q", c.v.Type(), c.good, err, c.v.String())
		}
		if c.err == "" {
			continue
		}
		if err := c.v.Set(c.bad); err == nil || err.Error() != c.err {
			t.Errorf("%s: Set(%q) = %v, want %q", c.v.Type(), c.bad, err, c.err)
		}
	}
	if b {
		t.Errorf("--no-keepalive=true left KeepAlive true")
	}
	// --drain 0 is no drain, which load.Config holds apart from its zero
	// (the default), and writes back as "off".
	if err := (drain{&d}).Set("0"); err != nil || d != load.NoDrain || (drain{&d}).String() != "off" {
		t.Errorf("--drain 0: %v, held as %v, written %q; want load.NoDrain, \"off\"", err, d, drain{&d}.String())
	}
}
