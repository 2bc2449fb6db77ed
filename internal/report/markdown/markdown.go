// Package markdown renders report.md: the verdicts, the environments and, per
// experiment, its tables and links to its charts.
package markdown

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	"restbench/internal/metric"
	"restbench/internal/report/chart"
	"restbench/internal/report/model"
	"restbench/internal/result"
	"restbench/internal/verdict"
)

// Write writes report.md: every verdict in one table, the
// environments, then per suite and experiment the verdicts on the published
// conclusions, the measured table, the published figures beside ours,
// failures and charts.
func Write(w io.Writer, suites []*model.SuiteReport, charts chart.Drawn) error {
	b := &strings.Builder{}
	fmt.Fprintf(b, "# restbench report\n\n")
	fmt.Fprintf(b, "What was learned first, then every claim in one short table with its full reasoning one link away. See docs/report.md for how to read this page.\n\n")
	writeVerdictSummary(b, suites, charts.Forest)
	writeEnvs(b, suites)
	fmt.Fprintf(b, "Figures are medians over the successful trials of each run; ranges are min–max over those trials. ")
	fmt.Fprintf(b, "In the tables of published figures, ratios are measured/published.\n\n")
	for _, s := range suites {
		writeSuite(b, s, charts)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeEnvs(b *strings.Builder, suites []*model.SuiteReport) {
	fmt.Fprintf(b, "## Environment\n\n")
	fmt.Fprintf(b, "| suite | created | host | CPU | cores | OS / kernel | idle states | Go | Node | restbench | scale |\n")
	fmt.Fprintf(b, "|---|---|---|---|---:|---|---|---|---|---|---|\n")
	row := func(s *model.SuiteReport, where string, e result.Env) {
		fmt.Fprintf(b, "| [%s](#%s)%s | %s | %s | %s | %d | %s | %s | %s | %s | %s | %s |\n",
			model.Cell(s.Suite.Name), model.Anchor(s.Suite.Name), where, envCreated(e), model.Cell(e.Host), model.Cell(e.CPUModel), e.Cores,
			model.Cell(strings.TrimSpace(e.OS+" "+e.Kernel)), model.Cell(model.FirstNonEmpty(e.Idle, "not recorded")), model.Cell(e.Go), model.Cell(e.Node), model.Cell(e.Restbench), model.Cell(model.FirstNonEmpty(e.Scale, s.Suite.Scale)))
	}
	for _, s := range suites {
		row(s, "", s.Env)
		for _, m := range model.SuiteMachines(s) {
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

func writeSuite(b *strings.Builder, s *model.SuiteReport, charts chart.Drawn) {
	fmt.Fprintf(b, "<a id=\"%s\"></a>\n\n## %s\n\n", model.Anchor(s.Suite.Name), model.Cell(model.FirstNonEmpty(s.Suite.Title, s.Suite.Name)))
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

func writeExperiment(b *strings.Builder, s *model.SuiteReport, e *model.ExperimentReport, charts chart.Drawn) {
	fmt.Fprintf(b, "### %s\n\n", model.Cell(model.FirstNonEmpty(e.Experiment.Title, e.Experiment.Name)))
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
	for _, c := range charts.Exp[e] {
		fmt.Fprintf(b, "![%s](%s.png)\n\n", c.Title, c.File)
	}
	if len(charts.Exp[e]) > 0 {
		writeMachines(b, e) // the charts show those runs too
	}
	var perRun []string
	for _, r := range e.Runs {
		for _, c := range charts.Run[r] {
			perRun = append(perRun, fmt.Sprintf("![%s](%s.png)\n", c.Title, c.File))
		}
	}
	if len(perRun) > 0 {
		fmt.Fprintf(b, "<details><summary>Per-run charts (%d)</summary>\n\n%s\n</details>\n\n", len(perRun), strings.Join(perRun, "\n"))
	}
}

// writeMeasured writes the measured table; the published req/s are left
// to the published table that follows it.
func writeMeasured(b *strings.Builder, e *model.ExperimentReport) {
	writeColumns(b, model.MeasuredTable(e).Without("published_rps"))
}

func writePublished(b *strings.Builder, e *model.ExperimentReport) {
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
				rt = model.Ratio(f.Ratio())
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", model.Cell(r.Label()), model.Cell(model.PublishedMetricLabel(r.Info, f.Key)), model.Num(f.Published), model.Med(f.Measured), model.Rng(f.Measured), rt)
		}
	}
	fmt.Fprintf(b, "\n")
	writePublishedChecks(b, e)
}

// writePublishedChecks checks every published row by the model of the load
// that measured it (verdict.CheckPublished), as the load accounting checks
// ours: Little's law for a closed loop, achieved ≤ offered and the backlog
// for an open one.
func writePublishedChecks(b *strings.Builder, e *model.ExperimentReport) {
	rows := model.PublishedCheckRows(e)
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(b, "%s\n\n", model.PublishedChecksIntro)
	fmt.Fprintf(b, "| %s |\n|---|---|---:|---:|---:|---:|---:|---|\n", strings.Join(model.PublishedChecksHeader, " | "))
	for _, row := range rows {
		for i := range row {
			row[i] = model.Cell(row[i])
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
func writeTargets(b *strings.Builder, e *model.ExperimentReport) {
	header := false
	for _, r := range e.Runs {
		for _, name := range r.Streams() {
			if !header {
				fmt.Fprintf(b, "Per target and probe:\n\n| run | target | req/s | mean ms | p50 ms | p99 ms | max ms | errors |\n|---|---|---:|---:|---:|---:|---:|---:|\n")
				header = true
			}
			get := func(key string) metric.Spread {
				var vs []float64
				for _, m := range r.OK {
					if s := m.Stream(name); s != nil {
						if v, ok := metric.StatsValue(s, nil, key); ok {
							vs = append(vs, v)
						}
					}
				}
				return metric.SpreadOf(vs)
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", model.Cell(r.Label()), model.Cell(name), model.Med(get("rps")), model.Med(get("mean_ms")),
				model.Med(get("p50_ms")), model.Med(get("p99_ms")), model.Med(get("max_ms")), model.Med(get("errors")))
		}
	}
	if header {
		fmt.Fprintf(b, "\n")
	}
}

func writeFailures(b *strings.Builder, e *model.ExperimentReport) {
	for _, r := range e.Runs {
		for _, t := range r.Trials {
			if t.Status != result.StatusFailed && t.Load != nil || model.TrialNotRun(t) {
				continue
			}
			msg := model.FirstNonEmpty(t.Error, "no load result")
			fmt.Fprintf(b, "> **%s trial %d failed:** %s\n", model.Cell(r.Label()), t.Trial, model.OneLine(msg))
			if tail := strings.TrimSpace(t.StderrTail); tail != "" {
				fmt.Fprintf(b, ">\n> ```\n")
				for _, l := range model.LastLines(tail, 5) {
					fmt.Fprintf(b, "> %s\n", l)
				}
				fmt.Fprintf(b, "> ```\n")
			}
			fmt.Fprintf(b, "\n")
		}
	}
}
