package engine

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"restbench/internal/cpu"
	"restbench/internal/load"
	"restbench/internal/result"
)

// Wrk runs the real wrk: closed loop, keep-alive unless the request says
// "Connection: close". It has no request count and no rate (that is wrk2):
// such loads must use the built-in generator.
type Wrk struct{}

// Run runs wrk for the warm-up (reported as Warmup), then for the measured
// duration.
func (Wrk) Run(ctx context.Context, cfg load.Config) (*result.Load, error) {
	switch {
	case cfg.Rate > 0:
		return nil, unsupported("wrk", "send at a constant rate (wrk has no -R; that is wrk2)")
	case cfg.MaxRequests > 0:
		return nil, unsupported("wrk", "stop after a number of requests (wrk has no -n)")
	case len(cfg.Mix) > 0:
		return nil, unsupported("wrk", "send a mix of requests")
	case cfg.Probe != "":
		return nil, unsupported("wrk", "send a heartbeat probe")
	case cfg.Warmup%time.Second != 0 || cfg.Duration%time.Second != 0:
		return nil, unsupported("wrk", fmt.Sprintf("run a %v warm-up or a %v window (wrk's -d takes whole seconds)", cfg.Warmup, cfg.Duration))
	}
	if cfg.Duration <= 0 {
		cfg.Duration = 10 * time.Second
	}
	sweepWrkDirs()
	dir, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", wrkDirPrefix, os.Getpid()))
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	script, err := wrkScript(dir, cfg)
	if err != nil {
		return nil, err
	}
	var warmArgs []string
	if cfg.Warmup > 0 {
		warmArgs = wrkArgs(cfg, cfg.Warmup, script)
	}
	return warmThenMeasure(ctx, NameWrk, cfg, warmArgs, wrkArgs(cfg, cfg.Duration, script), 0, ParseWrk)
}

func wrkArgs(cfg load.Config, d time.Duration, script string) []string {
	conns := max(cfg.Connections, 1)
	threads := min(max(cfg.Threads, 1), conns)
	a := []string{"wrk", "-t", strconv.Itoa(threads), "-c", strconv.Itoa(conns),
		"-d", fmt.Sprintf("%ds", seconds(d)), "--latency", "-s", script}
	if cfg.Timeout > 0 {
		a = append(a, "--timeout", fmt.Sprintf("%ds", seconds(cfg.Timeout)))
	}
	return append(a, cfg.URL)
}

// wrkDirPrefix begins the temporary folder of each wrk load (its Lua
// script), the pid of the restbench that made it after it.
const wrkDirPrefix = "restbench-wrk-"

// sweepWrkDirs removes the wrk folders that a restbench killed before it
// could remove them left in the temporary directory: those whose restbench
// is no longer running (a live one's are left alone).
func sweepWrkDirs() {
	entries, _ := os.ReadDir(os.TempDir())
	for _, e := range entries {
		if pid := cpu.OwnerPID(e.Name(), wrkDirPrefix); e.IsDir() && pid > 0 && !cpu.Alive(pid) {
			os.RemoveAll(filepath.Join(os.TempDir(), e.Name()))
		}
	}
}

// wrkScript writes the Lua script that sets the method, headers and body;
// the body is read from a file so that any bytes survive.
func wrkScript(dir string, cfg load.Config) (string, error) {
	var b strings.Builder
	method := cfg.Method
	if method == "" {
		method = "GET"
		if len(cfg.Body) > 0 {
			method = "POST"
		}
	}
	fmt.Fprintf(&b, "wrk.method = %q\n", method)
	if len(cfg.Body) > 0 {
		body := filepath.Join(dir, "body")
		if err := os.WriteFile(body, cfg.Body, 0o644); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "local f = assert(io.open(%q, \"rb\"))\nwrk.body = f:read(\"*a\")\nf:close()\n", body)
	}
	headers := cfg.Headers
	if !cfg.KeepAlive && !hasHeader(headers, "Connection") {
		headers = append(headers, "Connection: close")
	}
	for _, h := range headers {
		k, v, ok := strings.Cut(h, ":")
		if !ok {
			return "", fmt.Errorf("header %q: use \"Name: value\"", h)
		}
		fmt.Fprintf(&b, "wrk.headers[%q] = %q\n", strings.TrimSpace(k), strings.TrimSpace(v))
	}
	path := filepath.Join(dir, "request.lua")
	return path, os.WriteFile(path, []byte(b.String()), 0o644)
}

func hasHeader(hs []string, name string) bool {
	for _, h := range hs {
		if k, _, _ := strings.Cut(h, ":"); strings.EqualFold(strings.TrimSpace(k), name) {
			return true
		}
	}
	return false
}

