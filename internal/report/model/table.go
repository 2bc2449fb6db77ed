package model

import (
	"slices"
	"strings"
)

// Column is one column of a Table: its key, its title, and whether it holds
// figures (which Markdown aligns right).
type Column struct {
	Key, Title string
	Figure     bool
}

// Table is a table as plain text, one row of cells per line, that every
// renderer prints: Markdown escapes its cells, HTML its markup.
type Table struct {
	Columns []Column
	Rows    [][]string
}

// Titles are the columns' titles, in order.
func (t Table) Titles() []string {
	out := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = c.Title
	}
	return out
}

// Without is the table less the columns of the given keys.
func (t Table) Without(keys ...string) Table {
	var out Table
	var keep []int
	for i, c := range t.Columns {
		if !slices.Contains(keys, c.Key) {
			out.Columns = append(out.Columns, c)
			keep = append(keep, i)
		}
	}
	for _, row := range t.Rows {
		cells := make([]string, len(keep))
		for j, i := range keep {
			cells[j] = row[i]
		}
		out.Rows = append(out.Rows, cells)
	}
	return out
}

// ParamColumn is the key of every matrix parameter's column in
// MeasuredTable.
const ParamColumn = "param"

// MeasuredTable is the measured table of an experiment: a row per run with
// its matrix parameters, trials, and the medians (req/s with its min–max)
// over its successful trials, the published req/s, and its flags.
func MeasuredTable(e *ExperimentReport) Table {
	params := ParamNames(e)
	t := Table{Columns: []Column{{Key: "run", Title: "run"}}}
	for _, p := range params {
		t.Columns = append(t.Columns, Column{Key: ParamColumn, Title: p})
	}
	for _, c := range []Column{{"trials", "trials ok", true}, {"rps", "req/s", true}, {"rps_range", "req/s min–max", true},
		{"published_rps", "published req/s", true}, {"latency_mean_ms", "mean ms", true}, {"latency_stdev_ms", "stdev ms", true},
		{"p50_ms", "p50 ms", true}, {"p99_ms", "p99 ms", true}, {"latency_max_ms", "max ms", true}, {"errors", "errors", true},
		{"cpu_pct", "server CPU %", true}, {"rss_mb", "RSS MiB", true}, {"flags", "flags", false}} {
		t.Columns = append(t.Columns, c)
	}
	for _, r := range e.Runs {
		m := r.Measured
		row := []string{r.Label()}
		for _, p := range params {
			row = append(row, r.Info.Params[p])
		}
		pub := "—"
		if v, ok := r.Info.Published["rps"]; ok {
			pub = Num(v)
		}
		row = append(row, r.TrialsCell(), Med(m["rps"]), Rng(m["rps"]), pub, Med(m["latency_mean_ms"]), Med(m["latency_stdev_ms"]),
			Med(m["p50_ms"]), Med(m["p99_ms"]), Med(m["latency_max_ms"]), Med(m["errors"]), Med(m["cpu_pct"]), Med(m["rss_mb"]),
			strings.ReplaceAll(flagsText(r), "\n", " "))
		t.Rows = append(t.Rows, row)
	}
	return t
}
