package merge

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"restbench/internal/load"
	"restbench/internal/result"
)

// twoGenerators runs two generators at once against one real server, each
// with its shard of the connections, and returns their results.
func twoGenerators(t *testing.T, rate float64, tweak ...func(*load.Config)) []*result.Load {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("slow") {
			time.Sleep(20 * time.Millisecond)
		}
		if r.URL.Query().Has("fail") {
			w.WriteHeader(http.StatusTeapot)
		}
		fmt.Fprintln(w, "hello")
	}))
	t.Cleanup(srv.Close)
	out := make([]*result.Load, 2)
	var wg sync.WaitGroup
	for i := range out {
		wg.Go(func() {
			cfg := load.Config{URL: srv.URL + "/", Connections: 2 + i, Duration: 1500 * time.Millisecond, Rate: rate / 2, KeepAlive: true,
				Mix: []load.Target{{Name: "ok", Path: "/", Weight: 3}, {Name: "teapot", Path: "/?fail", Weight: 1}}, MixFile: "mix.yaml"}
			for _, f := range tweak {
				f(&cfg)
			}
			started := time.Now()
			res, err := load.Run(context.Background(), cfg)
			if err != nil {
				t.Errorf("generator %d: %v", i, err)
				return
			}
			// Until the generator records window_start itself.
			if res.WindowStart.IsZero() {
				res.WindowStart = started
			}
			res.Settings.Shard = fmt.Sprintf("%d/2", i)
			out[i] = res
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	return out
}

func TestMergeAddsUpTwoConcurrentGenerators(t *testing.T) {
	slow := func(c *load.Config) {
		c.Mix = []load.Target{{Name: "ok", Path: "/?slow", Weight: 3}, {Name: "teapot", Path: "/?slow&fail", Weight: 1}}
	}
	for _, tc := range []struct {
		name  string
		rate  float64
		tweak []func(*load.Config)
	}{
		{"closed loop", 0, nil},
		{"open loop", 400, nil},
		// 20 ms a request, one due every 10 ms per generator: about two in
		// flight at each close, which the drains wait for.
		{"open loop, drained", 200, []func(*load.Config){slow}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := twoGenerators(t, tc.rate, tc.tweak...)
			for i, l := range in {
				if err := result.CheckAccounting(l); err != nil {
					t.Fatalf("generator %d does not balance before the merge: %v", i, err)
				}
			}
			m, err := Loads(in, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := result.CheckAccounting(m); err != nil {
				t.Fatal(err)
			}
			a, b := in[0], in[1]
			if m.Requests != a.Requests+b.Requests || m.Responses != a.Responses+b.Responses || m.Errors.Status != a.Errors.Status+b.Errors.Status {
				t.Errorf("merged %d/%d/%d, inputs %d+%d, %d+%d, %d+%d", m.Requests, m.Responses, m.Errors.Status,
					a.Requests, b.Requests, a.Responses, b.Responses, a.Errors.Status, b.Errors.Status)
			}
			if m.StatusCodes["418"] != a.StatusCodes["418"]+b.StatusCodes["418"] || m.StatusCodes["418"] == 0 {
				t.Errorf("418s: merged %d, inputs %d + %d", m.StatusCodes["418"], a.StatusCodes["418"], b.StatusCodes["418"])
			}
			if got, want := m.RPS, a.RPS+b.RPS; got != want {
				t.Errorf("rps %v, want the sum %v", got, want)
			}
			if m.Settings.Connections != 5 || m.Settings.Rate != tc.rate {
				t.Errorf("settings %+v: want 5 connections and rate %v", m.Settings, tc.rate)
			}
			if m.Targets["teapot"].Requests != a.Targets["teapot"].Requests+b.Targets["teapot"].Requests {
				t.Errorf("teapot target: %+v", m.Targets["teapot"])
			}
			// The merged histogram is the two added: its extremes are theirs.
			h, _ := result.DecodeHistogram(m.Histogram)
			ha, _ := result.DecodeHistogram(a.Histogram)
			hb, _ := result.DecodeHistogram(b.Histogram)
			if h.TotalCount() != ha.TotalCount()+hb.TotalCount() || h.Max() != max(ha.Max(), hb.Max()) || h.Min() != min(ha.Min(), hb.Min()) {
				t.Errorf("histogram: %d values in %d..%d; inputs %d, %d", h.TotalCount(), h.Min(), h.Max(), ha.TotalCount(), hb.TotalCount())
			}
			var tl int64
			for _, s := range m.Timeline {
				tl += s.Requests
			}
			if want := timelineRequests(a) + timelineRequests(b); tl != want {
				t.Errorf("timeline holds %d requests, inputs %d", tl, want)
			}
			if m.Due != a.Due+b.Due || m.Sent != a.Sent+b.Sent || m.Missed != a.Missed+b.Missed || m.Unfinished != a.Unfinished+b.Unfinished {
				t.Errorf("merged due %d, sent %d, missed %d, unfinished %d; inputs %d+%d, %d+%d, %d+%d, %d+%d", m.Due, m.Sent, m.Missed, m.Unfinished,
					a.Due, b.Due, a.Sent, b.Sent, a.Missed, b.Missed, a.Unfinished, b.Unfinished)
			}
			if m.Drained != a.Drained+b.Drained || m.DrainMS != max(a.DrainMS, b.DrainMS) || (tc.tweak != nil && m.Drained == 0) {
				t.Errorf("merged drained %d in %.1f ms; inputs %d in %.1f ms, %d in %.1f ms (the slow case must drain some)",
					m.Drained, m.DrainMS, a.Drained, a.DrainMS, b.Drained, b.DrainMS)
			}
			if tc.rate == 0 {
				// Over all connections: the generators' time in flight
				// within the window, added up.
				if m.Little == nil || m.Little.Connections != 5 {
					t.Fatalf("closed loop: Little's-law check %+v, want one over 5 connections", m.Little)
				}
				if want := a.Little.InFlight + b.Little.InFlight; math.Abs(m.Little.InFlight-want) > 0.01*want {
					t.Errorf("merged in flight %.3f, inputs %.3f + %.3f", m.Little.InFlight, a.Little.InFlight, b.Little.InFlight)
				}
			}
		})
	}
}

// TestMergeBehindSchedule: two open loops that cannot keep their rate miss
// requests; the merge carries their missed waits in the censored series and
// keeps due = sent + missed.
func TestMergeBehindSchedule(t *testing.T) {
	// 5 connections at 20 ms a request carry at most 250 of the 400 req/s.
	in := twoGenerators(t, 400, func(c *load.Config) { c.URL, c.Mix, c.MixFile = c.URL+"?slow", nil, "" })
	m, err := Loads(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Missed == 0 || !slices.Contains(m.Flags, result.FlagBehindSchedule) {
		t.Fatalf("missed %d, flags %v: want missed requests and %q", m.Missed, m.Flags, result.FlagBehindSchedule)
	}
	c, err := result.DecodeHistogram(m.CensoredHistogram)
	if err != nil {
		t.Fatal(err)
	}
	if c.TotalCount() != m.Unfinished+m.Missed {
		t.Errorf("censored histogram holds %d, want %d unfinished + %d missed", c.TotalCount(), m.Unfinished, m.Missed)
	}
}

func timelineRequests(l *result.Load) int64 {
	var n int64
	for _, s := range l.Timeline {
		n += s.Requests
	}
	return n
}

// TestMergeRequestCounts: with -n the generators' windows end apart; the
// merged rate is the whole over the span they took, never over a duration
// cap they did not reach (the suites set requests with a cap).
func TestMergeRequestCounts(t *testing.T) {
	for _, limit := range []time.Duration{0, 20 * time.Second} {
		in := twoGenerators(t, 0, func(c *load.Config) { c.Duration, c.MaxRequests = limit, 300 })
		m, err := Loads(in, nil)
		if err != nil {
			t.Fatal(err)
		}
		if m.Requests != 600 || m.Settings.MaxRequests != 600 {
			t.Errorf("cap %v: %d requests, -n %d; want 600, 600", limit, m.Requests, m.Settings.MaxRequests)
		}
		if longest := max(in[0].DurationS, in[1].DurationS); m.DurationS < longest || m.DurationS >= 10 {
			t.Errorf("cap %v: merged window %.3f s; want the span of the generators' (the longest %.3f s), not the cap", limit, m.DurationS, longest)
		}
		if want := float64(m.Responses) / m.DurationS; math.Abs(m.RPS-want) > 1e-6*want {
			t.Errorf("cap %v: req/s %.1f, want %d / %.3f s", limit, m.RPS, m.Responses, m.DurationS)
		}
	}
}

// TestMergeRefuses: every refusal says what differs and what to do.
func TestMergeRefuses(t *testing.T) {
	in := twoGenerators(t, 0)
	clone := func(l *result.Load) *result.Load { c := *l; return &c }
	for _, tc := range []struct {
		name   string
		change func(a, b *result.Load) // b is changed unless said otherwise
		want   string
	}{
		{"other url", func(a, b *result.Load) { b.Settings.URL = "http://127.0.0.1:1/" }, "url: "},
		{"other duration", func(a, b *result.Load) { b.Settings.DurationS = 30 }, "duration: 1.5 vs 30"},
		{"keep-alive", func(a, b *result.Load) { b.Settings.KeepAlive = false }, "keep-alive"},
		{"body", func(a, b *result.Load) { b.Settings.BodyBytes = 10 }, "body bytes"},
		{"open and closed", func(a, b *result.Load) { b.Settings.Rate = 100 }, "give every generator -R, or none"},
		{"windows apart", func(a, b *result.Load) { b.WindowStart = b.WindowStart.Add(time.Minute) }, "do not overlap"},
		{"no window", func(a, b *result.Load) { b.WindowStart = time.Time{} }, "no window_start"},
		{"shard twice", func(a, b *result.Load) { b.Settings.Shard = a.Settings.Shard }, "both shard 0/2"},
		{"shard missing", func(a, b *result.Load) { b.Settings.Shard = "1/3" }, "are of 2"},
		{"no histogram", func(a, b *result.Load) { b.Histogram = "" }, "were they made by different restbench versions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := clone(in[0]), clone(in[1])
			tc.change(a, b)
			_, err := Loads([]*result.Load{a, b}, []string{"a.json", "b.json"})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to say %q", err, tc.want)
			}
		})
	}
	if _, err := Loads(in[:1], nil); err == nil || !strings.Contains(err.Error(), "missing [1]") {
		t.Errorf("one of two shards: err = %v", err)
	}
	c := clone(in[0])
	c.Settings.Connections = 99 // a generator's share may differ
	if _, err := Loads([]*result.Load{c, in[1]}, nil); err != nil {
		t.Errorf("connections differ: %v", err)
	}
}
