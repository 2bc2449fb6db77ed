package service

import (
	"context"
	"crypto/sha256"
	"fmt"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
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
	Work  time.Duration // CPU time spent computing on the request's goroutine
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
	// Digits only, as the Node servers read it: Atoi alone takes "-0" and "+1".
	if err != nil || n > MaxMillis || len(s) > 5 || strings.Trim(s, "0123456789") != "" {
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

// Work hashes on the calling goroutine until its OS thread has spent d of
// CPU time. The clock is the thread's CPU clock, not the wall clock, so a
// server that shares its CPU with another process still does d of work per
// request (it just takes longer), as Node's servers do (docs/contract.md).
//
// The goroutine is locked to its thread for the loop: the thread's clock
// then counts this goroutine alone, because a locked thread runs no other
// goroutine, even while the scheduler preempts this one to let the others
// run. The price is one OS thread per request inside its loop; GOMAXPROCS
// still bounds how many of them run at once.
func Work(d time.Duration) {
	if d <= 0 {
		return
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadCPU()
	var sum [sha256.Size]byte
	for threadCPU()-start < d {
		// Feed each digest into the next: a chain no optimiser can skip.
		for range 64 {
			sum = sha256.Sum256(sum[:])
		}
	}
	workSink.Add(uint64(sum[0]))
}

// threadCPU is the CPU time the calling OS thread has used.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		// Linux has had per-thread CPU clocks since 2.6.12; without one
		// the contract's /time cannot be served.
		panic(fmt.Sprintf("clock_gettime(CLOCK_THREAD_CPUTIME_ID): %v", err))
	}
	return time.Duration(ts.Nano())
}

// Now is the /time answer for this moment.
func Now() TimeResponse { return TimeResponse{Now: time.Now().UnixMilli()} }
