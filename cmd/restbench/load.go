package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"restbench/internal/cpu"
	"restbench/internal/load"
	"restbench/internal/request"
	"restbench/internal/result"
)

// headerList collects repeated -H flags.
type headerList []string

func (h *headerList) String() string     { return strings.Join(*h, ", ") }
func (h *headerList) Set(v string) error { *h = append(*h, v); return nil }

// seconds is a duration flag that also takes a plain number of seconds, as
// wrk's -d 10 does.
type seconds struct{ d *time.Duration }

func (s seconds) String() string {
	// Empty for zero, so -h shows the default written in the usage text
	// instead of flag's "(default 0s)".
	if s.d == nil || *s.d == 0 {
		return ""
	}
	return s.d.String()
}

func (s seconds) Set(v string) error {
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		*s.d = time.Duration(f * float64(time.Second))
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return fmt.Errorf("%q is not a duration (write 10s, 500ms or 10)", v)
	}
	*s.d = d
	return nil
}

// loadFlags are the flags of one load that load and capacity share: the
// connections, the request and the generator's placement.
type loadFlags struct {
	fs              *flag.FlagSet
	cfg             load.Config
	headers         headerList
	body, mix, cpus string
	noKeepAlive     bool
}

// addLoadFlags registers the shared flags on fs; -d's meaning is the
// caller's (the whole load, or one step of a search).
func addLoadFlags(fs *flag.FlagSet, durationUsage string) *loadFlags {
	f := &loadFlags{fs: fs}
	cfg := &f.cfg
	fs.IntVar(&cfg.Connections, "c", 10, "connections")
	fs.Var(seconds{&cfg.Duration}, "d", durationUsage)
	fs.Var(seconds{&cfg.Warmup}, "warmup", "warm-up before the measured part, reported separately")
	fs.IntVar(&cfg.MaxConnections, "max-connections", 0, "open loop: open more connections, up to this many, when every one is busy (default: -c, a fixed set as in wrk2)")
	fs.StringVar(&cfg.Method, "m", "", "request method (default GET, or POST with -b)")
	fs.Var(&f.headers, "H", "request header 'Name: value' (repeatable)")
	fs.StringVar(&f.body, "b", "", "request body: @file or a literal")
	fs.BoolVar(&f.noKeepAlive, "no-keepalive", false, "a new TCP connection per request (ab without -k)")
	fs.IntVar(&cfg.MaxDialing, "max-dialing", load.DefaultMaxDialing, "keep-alive: connections on their way in at most (handshakes, plus the server's accept queue on loopback) while the pool opens, before the clock starts (wrk opens all at once: give -c for the nearest)")
	fs.StringVar(&f.mix, "mix", "", "YAML file of weighted targets {name, method, path, headers, body, weight}")
	fs.IntVar(&cfg.Expect, "expect", 200, "expected status of every response")
	fs.BoolVar(&cfg.ExpectJSON, "expect-json", false, "every response body must be valid JSON")
	cfg.Timeout = 30 * time.Second
	fs.Var(seconds{&cfg.Timeout}, "timeout", "per-request timeout")
	fs.StringVar(&f.cpus, "cpus", "", "pin the generator's threads to these CPUs, e.g. 1 or 2-3")
	fs.IntVar(&cfg.Threads, "t", 0, "event-loop threads (default: one per usable CPU)")
	fs.BoolVar(&cfg.AllowRemote, "allow-remote", false, "permit a target that is not loopback")
	return f
}

