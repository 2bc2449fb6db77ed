// Package loadflags is load.Config's one command-line form: Register binds
// the flags of a load to a Config (restbench load and capacity), and Args
// writes a Config back as those flags (the generators internal/k8s starts),
// both from the same flag values, so that the two cannot drift.
package loadflags

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"restbench/internal/cpu"
	"restbench/internal/load"
	"restbench/internal/request"
)

// Register adds the flags of a load to fs, bound to cfg, which it sets to
// the flags' defaults; durationUsage says what -d times (the whole load,
// or one step of a search). The flags named in except are left out
// (capacity has no -n or -R: it chooses the rates).
func Register(fs *pflag.FlagSet, cfg *load.Config, durationUsage string, except ...string) {
	*cfg = Defaults()
	add := func(name, short string, v pflag.Value, usage string) *pflag.Flag {
		if slices.Contains(except, name) || slices.Contains(except, short) {
			return nil
		}
		return fs.VarPF(v, name, short, usage)
	}
	add("connections", "c", intValue(&cfg.Connections), "connections")
	add("duration", "d", Seconds{&cfg.Duration}, durationUsage)
	add("requests", "n", int64Value(&cfg.MaxRequests), "stop after this many requests (like ab -n)")
	add("rate", "R", floatValue(&cfg.Rate), "open loop: constant rate in requests/s (wrk2); 0 for a closed loop")
	add("warmup", "", Seconds{&cfg.Warmup}, "warm-up before the measured part, reported separately")
	add("max-connections", "", intValue(&cfg.MaxConnections), "open loop: open more connections, up to this many, when every one is busy (default: -c, a fixed set as in wrk2)")
	add("drain", "", drain{&cfg.Drain}, "open loop: after the window closes, wait up to this long for the requests in flight and file their responses with their whole latency, as vegeta and k6 (gracefulStop) do; 0 closes on them as wrk2 does (default: a tenth of -d, at least 100ms, at most --timeout)")
	add("method", "m", stringValue(&cfg.Method), "request method (default GET, or POST with -b)")
	add("header", "H", headers{&cfg.Headers}, "request header 'Name: value' (repeatable)")
	add("body", "b", body{&cfg.Body}, "request body: @file or a literal")
	if f := add("no-keepalive", "", notBool(&cfg.KeepAlive), "a new TCP connection per request (ab without -k)"); f != nil {
		f.NoOptDefVal = "true"
	}
	add("max-dialing", "", intValue(&cfg.MaxDialing), "keep-alive: connections on their way in at most (handshakes, plus the server's accept queue on loopback) while the pool opens, before the clock starts (wrk opens all at once: give -c for the nearest)")
	add("mix", "", mix{cfg}, "YAML file of weighted targets {name, method, path, headers, body, weight}")
	add("probe", "", probe{cfg}, "heartbeat PATH@INTERVAL on its own connection, e.g. /status@5s")
	add("expect", "", intValue(&cfg.Expect), "expected status of every response")
	if f := add("expect-json", "", boolValue(&cfg.ExpectJSON), "every response body must be valid JSON"); f != nil {
		f.NoOptDefVal = "true"
	}
	add("timeout", "", Seconds{&cfg.Timeout}, "per-request timeout")
	add("cpus", "", cpus(&cfg.CPUs), "pin the generator's threads to these CPUs, e.g. 1 or 2-3")
	add("threads", "t", intValue(&cfg.Threads), "event-loop threads (default: one per usable CPU)")
	if f := add("allow-remote", "", boolValue(&cfg.AllowRemote), "permit a target that is not loopback"); f != nil {
		f.NoOptDefVal = "true"
	}
}

// Defaults is the load the flags describe when none is given: a closed
// loop of 10 keep-alive connections, 200 expected, 30 s per request.
func Defaults() load.Config {
	return load.Config{
		Connections: 10,
		KeepAlive:   true,
		MaxDialing:  load.DefaultMaxDialing,
		Expect:      200,
		Timeout:     30 * time.Second,
	}
}

