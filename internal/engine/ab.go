package engine

import (
	"bufio"
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"restbench/internal/load"
	"restbench/internal/result"
)

// AB runs ApacheBench: -n requests (or -t seconds) at -c concurrency, a new
// connection per request unless keep-alive (-k).
type AB struct{}

// abRatePerSecond bounds -n when only a duration is given: ab -t alone
// stops at 50,000 requests, which a fast server reaches in a second, and ab
// allocates its statistics for all -n requests up front, so -n cannot simply
// be huge. No server here answers 200,000 new connections a second.
const abRatePerSecond = 200_000

// Run runs ab for the warm-up (reported as Warmup), then the measured load.
func (AB) Run(ctx context.Context, cfg load.Config) (*result.Load, error) {
	switch {
	case cfg.Rate > 0:
		return nil, unsupported("ab", "send at a constant rate")
	case len(cfg.Mix) > 0:
		return nil, unsupported("ab", "send a mix of requests")
	case cfg.Probe != "":
		return nil, unsupported("ab", "send a heartbeat probe")
	}
	if u, err := url.Parse(cfg.URL); err != nil || u.Path == "" {
		cfg.URL = strings.TrimSuffix(cfg.URL, "/") + "/" // ab insists on a path
	}
	dir, err := os.MkdirTemp("", "restbench-ab")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	body := ""
	if len(cfg.Body) > 0 {
		body = filepath.Join(dir, "body")
		if err := os.WriteFile(body, cfg.Body, 0o644); err != nil {
			return nil, err
		}
	}
	var warmArgs []string
	if cfg.Warmup > 0 {
		warmArgs = abArgs(cfg, 0, cfg.Warmup, body)
	}
	d := cfg.Duration
	if cfg.MaxRequests == 0 && d <= 0 {
		d = 10 * time.Second
	}
	// -n with a duration (a suite's requests, capped): ab takes no cap with
	// -n, so it is interrupted at the cap, as restbench's generator closes
	// an -n window there; on SIGINT ab prints what it completed, timed to
	// the interrupt. Uncapped, ab ran a joshuous Node cell to its last
	// SYN retransmission, 7.9 s, where restbench's window closed at 7.5 s.
	var capAfter time.Duration
	if cfg.MaxRequests > 0 && cfg.Duration > 0 {
		capAfter = cfg.Duration
	}
	return warmThenMeasure(ctx, NameAB, cfg, warmArgs, abArgs(cfg, cfg.MaxRequests, d, body), capAfter, ParseAB)
}

// abArgs builds ab's command line. With n > 0 it sends n requests (the
// published `ab -n`); otherwise it runs for d.
func abArgs(cfg load.Config, n int64, d time.Duration, body string) []string {
	conns := max(cfg.Connections, 1)
	a := []string{"ab", "-q", "-r", "-c", strconv.Itoa(conns)}
	if n > 0 {
		a = append(a, "-n", strconv.FormatInt(max(n, int64(conns)), 10))
	} else {
		a = append(a, "-t", strconv.Itoa(seconds(d)), "-n", strconv.Itoa(max(50_000, abRatePerSecond*seconds(d))))
	}
	if cfg.KeepAlive {
		a = append(a, "-k")
	}
	if cfg.Timeout > 0 {
		a = append(a, "-s", strconv.Itoa(seconds(cfg.Timeout)))
	}
	method := cfg.Method
	ctype := "application/octet-stream"
	var headers []string
	for _, h := range cfg.Headers {
		k, v, _ := strings.Cut(h, ":")
		if strings.EqualFold(strings.TrimSpace(k), "Content-Type") {
			ctype = strings.TrimSpace(v) // ab sets it from -T
			continue
		}
		headers = append(headers, h)
	}
	for _, h := range headers {
		a = append(a, "-H", h)
	}
	if body != "" {
		if method == "" || method == "POST" {
			a = append(a, "-p", body)
		} else {
			a = append(a, "-u", body) // PUT
		}
		a = append(a, "-T", ctype)
		if method != "" && method != "POST" && method != "PUT" {
			a = append(a, "-m", method)
		}
	} else if method != "" && method != "GET" {
		a = append(a, "-m", method)
	}
	return append(a, cfg.URL)
}

var (
	abField  = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9 -]*?):\s+(.*)$`)
	abFailed = regexp.MustCompile(`\(Connect: (\d+), Receive: (\d+), Length: (\d+), Exceptions: (\d+)\)`)
	abTimes  = regexp.MustCompile(`^Total:\s+(\d+)\s+(\d+)\s+(\d+(?:\.\d+)?)\s+(\d+)\s+(\d+)`)
	abPct    = regexp.MustCompile(`^\s*(\d+)%\s+(\d+)`)
)

// ParseAB reads ab's text output.
func ParseAB(out string) (*result.Load, error) {
	res := &result.Load{}
	var complete, nonOK int64
	var seen bool
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if m := abFailed.FindStringSubmatch(line); m != nil {
			// Length failures are responses whose size differs from the
			// first one: normal for /time, not an error.
			res.Errors.Connect = atoi(m[1])
			res.Errors.Read = atoi(m[2]) + atoi(m[4])
			continue
		}
		if m := abTimes.FindStringSubmatch(line); m != nil {
			res.Latency.Min = float64(atoi(m[1]))
			res.Latency.Stdev, _ = strconv.ParseFloat(m[3], 64)
			continue
		}
		if m := abPct.FindStringSubmatch(line); m != nil {
			setPercentile(&res.Latency, m[1], float64(atoi(m[2])))
			continue
		}
		m := abField.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		first := strings.Fields(m[2] + " ")
		if len(first) == 0 {
			continue
		}
		num := first[0]
		switch m[1] {
		case "Time taken for tests":
			res.DurationS, _ = strconv.ParseFloat(num, 64)
		case "Complete requests":
			complete, seen = atoi(num), true
		case "Non-2xx responses":
			nonOK = atoi(num)
		case "Total transferred":
			res.BytesRead = atoi(num)
		case "Requests per second":
			res.RPS, _ = strconv.ParseFloat(num, 64)
		case "Time per request":
			if strings.HasSuffix(strings.TrimSpace(m[2]), "(mean)") {
				res.Latency.Mean, _ = strconv.ParseFloat(num, 64)
			}
		}
	}
	if !seen {
		return nil, fmt.Errorf("no \"Complete requests\" line in ab's output:%s", lastLines(out, 8))
	}
	res.Requests = complete
	res.Responses = complete - res.Errors.Connect - res.Errors.Read
	res.Errors.Status = nonOK
	res.StatusCodes = statusCodes(res.Responses, nonOK)
	return res, nil
}
