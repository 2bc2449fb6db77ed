package report

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"restbench/internal/metric"
	"restbench/internal/result"
	"restbench/internal/verdict"
)

// chartRef is one drawn chart: File is relative to the report folder,
// without extension (File.png and File.svg both exist).
type chartRef struct {
	Title string
	File  string
}

// chartSet says which charts were drawn for what.
type chartSet struct {
	exp map[*ExperimentReport][]chartRef
	run map[*RunReport][]chartRef
	// forest is the forest plot's file, relative to the report folder
	// (charts/forest.svg); "" when none was written.
	forest string
}

// WriteMarkdown writes report.md: every verdict in one table, the
// environments, then per suite and experiment the verdicts on the published
// conclusions, the measured table, the published figures beside ours,
// failures and charts.
func WriteMarkdown(w io.Writer, suites []*SuiteReport, charts chartSet) error {
	b := &strings.Builder{}
	fmt.Fprintf(b, "# restbench report\n\n")
	fmt.Fprintf(b, "What was learned first, then every claim in one short table with its full reasoning one link away. See docs/report.md for how to read this page.\n\n")
	writeVerdictSummary(b, suites, charts.forest)
	writeEnvs(b, suites)
	fmt.Fprintf(b, "Figures are medians over the successful trials of each run; ranges are min–max over those trials. ")
	fmt.Fprintf(b, "In the tables of published figures, ratios are measured/published.\n\n")
	for _, s := range suites {
		writeSuite(b, s, charts)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeEnvs(b *strings.Builder, suites []*SuiteReport) {
	fmt.Fprintf(b, "## Environment\n\n")
	fmt.Fprintf(b, "| suite | created | host | CPU | cores | OS / kernel | Go | Node | restbench | scale |\n")
	fmt.Fprintf(b, "|---|---|---|---|---:|---|---|---|---|---|\n")
	row := func(s *SuiteReport, where string, e result.Env) {
		fmt.Fprintf(b, "| [%s](#%s)%s | %s | %s | %s | %d | %s | %s | %s | %s | %s |\n",
			cell(s.Suite.Name), anchor(s.Suite.Name), where, envCreated(e), cell(e.Host), cell(e.CPUModel), e.Cores,
			cell(strings.TrimSpace(e.OS+" "+e.Kernel)), cell(e.Go), cell(e.Node), cell(e.Restbench), cell(firstNonEmpty(e.Scale, s.Suite.Scale)))
	}
	for _, s := range suites {
		row(s, "", s.Env)
		for _, m := range suiteMachines(s) {
			row(s, ", runs not run here: `"+m.Dir+"`", m.Env)
		}
	}
	fmt.Fprintf(b, "\n")
	frameworks := map[string]string{}
	for _, s := range suites {
		for k, v := range s.Env.Frameworks {
			frameworks[k] = v
		}
	}
	if len(frameworks) > 0 {
		var ids []string
		for k := range frameworks {
			ids = append(ids, k)
		}
		sort.Strings(ids)
		fmt.Fprintf(b, "Frameworks: ")
		for i, id := range ids {
			if i > 0 {
				fmt.Fprintf(b, ", ")
			}
			fmt.Fprintf(b, "%s = %s", id, frameworks[id])
		}
		fmt.Fprintf(b, "\n\n")
	}
	// The pinned runtimes the servers ran on, as each binary printed its
	// version, with the flags and variables servers/runtimes.yaml adds on
	// each: they change what a server does as much as the version.
	rts := map[string]string{}
	for _, s := range suites {
		for name, rt := range s.Env.Runtimes {
			added := slices.Clone(rt.Flags)
			for _, k := range slices.Sorted(maps.Keys(rt.Env)) {
				added = append(added, k+"="+rt.Env[k])
			}
			rts[name] = rt.Version
			if len(added) > 0 {
				rts[name] += " (" + strings.Join(added, " ") + ")"
			}
		}
	}
	if len(rts) > 0 {
		var parts []string
		for _, name := range slices.Sorted(maps.Keys(rts)) {
			parts = append(parts, name+" = "+rts[name])
		}
		fmt.Fprintf(b, "Runtimes: %s\n\n", strings.Join(parts, ", "))
	}
	writeRuntimeFlags(b, suites)
}

func envCreated(e result.Env) string {
	if e.Created.IsZero() {
		return "unknown"
	}
	return e.Created.UTC().Format("2006-01-02 15:04 UTC")
}

func writeSuite(b *strings.Builder, s *SuiteReport, charts chartSet) {
	fmt.Fprintf(b, "<a id=\"%s\"></a>\n\n## %s\n\n", anchor(s.Suite.Name), cell(firstNonEmpty(s.Suite.Title, s.Suite.Name)))
	if s.Suite.Source != "" {
		fmt.Fprintf(b, "Source: %s  \n", s.Suite.Source)
	}
	fmt.Fprintf(b, "Results: `%s`", s.Dir)
	if s.Env.Command != "" {
		fmt.Fprintf(b, "  \nCommand: `%s`", s.Env.Command)
	}
	fmt.Fprintf(b, "\n\n")
	for _, e := range s.Experiments {
		writeExperiment(b, s, e, charts)
	}
}

func writeExperiment(b *strings.Builder, s *SuiteReport, e *ExperimentReport, charts chartSet) {
	fmt.Fprintf(b, "### %s\n\n", cell(firstNonEmpty(e.Experiment.Title, e.Experiment.Name)))
	if e.Experiment.Description != "" {
		fmt.Fprintf(b, "%s\n\n", strings.TrimSpace(e.Experiment.Description))
	}
	writeVerdicts(b, s, e)
	writeMeasured(b, e)
	writeCost(b, e)
	writeRuntime(b, e)
	writeMachines(b, e)
	writeAccounting(b, e)
	writeCalibration(b, e)
	writePublished(b, e)
	writeTargets(b, e)
	writeFailures(b, e)
	writeNotRun(b, e)
	for _, c := range charts.exp[e] {
		fmt.Fprintf(b, "![%s](%s.png)\n\n", c.Title, c.File)
	}
	if len(charts.exp[e]) > 0 {
		writeMachines(b, e) // the charts show those runs too
	}
	var perRun []string
	for _, r := range e.Runs {
		for _, c := range charts.run[r] {
			perRun = append(perRun, fmt.Sprintf("![%s](%s.png)\n", c.Title, c.File))
		}
	}
	if len(perRun) > 0 {
		fmt.Fprintf(b, "<details><summary>Per-run charts (%d)</summary>\n\n%s\n</details>\n\n", len(perRun), strings.Join(perRun, "\n"))
	}
}

func writeMeasured(b *strings.Builder, e *ExperimentReport) {
	params := paramNames(e)
	fmt.Fprintf(b, "| run |")
	for _, p := range params {
		fmt.Fprintf(b, " %s |", cell(p))
	}
	fmt.Fprintf(b, " trials ok | req/s | req/s min–max | mean ms | stdev ms | p50 ms | p99 ms | max ms | errors | server CPU %% | RSS MiB | flags |\n|---|")
	for range params {
		fmt.Fprintf(b, "---|")
	}
	fmt.Fprintf(b, "---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
	for _, r := range e.Runs {
		m := r.Measured
		fmt.Fprintf(b, "| %s |", cell(r.label()))
		for _, p := range params {
			fmt.Fprintf(b, " %s |", cell(r.Info.Params[p]))
		}
		fmt.Fprintf(b, " %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			r.trialsCell(), med(m["rps"]), rng(m["rps"]), med(m["latency_mean_ms"]), med(m["latency_stdev_ms"]),
			med(m["p50_ms"]), med(m["p99_ms"]), med(m["latency_max_ms"]), med(m["errors"]),
			med(m["cpu_pct"]), med(m["rss_mb"]), flagsCell(r))
	}
	fmt.Fprintf(b, "\n")
}

func writePublished(b *strings.Builder, e *ExperimentReport) {
	n := 0
	for _, r := range e.Runs {
		n += len(r.Figures)
	}
	if n == 0 {
		return
	}
	fmt.Fprintf(b, "Published beside measured:\n\n")
	writeRunNotes(b, e)
	fmt.Fprintf(b, "| run | metric | published | measured | min–max | measured/published |\n|---|---|---:|---:|---:|---:|\n")
	for _, r := range e.Runs {
		for _, f := range r.Figures {
			rt := "—"
			if f.Ratio() != 0 {
				rt = ratio(f.Ratio())
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", cell(r.label()), cell(publishedMetricLabel(r.Info, f.Key)), num(f.Published), med(f.Measured), rng(f.Measured), rt)
		}
	}
	fmt.Fprintf(b, "\n")
	writePublishedChecks(b, e)
}

// writePublishedChecks checks every published row by the model of the load
// that measured it (verdict.CheckPublished), as the load accounting checks
// ours: Little's law for a closed loop, achieved ≤ offered and the backlog
// for an open one.
func writePublishedChecks(b *strings.Builder, e *ExperimentReport) {
	rows := publishedCheckRows(e)
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(b, "%s\n\n", publishedChecksIntro)
	fmt.Fprintf(b, "| %s |\n|---|---|---:|---:|---:|---:|---:|---|\n", strings.Join(publishedChecksHeader, " | "))
	for _, row := range rows {
		for i := range row {
			row[i] = cell(row[i])
		}
		if strings.HasPrefix(row[len(row)-1], verdict.RowMeanOff) || strings.HasPrefix(row[len(row)-1], verdict.RowAboveRate) {
			row[len(row)-1] = "**" + strings.Replace(row[len(row)-1], ":", ":**", 1)
		}
		fmt.Fprintf(b, "| %s |\n", strings.Join(row, " | "))
	}
	fmt.Fprintf(b, "\n")
}

// writeTargets shows each target of a mix and the probe on their own: the
// point of a mix is that one endpoint's cost shows in another's latency.
func writeTargets(b *strings.Builder, e *ExperimentReport) {
	header := false
	for _, r := range e.Runs {
		for _, name := range r.streams() {
			if !header {
				fmt.Fprintf(b, "Per target and probe:\n\n| run | target | req/s | mean ms | p50 ms | p99 ms | max ms | errors |\n|---|---|---:|---:|---:|---:|---:|---:|\n")
				header = true
			}
			get := func(key string) metric.Spread {
				var vs []float64
				for _, m := range r.OK {
					if s := m.stream(name); s != nil {
						if v, ok := metric.StatsValue(s, nil, key); ok {
							vs = append(vs, v)
						}
					}
				}
				return metric.SpreadOf(vs)
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", cell(r.label()), cell(name), med(get("rps")), med(get("mean_ms")),
				med(get("p50_ms")), med(get("p99_ms")), med(get("max_ms")), med(get("errors")))
		}
	}
	if header {
		fmt.Fprintf(b, "\n")
	}
}

func writeFailures(b *strings.Builder, e *ExperimentReport) {
	for _, r := range e.Runs {
		for _, t := range r.Trials {
			if t.Status != result.StatusFailed && t.Load != nil || notRun(t) {
				continue
			}
			msg := firstNonEmpty(t.Error, "no load result")
			fmt.Fprintf(b, "> **%s trial %d failed:** %s\n", cell(r.label()), t.Trial, oneLine(msg))
			if tail := strings.TrimSpace(t.StderrTail); tail != "" {
				fmt.Fprintf(b, ">\n> ```\n")
				for _, l := range lastLines(tail, 5) {
					fmt.Fprintf(b, "> %s\n", l)
				}
				fmt.Fprintf(b, "> ```\n")
			}
			fmt.Fprintf(b, "\n")
		}
	}
}

func flagsCell(r *RunReport) string {
	var fs []string
	if note := placementNote(r); note != "" {
		fs = append(fs, note)
	}
	for _, f := range r.Flags {
		if f == result.FlagFailed {
			f = fmt.Sprintf("failed %d/%d", r.failedCount(), len(r.Trials))
		}
		fs = append(fs, f)
	}
	if len(r.Trials) == 0 {
		fs = append(fs, "no trials")
	}
	fs = append(fs, notRunReasons(r)...)
	return cell(strings.Join(fs, ", "))
}

// paramNames are the matrix parameters of an experiment, as table columns.
func paramNames(e *ExperimentReport) []string {
	seen := map[string]bool{}
	var names []string
	for _, r := range e.Runs {
		for k := range r.Info.Params {
			if !seen[k] && k != "impl" { // the run's label names the implementation
				seen[k] = true
				names = append(names, k)
			}
		}
	}
	sort.Strings(names)
	return names
}

// num prints a figure with the precision a reader can use: whole numbers
// from 100 up, three significant digits below.
func num(v float64) string {
	a := math.Abs(v)
	switch {
	case v == 0:
		return "0"
	case a >= 10000:
		return metric.Thousands(v)
	case a >= 100:
		return fmt.Sprintf("%.0f", v)
	case a >= 10:
		return fmt.Sprintf("%.1f", v)
	case a >= 1:
		return fmt.Sprintf("%.2f", v)
	default:
		return fmt.Sprintf("%.3g", v)
	}
}

func ratio(v float64) string { return fmt.Sprintf("%.2f×", v) }

func med(s metric.Spread) string {
	if s.N == 0 {
		return "—"
	}
	return num(s.Median)
}

func rng(s metric.Spread) string {
	if s.N == 0 {
		return "—"
	}
	return num(s.Min) + "–" + num(s.Max)
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", "\\|", "\n", " ").Replace(s)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func lastLines(s string, n int) []string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}

func anchor(s string) string {
	return "suite-" + slug(s)
}

// slug makes a name safe as a file name or HTML id.
func slug(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, s)
	for strings.Contains(s, "--") {
		s = strings.ReplaceAll(s, "--", "-")
	}
	return strings.Trim(s, "-")
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
