// Package summary prints a load's result as wrk prints its own: latency and
// its distribution, throughput, errors, then the checks on the counts.
package summary

import (
	"fmt"
	"io"
	"reflect"
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
	if s.MaxConnections > 0 {
		mode += fmt.Sprintf(", up to %d connections", s.MaxConnections)
	}
	fmt.Fprintf(w, "%s: %d connections, %s, %s\n", what, s.Connections, ka, mode)
	printStats(w, "", &r.Stats, r.Missed)
	fmt.Fprintf(w, "  %d requests in %.2fs, %s read\n", r.Requests, r.DurationS, bytesText(r.BytesRead))
	if s.Rate > 0 {
		fmt.Fprintf(w, "  Open loop: target %.2f req/s, achieved %.2f; %d due, %d sent, %d missed (due, never sent)\n",
			r.TargetRPS, r.RPS, r.Due, r.Sent, r.Missed)
		switch {
		case s.DrainS > 0 && r.DrainMS == 0:
			fmt.Fprintf(w, "  Drain: nothing in flight at the close (it waits up to %s)\n", ms(1000*s.DrainS))
		case s.DrainS > 0:
			fmt.Fprintf(w, "  Drain: %d responses in the %.1f ms after the window (at most %s), in the latencies above, not the rates\n",
				r.Drained, r.DrainMS, ms(1000*s.DrainS))
		}
	}
	fmt.Fprintf(w, "Requests/sec: %10.2f  (every response)\n", r.RPS)
	fmt.Fprintf(w, "OK req/s:     %10.2f  (responses that passed validation)\n", r.OKRPS)
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
			printStats(w, "  ", t, 0)
		}
	}
	printAccounting(w, r)
	if r.Probe != nil {
		fmt.Fprintf(w, "Probe %s: %d requests\n", s.Probe, r.Probe.Requests)
		printStats(w, "  ", r.Probe, 0)
	}
	if p := r.Pool; p != nil {
		fmt.Fprintf(w, "Pool: %d connections opened in %.3fs before the clock started, at most %d handshakes at a time", p.Connections, p.OpenS, p.MaxDialing)
		if p.Failed > 0 {
			fmt.Fprintf(w, "; %d not opened (each dialled at its first request)", p.Failed)
		}
		fmt.Fprintln(w)
	}
	if r.Warmup != nil {
		fmt.Fprintf(w, "Warm-up (%gs, excluded above): %d requests, %.2f req/s, %d errors\n",
			s.WarmupS, r.Warmup.Requests, r.Warmup.RPS, r.Warmup.Errors.Total())
	}
}

// printStats writes the latency (from the intended send) and, where it
// differs, the service time (from the actual send) side by side, then the
// unfinished requests' ages as the lower bounds they are.
func printStats(w io.Writer, indent string, st *result.Stats, missed int64) {
	if st.Responses == 0 {
		// No response, no latency: a 0.00us would read as a fast server.
		fmt.Fprintf(w, "%s  Latency   none (no response)\n", indent)
	} else {
		printLatency(w, indent, st)
	}
	printUnfinished(w, indent, st, missed)
	printErrors(w, indent, st)
}

// printLatency writes the latency distribution of the responses.
func printLatency(w io.Writer, indent string, st *result.Stats) {
	l := st.Latency
	fmt.Fprintf(w, "%s  Latency   mean %s  stdev %s  max %s\n", indent, ms(l.Mean), ms(l.Stdev), ms(l.Max))
	sv := st.Service
	if sv != nil && reflect.DeepEqual(*sv, l) {
		sv = nil // a closed loop sends when it means to: the two are one
	}
	if sv != nil {
		fmt.Fprintf(w, "%s  Service   mean %s  stdev %s  max %s  (from the actual send)\n", indent, ms(sv.Mean), ms(sv.Stdev), ms(sv.Max))
		fmt.Fprintf(w, "%s  Latency Distribution  corrected    service\n", indent)
	} else {
		fmt.Fprintf(w, "%s  Latency Distribution\n", indent)
	}
	rows := []struct {
		name string
		v    func(result.Latency) float64
	}{
		{"50%", func(l result.Latency) float64 { return l.P50 }}, {"75%", func(l result.Latency) float64 { return l.P75 }},
		{"90%", func(l result.Latency) float64 { return l.P90 }}, {"99%", func(l result.Latency) float64 { return l.P99 }},
		{"99.9%", func(l result.Latency) float64 { return l.P999 }}, {"99.99%", func(l result.Latency) float64 { return l.P9999 }},
	}
	for _, p := range rows {
		fmt.Fprintf(w, "%s    %6s %10s", indent, p.name, ms(p.v(l)))
		if sv != nil {
			fmt.Fprintf(w, " %10s", ms(p.v(*sv)))
		}
		fmt.Fprintln(w)
	}
}

// printUnfinished writes the ages of the requests in flight at the close.
func printUnfinished(w io.Writer, indent string, st *result.Stats, missed int64) {
	if c := st.Censored; c != nil && missed > 0 {
		// The top level of an open loop: the censored series holds the
		// missed requests' waits too (docs/results.md).
		fmt.Fprintf(w, "%s  Unfinished: %d in flight when the window closed; with the %d missed, waits >= %s (median), >= %s (max)\n",
			indent, st.Unfinished, missed, ms(c.P50), ms(c.Max))
	} else if c != nil && st.Unfinished > 0 {
		fmt.Fprintf(w, "%s  Unfinished: %d in flight when the window closed, ages >= %s (median), >= %s (max)\n",
			indent, st.Unfinished, ms(c.P50), ms(c.Max))
	}
}

// printErrors writes the failed requests by kind and the status codes.
func printErrors(w io.Writer, indent string, st *result.Stats) {
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

// printAccounting writes the checks on the counts: how evenly the
// connections were served, Little's law, and the flags they raised.
func printAccounting(w io.Writer, r *result.Load) {
	if p := r.PerConnection; p != nil {
		fmt.Fprintf(w, "Per connection: completed min %d, median %d, max %d; %d stalled (completed nothing)\n",
			p.Min, p.Median, p.Max, p.Stalled)
		if f := p.FirstResponseMS; f != nil {
			fmt.Fprintf(w, "First response per connection (from its first connect): min %.2f, median %.2f, p99 %.2f, max %.2f ms over %d connections\n",
				f.Min, f.Median, f.P99, f.Max, f.Connections)
		}
	}
	if l := r.Little; l != nil {
		fmt.Fprintf(w, "Little's law: req/s x mean latency = %.1f in flight, %d connections (ratio %.2f)\n",
			l.InFlight, l.Connections, l.Ratio)
	}
	if len(r.Flags) > 0 {
		fmt.Fprintf(w, "Flags: %s\n", strings.Join(r.Flags, ", "))
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
