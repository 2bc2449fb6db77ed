package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"restbench/internal/load"
	"restbench/internal/load/summary"
	"restbench/internal/loadflags"
	"restbench/internal/merge"
	"restbench/internal/result"
)

// loadFlags are the flags of one load that load and capacity share
// (internal/loadflags: the connections, the request, the generator's
// placement), bound to cfg.
type loadFlags struct {
	fs  *pflag.FlagSet
	cfg load.Config
}

// addLoadFlags registers the shared flags on fs; -d's meaning is the
// caller's (the whole load, or one step of a search). except names the
// flags the caller does not take.
func addLoadFlags(fs *pflag.FlagSet, durationUsage string, except ...string) *loadFlags {
	f := &loadFlags{fs: fs}
	loadflags.Register(fs, &f.cfg, durationUsage, except...)
	return f
}

// config is the load the flags describe, against the one URL of args. A
// value no load can have (-c 0, -d -1s, a URL without http://) is a usage
// error that names the flag and what it allows: it never falls back to a
// default unseen.
func (f *loadFlags) config(cmd string, args []string) (load.Config, error) {
	cfg := f.cfg
	if err := wantArgs(cmd, len(args) == 1, fmt.Sprintf("want exactly one URL, got %d", len(args))); err != nil {
		return cfg, err
	}
	given := f.fs.Changed
	if err := checkRanges(cmd, f.fs,
		rangeCheck{"connections", cfg.Connections < 1, "1 or more connections"},
		rangeCheck{"duration", given("duration") && cfg.Duration <= 0, "a positive duration, e.g. 10s"},
		rangeCheck{"warmup", cfg.Warmup < 0, "0 or a positive duration"},
		rangeCheck{"timeout", cfg.Timeout <= 0, "a positive duration, e.g. 30s"},
		rangeCheck{"threads", given("threads") && cfg.Threads < 1, "1 or more threads (leave it out for one per usable CPU)"},
		rangeCheck{"max-connections", given("max-connections") && cfg.MaxConnections < cfg.Connections, fmt.Sprintf("at least -c %d", cfg.Connections)},
		rangeCheck{"drain", cfg.Drain < 0 && cfg.Drain != load.NoDrain, "0 (none, as wrk2) or a positive duration"},
		rangeCheck{"expect", cfg.Expect < 100 || cfg.Expect > 599, "an HTTP status, 100 to 599"},
	); err != nil {
		return cfg, err
	}
	if err := load.CheckURL(args[0], cfg.AllowRemote); err != nil {
		return cfg, usageError("%s: %v", cmd, err)
	}
	cfg.URL = args[0]
	return cfg, nil
}

const loadUsage = `Closed loop like wrk/ab by default; -R gives an open loop at a constant rate whose latency
counts from each request's intended send time (wrk2). Flags may also follow the URL.
--json - writes the result to stdout (the summary then goes to stderr); restbench report
FILE.json prints a saved result again.`

// loadRun is what restbench load parses besides the load itself.
type loadRun struct {
	lf                         *loadFlags
	json, hlog, shard, startAt string
	thresholds                 *thresholdFlags
}

func newLoad(g *globals) *cobra.Command {
	o := &loadRun{}
	c := &cobra.Command{
		Use:   "load [flags] URL",
		Short: "generate HTTP load against a URL (wrk/wrk2/ab-like)",
		Long:  loadUsage,
		RunE:  func(c *cobra.Command, args []string) error { return o.run(c.Context(), g, args) },
	}
	fs := c.Flags()
	o.lf = addLoadFlags(fs, "duration of the measured part (default 10s, or none with -n)")
	fs.StringVar(&o.json, "json", "", "write the full result as JSON to `FILE`, - for stdout (see docs/results.md)")
	fs.StringVar(&o.hlog, "hlog", "", "write the latency to `FILE` as an HdrHistogram interval log, one interval per second (wrk2's .hlog)")
	fs.StringVar(&o.shard, "shard", "", "i/N: offer shard i (0-based) of a load N generators share; -R, -c and -n are the totals")
	fs.StringVar(&o.startAt, "start-at", "", "open the measured window at this shared instant (RFC 3339 or epoch seconds)")
	o.thresholds = addThresholdFlags(fs, "the load", "'p99<50ms', 'errors<0.1%', 'achieved>95%'")
	return c
}

func (o *loadRun) run(ctx context.Context, g *globals, args []string) error {
	fs := o.lf.fs
	cfg, err := o.lf.config("load", args)
	if err != nil {
		return err
	}
	if err := checkRanges("load", fs,
		rangeCheck{"requests", fs.Changed("requests") && cfg.MaxRequests < 1, "1 or more requests (leave it out to run for -d)"},
		rangeCheck{"rate", cfg.Rate < 0 || math.IsInf(cfg.Rate, 0) || math.IsNaN(cfg.Rate), "a positive rate in requests/s, or 0 for a closed loop"},
	); err != nil {
		return err
	}
	// The output files are opened before the load: a folder that cannot be
	// written fails now, not after a 10-minute load.
	jsonOut, err := openJSON("load", o.json)
	if err != nil {
		return err
	}
	defer jsonOut.abort()
	hlogOut, err := openOutput("load", "--hlog", o.hlog)
	if err != nil {
		return err
	}
	defer hlogOut.Abort()
	if hlogOut != nil {
		cfg.Hlog = hlogOut
	}
	for _, t := range o.thresholds.list {
		if t.NeedsRate() && cfg.Rate == 0 {
			return usageError("load: --threshold %s needs an open loop: give -R", t.Text)
		}
	}
	var sh merge.Shard
	if o.shard != "" {
		if sh, err = merge.ParseShard(o.shard); err != nil {
			return usageError("load: %v", err)
		}
		if err := sh.Apply(&cfg); err != nil {
			return usageError("load: %v", err)
		}
	}
	var start time.Time
	if o.startAt != "" {
		if start, err = parseStartAt(o.startAt); err != nil {
			return usageError("load: %v", err)
		}
		// The wait comes after the keep-alive pool opens (load.Config.Begin),
		// so that every generator's window opens at start, however long its
		// pool took.
		cfg.Begin = func(ctx context.Context) error { return waitUntil(ctx, start, cfg.Warmup) }
	}
	if g.prepared != nil {
		return g.prepared(cfg)
	}
	if !g.quiet && term.IsTerminal(int(os.Stderr.Fd())) {
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
	if o.shard != "" {
		res.Settings.Shard = sh.String()
	}
	if !start.IsZero() {
		res.Settings.StartAt = start.UTC().Format(time.RFC3339Nano)
	}
	text := jsonOut.text()
	summary.Print(text, res)
	if jsonOut != nil {
		if err := jsonOut.commit(res); err != nil {
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
	return o.thresholds.check(text, "load", res)
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
