package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"restbench/internal/cpu"
	"restbench/internal/load"
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

func cmdLoad(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: restbench load [flags] URL\n\n"+
			"Closed loop like wrk/ab by default; -R gives an open loop at a constant rate whose latency\n"+
			"counts from each request's intended send time (wrk2). Flags may also follow the URL.\n\n")
		fs.PrintDefaults()
	}
	var (
		cfg                         load.Config
		headers                     headerList
		body, mix, probe, cpus, out string
		noKeepAlive                 bool
	)
	fs.IntVar(&cfg.Connections, "c", 10, "connections")
	fs.Var(seconds{&cfg.Duration}, "d", "duration of the measured part (default 10s, or none with -n)")
	fs.Int64Var(&cfg.MaxRequests, "n", 0, "stop after this many requests (like ab -n)")
	fs.Var(seconds{&cfg.Warmup}, "warmup", "warm-up before the measured part, reported separately")
	fs.Float64Var(&cfg.Rate, "R", 0, "open loop: constant rate in requests/s (wrk2); 0 for a closed loop")
	fs.IntVar(&cfg.MaxConnections, "max-connections", 0, "open loop: open more connections, up to this many, when every one is busy (default: -c, a fixed set as in wrk2)")
	fs.StringVar(&cfg.Method, "m", "", "request method (default GET, or POST with -b)")
	fs.Var(&headers, "H", "request header 'Name: value' (repeatable)")
	fs.StringVar(&body, "b", "", "request body: @file or a literal")
	fs.BoolVar(&noKeepAlive, "no-keepalive", false, "a new TCP connection per request (ab without -k)")
	fs.StringVar(&mix, "mix", "", "YAML file of weighted targets {name, method, path, headers, body, weight}")
	fs.StringVar(&probe, "probe", "", "heartbeat PATH@INTERVAL on its own connection, e.g. /status@5s")
	fs.IntVar(&cfg.Expect, "expect", 200, "expected status of every response")
	fs.BoolVar(&cfg.ExpectJSON, "expect-json", false, "every response body must be valid JSON")
	cfg.Timeout = 30 * time.Second
	fs.Var(seconds{&cfg.Timeout}, "timeout", "per-request timeout")
	fs.StringVar(&out, "json", "", "write the full result as JSON to this file (see docs/results.md)")
	fs.StringVar(&cpus, "cpus", "", "pin the generator's threads to these CPUs, e.g. 1 or 2-3")
	fs.IntVar(&cfg.Threads, "t", 0, "event-loop threads (default: one per usable CPU)")
	fs.BoolVar(&cfg.AllowRemote, "allow-remote", false, "permit a target that is not loopback")
	quiet := fs.Bool("q", false, "no progress line")

	// wrk and ab take flags before the URL; allow them after it too. The
	// flag package's own messages are silenced: one error line is enough.
	var rest []string
	fs.SetOutput(io.Discard)
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(os.Stderr)
				fs.Usage()
				return nil
			}
			return usageError("load: %v (restbench load -h lists the flags)", err)
		}
		if fs.NArg() == 0 {
			break
		}
		rest, args = append(rest, fs.Arg(0)), fs.Args()[1:]
	}
	if len(rest) != 1 {
		return usageError("load: want exactly one URL, got %d (usage: restbench load [flags] URL; -h lists the flags)", len(rest))
	}
	cfg.URL = rest[0]
	cfg.Headers = headers
	cfg.KeepAlive = !noKeepAlive
	var err error
	if body != "" {
		if cfg.Body, err = load.ReadBody(body); err != nil {
			return usageError("load: -b %s: %v", body, err)
		}
	}
	if mix != "" {
		if cfg.Mix, err = load.ParseMix(mix); err != nil {
			return usageError("load: %v", err)
		}
		cfg.MixFile = mix
	}
	if probe != "" {
		path, every, ok := strings.Cut(probe, "@")
		d, err := time.ParseDuration(every)
		if !ok || !strings.HasPrefix(path, "/") || err != nil || d <= 0 {
			return usageError("load: --probe %q: write it as PATH@INTERVAL, e.g. /status@5s", probe)
		}
		cfg.Probe, cfg.ProbeEvery = path, d
	}
	if cpus != "" {
		if cfg.CPUs, err = cpu.ParseList(cpus); err != nil {
			return usageError("load: --cpus: %v", err)
		}
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

	res, runErr := load.Run(ctx, cfg)
	if cfg.Progress != nil {
		fmt.Fprint(os.Stderr, "\r\033[K")
	}
	if res == nil {
		return fmt.Errorf("load: %w", runErr)
	}
	load.Print(os.Stdout, res)
	if out != "" {
		if err := result.WriteJSON(out, res); err != nil {
			return err
		}
	}
	if runErr == nil && res.Requests > 0 && res.Responses == 0 {
		return fmt.Errorf("load: no request got a response (%d connect, %d timeout, %d read errors): is a server listening at %s?",
			res.Errors.Connect, res.Errors.Timeout, res.Errors.Read, cfg.URL)
	}
	return runErr // context.Canceled after Ctrl-C: main exits 130
}
