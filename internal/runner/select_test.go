package runner

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"restbench/internal/result"
	"restbench/internal/suite"
)

func TestSelectRuns(t *testing.T) {
	runs := []suite.Run{{ID: "quota-1cpu/node-http"}, {ID: "quota-1cpu/go-nethttp GOMAXPROCS=1"}, {ID: "all-cores/node-http THREADS=cores"}}
	for _, c := range []struct {
		pattern string
		want    []string
	}{
		{"", []string{"quota-1cpu/node-http", "quota-1cpu/go-nethttp GOMAXPROCS=1", "all-cores/node-http THREADS=cores"}},
		{"quota*", []string{"quota-1cpu/node-http", "quota-1cpu/go-nethttp GOMAXPROCS=1"}},
		{"*/node-http*", []string{"quota-1cpu/node-http", "all-cores/node-http THREADS=cores"}},
		{"node-http*", []string{"quota-1cpu/node-http", "all-cores/node-http THREADS=cores"}},
		{"GOMAXPROCS=1", []string{"quota-1cpu/go-nethttp GOMAXPROCS=1"}},
		{"nothing", nil},
	} {
		got, err := Select(runs, c.pattern)
		var ids []string
		for _, r := range got {
			ids = append(ids, r.ID)
		}
		if !slices.Equal(ids, c.want) {
			t.Errorf("--only %q selects %q, want %q", c.pattern, ids, c.want)
		}
		if c.want == nil && (err == nil || !strings.Contains(err.Error(), "quota-1cpu/node-http")) {
			t.Errorf("--only %q: err = %v, want the list of runs", c.pattern, err)
		}
	}
}

// TestSelectNoneIsShort: --only matching none of 10,000 runs names a few
// and the count, not every id on one line.
func TestSelectNoneIsShort(t *testing.T) {
	runs := make([]suite.Run, 10000)
	for i := range runs {
		runs[i].ID = fmt.Sprintf("e/go-nethttp c=%d", i)
	}
	_, err := Select(runs, "nomatch")
	if err == nil || len(err.Error()) > 300 || !strings.Contains(err.Error(), "none of the 10000 runs") ||
		!strings.Contains(err.Error(), "e/go-nethttp c=0") || !strings.Contains(err.Error(), "and 9995 more") {
		t.Errorf("error (%d bytes) = %.400v, want a few ids and the count", len(err.Error()), err)
	}
}

func TestPlace(t *testing.T) {
	for _, c := range []struct {
		name            string
		run             suite.Run
		allowed         []int
		server, client  []int
		pinned, flagged bool
		err             bool
	}{
		{"two cores", suite.Run{Pinned: true}, []int{0, 1}, []int{0}, []int{1}, true, false, false},
		{"four cores", suite.Run{Pinned: true}, []int{0, 1, 2, 3}, []int{0, 1, 2}, []int{3}, true, false, false},
		{"cpuset 2,5", suite.Run{Pinned: true}, []int{2, 5}, []int{2}, []int{5}, true, false, false},
		{"one core", suite.Run{Pinned: true}, []int{0}, []int{0}, []int{0}, false, true, false},
		{"unpinned as published", suite.Run{Pinned: false}, []int{0, 1}, []int{0, 1}, []int{0, 1}, false, true, false},
		{"explicit", suite.Run{Pinned: true, ServerCPUs: "1", ClientCPUs: "0"}, []int{0, 1}, []int{1}, []int{0}, true, false, false},
		{"explicit overlap", suite.Run{Pinned: true, ServerCPUs: "0-1", ClientCPUs: "1"}, []int{0, 1}, []int{0, 1}, []int{1}, false, true, false},
		{"explicit CPU not usable", suite.Run{ServerCPUs: "7"}, []int{0, 1}, nil, nil, false, false, true},
		{"server cores", suite.Run{Pinned: true, ServerCores: 2}, []int{0, 1, 2, 3}, []int{0, 1}, []int{2, 3}, true, false, false},
		{"server cores, none left", suite.Run{Pinned: true, ServerCores: 2}, []int{0, 1}, nil, nil, false, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := place(c.run, c.allowed)
			if c.err {
				if err == nil {
					t.Fatalf("placement %+v accepted", p)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(p.server, c.server) || !slices.Equal(p.client, c.client) || p.pinned != c.pinned ||
				slices.Contains(p.flags, result.FlagUnpinned) != c.flagged {
				t.Errorf("got %+v, want server %v client %v pinned %v unpinned-flag %v", p, c.server, c.client, c.pinned, c.flagged)
			}
		})
	}
}
