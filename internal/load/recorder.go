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
	s.responses += o.responses
	s.errs.Add(o.errs)
	for i, n := range o.status {
		s.status[i] += n
	}
	s.bytes += o.bytes
}

// stats turns s into the result form; rps is responses per second of
// seconds, ok_rps the responses that passed validation.
func (s *stream) stats(seconds float64) (*result.Stats, error) {
	st := &result.Stats{
		Requests:    s.requests,
		Responses:   s.responses,
		Errors:      s.errs,
		StatusCodes: map[string]int64{},
		BytesRead:   s.bytes,
		Latency:     result.Summarize(s.hist),
		Unfinished:  s.unfinished,
	}
	for code, n := range s.status {
		if n > 0 {
			st.StatusCodes[strconv.Itoa(code)] = n
		}
	}
	if seconds > 0 {
		st.RPS = float64(s.responses) / seconds
		st.OKRPS = float64(s.responses-s.errs.Status-s.errs.Body) / seconds
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
type timeline struct {
	mu      sync.Mutex
	seconds []*secondAgg
}

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
	for len(t.seconds) <= sec {
		t.seconds = append(t.seconds, &secondAgg{hist: newSecondHist()})
	}
	dst := t.seconds[sec]
	dst.requests += a.requests
	dst.errors += a.errors
	dst.hist.Merge(a.hist)
}

func (t *timeline) result() []result.Second {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]result.Second, len(t.seconds))
	for i, s := range t.seconds {
		out[i] = result.Second{T: i, Requests: s.requests, Errors: s.errors}
		if s.hist.TotalCount() > 0 {
			out[i].P50 = float64(s.hist.ValueAtQuantile(50)) / 1000
			out[i].P99 = float64(s.hist.ValueAtQuantile(99)) / 1000
		}
	}
	return out
}

// histograms returns each second's latency histogram, in order.
func (t *timeline) histograms() []*hdrhistogram.Histogram {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]*hdrhistogram.Histogram, len(t.seconds))
	for i, s := range t.seconds {
		out[i] = s.hist
	}
	return out
}
