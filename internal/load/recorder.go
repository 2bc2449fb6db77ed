package load

import (
	"strconv"
	"sync"

	"github.com/HdrHistogram/hdrhistogram-go"

	"restbench/internal/result"
)

// outcome classes of one request.
const (
	okResponse = iota
	errConnect
	errTimeout
	errRead
	errStatus
	errBody
)

// stream accumulates one stream of requests (a target in one phase) inside
// one event loop. Only its loop touches it, so recording takes no lock.
type stream struct {
	hist       *hdrhistogram.Histogram // latency from the intended send
	service    *hdrhistogram.Histogram // latency from the actual send
	censored   *hdrhistogram.Histogram // ages of unfinished (and missed) requests at the window's end
	requests   int64
	responses  int64
	unfinished int64
	drained    int64 // responses filed in the drain, after the window (Stats.Drained)
	drainedBad int64 // ... of which status or body errors
	errs       result.Errors
	status     [600]int64
	bytes      int64
}

func newStream() *stream {
	return &stream{hist: result.NewHistogram(), service: result.NewHistogram(), censored: result.NewHistogram()}
}

// record files a request that finished: latencyNS counts from its intended
// send time, serviceNS from the moment it was actually written.
func (s *stream) record(class int, status int, latencyNS, serviceNS int64) {
	s.requests++
	switch class {
	case errConnect:
		s.errs.Connect++
		return
	case errTimeout:
		s.errs.Timeout++
		return
	case errRead:
		s.errs.Read++
		return
	case errStatus:
		s.errs.Status++
	case errBody:
		s.errs.Body++
	}
	s.responses++
	if status > 0 && status < len(s.status) {
		s.status[status]++
	}
	// Only requests that got a response have a latency: an error's time says
	// how long it took to fail, not how fast the server answers.
	s.hist.RecordValue(max(latencyNS/1000, 1))
	s.service.RecordValue(max(serviceNS/1000, 1))
}

// censor files a request still in flight when the window closed: its
// latency is at least ageNS, and that lower bound is all anyone knows.
func (s *stream) censor(ageNS int64) {
	s.requests++
	s.unfinished++
	s.censored.RecordValue(max(ageNS/1000, 1))
}

// merge adds o to s.
func (s *stream) merge(o *stream) {
	s.hist.Merge(o.hist)
	s.service.Merge(o.service)
	s.censored.Merge(o.censored)
	s.requests += o.requests
	s.unfinished += o.unfinished
	s.drained += o.drained
	s.drainedBad += o.drainedBad
	s.responses += o.responses
	s.errs.Add(o.errs)
	for i, n := range o.status {
		s.status[i] += n
	}
	s.bytes += o.bytes
}

// stats turns s into the result form; rps is the window's responses per
// second of seconds (the drained came after it), ok_rps those of them that
// passed validation.
func (s *stream) stats(seconds float64) (*result.Stats, error) {
	st := &result.Stats{
		Requests:    s.requests,
		Responses:   s.responses,
		Errors:      s.errs,
		StatusCodes: map[string]int64{},
		BytesRead:   s.bytes,
		Latency:     result.Summarize(s.hist),
		Unfinished:  s.unfinished,
		Drained:     s.drained,
	}
	for code, n := range s.status {
		if n > 0 {
			st.StatusCodes[strconv.Itoa(code)] = n
		}
	}
	if seconds > 0 {
		inWindow := s.responses - s.drained
		st.RPS = float64(inWindow) / seconds
		st.OKRPS = float64(inWindow-(s.errs.Status+s.errs.Body-s.drainedBad)) / seconds
	}
	var err error
	if st.Histogram, err = result.EncodeHistogram(s.hist); err != nil {
		return nil, err
	}
	if s.service.TotalCount() > 0 {
		l := result.Summarize(s.service)
		st.Service = &l
		if st.ServiceHistogram, err = result.EncodeHistogram(s.service); err != nil {
			return nil, err
		}
	}
	if s.censored.TotalCount() > 0 {
		l := result.Summarize(s.censored)
		st.Censored = &l
		if st.CensoredHistogram, err = result.EncodeHistogram(s.censored); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// timeline collects per-second counts and latencies from every loop. A loop
// keeps the current second to itself and hands it over here once the second
// is over, so the lock is taken once per second per loop, not per request.
//
// Only the last openSeconds seconds keep a histogram: an older second is
// done, its percentiles computed and its histogram written to the hlog (when
// there is one) and reused, so the generator's memory does not grow with the
// window (a second's histogram is a few kilobytes; a day of them, gigabytes).
// A loop hands its second over within about 100 ms of its end (loop.run), so
// a later hand-over is rare; its counts still join the second, its
// latencies only the load's summary.
type timeline struct {
	mu    sync.Mutex
	done  []result.Second // seconds 0 .. len(done)-1, finished
	open  []*secondAgg    // seconds len(done) on
	spare []*hdrhistogram.Histogram
	hlog  *result.HlogWriter // nil: no hlog
	err   error              // the first hlog write that failed
}

const openSeconds = 4

type secondAgg struct {
	requests, errors int64
	hist             *hdrhistogram.Histogram
}

// Timeline histograms need the percentiles only roughly: two significant
// figures keep each second at a few kilobytes.
func newSecondHist() *hdrhistogram.Histogram {
	return hdrhistogram.New(result.HistLowestUS, result.HistHighestUS, 2)
}

func (t *timeline) add(sec int, a *secondAgg) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if sec < len(t.done) {
		t.done[sec].Requests += a.requests
		t.done[sec].Errors += a.errors
		return
	}
	// Seconds nobody handed over (a stalled server) are finished empty as
	// the later one opens, never all held at once.
	for len(t.done)+len(t.open) <= sec {
		h := newSecondHist()
		if n := len(t.spare); n > 0 {
			h, t.spare = t.spare[n-1], t.spare[:n-1]
		}
		t.open = append(t.open, &secondAgg{hist: h})
		for len(t.open) > openSeconds {
			t.finishSecond(1)
		}
	}
	dst := t.open[sec-len(t.done)]
	dst.requests += a.requests
	dst.errors += a.errors
	dst.hist.Merge(a.hist)
}

// finishSecond moves the oldest open second, length seconds long, to done.
func (t *timeline) finishSecond(length float64) {
	s := t.open[0]
	i := len(t.done)
	sec := result.Second{T: i, Requests: s.requests, Errors: s.errors}
	if s.hist.TotalCount() > 0 {
		sec.P50 = float64(s.hist.ValueAtQuantile(50)) / 1000
		sec.P99 = float64(s.hist.ValueAtQuantile(99)) / 1000
	}
	t.done = append(t.done, sec)
	if t.hlog != nil && t.err == nil {
		t.err = t.hlog.Interval(i, length, s.hist)
	}
	s.hist.Reset()
	t.spare = append(t.spare, s.hist)
	t.open = t.open[1:]
}

// result finishes every second still open, in a window of windowS seconds,
// and returns them all; the error is the hlog's.
func (t *timeline) result(windowS float64) ([]result.Second, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for len(t.open) > 0 {
		t.finishSecond(result.IntervalLength(len(t.done), windowS))
	}
	return t.done, t.err
}
