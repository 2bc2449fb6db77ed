package report

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"restbench/internal/report/chart"
	"restbench/internal/report/compare"
	"restbench/internal/report/html"
	"restbench/internal/report/markdown"
	"restbench/internal/report/model"
	"restbench/internal/result"
)

// FuzzResults feeds report's reader a results folder whose trial file is
// the input (seeded with the mini folder's real trials): whatever it holds,
// Load, Build, the charts, the Markdown and the comparison return or say
// what is wrong; none panics.
func FuzzResults(f *testing.F) {
	src := filepath.Join("testdata", "results", "mini", "20260101-120000")
	suiteJSON, err := os.ReadFile(filepath.Join(src, result.SuiteFile))
	if err != nil {
		f.Fatal(err)
	}
	trials, _ := filepath.Glob(filepath.Join(src, "*.t*.json"))
	for _, p := range trials {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"suite":"mini","run":"connections/go-nethttp c=10","trial":1,"status":"ok","load":{}}`))
	f.Fuzz(func(t *testing.T, trial []byte) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, result.SuiteFile), suiteJSON, 0o644)
		os.WriteFile(filepath.Join(dir, "x.t1.json"), trial, 0o644)
		r, err := model.Load(dir)
		if err != nil {
			return
		}
		suites := []*model.SuiteReport{model.Build(r)}
		var md bytes.Buffer
		markdown.Write(&md, suites, chart.Drawn{})
		html.Write(&md, suites, chart.Build(suites))
		compare.Compare([]*model.Results{r}, []*model.Results{r})
	})
}
