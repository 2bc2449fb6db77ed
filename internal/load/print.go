package load

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"restbench/internal/result"
)

// Print writes a wrk-style summary of r: latency, its distribution,
// throughput and errors by class, then one section per target of a mix,
// the probe and the warm-up.
func Print(w io.Writer, r *result.Load) {
	s := r.Settings
	mode := "closed loop"
	if s.Rate > 0 {
		mode = fmt.Sprintf("open loop at %g req/s (latency from the intended send time)", s.Rate)
	}
	ka := "keep-alive"
	if !s.KeepAlive {
		ka = "a new connection per request"
	}
	what := orGET(s.Method) + " " + s.URL
	if s.Mix != "" {
		what = "mix " + s.Mix + " against " + s.URL
	}
	fmt.Fprintf(w, "%s: %d connections, %s, %s\n", what, s.Connections, ka, mode)
	printStats(w, "", &r.Stats)
	fmt.Fprintf(w, "  %d requests in %.2fs, %s read\n", r.Requests, r.DurationS, bytesText(r.BytesRead))
	if r.Missed > 0 {
		fmt.Fprintf(w, "  %d scheduled requests never sent (connections stuck behind slow responses)\n", r.Missed)
	}
	fmt.Fprintf(w, "Requests/sec: %10.2f\n", r.RPS)
	if r.DurationS > 0 {
		fmt.Fprintf(w, "Transfer/sec: %10s\n", bytesText(int64(float64(r.BytesRead)/r.DurationS)))
	}
	if r.ClientCPUS > 0 && r.Requests > 0 {
		fmt.Fprintf(w, "Generator CPU: %.2fs (%.2f µs/request)\n", r.ClientCPUS, r.ClientCPUS*1e6/float64(r.Requests))
	}
	if len(r.Targets) > 1 {
		names := make([]string, 0, len(r.Targets))
		for n := range r.Targets {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			t := r.Targets[n]
			fmt.Fprintf(w, "Target %s: %d requests, %.2f req/s\n", n, t.Requests, t.RPS)
			printStats(w, "  ", t)
		}
	}
	if r.Probe != nil {
		fmt.Fprintf(w, "Probe %s: %d requests\n", s.Probe, r.Probe.Requests)
		printStats(w, "  ", r.Probe)
	}
	if r.Warmup != nil {
		fmt.Fprintf(w, "Warm-up (%gs, excluded above): %d requests, %.2f req/s, %d errors\n",
			s.WarmupS, r.Warmup.Requests, r.Warmup.RPS, r.Warmup.Errors.Total())
	}
}

func printStats(w io.Writer, indent string, st *result.Stats) {
	l := st.Latency
	fmt.Fprintf(w, "%s  Latency   mean %s  stdev %s  max %s\n", indent, ms(l.Mean), ms(l.Stdev), ms(l.Max))
	fmt.Fprintf(w, "%s  Latency Distribution\n", indent)
	for _, p := range []struct {
		name string
		v    float64
	}{{"50%", l.P50}, {"75%", l.P75}, {"90%", l.P90}, {"99%", l.P99}, {"99.9%", l.P999}, {"99.99%", l.P9999}} {
		fmt.Fprintf(w, "%s    %6s %10s\n", indent, p.name, ms(p.v))
	}
	if e := st.Errors; e.Total() > 0 {
		fmt.Fprintf(w, "%s  Errors: connect %d, timeout %d, read %d, status %d, body %d\n",
			indent, e.Connect, e.Timeout, e.Read, e.Status, e.Body)
	}
	if len(st.StatusCodes) > 1 || (len(st.StatusCodes) == 1 && st.StatusCodes["200"] == 0) {
		codes := make([]string, 0, len(st.StatusCodes))
		for c, n := range st.StatusCodes {
			codes = append(codes, fmt.Sprintf("%s: %d", c, n))
		}
		sort.Strings(codes)
		fmt.Fprintf(w, "%s  Status codes: %s\n", indent, strings.Join(codes, ", "))
	}
}

func orGET(m string) string {
	if m == "" {
		return "GET"
	}
	return m
}

// ms formats milliseconds the way wrk does: µs below 1 ms, s above 1 s.
func ms(v float64) string {
	switch {
	case v < 1:
		return fmt.Sprintf("%.2fus", v*1000)
	case v < 1000:
		return fmt.Sprintf("%.2fms", v)
	default:
		return fmt.Sprintf("%.2fs", v/1000)
	}
}

func bytesText(n int64) string {
	f := float64(n)
	for _, u := range []string{"B", "KB", "MB", "GB"} {
		if f < 1024 || u == "GB" {
			return fmt.Sprintf("%.2f%s", f, u)
		}
		f /= 1024
	}
	return ""
}
