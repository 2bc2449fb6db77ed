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

func TestServerCores(t *testing.T) {
	eight := []int{0, 1, 2, 3, 4, 5, 6, 7}
	for _, c := range []struct {
		name  string
		run   suite.Run
		n     int
		cores int    // the run's ServerCores afterwards
		why   string // a prefix of why it is not run, or ""
	}{
		{"off", suite.Run{Pinned: true}, 0, 0, ""},
		{"pinned, no threads asked", suite.Run{Pinned: true}, 4, 4, ""},
		{"one thread on four", suite.Run{Pinned: true, Env: map[string]string{"THREADS": "1"}}, 4, 4, ""},
		{"four threads on four", suite.Run{Pinned: true, Env: map[string]string{"GOMAXPROCS": "4"}}, 4, 4, ""},
		{"eight threads on four", suite.Run{Pinned: true, Env: map[string]string{"THREADS": "8"}}, 4, 0, "not run here: needs 8 cores for the server (run --server-cores 4)"},
		{"a quota of two on four", suite.Run{Pinned: true, Quota: 2}, 4, 4, ""},
		{"unpinned shares the first four", suite.Run{}, 4, 0, ""},
		{"unpinned, four threads", suite.Run{Env: map[string]string{"GOMAXPROCS": "4"}}, 4, 0, ""},
		{"unpinned, more than the machine", suite.Run{}, 9, 0, "not run here: needs 9 cores (8 usable; run --server-cores 9)"},
		{"its own cores", suite.Run{Pinned: true, ServerCores: 6}, 4, 6, ""},
		{"its own lists", suite.Run{Pinned: true, ServerCPUs: "0", ClientCPUs: "1"}, 4, 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			run, why := serverCores(c.run, c.n, eight)
			if run.ServerCores != c.cores || why != c.why {
				t.Errorf("serverCores(%d) = cores %d, %q; want %d, %q", c.n, run.ServerCores, why, c.cores, c.why)
			}
		})
	}
	// Placed: the server on the first n, the generator on the rest.
	run, _ := serverCores(suite.Run{Pinned: true}, 4, eight)
	p, err := place(run, eight)
	if err != nil || !slices.Equal(p.server, []int{0, 1, 2, 3}) || !slices.Equal(p.client, []int{4, 5, 6, 7}) {
		t.Errorf("placed %+v, %v; want server 0-3, client 4-7", p, err)
	}
	// On a machine of n cores there is none left for the generator.
	if why := notRun(run, 4); why != "not run here: needs 5 cores (4 usable)" {
		t.Errorf("on 4 cores: %q", why)
	}
}

func TestServerCoresShared(t *testing.T) {
	run, why := serverCores(suite.Run{}, 4, []int{0, 1, 2, 3, 4, 5, 6, 7})
	if why != "" {
		t.Fatal(why)
	}
	p, err := place(run, []int{0, 1, 2, 3, 4, 5, 6, 7})
	if err != nil || !slices.Equal(p.server, []int{0, 1, 2, 3}) || !slices.Equal(p.client, []int{0, 1, 2, 3}) || p.pinned ||
		!slices.Contains(p.flags, result.FlagUnpinned) {
		t.Errorf("placed %+v, %v; want server and client both on 0-3, flagged unpinned", p, err)
	}
}
