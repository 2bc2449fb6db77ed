package markdown

import (
	"strings"
	"testing"

	"restbench/internal/report/model"
	"restbench/internal/result"
)

func TestAccountingTable(t *testing.T) {
	trial := func(n int, l result.Load) result.Trial {
		return result.Trial{Run: "r", Trial: n, Status: result.StatusOK, Load: &l}
	}
	open := result.Load{
		Stats: result.Stats{RPS: 821, OKRPS: 800, Latency: result.Latency{Mean: 2400}, Service: &result.Latency{Mean: 48, P99: 90},
			Unfinished: 40, Censored: &result.Latency{Max: 5100}},
		TargetRPS: 7521, Missed: 27193, Flags: []string{result.FlagBehindSchedule},
		PerConnection: &result.PerConnection{Min: 90, Median: 100, Max: 110},
		Settings:      result.Settings{Connections: 40, Rate: 7521},
	}
	closed := result.Load{
		Stats:         result.Stats{RPS: 10400, OKRPS: 10400, Latency: result.Latency{Mean: 90}, Service: &result.Latency{Mean: 90, P99: 120}},
		PerConnection: &result.PerConnection{Min: 0, Median: 52, Max: 80, Stalled: 12},
		Little:        &result.Little{Connections: 1000, InFlight: 960, Ratio: 0.96},
		Flags:         []string{result.FlagStalledConnections},
		Settings:      result.Settings{Connections: 1000},
	}
	// The closed loop's trial overflowed its accept queue: the flag is the
	// trial's, not the load's, and unpinned stays in the measured table.
	drops := int64(6933)
	overflowed := trial(1, closed)
	overflowed.Flags = []string{result.FlagUnpinned, result.FlagAcceptQueueOverflow}
	overflowed.Listen = &result.Listen{Overflows: 4524, Drops: 4524, SocketDrops: &drops, Backlog: 511, Sockets: 1, Queued: 123}
	pc := *closed.PerConnection
	pc.FirstResponseMS = &result.FirstResponse{Connections: 988, Min: 2, Median: 40, P99: 3050, Max: 3100}
	overflowed.Load.PerConnection = &pc
	quiet := trial(2, open)
	quiet.Listen = &result.Listen{Backlog: 4096, Sockets: 1}
	e := &model.ExperimentReport{Runs: []*model.RunReport{
		model.BuildRun(result.RunInfo{ID: "open", Label: "node-express work=50%"}, []result.Trial{trial(1, open), quiet}),
		model.BuildRun(result.RunInfo{ID: "closed", Label: "node-express c=1000"}, []result.Trial{overflowed}),
		model.BuildRun(result.RunInfo{ID: "wrk", Label: "wrk"}, []result.Trial{trial(1, result.Load{Stats: result.Stats{RPS: 1}})}),
	}}
	var b strings.Builder
	writeAccounting(&b, e)
	out := b.String()
	for _, want := range []string{
		"| node-express work=50% | 800 | 821 | 7521 | 11 % | 27,193 | 2400 | 48.0 | 90.0 | 40 | ≥ 5100 | 90 / 100 / 110 | 0 | — | behind-schedule |",
		"| node-express c=1000 | 10,400 | 10,400 | — | — | — | 90.0 | 90.0 | 120 | 0 | — | 0 / 52 / 80 | 12 | 960 / 1000 | accept-queue-overflow, stalled-connections |",
		"node-express work=50%: backlog 4,096; node-express c=1000: backlog 511, overflowed in 1 of 1 trials (median 4,524 listen overflows a trial), 123 connections never accepted (median at the close), first response p99 3050 ms, max 3100 ms.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("accounting table lacks\n%s\n in\n%s", want, out)
		}
	}
	if strings.Contains(out, "| wrk |") {
		t.Errorf("a run without accounting (wrk) got a row:\n%s", out)
	}
	b.Reset()
	writeAccounting(&b, &model.ExperimentReport{Runs: e.Runs[:1]})
	if strings.Contains(b.String(), "Accept queue") {
		t.Errorf("a run that never overflowed got the accept-queue note:\n%s", b.String())
	}
	// Without listen figures (placement hosts without privileges, older
	// results), a first response after a second still shows the note.
	slow := trial(1, closed)
	slow.Load.PerConnection = &pc
	b.Reset()
	writeAccounting(&b, &model.ExperimentReport{Runs: []*model.RunReport{model.BuildRun(result.RunInfo{ID: "slow", Label: "slow"}, []result.Trial{slow})}})
	if want := "slow: first response p99 3050 ms, max 3100 ms."; !strings.Contains(b.String(), want) {
		t.Errorf("note lacks %q:\n%s", want, b.String())
	}
	b.Reset()
	writeAccounting(&b, &model.ExperimentReport{Runs: e.Runs[2:]})
	if b.Len() != 0 {
		t.Errorf("an experiment without accounting got a table:\n%s", b.String())
	}
}
