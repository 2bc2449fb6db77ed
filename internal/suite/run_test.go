package suite

import "testing"

func TestCoresNeeded(t *testing.T) {
	for _, c := range []struct {
		name string
		run  Run
		want int
	}{
		{"nothing set takes what there is", Run{}, 0},
		{"threads", Run{Env: map[string]string{"THREADS": "4"}}, 4},
		{"the larger of threads and GOMAXPROCS", Run{Env: map[string]string{"THREADS": "2", "GOMAXPROCS": "3"}}, 3},
		{"THREADS=auto asks for nothing", Run{Env: map[string]string{"THREADS": "auto"}}, 0},
		{"pinned adds the generator's core", Run{Env: map[string]string{"THREADS": "2"}, Pinned: true}, 3},
		{"a quota sets the server's share", Run{Env: map[string]string{"GOMAXPROCS": "4"}, Quota: 1}, 1},
		{"a fractional quota rounds up", Run{Quota: 0.5, Pinned: true}, 2},
		{"explicit CPU lists are checked where placed", Run{Env: map[string]string{"THREADS": "8"}, ServerCPUs: "0-7"}, 0},
		{"a server's cores, whatever its threads, and the generator's", Run{Env: map[string]string{"THREADS": "12"}, Pinned: true, ServerCores: 6}, 7},
	} {
		if got := c.run.CoresNeeded(); got != c.want {
			t.Errorf("%s: CoresNeeded() = %d, want %d", c.name, got, c.want)
		}
	}
}
