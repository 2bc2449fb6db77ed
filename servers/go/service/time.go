package service

import (
	"context"
	"crypto/sha256"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// MaxMillis bounds the delay and work of /time (10 s each).
const MaxMillis = 10000

// Query is the part of a request's query string the contract reads.
// url.Values satisfies it; fasthttp servers adapt *fasthttp.Args.
type Query interface {
	Has(key string) bool
	Get(key string) string
}

// TimeParams are the /time query parameters.
type TimeParams struct {
	Delay time.Duration // waited without holding a thread
	Work  time.Duration // spent computing on the request's goroutine
}

// TimeResponse is the /time answer: the Unix time in milliseconds when the
// work ended.
type TimeResponse struct {
	Now int64 `json:"now"`
}

// ParseTime reads delay and work: whole milliseconds, 0..10000, 0 when
// absent. Decimals, signs and empty values are refused with 400, so that
// every implementation reads the same numbers the same way.
func ParseTime(q Query) (TimeParams, error) {
	delay, err := millis(q, "delay")
	if err != nil {
		return TimeParams{}, err
	}
	work, err := millis(q, "work")
	if err != nil {
		return TimeParams{}, err
	}
	return TimeParams{Delay: delay, Work: work}, nil
}

func millis(q Query, key string) (time.Duration, error) {
	if !q.Has(key) {
		return 0, nil
	}
	s := q.Get(key)
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > MaxMillis || s[0] == '+' {
		return 0, Errorf(http.StatusBadRequest, "%s=%q: use whole milliseconds from 0 to %d", key, s, MaxMillis)
	}
	return time.Duration(n) * time.Millisecond, nil
}

// Wait sleeps for d on a timer, so other requests run meanwhile. It returns
// early with the context's error when the client goes away.
func Wait(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// workSink keeps the hashes' result alive, so the compiler cannot drop the
// loop as dead code.
var workSink atomic.Uint64

// Work hashes for d of wall time on the calling goroutine. The clock is the
// monotonic one (time.Since), and the check is wall time, not CPU time, so
// that under contention the request still takes d, as a real computation
// competing for the CPU would.
func Work(d time.Duration) {
	if d <= 0 {
		return
	}
	start := time.Now()
	var sum [sha256.Size]byte
	for time.Since(start) < d {
		// Feed each digest into the next: a chain no optimiser can skip.
		for range 64 {
			sum = sha256.Sum256(sum[:])
		}
	}
	workSink.Add(uint64(sum[0]))
}

// Now is the /time answer for this moment.
func Now() TimeResponse { return TimeResponse{Now: time.Now().UnixMilli()} }
