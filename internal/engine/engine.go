// Package engine runs one load against a server and returns the result in
// restbench's shape, whichever tool generates it: the built-in generator
// (package load), or the real wrk or ab, to reproduce a published run with
// its own tool and to cross-check ours.
package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"restbench/internal/cpu"
	"restbench/internal/load"
	"restbench/internal/result"
)

// Engine generates one load.
type Engine interface {
	Run(ctx context.Context, cfg load.Config) (*result.Load, error)
}

// Names of the engines, as written in suite files.
const (
	NameBuiltin = "restbench"
	NameWrk     = "wrk"
	NameAB      = "ab"
)

// New returns the engine called name ("" is the built-in generator).
func New(name string) (Engine, error) {
	switch name {
	case "", NameBuiltin:
		return Builtin{}, nil
	case NameWrk:
		return Wrk{}, nil
	case NameAB:
		return AB{}, nil
	}
	return nil, fmt.Errorf("unknown engine %q (use %s, %s or %s)", name, NameBuiltin, NameWrk, NameAB)
}

// Missing says why the engine called name cannot run on this machine ("wrk
// is not installed (apt-get install wrk)"), or "" when it can.
func Missing(name string) string {
	tool := name
	switch name {
	case NameWrk, NameAB:
	default:
		return "" // the built-in generator is always there
	}
	if _, err := exec.LookPath(tool); err != nil {
		return fmt.Sprintf("%s is not installed (apt-get install %s)", tool, packageOf(tool))
	}
	return ""
}

// Builtin is restbench's own generator.
type Builtin struct{}

var (
	_ Engine = Builtin{}
	_ Engine = Wrk{}
	_ Engine = AB{}
)

// Run calls load.Run.
func (Builtin) Run(ctx context.Context, cfg load.Config) (*result.Load, error) {
	return load.Run(ctx, cfg)
}

// runTool runs argv, pinned with taskset to cpus when there are any, and
// returns its standard output and the CPU time it used (user+system, s).
// Cancelling ctx sends SIGINT first (wrk then prints what it measured so
// far), SIGKILL a second later.
func runTool(ctx context.Context, cpus []int, argv []string) (string, float64, error) {
	if why := Missing(argv[0]); why != "" {
		return "", 0, fmt.Errorf("%s, or use engine: restbench", why)
	}
	if len(cpus) > 0 {
		argv = append([]string{"taskset", "-c", cpu.FormatList(cpus)}, argv...)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGINT) }
	cmd.WaitDelay = time.Second
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var cpuS float64
	if st := cmd.ProcessState; st != nil {
		cpuS = (st.UserTime() + st.SystemTime()).Seconds()
	}
	if err != nil && ctx.Err() == nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return out.String(), cpuS, fmt.Errorf("%s: %v: %s%s", argv[0], err, strings.TrimSpace(errb.String()), lastLines(out.String(), 5))
		}
		return out.String(), cpuS, fmt.Errorf("%s: %w", argv[0], err)
	}
	return out.String(), cpuS, nil
}

func packageOf(tool string) string {
	if tool == "ab" {
		return "apache2-utils"
	}
	return tool
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	if len(lines) == 1 && lines[0] == "" {
		return ""
	}
	return "\n" + strings.Join(lines, "\n")
}

// seconds formats d as whole seconds, at least 1: both tools count seconds.
func seconds(d time.Duration) int {
	return max(1, int((d+time.Second-1)/time.Second))
}

// unsupported names a setting the tool cannot reproduce.
func unsupported(tool, what string) error {
	return fmt.Errorf("engine %s cannot %s; use engine: restbench for this run", tool, what)
}

// warmThenMeasure is what every external tool does: run it once for the
// warm-up (when warmArgs is set) and once for the measured part, parse both
// outputs, and keep the warm-up apart from the result. With capAfter > 0
// the measured part is interrupted (SIGINT, runTool) after that long, and
// what the tool printed then is the result.
func warmThenMeasure(ctx context.Context, name string, cfg load.Config, warmArgs, args []string, capAfter time.Duration,
	parse func(string) (*result.Load, error)) (*result.Load, error) {
	var warm *result.Load
	if warmArgs != nil {
		out, _, err := runTool(ctx, cfg.CPUs, warmArgs)
		if err != nil || ctx.Err() != nil {
			return nil, firstErr(err, ctx.Err())
		}
		if warm, err = parse(out); err != nil {
			return nil, fmt.Errorf("%s warm-up: %w", name, err)
		}
	}
	mctx := ctx
	if capAfter > 0 {
		var cancel context.CancelFunc
		mctx, cancel = context.WithTimeout(ctx, capAfter)
		defer cancel()
	}
	out, cpuS, err := runTool(mctx, cfg.CPUs, args)
	if err != nil {
		return nil, err
	}
	res, perr := parse(out)
	if perr != nil {
		return nil, firstErr(ctx.Err(), perr)
	}
	if warm != nil {
		res.Warmup = &warm.Stats
	}
	res.ClientCPUS = cpuS
	res.Settings = toolSettings(name, cfg)
	return res, ctx.Err()
}

// setPercentile files a percentile a tool printed ("50", "99", "100" for
// the longest request) in milliseconds: into its field when the summary has
// one, otherwise into Percentiles, so nothing the tool printed is lost.
func setPercentile(l *result.Latency, pct string, v float64) {
	switch pct {
	case "50":
		l.P50 = v
	case "75":
		l.P75 = v
	case "90":
		l.P90 = v
	case "99":
		l.P99 = v
	case "100":
		l.Max = v
	default:
		if l.Percentiles == nil {
			l.Percentiles = map[string]float64{}
		}
		l.Percentiles[pct] = v
	}
}

// statusCodes is all wrk and ab tell of status codes: how many responses
// were 2xx and how many were not.
func statusCodes(responses, nonOK int64) map[string]int64 {
	codes := map[string]int64{}
	if ok := responses - nonOK; ok > 0 {
		codes["2xx"] = ok
	}
	if nonOK > 0 {
		codes["non-2xx"] = nonOK
	}
	return codes
}
