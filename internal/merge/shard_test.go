package merge

import (
	"fmt"
	"strings"
	"testing"

	"restbench/internal/load"
)

func TestShardSplitsTheTotal(t *testing.T) {
	for _, tc := range []struct {
		n            int
		conns        int
		requests     int64
		rate         float64
		wantConns    []int
		wantRequests []int64
	}{
		{3, 10, 0, 900, []int{4, 3, 3}, []int64{0, 0, 0}},
		{2, 2, 1001, 0, []int{1, 1}, []int64{501, 500}},
		{1, 7, 5, 10, []int{7}, []int64{5}},
	} {
		var conns int
		var reqs int64
		var rate float64
		for i := range tc.n {
			s, err := ParseShard(fmt.Sprintf("%d/%d", i, tc.n))
			if err != nil {
				t.Fatal(err)
			}
			cfg := load.Config{Connections: tc.conns, MaxRequests: tc.requests, Rate: tc.rate}
			if err := s.Apply(&cfg); err != nil {
				t.Fatal(err)
			}
			if cfg.Connections != tc.wantConns[i] || cfg.MaxRequests != tc.wantRequests[i] {
				t.Errorf("shard %v of -c %d -n %d: got -c %d -n %d", s, tc.conns, tc.requests, cfg.Connections, cfg.MaxRequests)
			}
			conns, reqs, rate = conns+cfg.Connections, reqs+cfg.MaxRequests, rate+cfg.Rate
		}
		if conns != tc.conns || reqs != tc.requests || rate < tc.rate-1e-9 || rate > tc.rate+1e-9 {
			t.Errorf("shares add up to -c %d -n %d -R %v, want %d %d %v", conns, reqs, rate, tc.conns, tc.requests, tc.rate)
		}
	}
}

func TestShardRefuses(t *testing.T) {
	for _, tc := range []struct{ shard, want string }{
		{"3/3", "0 <= i < N"}, {"a/2", "i/N"}, {"0", "i/N"}, {"-1/2", "0 <= i < N"},
	} {
		if _, err := ParseShard(tc.shard); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("--shard %s: err = %v", tc.shard, err)
		}
	}
	s, _ := ParseShard("0/4")
	if err := s.Apply(&load.Config{Connections: 3}); err == nil || !strings.Contains(err.Error(), "-c 4 or more") {
		t.Errorf("-c 3 over 4 shards: err = %v", err)
	}
}