// parseURLAndFlags parses args, whose flags may also follow the URL (wrk
// and ab take them before it), and returns the one URL. The flag package's
// own messages are silenced: one error line is enough. After -h it prints
// the usage and returns "" and no error.
func parseURLAndFlags(fs *flag.FlagSet, args []string) (string, error) {
	fs.SetOutput(io.Discard)
	rest, err := parseFlagsAndArgs(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(os.Stderr)
		fs.Usage()
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if len(rest) != 1 {
		return "", usageError("%s: want exactly one URL, got %d (usage: restbench %s [flags] URL; -h lists the flags)", fs.Name(), len(rest), fs.Name())
	}
	return rest[0], nil
}

// config is the load the flags describe, against url. A value no load can
// have (-c 0, -d -1s, a URL without http://) is a usage error that names
// the flag and what it allows: it never falls back to a default unseen.
func (f *loadFlags) config(cmd, url string) (load.Config, error) {
	cfg := f.cfg
	given := func(name string) bool { return flagSet(f.fs, name) }
	for _, c := range []rangeCheck{
		{"c", cfg.Connections < 1, "1 or more connections"},
		{"d", given("d") && cfg.Duration <= 0, "a positive duration, e.g. 10s"},
		{"warmup", cfg.Warmup < 0, "0 or a positive duration"},
		{"timeout", cfg.Timeout <= 0, "a positive duration, e.g. 30s"},
		{"t", given("t") && cfg.Threads < 1, "1 or more threads (leave it out for one per usable CPU)"},
		{"max-connections", given("max-connections") && cfg.MaxConnections < cfg.Connections, fmt.Sprintf("at least -c %d", cfg.Connections)},
		{"expect", cfg.Expect < 100 || cfg.Expect > 599, "an HTTP status, 100 to 599"},
	} {
		if err := c.check(cmd, f.fs); err != nil {
			return cfg, err
		}
	}
	if err := load.CheckURL(url, cfg.AllowRemote); err != nil {
		return cfg, usageError("%s: %v", cmd, err)
	}
	cfg.URL = url
	cfg.Headers = f.headers
	cfg.KeepAlive = !f.noKeepAlive
	var err error
	if f.body != "" {
		if cfg.Body, err = load.ReadBody(f.body); err != nil {
			return cfg, usageError("%s: -b %s: %v", cmd, f.body, err)
		}
	}
	if f.mix != "" {
		if cfg.Mix, err = load.ParseMix(f.mix); err != nil {
			return cfg, usageError("%s: %v", cmd, err)
		}
		cfg.MixFile = f.mix
	}
	if f.cpus != "" {
		if cfg.CPUs, err = cpu.ParseList(f.cpus); err != nil {
			return cfg, usageError("%s: --cpus: %v", cmd, err)
		}
	}
	return cfg, nil
}

func cmdLoad(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: restbench load [flags] URL\n\n"+
			"Closed loop like wrk/ab by default; -R gives an open loop at a constant rate whose latency\n"+
			"counts from each request's intended send time (wrk2). Flags may also follow the URL.\n\n")
		fs.PrintDefaults()
	}
	lf := addLoadFlags(fs, "duration of the measured part (default 10s, or none with -n)")
	var rate float64
	var maxRequests int64
	var probe, out string
	fs.Int64Var(&maxRequests, "n", 0, "stop after this many requests (like ab -n)")
	fs.Float64Var(&rate, "R", 0, "open loop: constant rate in requests/s (wrk2); 0 for a closed loop")
	fs.StringVar(&probe, "probe", "", "heartbeat PATH@INTERVAL on its own connection, e.g. /status@5s")
	fs.StringVar(&out, "json", "", "write the full result as JSON to this file (see docs/results.md)")
	quiet := fs.Bool("q", false, "no progress line")
	shardFlag := fs.String("shard", "", "i/N: offer shard i (0-based) of a load N generators share; -R, -c and -n are the totals")
	startAt := fs.String("start-at", "", "open the measured window at this shared instant (RFC 3339 or epoch seconds)")
	hlog := fs.String("hlog", "", "write the latency as an HdrHistogram interval log, one interval per second (wrk2's .hlog)")
	thresholds := addThresholdFlags(fs, "the load", "'p99<50ms', 'errors<0.1%', 'achieved>95%'")

	url, err := parseURLAndFlags(fs, args)
	if url == "" {
		return err
	}
	cfg, err := lf.config("load", url)
	if err != nil {
		return err
	}
	for _, c := range []rangeCheck{
		{"n", flagSet(fs, "n") && maxRequests < 1, "1 or more requests (leave it out to run for -d)"},
		{"R", rate < 0 || math.IsInf(rate, 0) || math.IsNaN(rate), "a positive rate in requests/s, or 0 for a closed loop"},
	} {
		if err := c.check("load", fs); err != nil {
			return err
		}
	}
	cfg.Rate, cfg.MaxRequests = rate, maxRequests
	// The output files are opened before the load: a folder that cannot be
	// written fails now, not after a 10-minute load.
	jsonOut, err := openOutput("load", "--json", out)
	if err != nil {
		return err
	}
	defer jsonOut.Abort()
	hlogOut, err := openOutput("load", "--hlog", *hlog)
	if err != nil {
		return err
	}
	defer hlogOut.Abort()
	if hlogOut != nil {
		cfg.Hlog = hlogOut
	}
	for _, t := range thresholds.list {
		if t.NeedsRate() && cfg.Rate == 0 {
			return usageError("load: --threshold %s needs an open loop: give -R", t.Text)
		}
	}
	if probe != "" {
		if cfg.Probe, cfg.ProbeEvery, err = parseProbe(probe); err != nil {
			return usageError("load: %v", err)
		}
	}
	var sh shard
	if *shardFlag != "" {
		if sh, err = parseShard(*shardFlag); err != nil {
			return usageError("load: %v", err)
		}
		if err := sh.apply(&cfg); err != nil {
			return usageError("load: %v", err)
		}
	}
	var start time.Time
	if *startAt != "" {
		if start, err = parseStartAt(*startAt); err != nil {
			return usageError("load: %v", err)
		}
		// The wait comes after the keep-alive pool opens (load.Config.Begin),
		// so that every generator's window opens at start, however long its
		// pool took.
		cfg.Begin = func(ctx context.Context) error { return waitUntil(ctx, start, cfg.Warmup) }
	}
	if !*quiet && term.IsTerminal(int(os.Stderr.Fd())) {
		cfg.Progress = func(done int64, elapsed time.Duration) {
			rps := 0.0
			if elapsed > 0 {
				rps = float64(done) / elapsed.Seconds()
			}
			fmt.Fprintf(os.Stderr, "\r  %5.0fs  %d requests  %.0f req/s   ", elapsed.Seconds(), done, rps)
		}
	}

	began := time.Now()
	res, runErr := load.Run(ctx, cfg)
	if cfg.Progress != nil {
		fmt.Fprint(os.Stderr, "\r\033[K")
	}
	if res == nil {
		return fmt.Errorf("load: %w", runErr)
	}
	if *shardFlag != "" {
		res.Settings.Shard = sh.String()
	}
	if !start.IsZero() {
		res.Settings.StartAt = start.UTC().Format(time.RFC3339Nano)
	}
	if res.WindowStart.IsZero() { // a generator that does not record it yet
		res.WindowStart = began.Add(cfg.Warmup).UTC()
	}
	load.Print(os.Stdout, res)
	if jsonOut != nil {
		if err := jsonOut.CommitJSON(res); err != nil {
			return fmt.Errorf("load: --json: %w", err)
		}
	}
	if hlogOut != nil {
		if err := hlogOut.Commit(); err != nil {
			return fmt.Errorf("load: --hlog: %w", err)
		}
	}
	if runErr == nil && res.Requests > 0 && res.Responses == 0 {
		return noResponse(&res.Stats, cfg.URL, cfg.Timeout)
	}
	if runErr != nil {
		return runErr // context.Canceled after Ctrl-C: main exits 130
	}
	return thresholds.check("load", res)
}

