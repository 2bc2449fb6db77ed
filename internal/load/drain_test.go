package load

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"
)

// TestDrain: an open loop at 150 req/s against a 60 ms server has about 9
// requests in flight when its 2 s window closes. By default it waits for
// them (a drain of 200 ms at most: DefaultDrain of 2 s) and files their responses
// with their whole latency, counted as drained and left out of the rate;
// with NoDrain it closes on them, as wrk2 does, and they are unfinished.
// Either way every request sent in the window is accounted for.
func TestDrain(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(60 * time.Millisecond)
		io.WriteString(w, "hello")
	})
	for _, c := range []struct {
		name  string
		drain time.Duration
	}{{"default", 0}, {"none", NoDrain}} {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, Config{URL: s.URL + "/", Connections: 40, Rate: 150, Duration: 2 * time.Second, KeepAlive: true, Drain: c.drain})
			inWindow := res.Responses - res.Drained
			if got, want := res.RPS, float64(inWindow)/res.DurationS; got != want {
				t.Errorf("req/s %.1f, want the window's %d responses / %.3f s = %.1f", got, inWindow, res.DurationS, want)
			}
			if res.Sent < 270 || res.Missed != 0 || res.Errors.Total() != 0 {
				t.Fatalf("sent %d, missed %d, errors %+v: want the 300 due sent, none missed, no errors", res.Sent, res.Missed, res.Errors)
			}
			if c.drain == NoDrain {
				// The last 60 ms of arrivals, give or take a loaded machine.
				if res.Drained != 0 || res.Unfinished < 3 || res.Settings.DrainS != 0 || res.DrainMS != 0 {
					t.Errorf("no drain: drained %d, unfinished %d, drain_s %v, drain_ms %v; want none drained, the ~9 in flight unfinished",
						res.Drained, res.Unfinished, res.Settings.DrainS, res.DrainMS)
				}
				return
			}
			if res.Settings.DrainS != 0.2 {
				t.Errorf("drain_s %v, want DefaultDrain(2s) = 0.2", res.Settings.DrainS)
			}
			if res.Drained < 3 || res.Unfinished != 0 || res.Responses != res.Requests {
				t.Errorf("drained %d, unfinished %d, %d responses of %d requests: want the ~9 in flight drained, every request answered",
					res.Drained, res.Unfinished, res.Responses, res.Requests)
			}
			// The last of them was sent just before the close and takes
			// 60 ms: the drain ends when it is back, within its bound.
			if res.DrainMS < 30 || res.DrainMS > 1200 {
				t.Errorf("drain took %.1f ms: want about the 60 ms the last request takes", res.DrainMS)
			}
			if res.Latency.Min < 59 {
				t.Errorf("min latency %.1f ms: every response took 60 ms", res.Latency.Min)
			}
		})
	}
}

// TestDrainBounded: requests that outlast the drain are unfinished when it
// ends, with their ages then; a request that fails in the drain (here a
// timeout) is unfinished too, for the drain waits for responses and the
// error counts are the window's.
func TestDrainBounded(t *testing.T) {
	s := newServer(t, answerUnlessClosed(3*time.Second))
	for _, c := range []struct {
		name           string
		drain, timeout time.Duration
		ageAtLeast     float64 // ms: the youngest unfinished request's age
	}{
		// The drain's bound: the last request sent is 300 ms old at its end.
		{"bound", 300 * time.Millisecond, 10 * time.Second, 290},
		// Those sent in the last 400 ms time out in the drain: unfinished
		// at an age of 400 ms; the earlier ones are the window's timeouts.
		{"timeout", 2 * time.Second, 400 * time.Millisecond, 390},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			res := run(t, Config{URL: s.URL + "/", Connections: 40, Rate: 20, Duration: time.Second, KeepAlive: true, Drain: c.drain, Timeout: c.timeout})
			took := time.Since(start)
			if res.Drained != 0 || res.Responses != 0 || res.Unfinished < 4 || res.Censored == nil || res.Censored.Min < c.ageAtLeast {
				t.Errorf("drained %d, %d responses, %d unfinished, censored %+v: want none answered, the last ones unfinished at >= %v ms",
					res.Drained, res.Responses, res.Unfinished, res.Censored, c.ageAtLeast)
			}
			if c.name == "timeout" && (res.Errors.Timeout == 0 || res.Errors.Timeout+res.Unfinished != res.Requests) {
				t.Errorf("%d timeouts, %d unfinished of %d requests: want the early ones timed out in the window, the rest unfinished", res.Errors.Timeout, res.Unfinished, res.Requests)
			}
			// 1 s of window and at most the drain: the 3 s responses are not waited for.
			if took > time.Second+c.drain+time.Second {
				t.Errorf("the load took %v: longer than its window and drain", took)
			}
		})
	}
}

// TestDrainStops: Ctrl-C during a drain ends it at once, and what it left
// in flight is unfinished.
func TestDrainStops(t *testing.T) {
	s := newServer(t, answerUnlessClosed(5*time.Second))
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(1300*time.Millisecond, cancel)
	start := time.Now()
	res, err := Run(ctx, Config{URL: s.URL + "/", Connections: 40, Rate: 20, Duration: time.Second, KeepAlive: true, Drain: 10 * time.Second, Timeout: 20 * time.Second})
	if err != context.Canceled || res == nil {
		t.Fatalf("Run after cancel = %v, %v; want the partial result and context.Canceled", res, err)
	}
	balanced(t, res)
	if took := time.Since(start); took > 4*time.Second {
		t.Errorf("the load took %v after Ctrl-C 0.3 s into a 10 s drain", took)
	}
	if res.Unfinished != res.Requests || res.Drained != 0 || res.DurationS != 1 {
		t.Errorf("%d unfinished of %d, drained %d, window %.3f s: want every request unfinished, the window its 1 s", res.Unfinished, res.Requests, res.Drained, res.DurationS)
	}
}

// answerUnlessClosed answers each request after d, or never when the client
// closes first: the server's Close then need not wait out d.
func answerUnlessClosed(d time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(d):
			io.WriteString(w, "hello")
		case <-r.Context().Done():
		}
	}
}
