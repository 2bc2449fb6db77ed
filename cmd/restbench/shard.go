package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"restbench/internal/load"
)

// shard is this generator's part of a load that N generators offer
// together (restbench load --shard i/N).
type shard struct{ i, n int }

func parseShard(s string) (shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return shard{}, fmt.Errorf("--shard %q: write it as i/N with 0 <= i < N, e.g. 0/3 (a Job's JOB_COMPLETION_INDEX/N)", s)
	}
	return shard{i, n}, nil
}

// part is shard i's share of total when N shards split it: the remainder
// goes one each to the first shards, so the parts add up to total.
func (s shard) part(total int64) int64 {
	p := total / int64(s.n)
	if int64(s.i) < total%int64(s.n) {
		p++
	}
	return p
}

// apply makes cfg this shard's share of the load it describes in total:
// the rate divided by N, as vegeta's distributed attacks split -rate, and
// the connections and the -n count split so that the shares add up.
func (s shard) apply(cfg *load.Config) error {
	if cfg.Connections < s.n {
		return fmt.Errorf("--shard %d/%d: -c %d gives some generator no connection; use -c %d or more (-c is the total of all shards)", s.i, s.n, cfg.Connections, s.n)
	}
	if cfg.MaxRequests > 0 && cfg.MaxRequests < int64(s.n) {
		return fmt.Errorf("--shard %d/%d: -n %d leaves some generator nothing to send; use -n %d or more (-n is the total of all shards)", s.i, s.n, cfg.MaxRequests, s.n)
	}
	cfg.Connections = int(s.part(int64(cfg.Connections)))
	cfg.MaxRequests = s.part(cfg.MaxRequests)
	cfg.Rate /= float64(s.n)
	return nil
}

func (s shard) String() string { return fmt.Sprintf("%d/%d", s.i, s.n) }

// parseStartAt reads --start-at: RFC 3339, or seconds since the epoch.
func parseStartAt(v string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t, nil
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil && f > 0 {
		return time.Unix(0, int64(f*1e9)), nil
	}
	return time.Time{}, fmt.Errorf("--start-at %q: write an RFC 3339 time (2026-11-22T21:00:00Z) or seconds since the epoch (date +%%s)", v)
}

// waitUntil sleeps until the warm-up must begin for the measured window to
// open at start. Every generator given the same start measures the same
// seconds, whatever time it was launched.
func waitUntil(ctx context.Context, start time.Time, warmup time.Duration) error {
	begin := start.Add(-warmup)
	late := time.Since(begin)
	if late > 0 {
		return fmt.Errorf("--start-at %s is %s past (the warm-up of %s had to begin by then): give a time far enough ahead for every generator to be running",
			start.UTC().Format(time.RFC3339Nano), late.Round(time.Millisecond), warmup)
	}
	t := time.NewTimer(-late)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
