package result

import (
	"math"
	"slices"
)

// LoadFlags are the flags ValidityFlags derives from a load's counts, in
// the order it returns them.
var LoadFlags = []string{FlagBehindSchedule, FlagAheadOfSchedule, FlagConnectionBound,
	FlagStalledConnections, FlagCensored, FlagInconsistent}

// ValidityFlags says, from the counts alone, whether a load did what was
// asked of it. The generator sets l.Flags from it, merge sets a merged
// result's, and CheckAccounting holds every result to it, so that the three
// can never disagree on what a flag means:
//
//   - behind-schedule: an open loop achieved < 95 % of its target;
//   - ahead-of-schedule: > 105 %, i.e. it worked off a backlog from before
//     the window (the warm-up fell behind), so its latencies include that
//     backlog's queueing;
//   - connection-bound: an open loop's target × mean service time reaches
//     90 % of its connections while the server had CPU to spare
//     (ServerCPUShare below ServerBound, or unknown), so the connections,
//     not the server, cap the rate (ConnectionsNeeded holds the first
//     number);
//   - stalled-connections: a busy connection completed nothing;
//   - censored: censored requests (unfinished, and an open loop's missed
//     ones) older than the median latency exceed 1 % of the responses: the
//     latency figures leave out that many of the slowest requests;
//   - inconsistent: a closed loop's Little's law is off by more than 10 %.
func ValidityFlags(l *Load) []string {
	var fs []string
	if l.TargetRPS > 0 && l.DurationS > 0 {
		if l.RPS < BehindSchedule*l.TargetRPS {
			fs = append(fs, FlagBehindSchedule)
		}
		if l.RPS > AheadOfSchedule*l.TargetRPS {
			fs = append(fs, FlagAheadOfSchedule)
		}
		if conns := OpenConnections(l); conns > 0 && l.ConnectionsNeeded >= ConnectionBound*float64(conns) && l.ServerCPUShare < ServerBound {
			fs = append(fs, FlagConnectionBound)
		}
	}
	if l.PerConnection != nil && l.PerConnection.Stalled > 0 {
		fs = append(fs, FlagStalledConnections)
	}
	if n := CensoredOverMedian(&l.Stats); n > 0 && float64(n) > CensoredShare*float64(max(l.Responses, 1)) {
		fs = append(fs, FlagCensored)
	}
	if l.Little != nil && math.Abs(l.Little.Ratio-1) > LittleTolerance {
		fs = append(fs, FlagInconsistent)
	}
	return fs
}

// SetServerCPUShare records the server's CPU share over the window and
// derives l's load flags again: a saturated server is not held back by its
// connections (ServerBound).
func (l *Load) SetServerCPUShare(share float64) {
	l.ServerCPUShare = share
	kept := slices.DeleteFunc(slices.Clone(l.Flags), func(f string) bool { return slices.Contains(LoadFlags, f) })
	l.Flags = append(kept, ValidityFlags(l)...)
}

// OpenConnections is the most connections an open loop could use: -c, or
// --max-connections when it lets them grow.
func OpenConnections(l *Load) int {
	return max(l.Settings.Connections, l.Settings.MaxConnections)
}

// NeededConnections is an open loop's target × mean service time: by
// Little's law, the requests it keeps in flight when every one is served
// as fast as the server served them. 0 without service times.
func NeededConnections(target float64, service *Latency) float64 {
	if target <= 0 || service == nil {
		return 0
	}
	return target * service.Mean / 1000
}

// CensoredOverMedian counts the censored requests of s (see Stats.Censored)
// that had waited longer than the median latency of its responses when the
// window closed. With no response at all, every censored request counts.
func CensoredOverMedian(s *Stats) int64 {
	if s.CensoredHistogram == "" {
		return 0
	}
	h, err := DecodeHistogram(s.CensoredHistogram)
	if err != nil || h.TotalCount() == 0 {
		return 0
	}
	if s.Responses == 0 {
		return h.TotalCount()
	}
	median := int64(s.Latency.P50 * 1000) // µs, as the histograms hold
	var n int64
	for _, b := range h.Distribution() {
		if b.From > median {
			n += b.Count
		}
	}
	return n
}

// sameLoadFlags reports whether flags holds exactly the load flags of want.
func sameLoadFlags(flags, want []string) bool {
	for _, f := range LoadFlags {
		if slices.Contains(flags, f) != slices.Contains(want, f) {
			return false
		}
	}
	return true
}
