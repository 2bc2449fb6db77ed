package summary

import (
	"strings"
	"testing"

	"restbench/internal/report/model"
	"restbench/internal/result"
)

// TestCrossCheck: a claim graded on restbench's runs says so beside its
// verdict when ab, on runs of the same cells, measured a ratio beyond the
// noise floor, and says nothing when ab agrees or measured other cells.
func TestCrossCheck(t *testing.T) {
	tests := []struct {
		name          string
		ours, ab      [2]float64 // rps of go and node: restbench, ab
		abConnections int        // the ab cells' connections (1000: the same cells)
		want          string     // in the verdict's Disagrees; "" for none
	}{
		{"ab disagrees", [2]float64{30400, 7771}, [2]float64{26760, 13188}, 1000, "ab measured 2.03× (2.03–2.03) on the same cells, beyond the noise floor of ±5 %"},
		{"ab agrees within the floor", [2]float64{26400, 13188}, [2]float64{26760, 13188}, 1000, ""},
		{"other cells are no twins", [2]float64{30400, 7771}, [2]float64{26760, 13188}, 100, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &model.Results{Suite: result.Suite{Name: "sum"}, Trials: map[string][]result.Trial{}}
			add := func(exp, impl, engine string, conns int, rps float64) string {
				id := exp + "/" + impl
				for k := 1; k <= 5; k++ {
					// The rounds wobble together: a paired ratio cancels it.
					x := 1 + 0.01*float64(k)
					r.Trials[id] = append(r.Trials[id], result.Trial{Run: id, Trial: k, Round: k, Status: result.StatusOK,
						Env: map[string]string{"THREADS": "1"},
						Load: &result.Load{Stats: result.Stats{RPS: rps * x, Requests: 50000}, Settings: result.Settings{
							Engine: engine, URL: "http://127.0.0.1:4000/sum", Method: "POST", BodyBytes: 16, Connections: conns, MaxRequests: 50000}}})
				}
				return id
			}
			sum := result.Experiment{Name: "sum", Conclusions: []result.Conclusion{{Text: "Go about 2x", Metric: "rps", Claim: result.ClaimBand, Low: 1.6, High: 2.5,
				A: add("sum", "go-chi", "restbench", 1000, tt.ours[0]), B: add("sum", "node-express", "restbench", 1000, tt.ours[1])}}}
			ab := result.Experiment{Name: "sum-ab"}
			add("sum-ab", "go-chi", "ab", tt.abConnections, tt.ab[0])
			add("sum-ab", "node-express", "ab", tt.abConnections, tt.ab[1])
			for _, e := range []*result.Experiment{&sum, &ab} {
				for _, impl := range []string{"go-chi", "node-express"} {
					e.Runs = append(e.Runs, result.RunInfo{ID: e.Name + "/" + impl, Impl: impl, Label: impl, Trials: 5})
				}
				r.Suite.Experiments = append(r.Suite.Experiments, *e)
			}
			v := model.Build(r).Experiments[0].Verdicts[0]
			if v.Disagrees != tt.want {
				t.Errorf("disagrees %q, want %q", v.Disagrees, tt.want)
			}
			if cell := OutcomeCell(v); tt.want != "" && !strings.Contains(cell, tt.want) {
				t.Errorf("outcome cell %q does not say %q", cell, tt.want)
			}
		})
	}
}
