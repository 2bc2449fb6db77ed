// Package threshold reads pass/fail criteria written k6's way
// ('p99<50ms', 'errors<0.1%', 'achieved>95%') and checks a load's result
// against them, so that a CI pipeline can fail on a slow or broken server.
//
// A load's validity flags (behind-schedule, stalled-connections,
// inconsistent) count as failed thresholds unless the caller allows them:
// a p99 measured behind schedule is not the p99 that was asked about.
package threshold

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"restbench/internal/metric"
	"restbench/internal/result"
)

// ExitCode is the exit status of a command whose thresholds failed: k6's
// (99), so that pipelines written for k6 read it the same way.
const ExitCode = 99

// aliases maps k6's and HdrHistogram's spellings onto the names above.
var aliases = map[string]string{
	"p(50)": "p50", "p(75)": "p75", "p(90)": "p90", "p(99)": "p99", "p(99.9)": "p999", "p(99.99)": "p9999",
	"p99.9": "p999", "p99.99": "p9999", "avg": "mean", "med": "p50",
}

// Threshold is one criterion: Metric Op Value, e.g. p99 < 50 (ms).
type Threshold struct {
	Text    string  // as written
	Metric  string  // its name, as metric.Def.Threshold spells it
	Op      string  // <, <=, >, >=
	Value   float64 // ms for latencies, percent where Percent, else a count or req/s
	Percent bool    // the value was written with %
}

// Parse reads one threshold.
func Parse(s string) (Threshold, error) {
	text := strings.TrimSpace(s)
	i := strings.IndexAny(text, "<>")
	if i <= 0 {
		return Threshold{}, fmt.Errorf("threshold %q: write METRIC<VALUE or METRIC>VALUE, e.g. 'p99<50ms', 'errors<0.1%%', 'achieved>95%%'", s)
	}
	t := Threshold{Text: text, Metric: strings.ToLower(strings.TrimSpace(text[:i])), Op: text[i : i+1]}
	rest := text[i+1:]
	if strings.HasPrefix(rest, "=") {
		t.Op += "="
		rest = rest[1:]
	}
	if a, ok := aliases[t.Metric]; ok {
		t.Metric = a
	}
	def, ok := metric.ByThreshold(t.Metric)
	if !ok {
		return Threshold{}, fmt.Errorf("threshold %q: unknown metric %q (use one of %s)", s, t.Metric, metricNames())
	}
	v, suffix := splitNumber(strings.TrimSpace(rest))
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 {
		return Threshold{}, fmt.Errorf("threshold %q: %q is not a non-negative number", s, v)
	}
	unit := def.Unit
	if unit == "count" {
		unit = "count or %" // errors: a count, or a share of the requests
	}
	switch {
	case unit == "ms":
		scale, ok := map[string]float64{"": 1, "ms": 1, "s": 1000, "us": 0.001, "µs": 0.001}[suffix]
		if !ok {
			return Threshold{}, fmt.Errorf("threshold %q: latency unit %q: use ms, s or us", s, suffix)
		}
		f *= scale
	case suffix == "%":
		if unit != "fraction" && unit != "count or %" {
			return Threshold{}, fmt.Errorf("threshold %q: %s is in %s, not a percentage", s, t.Metric, unit)
		}
		t.Percent = true
	case unit == "fraction":
		return Threshold{}, fmt.Errorf("threshold %q: write %s as a percentage of the target rate, e.g. %s>95%%", s, t.Metric, t.Metric)
	case suffix != "":
		return Threshold{}, fmt.Errorf("threshold %q: unexpected unit %q after the number (%s is in %s)", s, suffix, t.Metric, unit)
	}
	t.Value = f
	return t, nil
}

// NeedsRate says whether t only makes sense for an open loop (-R).
func (t Threshold) NeedsRate() bool { return t.Metric == metric.Achieved }

func splitNumber(s string) (num, suffix string) {
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || s[i] == '-' || s[i] == '+') {
		i++
	}
	return s[:i], strings.ToLower(strings.TrimSpace(s[i:]))
}

