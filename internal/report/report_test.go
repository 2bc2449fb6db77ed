package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"restbench/internal/metric"
	"restbench/internal/report/model"
	"restbench/internal/result"
)

// TestReportFixture renders the checked-in fixture and checks the tables
// against the trial files themselves, then against the golden report.md.
func TestReportFixture(t *testing.T) {
	if *update {
		writeFixture(t, fixtureDir)
	}
	out := t.TempDir()
	w, err := Write(fixtureRoot, out)
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(w.Markdown)
	if err != nil {
		t.Fatal(err)
	}

	// Each run's req/s median and range, recomputed from the raw trial
	// files, must be what the measured table shows.
	suite, runs := fixtureSuite()
	for _, r := range runs {
		var ok []float64
		for n := 1; n <= len(r.rps); n++ {
			var tr result.Trial
			if err := result.ReadJSON(filepath.Join(fixtureDir, result.TrialFile(r.info.ID, n)), &tr); err != nil {
				t.Fatal(err)
			}
			if tr.Status == result.StatusOK {
				ok = append(ok, tr.Load.RPS)
			}
		}
		s := metric.SpreadOf(ok)
		row := tableRow(t, string(md), r.info.Label, "req/s")
		if got, want := row["req/s"], model.Med(s); got != want {
			t.Errorf("%s: req/s cell = %q, want %q (median of %v)", r.info.ID, got, want, ok)
		}
		if got, want := row["req/s min–max"], model.Rng(s); got != want {
			t.Errorf("%s: range cell = %q, want %q", r.info.ID, got, want)
		}
		if got, want := row["trials ok"], strconv.Itoa(len(ok))+"/"+strconv.Itoa(len(r.rps)); got != want {
			t.Errorf("%s: trials cell = %q, want %q", r.info.ID, got, want)
		}
	}
	// Hand-checked cells: the median of three trials is the middle one.
	for _, c := range []struct{ label, col, want string }{
		{"node-http", "req/s", "11,990"},
		{"node-http", "flags", "client-bound"},
		{"go-nethttp connections=100", "req/s", "9900"},
		{"go-nethttp connections=100", "flags", "failed 1/2"},
		{"go-nethttp connections=100", "trials ok", "1/2"},
	} {
		if got := tableRow(t, string(md), c.label, "req/s")[c.col]; got != c.want {
			t.Errorf("%s %s = %q, want %q", c.label, c.col, got, c.want)
		}
	}
	for _, want := range []string{
		"- **The write-ups' conclusions, 7: 1 holds (1 as a bound), 3 inconclusive, 2 not comparable, 1 not run here; answered 1 of 7 (14 %).**",
		"- holds (lower bound): [single-thread JSON echo: Node faster than Go](#v-mini-single-thread-1): 1.28× (1.26–1.29)",
		"| [mini](#suite-mini) | [single-thread JSON echo: Node faster than Go](#v-mini-single-thread-1) | 1.77× from published rows | > 1× | **holds (lower bound)** | 1.28× | 1.26–1.29 | single-thread/node-http: client-bound in 1 of 5 rounds (the generator used 75 % of its CPU; give it more CPUs or fewer connections) |",
		"| [mini](#suite-mini) | [single-thread JSON echo: Node about 1.77x faster](#v-mini-single-thread-2) | 1.77× from published rows | 1.42–2.21×, read from the words | **not comparable** | 1.28× *(not a verdict)* | 1.26–1.29 |",
		"| **not run here** | — | — | needs 12 cores |",
		"![Every graded claim: our interval against the claim's region and the published figure](charts/forest.svg)",
		`<a id="v-mini-single-thread-1"></a>**holds (lower bound)**: single-thread JSON echo: Node faster than Go — req/s, single-thread/node-http over single-thread/go-nethttp: published 1.77×, here 1.28×`,
		"Rule: interval of the median paired ratio above 1×.",
		"Rule: interval of the median paired ratio inside 1.42×–2.21×.",
		"**inconclusive**: 10 connections: Node faster than Go",
		"Inconclusive: 2 paired rounds give an interval of 0 % coverage; a verdict needs 90 % (5 rounds with the rounds fixed in advance).",
		"Rounds: 5 (fixed before measuring), as many as the suite asks (or allows).",
		"Rounds: 2 (adaptive: a stop rule could look 3 times, so every interval's coverage is corrected for 3 looks, Bonferroni); stopped by the time cap (2 rounds took 31s, the cap is 30s).",
		"| transfer_mb_s | 71.2 | — | — | — |",
		"**go-nethttp connections=100 trial 2 failed:** server exited during the load",
		"> fatal error: runtime: out of memory",
		"![Single-thread JSON echo: latency by percentile](charts/mini-single-thread-percentiles.png)",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	if len(suite.Experiments) != 3 || w.Charts == 0 {
		t.Errorf("suites %v, %d charts", w.Suites, w.Charts)
	}
	for _, f := range []string{"charts/mini-connections-rps-vs-connections.png", "charts/mini-connections-rps-vs-connections.svg",
		"charts/mini-heartbeat-go-nethttp-threads-2-latency-over-time.png", "charts/mini-single-thread-node-http-cores.svg", "charts/forest.svg"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() < 1000 {
			t.Errorf("chart %s missing or empty: %v", f, err)
		}
	}

	golden := "testdata/report.golden.md"
	if *update {
		must(t, os.WriteFile(golden, md, 0o644))
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/report -update to create it)", err)
	}
	if !bytes.Equal(md, want) {
		os.WriteFile(filepath.Join(os.TempDir(), "report.got.md"), md, 0o644)
		t.Errorf("report.md differs from %s; wrote %s; diff them, and if the change is intended run go test ./internal/report -update",
			golden, filepath.Join(os.TempDir(), "report.got.md"))
	}
}

// tableRow finds the row of the Markdown table whose header has column
// headerCol and whose first cell is label, and returns it by column name.
func tableRow(t *testing.T, md, label, headerCol string) map[string]string {
	t.Helper()
	var header []string
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			header = nil
			continue
		}
		cells := splitRow(line)
		if header == nil {
			header = cells
			continue
		}
		if len(cells) != len(header) || cells[0] != label {
			continue
		}
		row := map[string]string{}
		for i, h := range header {
			row[h] = cells[i]
		}
		if _, ok := row[headerCol]; ok {
			return row
		}
	}
	t.Fatalf("report.md has no table row %q under a %q column", label, headerCol)
	return nil
}

func splitRow(line string) []string {
	parts := strings.Split(strings.Trim(line, "|"), " | ")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}
