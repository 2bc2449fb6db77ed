package summary

import (
	"bytes"
	"strings"
	"testing"

	"restbench/internal/result"
)

// TestPrintNoResponse: a load that got no response has no latency, and
// says so instead of printing 0.00us as if the server were fast.
func TestPrintNoResponse(t *testing.T) {
	r := &result.Load{Stats: result.Stats{Requests: 20, Errors: result.Errors{Connect: 20}}, DurationS: 1,
		Settings: result.Settings{URL: "http://127.0.0.1:1/", Connections: 2}}
	var b bytes.Buffer
	Print(&b, r)
	if out := b.String(); !strings.Contains(out, "Latency   none (no response)") || strings.Contains(out, "0.00us") {
		t.Errorf("output:\n%s\nwant no latency figure", out)
	}
}

func TestPrint(t *testing.T) {
	r := &result.Load{
		Stats: result.Stats{
			Requests: 1000, Responses: 990, RPS: 99,
			Errors:      result.Errors{Timeout: 10, Status: 5},
			StatusCodes: map[string]int64{"200": 985, "500": 5},
			Latency:     result.Latency{Mean: 1.5, P50: 0.8, P99: 12, Max: 1500},
			Service:     &result.Latency{Mean: 1.1, P50: 0.7, P99: 9, Max: 900},
			OKRPS:       98.5, Unfinished: 2, Censored: &result.Latency{P50: 250, Max: 3000}, Drained: 4,
		},
		DurationS: 10, Missed: 3, TargetRPS: 100, Due: 1001, Sent: 998, DrainMS: 61.25,
		PerConnection: &result.PerConnection{Min: 0, Median: 200, Max: 210, Stalled: 1},
		Little:        &result.Little{Connections: 5, InFlight: 4.9, Ratio: 0.98},
		Flags:         []string{result.FlagStalledConnections},
		Targets:       map[string]*result.Stats{"a": {Requests: 600}, "b": {Requests: 400}},
		Probe:         &result.Stats{Requests: 2},
		Settings: result.Settings{URL: "http://127.0.0.1:1/", Connections: 5, Rate: 100, KeepAlive: true,
			Mix: "mix.yaml", Probe: "/status@5s", DrainS: 1},
	}
	var b bytes.Buffer
	Print(&b, r)
	out := b.String()
	// Nothing in flight at the close: the drain says so, not "0 responses in 0 ms".
	quiet := *r
	quiet.Drained, quiet.DrainMS = 0, 0
	var q bytes.Buffer
	Print(&q, &quiet)
	if want := "Drain: nothing in flight at the close (it waits up to 1.00s)"; !strings.Contains(q.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, q.String())
	}
	for _, want := range []string{
		"mix mix.yaml against http://127.0.0.1:1/: 5 connections, keep-alive, open loop at 100 req/s",
		"50%   800.00us", "99%    12.00ms", "max 1.50s",
		"Errors: connect 0, timeout 10, read 0, status 5, body 0",
		"Status codes: 200: 985, 500: 5",
		"Open loop: target 100.00 req/s, achieved 99.00; 1001 due, 998 sent, 3 missed",
		"Requests/sec:      99.00  (every response)", "OK req/s:          98.50",
		"Latency Distribution  corrected    service", "99%    12.00ms     9.00ms",
		"Drain: 4 responses in the 61.2 ms after the window (at most 1.00s), in the latencies above, not the rates",
		"Unfinished: 2 in flight when the window closed; with the 3 missed, waits >= 250.00ms (median), >= 3.00s (max)",
		"completed min 0, median 200, max 210; 1 stalled",
		"4.9 in flight, 5 connections (ratio 0.98)",
		"Flags: stalled-connections",
		"Target a: 600 requests", "Target b: 400 requests",
		"Probe /status@5s: 2 requests",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
