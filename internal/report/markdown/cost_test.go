package markdown

import (
	"strings"
	"testing"

	"restbench/internal/report/model"
	"restbench/internal/result"
)

func TestCostTable(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	trial := func(n int, okRPS, cpu float64, per, idle *float64) result.Trial {
		return result.Trial{Run: "r", Trial: n, Status: result.StatusOK, Load: &result.Load{Stats: result.Stats{OKRPS: okRPS}},
			Monitor: &result.Monitor{ServerCPUMean: cpu, CPUPerResponseUS: per, IdleCPU: idle, IdleMS: 250}}
	}
	e := &model.ExperimentReport{Runs: []*model.RunReport{
		model.BuildRun(result.RunInfo{ID: "go", Label: "go-nethttp"}, []result.Trial{
			trial(1, 20000, 100, f(50), f(0.1)), trial(2, 21000, 100, f(48), f(0.3)), trial(3, 19000, 99, f(52), f(0.2))}),
		model.BuildRun(result.RunInfo{ID: "node", Label: "node-http"}, []result.Trial{trial(1, 9000, 100, f(111), f(1.5))}),
		model.BuildRun(result.RunInfo{ID: "old", Label: "from before"}, []result.Trial{trial(1, 5000, 90, nil, nil)}),
	}}
	var b strings.Builder
	writeCost(&b, e)
	out := b.String()
	for _, want := range []string{
		"| run | ok req/s | server CPU % of a core | CPU µs per response | min–max | idle CPU % of a core |",
		"| go-nethttp | 20,000 | 100 | 50.0 | 48.0–52.0 | 0.2 |",
		"| node-http | 9000 | 100 | 111 | 111–111 | 1.50 |",
		"| from before | 5000 | 90.0 | — | — | — |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("cost table lacks\n%s\n in\n%s", want, out)
		}
	}
	b.Reset()
	writeCost(&b, &model.ExperimentReport{Runs: e.Runs[2:]})
	if b.Len() != 0 {
		t.Errorf("an experiment without CPU per response got a table:\n%s", b.String())
	}
}
