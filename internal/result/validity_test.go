package result

import (
	"slices"
	"testing"
)

func TestValidityFlags(t *testing.T) {
	censored := func(agesMS ...int64) string {
		h := NewHistogram()
		for _, a := range agesMS {
			h.RecordValue(a * 1000)
		}
		s, err := EncodeHistogram(h)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	open := func(target, rps, serviceMS float64, conns int) *Load {
		l := &Load{TargetRPS: target, DurationS: 10, Settings: Settings{Connections: conns}}
		l.RPS = rps
		l.Service = &Latency{Mean: serviceMS}
		l.ConnectionsNeeded = NeededConnections(target, l.Service)
		return l
	}
	busy := func(l *Load, share float64) *Load {
		l.ServerCPUShare = share
		return l
	}
	cases := []struct {
		name string
		load *Load
		want []string
	}{
		{"on schedule", open(1000, 1000, 10, 100), nil},
		{"94 % is behind", open(1000, 940, 10, 100), []string{FlagBehindSchedule}},
		{"106 % is ahead", open(1000, 1060, 10, 100), []string{FlagAheadOfSchedule}},
		// 2,000 req/s × 50 ms needs 100 connections: 20 cannot carry it.
		{"connection-bound", open(2000, 1900, 50, 20), []string{FlagConnectionBound}},
		{"89 % of the connections is not bound", open(1000, 1000, 89, 100), nil},
		{"90 % is", open(1000, 1000, 90, 100), []string{FlagConnectionBound}},
		// Who filled the connections: a server with CPU to spare was held
		// back by too few (a sizing fault); a saturated one (ServerBound)
		// filled them with its own queue, and more would not have helped.
		{"a sizing fault: CPU to spare", busy(open(2000, 400, 50, 20), 0.30), []string{FlagBehindSchedule, FlagConnectionBound}},
		{"89 % of its CPU is to spare", busy(open(2000, 400, 50, 20), 0.89), []string{FlagBehindSchedule, FlagConnectionBound}},
		{"the server's overload: behind, not connection-bound", busy(open(2000, 400, 50, 20), 0.90), []string{FlagBehindSchedule}},
		{"the server's overload on schedule: no flag", busy(open(1000, 1000, 95, 100), 1.02), nil},
		{"a saturated server with connections to spare", busy(open(1000, 1000, 10, 100), 1), nil},
		{"stalled", &Load{PerConnection: &PerConnection{Stalled: 1}}, []string{FlagStalledConnections}},
		{"little off", &Load{Little: &Little{Ratio: 1.2}}, []string{FlagInconsistent}},
		// 200 responses, median 10 ms: 3 unfinished older than that are
		// 1.5 % of them, 2 are 1 %.
		{"censored", &Load{Stats: Stats{Responses: 200, Latency: Latency{P50: 10}, CensoredHistogram: censored(50, 60, 70, 1)}}, []string{FlagCensored}},
		{"censored at 1 % is not", &Load{Stats: Stats{Responses: 200, Latency: Latency{P50: 10}, CensoredHistogram: censored(50, 60, 1, 2)}}, nil},
		{"nothing finished, something waits", &Load{Stats: Stats{CensoredHistogram: censored(5)}}, []string{FlagCensored}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ValidityFlags(c.load); !slices.Equal(got, c.want) {
				t.Errorf("ValidityFlags = %v, want %v", got, c.want)
			}
		})
	}
}

// A result whose flags disagree with its counts fails the accounting check.
func TestCheckAccountingFlags(t *testing.T) {
	l := &Load{TargetRPS: 1000, DurationS: 10, Settings: Settings{Connections: 10}, Due: 10000, Sent: 10000}
	l.Requests, l.Responses, l.RPS = 10000, 10000, 1000
	l.StatusCodes = map[string]int64{"200": 10000}
	l.Service = &Latency{Mean: 9.5} // 9.5 of 10 connections
	l.ConnectionsNeeded = NeededConnections(l.TargetRPS, l.Service)
	if err := CheckAccounting(l); err == nil {
		t.Fatal("a connection-bound load without its flag passed")
	}
	l.Flags = []string{FlagConnectionBound}
	if err := CheckAccounting(l); err != nil {
		t.Fatalf("with its flag: %v", err)
	}
}

// SetServerCPUShare derives the load flags again from the share, and keeps
// the flags that are not the load's.
func TestSetServerCPUShare(t *testing.T) {
	cases := []struct {
		name  string
		share float64
		want  []string
	}{
		{"unknown", 0, []string{"other", FlagBehindSchedule, FlagConnectionBound}},
		{"CPU to spare", 0.5, []string{"other", FlagBehindSchedule, FlagConnectionBound}},
		{"saturated", 0.97, []string{"other", FlagBehindSchedule}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := &Load{TargetRPS: 2000, DurationS: 10, Settings: Settings{Connections: 20}}
			l.RPS, l.Service = 400, &Latency{Mean: 50}
			l.ConnectionsNeeded = NeededConnections(l.TargetRPS, l.Service)
			l.Flags = append([]string{"other"}, ValidityFlags(l)...)
			l.SetServerCPUShare(c.share)
			if !slices.Equal(l.Flags, c.want) {
				t.Errorf("flags %v, want %v", l.Flags, c.want)
			}
		})
	}
}
