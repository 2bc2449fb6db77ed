package verdict

import (
	"math"
	"slices"
	"strings"
	"testing"

	"restbench/internal/metric"
	"restbench/internal/result"
)

// overflowTrials are five rounds of a closed loop without keep-alive (or
// with), at rps req/s and cpu % of a core, flagged accept-queue-overflow
// when overflowed.
func overflowTrials(run string, keepAlive, overflowed bool, rps []float64, cpu float64) []*result.Trial {
	var out []*result.Trial
	for i, r := range rps {
		t := trialsOf(run, fig{rps: r, mean: 1000 / r, cpu: cpu})[0]
		t.Trial, t.Round = i+1, i+1
		t.Load.Settings.KeepAlive = keepAlive
		t.Load.Settings.MaxRequests = 50000
		if overflowed {
			t.Flags = []string{result.FlagAcceptQueueOverflow}
			t.Listen = &result.Listen{Backlog: 511, Overflows: 4000}
		}
		out = append(out, t)
	}
	return out
}

// accept-queue-overflow is the published condition only on a load that
// dials every request, on a run whose published load overflowed too, and
// only for the figures the queue shapes.
func TestOverflowAsPublished(t *testing.T) {
	over := &result.PublishedLoad{Tool: "ab", Model: result.ModelClosed, Overflowed: true}
	plain := &result.PublishedLoad{Tool: "ab", Model: result.ModelClosed}
	dial, alive := &result.Load{}, &result.Load{Settings: result.Settings{KeepAlive: true}}
	cases := []struct {
		name  string
		flag  string
		class metric.Class
		p     *result.PublishedLoad
		l     *result.Load
		ok    bool
	}{
		{"throughput, as published", result.FlagAcceptQueueOverflow, metric.Throughput, over, dial, true},
		{"latency, as published", result.FlagAcceptQueueOverflow, metric.Latency, over, dial, true},
		{"cpu, as published", result.FlagAcceptQueueOverflow, metric.CPU, over, dial, true},
		{"memory keeps the flag's own effect", result.FlagAcceptQueueOverflow, metric.Memory, over, dial, false},
		{"keep-alive: a fault", result.FlagAcceptQueueOverflow, metric.Throughput, over, alive, false},
		{"published load did not overflow", result.FlagAcceptQueueOverflow, metric.Throughput, plain, dial, false},
		{"no published load", result.FlagAcceptQueueOverflow, metric.Throughput, nil, dial, false},
		{"another flag", result.FlagBehindSchedule, metric.Throughput, over, dial, false},
		{"no load", result.FlagAcceptQueueOverflow, metric.Throughput, over, nil, false},
	}
	for _, c := range cases {
		b, ok := overflowAsPublished(c.flag, c.class, c.p, c.l)
		if ok != c.ok || b != Unbiased {
			t.Errorf("%s: %v %v, want %v, unbiased", c.name, b, ok, c.ok)
		}
	}
}