var (
	wrkLatency  = regexp.MustCompile(`^\s*Latency\s+(\S+)\s+(\S+)\s+(\S+)\s+\S+`)
	wrkPct      = regexp.MustCompile(`^\s*(\d+(?:\.\d+)?)%\s+(\S+)\s*$`)
	wrkTotal    = regexp.MustCompile(`^\s*(\d+) requests in (\S+), (\S+) read`)
	wrkSocket   = regexp.MustCompile(`Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)`)
	wrkNon2xx   = regexp.MustCompile(`Non-2xx or 3xx responses: (\d+)`)
	wrkRequests = regexp.MustCompile(`^Requests/sec:\s+(\S+)`)
)

// ParseWrk reads wrk's text output (run with --latency).
func ParseWrk(out string) (*result.Load, error) {
	res := &result.Load{}
	var seen bool
	var nonOK int64
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case wrkLatency.MatchString(line):
			m := wrkLatency.FindStringSubmatch(line)
			res.Latency.Mean, _ = parseWrkTime(m[1])
			res.Latency.Stdev, _ = parseWrkTime(m[2])
			res.Latency.Max, _ = parseWrkTime(m[3])
		case wrkPct.MatchString(line):
			m := wrkPct.FindStringSubmatch(line)
			v, err := parseWrkTime(m[2])
			if err != nil {
				return nil, fmt.Errorf("wrk output: %q: %w", line, err)
			}
			setPercentile(&res.Latency, m[1], v)
		case wrkTotal.MatchString(line):
			m := wrkTotal.FindStringSubmatch(line)
			seen = true
			res.Responses, _ = strconv.ParseInt(m[1], 10, 64)
			d, err := parseWrkTime(m[2])
			if err != nil {
				return nil, fmt.Errorf("wrk output: %q: %w", line, err)
			}
			res.DurationS = d / 1000
			res.BytesRead = parseWrkBytes(m[3])
		case wrkSocket.MatchString(line):
			m := wrkSocket.FindStringSubmatch(line)
			res.Errors.Connect = atoi(m[1])
			res.Errors.Read = atoi(m[2]) + atoi(m[3])
			res.Errors.Timeout = atoi(m[4])
		case wrkNon2xx.MatchString(line):
			nonOK = atoi(wrkNon2xx.FindStringSubmatch(line)[1])
			res.Errors.Status = nonOK
		case wrkRequests.MatchString(line):
			res.RPS, _ = strconv.ParseFloat(wrkRequests.FindStringSubmatch(line)[1], 64)
		}
	}
	if !seen {
		return nil, fmt.Errorf("no \"N requests in T\" line in wrk's output:%s", lastLines(out, 8))
	}
	// wrk counts responses as requests and socket errors apart; a timeout
	// is also a request that got no response.
	res.Requests = res.Responses + res.Errors.Connect + res.Errors.Read + res.Errors.Timeout
	res.StatusCodes = statusCodes(res.Responses, nonOK)
	return res, nil
}

// parseWrkTime reads wrk's "164.11us", "2.37ms", "1.00s", "1.50m" into ms.
func parseWrkTime(s string) (float64, error) {
	for _, u := range []struct {
		suffix string
		ms     float64
	}{{"us", 0.001}, {"ms", 1}, {"s", 1000}, {"m", 60000}, {"h", 3600000}} {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return 0, fmt.Errorf("time %q: %w", s, err)
			}
			return f * u.ms, nil
		}
	}
	return 0, fmt.Errorf("time %q: unknown unit", s)
}

// parseWrkBytes reads wrk's "71.53MB" (binary units).
func parseWrkBytes(s string) int64 {
	mult := 1.0
	for _, u := range []struct {
		suffix string
		m      float64
	}{{"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"TB", 1 << 40}, {"B", 1}} {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = v, u.m
			break
		}
	}
	f, _ := strconv.ParseFloat(s, 64)
	return int64(f * mult)
}

func atoi(s string) int64 {
	n, _ := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return n
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// toolSettings records how an external tool was asked to generate the load.
func toolSettings(engine string, cfg load.Config) result.Settings {
	s := result.Settings{Engine: engine, URL: cfg.URL, Method: cfg.Method, Headers: cfg.Headers,
		BodyBytes: len(cfg.Body), Connections: cfg.Connections, DurationS: cfg.Duration.Seconds(),
		MaxRequests: cfg.MaxRequests, WarmupS: cfg.Warmup.Seconds(), KeepAlive: cfg.KeepAlive,
		Expect: cfg.Expect, TimeoutS: cfg.Timeout.Seconds()}
	if len(cfg.CPUs) > 0 {
		s.CPUs = cpu.FormatList(cfg.CPUs)
	}
	return s
}
