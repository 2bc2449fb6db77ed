package main

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

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
