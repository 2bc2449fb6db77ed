package model

import (
	"reflect"
	"testing"

	"restbench/internal/result"
)

// TestMeasuredTable: one cell per column in every row, a column per matrix
// parameter, and Without drops a column's title and cells together.
func TestMeasuredTable(t *testing.T) {
	ok := func(rps float64) result.Trial {
		return result.Trial{Status: result.StatusOK, Load: &result.Load{Stats: result.Stats{RPS: rps, Requests: 1000}}}
	}
	e := &ExperimentReport{Runs: []*RunReport{
		BuildRun(result.RunInfo{ID: "c/a", Label: "a", Trials: 2, Params: map[string]string{"connections": "10"}, Published: map[string]float64{"rps": 1000}},
			[]result.Trial{ok(900), ok(1100)}),
		BuildRun(result.RunInfo{ID: "c/b", Label: "b", Trials: 2, Params: map[string]string{"connections": "100"}}, nil),
	}}
	full := MeasuredTable(e)
	for i, row := range full.Rows {
		if len(row) != len(full.Columns) {
			t.Fatalf("row %d has %d cells for %d columns", i, len(row), len(full.Columns))
		}
	}
	cell := func(tb Table, row int, title string) string {
		for i, c := range tb.Columns {
			if c.Title == title {
				return tb.Rows[row][i]
			}
		}
		return "(no column " + title + ")"
	}
	tests := []struct {
		name        string
		table       Table
		row         int
		title, want string
	}{
		{"parameter", full, 1, "connections", "100"},
		{"median req/s", full, 0, "req/s", "1000"},
		{"published req/s", full, 0, "published req/s", "1000"},
		{"nothing published", full, 1, "published req/s", "—"},
		{"no trials flagged", full, 1, "flags", "no trials"},
		{"parameter left out", full.Without(ParamColumn), 0, "connections", "(no column connections)"},
		{"cells follow their column", full.Without(ParamColumn, "rps_range"), 0, "published req/s", "1000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cell(tt.table, tt.row, tt.title); got != tt.want {
				t.Errorf("%s of row %d: %q, want %q", tt.title, tt.row, got, tt.want)
			}
		})
	}
	if got, want := full.Without(ParamColumn, "published_rps").Titles()[:3], []string{"run", "trials ok", "req/s"}; !reflect.DeepEqual(got, want) {
		t.Errorf("titles %v, want %v", got, want)
	}
}
