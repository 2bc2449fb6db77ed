package result_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"restbench/internal/load"
	"restbench/internal/result"
)

// TestCheckAccounting starts from real load results, which balance, and
// breaks them one way at a time: each break must be named.
func TestCheckAccounting(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/missing":
			http.NotFound(w, r)
			return
		case "/slow":
			time.Sleep(40 * time.Millisecond)
		}
		fmt.Fprintln(w, "hello")
	}))
	defer srv.Close()
	mix := []load.Target{{Name: "hello", Path: "/"}, {Name: "missing", Path: "/missing"}}
	bases := map[string]load.Config{
		"closed": {URL: srv.URL + "/", Connections: 4, Duration: time.Second, KeepAlive: true, Mix: mix},
		"open":   {URL: srv.URL + "/", Connections: 4, Duration: time.Second, Rate: 200, KeepAlive: true, Mix: mix},
		// 2 connections at 40 ms carry 50 req/s of the 200 asked for: missed
		// requests, censored beside the unfinished ones.
		// It closes on its requests in flight, as wrk2 does.
		"behind": {URL: srv.URL + "/slow", Connections: 2, Warmup: 200 * time.Millisecond, Duration: time.Second, Rate: 200, KeepAlive: true, Drain: load.NoDrain},
		// 8 connections at 40 ms carry the 100 req/s: about 4 in flight at
		// the close, which the drain waits for.
		"drained": {URL: srv.URL + "/slow", Connections: 8, Duration: time.Second, Rate: 100, KeepAlive: true},
		// An open loop that runs out of its -n requests owes the n it sent.
		"open -n": {URL: srv.URL + "/", Connections: 4, MaxRequests: 100, Rate: 400, KeepAlive: true},
	}
	data := map[string][]byte{}
	for name, cfg := range bases {
		res, err := load.Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := result.CheckAccounting(res); err != nil {
			t.Fatalf("a real %s-loop result does not balance: %v", name, err)
		}
		if data[name], err = json.Marshal(res); err != nil {
			t.Fatal(err)
		}
		if name == "behind" && (res.Missed == 0 || res.Unfinished == 0) {
			t.Fatalf("the behind-schedule load missed %d and left %d unfinished; want some of both", res.Missed, res.Unfinished)
		}
		if name == "drained" && (res.Drained == 0 || res.Unfinished != 0 || res.DrainMS <= 0) {
			t.Fatalf("the drained load drained %d in %.1f ms and left %d unfinished; want some drained, none unfinished", res.Drained, res.DrainMS, res.Unfinished)
		}
	}
	little := func(ratio float64) *result.Little {
		return &result.Little{Connections: 4, InFlight: 4 * ratio, Ratio: ratio}
	}
	for _, tc := range []struct {
		name, base string
		mutate     func(l *result.Load)
		want       string
	}{
		{"a lost request", "closed", func(l *result.Load) { l.Requests++ }, "requests, but"},
		{"unfinished left out", "behind", func(l *result.Load) { l.Requests -= l.Unfinished }, "unfinished = "},
		{"status codes", "closed", func(l *result.Load) { l.StatusCodes["200"]++ }, "status codes add up"},
		{"histogram", "closed", func(l *result.Load) { l.Responses--; l.Errors.Read++ }, "histogram holds"},
		{"targets", "closed", func(l *result.Load) { l.Targets["hello"].Requests--; l.Targets["hello"].Errors.Connect-- }, "targets add up"},
		{"rate", "closed", func(l *result.Load) { l.RPS *= 2 }, "req/s, but"},
		{"censored", "closed", func(l *result.Load) { l.Unfinished = 3; l.CensoredHistogram = l.Histogram }, "censored histogram holds"},
		{"censored without missed", "behind", func(l *result.Load) { l.Missed--; l.Due-- }, "censored histogram holds"},
		{"open loop owes", "closed", func(l *result.Load) { l.TargetRPS = 10 * l.RPS; l.Flags = []string{result.FlagBehindSchedule} }, "were due"},
		{"due unbalanced", "behind", func(l *result.Load) { l.Due++ }, "due "},
		{"sent, not counted", "open", func(l *result.Load) { l.Sent += 10; l.Due += 10 }, "lost or counted twice"},
		{"-n open loop without its schedule", "open -n", func(l *result.Load) { l.Due, l.Sent = 0, 0 }, "lost or counted twice"},
		{"behind, unflagged", "behind", func(l *result.Load) {
			l.Flags = slices.DeleteFunc(l.Flags, func(f string) bool { return f == result.FlagBehindSchedule })
		}, "flag \"behind-schedule\""},
		{"little unflagged", "closed", func(l *result.Load) { l.Little = little(1.5) }, "little: ratio 1.500"},
		{"little miscomputed", "closed", func(l *result.Load) { l.Little = little(1); l.Little.InFlight = 2 }, "in flight"},
		{"little on an open loop", "open", func(l *result.Load) { l.Little = little(1) }, "an open loop"},
		{"stalled unflagged", "closed", func(l *result.Load) { l.PerConnection = &result.PerConnection{Stalled: 1, Max: 5} }, "1 stalled"},
		{"stalled, yet min > 0", "closed", func(l *result.Load) {
			l.PerConnection.Stalled = 1
			l.Flags = append(l.Flags, result.FlagStalledConnections)
		}, "a stalled connection is one that completed nothing"},
		{"first response out of order", "closed", func(l *result.Load) { l.PerConnection.FirstResponseMS.Min = l.PerConnection.FirstResponseMS.Max + 1 }, "first response"},
		{"timeline", "closed", func(l *result.Load) { l.Timeline = append(l.Timeline, result.Second{Requests: l.Requests}) }, "timeline holds"},
		{"drained in the rate", "drained", func(l *result.Load) { l.RPS = float64(l.Responses) / l.DurationS }, "drained) /"},
		{"drained in the timeline", "drained", func(l *result.Load) { l.Timeline[0].Requests += l.Drained }, "finished in the window"},
		{"drained, uncounted", "drained", func(l *result.Load) { l.Drained = 0 }, "req/s, but"},
		{"a closed loop drained", "closed", func(l *result.Load) { l.Drained, l.DrainMS = 1, 5 }, "only an open loop"},
		{"a drain past its bound", "drained", func(l *result.Load) { l.DrainMS = 1000*l.Settings.DrainS + 2000 }, "against a drain of"},
		{"timeline short", "behind", func(l *result.Load) { l.Timeline[0].Requests--; l.Timeline[0].Errors = 0 }, "finished in the window"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l result.Load
			if err := json.Unmarshal(data[tc.base], &l); err != nil {
				t.Fatal(err)
			}
			tc.mutate(&l)
			err := result.CheckAccounting(&l)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to say %q", err, tc.want)
			}
		})
	}
}