// A claim resting on a run whose overflow is the published condition is
// graded, the flag said beside it, with the claim on the control (the same
// load with a raised backlog) beside that; on keep-alive, or without
// overflowed, the flag keeps it not comparable.
func TestOverflowControl(t *testing.T) {
	over := &result.PublishedLoad{Tool: "ab", Model: result.ModelClosed, Overflowed: true, Control: "node 4096"}
	plain := &result.PublishedLoad{Tool: "ab", Model: result.ModelClosed}
	goRPS := []float64{30000, 31000, 29000, 30500, 29500}
	nodeRPS := []float64{10000, 11000, 9000, 10500, 9500}  // go/node ≈ 3×
	ctlRPS := []float64{15000, 15500, 14500, 15250, 14750} // go/control ≈ 2×
	aaRPS := []float64{10100, 10900, 9100, 10400, 9600}    // node again
	cases := []struct {
		name      string
		c         result.Conclusion
		node      *result.PublishedLoad
		keepAlive bool
		outcome   string
		control   bool
		why       string
	}{
		{"as published, with its control", result.Conclusion{Metric: "rps", A: "go", B: "node", Claim: result.ClaimBand, Low: 1.6, High: 2.5},
			over, false, DoesNotHold, true, "as published: the write-up's load dialled every request"},
		{"a single run's cpu", result.Conclusion{Metric: "cpu_pct", A: "node", Claim: result.ClaimBand, Low: 80, High: 100},
			over, false, Holds, true, "as published"},
		{"both sides overflowed: no control", result.Conclusion{Metric: "rps", A: "node", B: "node A/A", Claim: result.ClaimTie, Tolerance: 0.2},
			over, false, Holds, false, "as published"},
		{"not the published condition", result.Conclusion{Metric: "rps", A: "go", B: "node", Claim: result.ClaimBand, Low: 1.6, High: 2.5},
			plain, false, NotComparable, false, "node: accept-queue-overflow in 5 of 5 rounds (the listen queue (backlog 511) overflowed 4000 times"},
		{"keep-alive: a fault", result.Conclusion{Metric: "rps", A: "go", B: "node", Claim: result.ClaimBand, Low: 1.6, High: 2.5},
			over, true, NotComparable, false, "raise the server's backlog or open connections gradually"},
	}
	for _, c := range cases {
		runs := map[string]result.RunInfo{
			"go": {ID: "go", PublishedLoad: plain}, "node": {ID: "node", PublishedLoad: c.node},
			"node A/A": {ID: "node A/A", PublishedLoad: c.node}, "node 4096": {ID: "node 4096", PublishedLoad: plain},
		}
		trials := map[string][]*result.Trial{
			"go":        overflowTrials("go", c.keepAlive, false, goRPS, 110),
			"node":      overflowTrials("node", c.keepAlive, true, nodeRPS, 85),
			"node A/A":  overflowTrials("node A/A", c.keepAlive, true, aaRPS, 85),
			"node 4096": overflowTrials("node 4096", c.keepAlive, false, ctlRPS, 104),
		}
		v := Evaluate(c.c, runs, trials, 1)
		if v.Outcome != c.outcome || !strings.Contains(v.Why, c.why) {
			t.Errorf("%s: %q (%s), want %q with %q", c.name, v.Outcome, v.Why, c.outcome, c.why)
		}
		if (v.Control != nil) != c.control {
			t.Fatalf("%s: control %+v, want one: %v", c.name, v.Control, c.control)
		}
		if v.Control == nil {
			continue
		}
		if v.Control.Run != "node" || v.Control.In != "node 4096" {
			t.Errorf("%s: control %s in place of %s, want node 4096 in place of node", c.name, v.Control.In, v.Control.Run)
		}
		// node's figure over its control's, per round: 10,000/15,000 …
		want := 10000.0 / 15000
		if c.c.Metric == "cpu_pct" {
			want = 85.0 / 104
		}
		if math.Abs(v.Control.Share-want) > 1e-9 || v.Control.ShareLo > v.Control.Share || v.Control.ShareHi < v.Control.Share {
			t.Errorf("%s: share %v (%v–%v), want %v inside its interval", c.name, v.Control.Share, v.Control.ShareLo, v.Control.ShareHi, want)
		}
		if c.c.Metric == "rps" && (v.Control.Outcome != Holds || math.Abs(v.Control.Estimate-2) > 1e-9) {
			t.Errorf("%s: on the control %v %q, want 2× holds", c.name, v.Control.Estimate, v.Control.Outcome)
		}
		if c.c.Metric == "cpu_pct" && (v.Control.Outcome != DoesNotHold || v.Control.Estimate != 104) {
			t.Errorf("%s: on the control %v %q, want 104 %% does not hold", c.name, v.Control.Estimate, v.Control.Outcome)
		}
	}
}

// idleTail gives a trial a timeline of secs seconds of work at its req/s
// and then idle seconds with no response before a last second: the shape
// of a run that waited for its last connections' re-sent SYNs.
func idleTail(t *result.Trial, secs, idle int) {
	per := int64(t.Load.RPS)
	t.Load.Timeline = nil
	for s := 0; s < secs; s++ {
		t.Load.Timeline = append(t.Load.Timeline, result.Second{T: s, Requests: per})
	}
	t.Load.Timeline = append(t.Load.Timeline, result.Second{T: secs + idle, Requests: per / 20})
	t.Load.DurationS = float64(secs+idle) + 0.5
}

