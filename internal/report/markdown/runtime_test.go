package markdown

import (
	"strings"
	"testing"

	"restbench/internal/report/chart"
	"restbench/internal/report/model"
	"restbench/internal/result"
)

func TestRuntimeQuoteAndChart(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	trial := func(rs ...result.RuntimeSample) result.Trial {
		return result.Trial{Run: "r", Trial: 1, Status: result.StatusOK, Load: &result.Load{},
			Monitor: &result.Monitor{Samples: []result.Sample{{T: 0.25}, {T: 0.5}}, Runtime: rs}}
	}
	node := trial(
		result.RuntimeSample{T: 0.25, EventLoopDelayP99MS: f(3), GC: map[string]result.GCKind{"minor": {Count: 1, TotalMS: 2}}},
		result.RuntimeSample{T: 0.5, EventLoopDelayP99MS: f(41.5), GC: map[string]result.GCKind{"minor": {Count: 4, TotalMS: 9}, "major": {Count: 1, TotalMS: 20}}},
	)
	goTrial := trial(
		result.RuntimeSample{T: 0.25, SchedLatencyP99MS: f(0.08), GCCPUS: f(0.010)},
		result.RuntimeSample{T: 0.5, SchedLatencyP99MS: f(0.33), GCCPUS: f(0.0125)},
	)
	// Today's results: one reading at the end of the load (monitor.ReadRuntime),
	// its GC totals counted from the server's first answer.
	nodeOnce := trial(result.RuntimeSample{T: 2.1, EventLoopDelayP99MS: f(50.5), GC: map[string]result.GCKind{"minor": {Count: 9, TotalMS: 4.5}}})
	goOnce := trial(result.RuntimeSample{T: 2.1, SchedLatencyP99MS: f(0.5), GCCPUS: f(0.004)})
	e := &model.ExperimentReport{Runs: []*model.RunReport{
		model.BuildRun(result.RunInfo{ID: "node", Label: "node-express"}, []result.Trial{node}),
		model.BuildRun(result.RunInfo{ID: "go", Label: "go-gorilla"}, []result.Trial{goTrial}),
		model.BuildRun(result.RunInfo{ID: "old", Label: "from before"}, []result.Trial{trial()}),
		model.BuildRun(result.RunInfo{ID: "node1", Label: "node-fastify"}, []result.Trial{nodeOnce}),
		model.BuildRun(result.RunInfo{ID: "go1", Label: "go-fasthttp"}, []result.Trial{goOnce}),
	}}
	var b strings.Builder
	writeRuntime(&b, e)
	out := b.String()
	for _, want := range []string{
		"- node-express: the event loop was blocked up to p99 41.5 ms over one reading (they come every 250 ms); GC paused it 27.0 ms in all",
		"- go-gorilla: Go's goroutines waited to be scheduled up to p99 0.33 ms over one reading (they come every 250 ms); GC used 2.50 ms of CPU",
		"- node-fastify: the event loop was blocked up to p99 50.5 ms over the trial's load (one reading at its end); GC paused it 4.50 ms in all",
		"- go-fasthttp: Go's goroutines waited to be scheduled up to p99 0.5 ms over the trial's load (one reading at its end); GC used 4.00 ms of CPU",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("runtime quote lacks\n%s\nin\n%s", want, out)
		}
	}
	if strings.Contains(out, "from before") {
		t.Errorf("a run without readings is quoted:\n%s", out)
	}
	c := chart.RuntimeChart(e, "x")
	// One reading draws no line: the single-reading runs are left out.
	if len(c.Series) != 2 || len(c.Series[0].Points) != 2 || c.Series[0].Points[1].Y != 41.5 || c.Series[1].Points[1].Y != 0.33 {
		t.Errorf("chart %+v", c.Series)
	}
}
