package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// Written lists what Write produced, for the command to print.
type Written struct {
	Markdown, HTML string
	Charts         int
	Suites         []string
}

// Write renders the report of every results folder that dir names (see
// Find) into out: report.md, charts/*.png and *.svg, report.html.
func Write(dir, out string) (*Written, error) {
	all, err := LoadAll(dir)
	if err != nil {
		return nil, err
	}
	return WriteResults(all, out)
}

// WriteResults renders already loaded results into out.
func WriteResults(all []*Results, out string) (*Written, error) {
	var suites []*SuiteReport
	w := &Written{Markdown: filepath.Join(out, "report.md"), HTML: filepath.Join(out, "report.html")}
	for _, r := range all {
		suites = append(suites, Build(r))
		w.Suites = append(w.Suites, r.Suite.Name)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("create report folder: %w", err)
	}
	cs := BuildCharts(suites)
	set, err := drawCharts(out, suites, cs)
	if err != nil {
		return nil, err
	}
	for _, refs := range set.exp {
		w.Charts += len(refs)
	}
	for _, refs := range set.run {
		w.Charts += len(refs)
	}
	var md, page bytes.Buffer
	if err := WriteMarkdown(&md, suites, set); err != nil {
		return nil, err
	}
	if err := WriteHTML(&page, suites, cs); err != nil {
		return nil, err
	}
	if err := os.WriteFile(w.Markdown, md.Bytes(), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(w.HTML, page.Bytes(), 0o644); err != nil {
		return nil, err
	}
	return w, nil
}
