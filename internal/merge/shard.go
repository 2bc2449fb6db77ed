package merge

import (
	"fmt"
	"strconv"
	"strings"

	"restbench/internal/load"
)

// Shard is one generator's part of a load that N generators offer
// together (restbench load --shard i/N): merge adds their results up again.
type Shard struct{ I, N int }

// ParseShard reads "i/N", 0 <= i < N.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("--shard %q: write it as i/N with 0 <= i < N, e.g. 0/3 (a Job's JOB_COMPLETION_INDEX/N)", s)
	}
	return Shard{i, n}, nil
}

// Part is shard i's share of total when N shards split it: the remainder
// goes one each to the first shards, so the parts add up to total.
func (s Shard) Part(total int64) int64 {
	p := total / int64(s.N)
	if int64(s.I) < total%int64(s.N) {
		p++
	}
	return p
}

// Apply makes cfg this shard's share of the load it describes in total:
// the rate divided by N, as vegeta's distributed attacks split -rate, and
// the connections and the -n count split so that the shares add up.
func (s Shard) Apply(cfg *load.Config) error {
	if cfg.Connections < s.N {
		return fmt.Errorf("--shard %d/%d: -c %d gives some generator no connection; use -c %d or more (-c is the total of all shards)", s.I, s.N, cfg.Connections, s.N)
	}
	if cfg.MaxRequests > 0 && cfg.MaxRequests < int64(s.N) {
		return fmt.Errorf("--shard %d/%d: -n %d leaves some generator nothing to send; use -n %d or more (-n is the total of all shards)", s.I, s.N, cfg.MaxRequests, s.N)
	}
	cfg.Connections = int(s.Part(int64(cfg.Connections)))
	cfg.MaxRequests = s.Part(cfg.MaxRequests)
	cfg.Rate /= float64(s.N)
	return nil
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.I, s.N) }