// A write-up claim on a run that was retransmission-bound in any round,
// whose published run ended on its work, is graded on the control, its
// own reading kept beside; an A/A arm or a cross-check keeps its own, as
// does a run whose published figures cannot say how it ended, or one that
// never idled.
func TestRetransmissionBoundGradedOnControl(t *testing.T) {
	over := &result.PublishedLoad{Tool: "ab", Model: result.ModelClosed, Overflowed: true, Control: "node 4096"}
	plain := &result.PublishedLoad{Tool: "ab", Model: result.ModelClosed}
	// joshuous' node-express: 50,000 requests at 7,390 req/s (6.8 s), its
	// longest 1,391 ms; a published run as long as its longest request
	// ended on the timer.
	onWork := map[string]float64{"rps": 7390, "requests": 50000, "latency_max_ms": 1391}
	onTimer := map[string]float64{"rps": 3440, "requests": 50000, "latency_max_ms": 14500}
	goRPS := []float64{30000, 31000, 29000, 30500, 29500}
	nodeRPS := []float64{10000, 11000, 9000, 10500, 9500}  // go/node ≈ 3×: does not hold
	ctlRPS := []float64{15000, 15500, 14500, 15250, 14750} // go/control ≈ 2×: holds
	band := result.Conclusion{Metric: "rps", A: "go", B: "node", Claim: result.ClaimBand, Low: 1.6, High: 2.5}
	check := result.Conclusion{Metric: "rps", A: "node", B: "go", Kind: result.KindCheck, Claim: result.ClaimBand, Low: 0.2, High: 0.5}
	cases := []struct {
		name    string
		c       result.Conclusion
		pub     map[string]float64
		idle    []int // idle seconds of node's rounds
		graded  bool
		outcome string
	}{
		{"bound in every round", band, onWork, []int{4, 4, 4, 4, 4}, true, Holds},
		{"bound in one round", band, onWork, []int{0, 0, 2, 0, 0}, true, Holds},
		{"never idle", band, onWork, []int{0, 0, 0, 0, 0}, false, DoesNotHold},
		{"the published run ended on the timer", band, onTimer, []int{4, 4, 4, 4, 4}, false, DoesNotHold},
		{"published figures cannot say", band, map[string]float64{"rps": 7390}, []int{4, 4, 4, 4, 4}, false, DoesNotHold},
		{"a cross-check keeps its own", check, onWork, []int{4, 4, 4, 4, 4}, false, Holds},
	}
	for _, c := range cases {
		runs := map[string]result.RunInfo{
			"go": {ID: "go", PublishedLoad: plain}, "node": {ID: "node", PublishedLoad: over, Published: c.pub},
			"node 4096": {ID: "node 4096", PublishedLoad: plain},
		}
		node := overflowTrials("node", false, true, nodeRPS, 85)
		for i, tr := range node {
			idleTail(tr, 5, c.idle[i])
		}
		trials := map[string][]*result.Trial{
			"go":        overflowTrials("go", false, false, goRPS, 110),
			"node":      node,
			"node 4096": overflowTrials("node 4096", false, false, ctlRPS, 104),
		}
		v := Evaluate(c.c, runs, trials, 1)
		if v.Outcome != c.outcome {
			t.Errorf("%s: %q (%s), want %q", c.name, v.Outcome, v.Why, c.outcome)
		}
		if c.c.Kind == result.KindCheck {
			if v.Control != nil && v.Control.Graded {
				t.Errorf("%s: graded on the control", c.name)
			}
			continue
		}
		if v.Control == nil {
			t.Fatalf("%s: no control", c.name)
		}
		if v.Control.Graded != c.graded {
			t.Fatalf("%s: graded on the control %v, want %v", c.name, v.Control.Graded, c.graded)
		}
		if !c.graded {
			continue
		}
		bound := 0
		for _, s := range c.idle {
			if s > 0 {
				bound++
			}
		}
		ctl := v.Control
		if math.Abs(v.Estimate-2) > 1e-9 || ctl.Outcome != DoesNotHold || math.Abs(ctl.Estimate-3) > 1e-9 || ctl.Bound != bound || ctl.Of != 5 || ctl.IdleS != slices.Max(c.idle) {
			t.Errorf("%s: %v, as published %v %q, bound %d of %d idle %d s; want 2×, as published 3× does not hold, bound %d of 5, idle %d s",
				c.name, v.Estimate, ctl.Estimate, ctl.Outcome, ctl.Bound, ctl.Of, ctl.IdleS, bound, slices.Max(c.idle))
		}
	}
}