// WithDefaults is cfg with each zero field that has a default (every one
// but the switches: false is a setting) set to Defaults', as a Config
// that Args wrote reads back.
func WithDefaults(cfg load.Config) load.Config {
	v, d := reflect.ValueOf(&cfg).Elem(), reflect.ValueOf(Defaults())
	for i := 0; i < v.NumField(); i++ {
		if v.Field(i).IsZero() && v.Field(i).Kind() != reflect.Bool {
			v.Field(i).Set(d.Field(i))
		}
	}
	return cfg
}

// Args writes cfg as the flags Register reads, in Register's order: every
// field that is not zero, and each switch (--no-keepalive) that is not in
// its default position. Parsed back, they give cfg again, but for the URL
// (the positional argument) and the zero fields, which load.Config's
// defaults fill in (load.Run does the same with a zero field). A body is
// passed as -b @bodyFile, for bytes do not belong in argv (a 5 MB /filter
// body); "" gives the body literally. A flag with a shorthand is written
// with it (-c 50), as people write them.
func Args(cfg load.Config, bodyFile string) []string {
	fs := pflag.NewFlagSet("args", pflag.ContinueOnError)
	fs.SortFlags = false
	var bound load.Config
	Register(fs, &bound, "")
	bound = cfg
	var a []string
	fs.VisitAll(func(f *pflag.Flag) {
		name := "--" + f.Name
		if f.Shorthand != "" {
			name = "-" + f.Shorthand
		}
		switch v := f.Value.(type) {
		case body:
			switch {
			case len(*v.b) == 0:
			case bodyFile != "":
				a = append(a, name, "@"+bodyFile)
			default:
				a = append(a, name, string(*v.b))
			}
		case pflag.SliceValue:
			for _, s := range v.GetSlice() {
				a = append(a, name, s)
			}
		default:
			s := f.Value.String()
			switch {
			case f.NoOptDefVal != "" && s == f.DefValue, s == "0", s == "":
			case s == f.NoOptDefVal:
				a = append(a, name)
			default:
				a = append(a, name, s)
			}
		}
	})
	return a
}

// The values below are pflag.Values over load.Config's fields: each
// String is the form its Set reads, which is what lets Args write a Config
// back as flags.

// field is a pflag.Value over a field of type T: Set stores what parse
// reads ("%q is not " + want when it cannot, or parse's own error when want
// is empty), String writes it back with format.
type field[T any] struct {
	p      *T
	typ    string
	want   string
	parse  func(string) (T, error)
	format func(T) string
}

func (v field[T]) String() string { return v.format(*v.p) }
func (v field[T]) Type() string   { return v.typ }
func (v field[T]) Set(s string) error {
	x, err := v.parse(s)
	switch {
	case err != nil && v.want != "":
		return fmt.Errorf("%q is not %s", s, v.want)
	case err != nil:
		return err
	}
	*v.p = x
	return nil
}

func intValue(p *int) field[int] {
	return field[int]{p, "int", "a whole number", strconv.Atoi, strconv.Itoa}
}

func int64Value(p *int64) field[int64] {
	return field[int64]{p, "int", "a whole number",
		func(s string) (int64, error) { return strconv.ParseInt(s, 10, 64) },
		func(n int64) string { return strconv.FormatInt(n, 10) }}
}

func floatValue(p *float64) field[float64] {
	return field[float64]{p, "float", "a number",
		func(s string) (float64, error) { return strconv.ParseFloat(s, 64) },
		func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }}
}

func stringValue(p *string) field[string] {
	same := func(s string) string { return s }
	return field[string]{p, "string", "", func(s string) (string, error) { return s, nil }, same}
}

func boolValue(p *bool) field[bool] {
	return field[bool]{p, "bool", "true or false", strconv.ParseBool, strconv.FormatBool}
}

