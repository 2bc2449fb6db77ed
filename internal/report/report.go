// Package report writes the report of results folders (report.md, PNG and SVG
// charts, report.html) from the model through its renderers.
package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"restbench/internal/report/chart"
	"restbench/internal/report/html"
	"restbench/internal/report/markdown"
	"restbench/internal/report/model"
	"restbench/internal/report/summary"
	"restbench/internal/result"
)

// Written lists what Write produced, for the command to print.
type Written struct {
	Markdown, HTML string
	Charts         int
	Suites         []string
	// LeftOut names the trial files that were not reported, and why
	// (Results.LeftOut).
	LeftOut []string
}

// Write renders the report of every results folder that dir names (see
// Find) into out: report.md, charts/*.png and *.svg, report.html. Each
// folder of with (found the same way) is another machine's results: the
// runs dir's machine did not run take their trials from it (see Borrow).
func Write(dir, out string, with ...string) (*Written, error) {
	all, err := model.LoadAll(dir)
	if err != nil {
		return nil, err
	}
	for _, w := range with {
		others, err := model.LoadAll(w)
		if err != nil {
			return nil, fmt.Errorf("--with %s: %w", w, err)
		}
		model.Borrow(all, others)
	}
	return WriteResults(all, out)
}

// WriteResults renders already loaded results into out.
func WriteResults(all []*model.Results, out string) (*Written, error) {
	var suites []*model.SuiteReport
	w := &Written{Markdown: filepath.Join(out, "report.md"), HTML: filepath.Join(out, "report.html")}
	for _, r := range all {
		suites = append(suites, model.Build(r))
		w.Suites = append(w.Suites, r.Suite.Name)
		w.LeftOut = append(w.LeftOut, r.LeftOut...)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("create report folder: %w", err)
	}
	cs := chart.Build(suites)
	set, err := chart.Draw(out, suites, cs)
	if err != nil {
		return nil, err
	}
	if rows, _ := summary.ForestRows(summary.Rows(suites)); len(rows) > 0 {
		set.Forest = "charts/forest.svg"
		if err := os.WriteFile(filepath.Join(out, set.Forest), []byte(chart.ForestSVG(rows)), 0o644); err != nil {
			return nil, err
		}
	}
	for _, refs := range set.Exp {
		w.Charts += len(refs)
	}
	for _, refs := range set.Run {
		w.Charts += len(refs)
	}
	var md, page bytes.Buffer
	if err := markdown.Write(&md, suites, set); err != nil {
		return nil, err
	}
	if err := html.Write(&page, suites, cs); err != nil {
		return nil, err
	}
	if err := result.WriteFile(w.Markdown, md.Bytes()); err != nil {
		return nil, err
	}
	if err := result.WriteFile(w.HTML, page.Bytes()); err != nil {
		return nil, err
	}
	return w, nil
}