// parseProbe reads --probe PATH@INTERVAL (/status@5s).
func parseProbe(s string) (string, time.Duration, error) {
	path, every, ok := strings.Cut(s, "@")
	d, err := time.ParseDuration(every)
	if !ok || err != nil || d <= 0 {
		return "", 0, fmt.Errorf("--probe %q: write it as PATH@INTERVAL, e.g. /status@5s", s)
	}
	if err := request.CheckPath(path); err != nil {
		return "", 0, fmt.Errorf("--probe %q: %v", s, err)
	}
	return path, d, nil
}

// noResponse is the error of a load that got no response at all, saying
// what its requests met: only connections refused ask whether a server is
// listening.
func noResponse(st *result.Stats, url string, timeout time.Duration) error {
	e := st.Errors
	why := fmt.Sprintf("is a server listening at %s?", url)
	switch {
	case e.Timeout > 0 && e.Timeout >= e.Read && e.Timeout >= e.Connect:
		why = fmt.Sprintf("the server at %s accepted the connections but answered nothing within --timeout %s", url, timeout)
	case e.Read > 0 && e.Read >= e.Connect:
		why = fmt.Sprintf("the server at %s closed the connections or answered with something that is not HTTP/1.1", url)
	case e.Connect == 0 && st.Unfinished > 0:
		why = fmt.Sprintf("the server at %s accepted the connections but answered nothing before the window closed", url)
	}
	return fmt.Errorf("load: no request got a response (%d connect, %d timeout, %d read errors, %d unfinished): %s",
		e.Connect, e.Timeout, e.Read, st.Unfinished, why)
}