// notBool is a flag that sets a field to false: --no-keepalive.
func notBool(p *bool) field[bool] {
	return field[bool]{p, "bool", "true or false",
		func(s string) (bool, error) { b, err := strconv.ParseBool(s); return !b, err },
		func(b bool) string { return strconv.FormatBool(!b) }}
}

// Seconds is a duration flag that also takes a plain number of seconds, as
// wrk's -d 10 does.
type Seconds struct{ D *time.Duration }

// String is empty for zero, so that -h shows the default the usage text
// says instead of "0s".
func (s Seconds) String() string {
	if s.D == nil || *s.D == 0 {
		return ""
	}
	return s.D.String()
}

func (s Seconds) Type() string { return "duration" }

func (s Seconds) Set(v string) error {
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		*s.D = time.Duration(f * float64(time.Second))
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return fmt.Errorf("%q is not a duration (write 10s, 500ms or 10)", v)
	}
	*s.D = d
	return nil
}

// drain reads --drain: a duration, or 0 (or "off") for none, which
// load.Config holds as load.NoDrain, for its zero is the default.
type drain struct{ d *time.Duration }

func (v drain) String() string {
	switch {
	case *v.d == load.NoDrain:
		return "off"
	case *v.d == 0:
		return ""
	}
	return v.d.String()
}

func (v drain) Type() string { return "duration" }

func (v drain) Set(s string) error {
	if s == "off" {
		*v.d = load.NoDrain
		return nil
	}
	if err := (Seconds{v.d}).Set(s); err != nil {
		return err
	}
	if *v.d == 0 {
		*v.d = load.NoDrain
	}
	return nil
}

// headers collects repeated -H flags.
type headers struct{ p *[]string }

func (h headers) String() string        { return strings.Join(*h.p, ", ") }
func (h headers) Type() string          { return "header" }
func (h headers) Set(v string) error    { *h.p = append(*h.p, v); return nil }
func (h headers) GetSlice() []string    { return slices.Clone(*h.p) }
func (h headers) Append(v string) error { return h.Set(v) }
func (h headers) Replace(v []string) error {
	*h.p = slices.Clone(v)
	return nil
}

// body reads -b: @file or the literal bytes.
type body struct{ b *[]byte }

func (v body) String() string { return "" }
func (v body) Type() string   { return "@file|text" }
func (v body) Set(s string) error {
	b, err := load.ReadBody(s)
	if err != nil {
		return err
	}
	*v.b = b
	return nil
}

// mix reads --mix FILE into the targets, keeping the file's name.
type mix struct{ c *load.Config }

func (v mix) String() string { return v.c.MixFile }
func (v mix) Type() string   { return "file" }
func (v mix) Set(s string) error {
	m, err := load.ParseMix(s)
	if err != nil {
		return err
	}
	v.c.Mix, v.c.MixFile = m, s
	return nil
}

// probe reads --probe PATH@INTERVAL.
type probe struct{ c *load.Config }

func (v probe) String() string {
	if v.c.Probe == "" {
		return ""
	}
	every := v.c.ProbeEvery
	if every <= 0 {
		every = time.Second // load.Config's default
	}
	return v.c.Probe + "@" + every.String()
}
func (v probe) Type() string { return "path@interval" }
func (v probe) Set(s string) error {
	var err error
	v.c.Probe, v.c.ProbeEvery, err = ParseProbe(s)
	return err
}

// ParseProbe reads --probe PATH@INTERVAL (/status@5s).
func ParseProbe(s string) (string, time.Duration, error) {
	path, every, ok := strings.Cut(s, "@")
	d, err := time.ParseDuration(every)
	if !ok || err != nil || d <= 0 {
		return "", 0, fmt.Errorf("write it as PATH@INTERVAL, e.g. /status@5s")
	}
	if err := request.CheckPath(path); err != nil {
		return "", 0, err
	}
	return path, d, nil
}

// cpus reads --cpus 1 or 2-3.
func cpus(p *[]int) field[[]int] {
	return field[[]int]{p, "list", "", cpu.ParseList, cpu.FormatList}
}