func metricNames() string {
	return "p50, p75, p90, p99, p999, p9999, min, mean, max (ms; s or us suffix), errors (count, or % of requests), achieved (% of -R), rps, ok_rps"
}

// List collects repeated --threshold flags (it is a flag.Value).
type List []Threshold

func (l *List) String() string {
	var s []string
	for _, t := range *l {
		s = append(s, t.Text)
	}
	return strings.Join(s, ", ")
}

// Set parses one more threshold.
func (l *List) Set(v string) error {
	t, err := Parse(v)
	if err != nil {
		return err
	}
	*l = append(*l, t)
	return nil
}

// Outcome is one threshold checked against a result. A validity flag that
// was not allowed is an outcome too, with Flag set.
type Outcome struct {
	Threshold Threshold
	Flag      string  // a validity flag of the load, failed unless allowed
	Value     float64 // the measured value, in the threshold's unit
	Unit      string
	Pass      bool
	Note      string // why a threshold could not be evaluated
}

// Check evaluates every threshold against l, then its validity flags. With
// no threshold there is nothing to check: a load without --threshold keeps
// exiting 0 whatever its flags.
func Check(ts []Threshold, l *result.Load, allowFlags bool) []Outcome {
	if len(ts) == 0 {
		return nil
	}
	var out []Outcome
	for _, t := range ts {
		out = append(out, evaluate(t, l))
	}
	for _, f := range l.Flags {
		out = append(out, Outcome{Flag: f, Pass: allowFlags})
	}
	return out
}

// Failed says whether any outcome failed.
func Failed(outs []Outcome) bool {
	for _, o := range outs {
		if !o.Pass {
			return true
		}
	}
	return false
}

func evaluate(t Threshold, l *result.Load) Outcome {
	def, _ := metric.ByThreshold(t.Metric)
	o := Outcome{Threshold: t, Unit: def.Unit}
	switch {
	case def.Unit == "ms" && l.Responses == 0:
		o.Note = "no response to measure a latency from"
		return o
	case def.Key == metric.Achieved && l.TargetRPS <= 0:
		o.Note = "a closed loop has no target rate (give -R)"
		return o
	case def.Key == "errors" && t.Percent && l.Requests == 0:
		o.Note = "no requests were made"
		return o
	}
	// The summary's own percentiles, not a histogram's: the thresholds
	// judge the figures the load printed.
	o.Value, _ = metric.LoadValue(l, nil, nil, def.Key)
	switch {
	case def.Key == "errors" && t.Percent:
		o.Value, o.Unit = 100*o.Value/float64(l.Requests), "%"
	case def.Key == "errors":
		o.Unit = "errors"
	case def.Unit == "fraction": // achieved: a threshold writes it as a percentage
		o.Value, o.Unit = 100*o.Value, "%"
	}
	o.Pass = compare(o.Value, t.Op, t.Value)
	return o
}

func compare(v float64, op string, limit float64) bool {
	switch op {
	case "<":
		return v < limit
	case "<=":
		return v <= limit
	case ">":
		return v > limit
	case ">=":
		return v >= limit
	}
	return false
}

// Print writes one line per outcome, k6's way: a mark, the threshold, the
// measured value.
func Print(w io.Writer, outs []Outcome) {
	if len(outs) == 0 {
		return
	}
	fmt.Fprintln(w, "Thresholds:")
	for _, o := range outs {
		mark := "pass"
		if !o.Pass {
			mark = "FAIL"
		}
		switch {
		case o.Flag != "" && o.Pass:
			fmt.Fprintf(w, "  %s  flag %s (allowed by --allow-flags)\n", mark, o.Flag)
		case o.Flag != "":
			fmt.Fprintf(w, "  %s  flag %s: the load was not valid (--allow-flags accepts it)\n", mark, o.Flag)
		case o.Note != "":
			fmt.Fprintf(w, "  %s  %-16s %s\n", mark, o.Threshold.Text, o.Note)
		default:
			fmt.Fprintf(w, "  %s  %-16s %s = %s %s\n", mark, o.Threshold.Text, o.Threshold.Metric, format(o.Value), o.Unit)
		}
	}
}

func format(v float64) string {
	switch {
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}
