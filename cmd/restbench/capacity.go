package main

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/spf13/cobra"

	"restbench/internal/capacity"
	"restbench/internal/engine"
	"restbench/internal/loadflags"
	"restbench/internal/result"
)

const capacityUsage = `Searches open-loop rates for the highest one the server sustains: achieved >= 95 % of the
target, nothing missed (at most 0.1 % of what was due), no backlog when the window opened, no failed request, no stalled
connection (once each connection was due 5 requests in the step) and, with --p99, p99 within
the bound. Without --start a closed loop over the same connections seeds the search; then the
rate steps up (or down: to an overloaded step's achieved rate when lower, by at most 1.25^3) by
1.25x until one step is sustained and another is not, and bisects between them until they are
within 5 %. Latency counts from each request's intended send
time (wrk2).

The steps share one server process; what keeps them independent: each step opens its own
connections and closes them at its end, so requests a step left unanswered are abandoned
with them, never carried into the next; each step has its own --warmup, not counted; and
the search pauses --pause between steps (warm-up: 1s unless given), so the server drains what the last step left
it (at most one request per connection: -c, or --max-connections, requests).`

func newCapacity(g *globals) *cobra.Command {
	var opt capacity.Options
	var out string
	c := &cobra.Command{
		Use:   "capacity [flags] URL",
		Short: "find the highest open-loop rate a server sustains",
		Long:  capacityUsage,
	}
	fs := c.Flags()
	lf := addLoadFlags(fs, "duration of each step's measured part (default 5s)", "requests", "rate", "drain")
	fs.Var(loadflags.Seconds{D: &opt.P99}, "p99", "a sustained step's p99 latency is at most this, e.g. 50ms (default: no bound)")
	fs.Float64Var(&opt.Start, "start", 0, "first target rate in requests/s (default: a closed-loop step's req/s)")
	opt.Pause = capacity.DefaultPause
	fs.Var(loadflags.Seconds{D: &opt.Pause}, "pause", "pause between steps, for the server to drain")
	fs.IntVar(&opt.MaxSteps, "max-steps", capacity.DefaultMaxSteps, "steps in all, the seed included (the runner's searches take as many)")
	fs.StringVar(&out, "json", "", "write every step and capacity_rps as JSON to `FILE`, - for stdout (see docs/results.md)")
	thresholds := addThresholdFlags(fs, "the capacity's own step", "'rps>1000', 'p99<50ms'")
	c.RunE = func(c *cobra.Command, args []string) error {
		cfg, err := lf.config("capacity", args)
		if err != nil {
			return err
		}
		if err := checkRanges("capacity", fs,
			rangeCheck{"max-steps", opt.MaxSteps < 1, "1 or more steps"},
			rangeCheck{"start", opt.Start < 0 || math.IsInf(opt.Start, 0) || math.IsNaN(opt.Start), "a positive rate in requests/s (leave it out to seed with a closed loop)"},
			rangeCheck{"p99", opt.P99 < 0, "a positive latency, e.g. 50ms"},
			rangeCheck{"pause", opt.Pause < 0, "0 or a positive duration"},
		); err != nil {
			return err
		}
		jsonOut, err := openJSON("capacity", out)
		if err != nil {
			return err
		}
		defer jsonOut.abort()
		if cfg.Duration <= 0 {
			cfg.Duration = 5 * time.Second
		}
		if !fs.Changed("warmup") {
			cfg.Warmup = time.Second
		}
		// The step table is for people: on stderr with --json -, left out
		// with -q.
		text := jsonOut.text()
		steps := text
		if g.quiet {
			steps = io.Discard
		}
		fmt.Fprintf(steps, "Capacity search of %s: %d connections, %s per step after %s of warm-up\n", cfg.URL, cfg.Connections, cfg.Duration, cfg.Warmup)
		fmt.Fprintf(steps, "%4s %10s %10s %9s %9s %8s  %s\n", "step", "target/s", "achieved/s", "p50 ms", "p99 ms", "missed", "result")
		opt.Step = func(n int, s result.CapacityStep) { printStep(steps, n, s) }
		res, best, err := capacity.Search(c.Context(), engine.Builtin{}, cfg, opt)
		if res != nil && len(res.Steps) > 0 {
			if res.CapacityRPS > 0 {
				fmt.Fprintf(text, "Capacity: %.0f req/s (the highest sustained target of %d steps)\n", res.CapacityRPS, len(res.Steps))
			}
			if jsonOut != nil {
				if werr := jsonOut.commit(res); werr != nil {
					return fmt.Errorf("capacity: --json: %w", werr)
				}
			}
		}
		if err != nil {
			return fmt.Errorf("capacity: %w", err)
		}
		// The thresholds judge the step the capacity is: the load that was
		// sustained at the highest rate (nil when none was).
		return thresholds.check(text, "capacity", best)
	}
	return c
}

func printStep(w io.Writer, n int, s result.CapacityStep) {
	target, verdict := fmt.Sprintf("%.0f", s.TargetRPS), "sustained"
	if s.TargetRPS == 0 {
		target = "closed"
	}
	if !s.Sustained {
		verdict = s.Why
	}
	if len(s.Flags) > 0 {
		verdict += fmt.Sprintf(" %v", s.Flags)
	}
	fmt.Fprintf(w, "%4d %10s %10.0f %9.1f %9.1f %8d  %s\n", n, target, s.AchievedRPS, s.P50MS, s.P99MS, s.Missed, verdict)
}
