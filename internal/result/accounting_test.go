package result_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"restbench/internal/load"
	"restbench/internal/result"
)

// TestCheckAccounting starts from a real load result, which balances, and
// breaks it one way at a time: each break must be named.
func TestCheckAccounting(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintln(w, "hello")
	}))
	defer srv.Close()
	res, err := load.Run(context.Background(), load.Config{URL: srv.URL + "/", Connections: 4, Duration: time.Second, KeepAlive: true,
		Mix: []load.Target{{Name: "hello", Path: "/"}, {Name: "missing", Path: "/missing"}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := result.CheckAccounting(res); err != nil {
		t.Fatalf("a real result does not balance: %v", err)
	}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	little := func(ratio float64) *result.Little {
		return &result.Little{Connections: 4, InFlight: 4 * ratio, Ratio: ratio}
	}
	for _, tc := range []struct {
		name   string
		mutate func(l *result.Load)
		want   string
	}{
		{"a lost request", func(l *result.Load) { l.Requests++ }, "requests, but"},
		{"status codes", func(l *result.Load) { l.StatusCodes["200"]++ }, "status codes add up"},
		{"histogram", func(l *result.Load) { l.Responses--; l.Errors.Read++ }, "histogram holds"},
		{"targets", func(l *result.Load) { l.Targets["hello"].Requests--; l.Targets["hello"].Errors.Connect-- }, "targets add up"},
		{"rate", func(l *result.Load) { l.RPS *= 2 }, "req/s, but"},
		{"censored", func(l *result.Load) { l.Unfinished = 3; l.CensoredHistogram = l.Histogram }, "censored histogram holds"},
		{"open loop owes", func(l *result.Load) { l.TargetRPS = 10 * l.RPS; l.Flags = []string{result.FlagBehindSchedule} }, "were due"},
		{"behind, unflagged", func(l *result.Load) { l.TargetRPS = 2 * l.RPS; l.Missed = int64(l.RPS * l.DurationS) }, "flag \"behind-schedule\""},
		{"little unflagged", func(l *result.Load) { l.Little = little(1.5) }, "little: ratio 1.500"},
		{"little miscomputed", func(l *result.Load) { l.Little = little(1); l.Little.InFlight = 2 }, "in flight"},
		{"stalled unflagged", func(l *result.Load) { l.PerConnection = &result.PerConnection{Stalled: 1, Max: 5} }, "1 stalled"},
		{"timeline", func(l *result.Load) { l.Timeline = append(l.Timeline, result.Second{Requests: l.Requests}) }, "timeline holds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l result.Load
			if err := json.Unmarshal(data, &l); err != nil {
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
