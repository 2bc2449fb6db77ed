// Package merge splits one load into the shards several generators offer
// (Shard) and adds up the results they measured at the same time against one
// server, as if one generator had offered the summed load. HdrHistograms add without loss, so every whole-run percentile of the
// merged result is exact; counts and rates add because the generators share
// one window (restbench load --start-at).
package merge

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"restbench/internal/result"
)

// MinOverlap is the share of the shortest window that every generator must
// have measured at the same time. Generators started with one --start-at
// overlap to within milliseconds.
const MinOverlap = 0.9

// Loads merges the results of generators that ran at the same time with the
// same settings (only their connections, rate share and shard may differ).
// It refuses, saying what differs, results that cannot be added up.
func Loads(loads []*result.Load, names []string) (*result.Load, error) {
	if len(loads) == 0 {
		return nil, fmt.Errorf("nothing to merge: give the result files of the generators")
	}
	if len(names) != len(loads) {
		names = make([]string, len(loads))
		for i := range loads {
			names[i] = fmt.Sprintf("result %d", i+1)
		}
	}
	if err := compatible(loads, names); err != nil {
		return nil, err
	}
	start, shifts, err := align(loads, names)
	if err != nil {
		return nil, err
	}

	m := &result.Load{WindowStart: start, Settings: mergedSettings(loads)}
	var all, probes, warm []*result.Stats
	targets := map[string][]*result.Stats{}
	for _, l := range loads {
		all = append(all, &l.Stats)
		m.DurationS += l.DurationS / float64(len(loads))
		m.TargetRPS += l.TargetRPS
		m.Missed += l.Missed
		m.Due += l.Due
		m.Sent += l.Sent
		m.DrainMS = max(m.DrainMS, l.DrainMS)
		m.ClientCPUS += l.ClientCPUS
		if l.Probe != nil {
			probes = append(probes, l.Probe)
		}
		if l.Warmup != nil {
			warm = append(warm, l.Warmup)
		}
		for name, t := range l.Targets {
			targets[name] = append(targets[name], t)
		}
	}
	// The top level's censored series holds the open loop's missed
	// requests too (docs/results.md).
	missed := make([]int64, len(loads))
	for i, l := range loads {
		missed[i] = l.Missed
	}
	st, err := stats(all, shifts, missed)
	if err != nil {
		return nil, err
	}
	m.Stats = *st
	if len(probes) > 0 {
		if m.Probe, err = stats(probes, shifts, nil); err != nil {
			return nil, fmt.Errorf("probe: %w", err)
		}
	}
	if len(warm) > 0 {
		if m.Warmup, err = stats(warm, shifts, nil); err != nil {
			return nil, fmt.Errorf("warmup: %w", err)
		}
	}
	if len(targets) > 0 {
		m.Targets = map[string]*result.Stats{}
		for name, ts := range targets {
			if len(ts) != len(loads) {
				return nil, fmt.Errorf("target %q is in %d of the %d results: the generators ran different mixes", name, len(ts), len(loads))
			}
			if m.Targets[name], err = stats(ts, shifts, nil); err != nil {
				return nil, fmt.Errorf("target %s: %w", name, err)
			}
		}
	}
	if m.Settings.MaxRequests > 0 {
		// With -n each generator stops when its share is done: the windows
		// differ, and the merged rate is the whole over the span they cover.
		m.DurationS = span(loads, start)
		rescale(&m.Stats, m.DurationS)
		for _, t := range m.Targets {
			rescale(t, m.DurationS)
		}
	}
	m.PerConnection = perConnection(loads)
	m.Little = little(loads, m.DurationS)
	m.ConnectionsNeeded = result.NeededConnections(m.TargetRPS, m.Service)
	m.Flags = result.ValidityFlags(m)
	if err := result.CheckAccounting(m); err != nil {
		return nil, fmt.Errorf("the merged result does not balance (a bug in merge or in one input; run restbench merge on each input alone to find it):\n%w", err)
	}
	return m, nil
}

// span is the seconds from first, the earliest window's start (align's),
// to the last window's end. Each end is taken in seconds from first, not as
// a time: a duration in float seconds turned into nanoseconds truncates,
// and the span came out shorter than the longest window it holds (by under
// a nanosecond; TestMergeRequestCounts caught it once in make test).
func span(loads []*result.Load, first time.Time) float64 {
	s := 0.0
	for _, l := range loads {
		s = max(s, l.WindowStart.Sub(first).Seconds()+l.DurationS)
	}
	return s
}

// rescale sets s's rates to its counts over seconds.
func rescale(s *result.Stats, seconds float64) {
	if seconds <= 0 {
		return
	}
	// The drained came after the windows: the rates leave them out.
	s.RPS = float64(s.WindowResponses()) / seconds
	if s.OKRPS != 0 {
		s.OKRPS = float64(s.WindowResponses()-s.Errors.Status-s.Errors.Body) / seconds
	}
}

// stats adds up one stream (the whole, a target, the probe) of every
// generator. shifts[i] is how many whole seconds generator i's timeline
// starts after the merged window's first second. missed[i], when given, is
// what in[i]'s censored histogram holds beyond its unfinished requests.
func stats(in []*result.Stats, shifts []int, missed []int64) (*result.Stats, error) {
	out := &result.Stats{StatusCodes: map[string]int64{}}
	var hist, service, censored histSum
	for i, s := range in {
		out.Requests += s.Requests
		out.Responses += s.Responses
		out.Errors.Add(s.Errors)
		for code, n := range s.StatusCodes {
			out.StatusCodes[code] += n
		}
		out.BytesRead += s.BytesRead
		out.RPS += s.RPS
		out.OKRPS += s.OKRPS
		out.Unfinished += s.Unfinished
		out.Drained += s.Drained
		if err := hist.add(s.Histogram, s.Responses, i); err != nil {
			return nil, fmt.Errorf("histogram: %w", err)
		}
		if err := service.add(s.ServiceHistogram, s.Responses, i); err != nil {
			return nil, fmt.Errorf("service histogram: %w", err)
		}
		censoredN := s.Unfinished
		if missed != nil {
			censoredN += missed[i]
		}
		if err := censored.add(s.CensoredHistogram, censoredN, i); err != nil {
			return nil, fmt.Errorf("censored histogram: %w", err)
		}
	}
	var err error
	if out.Histogram, err = hist.encode(); err != nil {
		return nil, err
	}
	if hist.h != nil {
		out.Latency = result.Summarize(hist.h)
	}
	if out.ServiceHistogram, err = service.encode(); err != nil {
		return nil, err
	}
	if service.h != nil {
		l := result.Summarize(service.h)
		out.Service = &l
	}
	if out.CensoredHistogram, err = censored.encode(); err != nil {
		return nil, err
	}
	if censored.h != nil && censored.h.TotalCount() > 0 {
		l := result.Summarize(censored.h)
		out.Censored = &l
	}
	out.Timeline = timeline(in, shifts)
	return out, nil
}

// histSum adds encoded histograms. A stream with values but no histogram
// (wrk and ab results have none; results from before the service and
// censored series have none of those) cannot be merged without loss when
// others have one: refuse it rather than print percentiles of a part.
type histSum struct {
	h       *hdrhistogram.Histogram
	lacking int // 1 + index of a result with values but no histogram
}

func (s *histSum) add(enc string, values int64, i int) error {
	if enc == "" {
		if values > 0 && s.lacking == 0 {
			s.lacking = i + 1
		}
	} else {
		d, err := result.DecodeHistogram(enc)
		if err != nil {
			return fmt.Errorf("result %d: %w", i+1, err)
		}
		if s.h == nil {
			s.h = result.NewHistogram()
		}
		s.h.Merge(d)
	}
	if s.h != nil && s.lacking > 0 {
		return fmt.Errorf("result %d has none where others have one: were they made by different restbench versions or engines? (only restbench's own engine keeps histograms)", s.lacking)
	}
	return nil
}

func (s *histSum) encode() (string, error) {
	if s.h == nil {
		return "", nil
	}
	return result.EncodeHistogram(s.h)
}

// timeline adds the generators' seconds that cover the same wall-clock
// second. A timeline keeps no histogram per second, so a merged second's
// p50 and p99 are the generators' weighted by their requests: close, since
// the generators measure one server, but not exact (whole-run percentiles
// are).
func timeline(in []*result.Stats, shifts []int) []result.Second {
	var out []result.Second
	for i, s := range in {
		for _, sec := range s.Timeline {
			t := sec.T + shifts[i]
			for len(out) <= t {
				out = append(out, result.Second{T: len(out)})
			}
			o := &out[t]
			if n := o.Requests + sec.Requests; n > 0 {
				o.P50 = (o.P50*float64(o.Requests) + sec.P50*float64(sec.Requests)) / float64(n)
				o.P99 = (o.P99*float64(o.Requests) + sec.P99*float64(sec.Requests)) / float64(n)
			}
			o.Requests += sec.Requests
			o.Errors += sec.Errors
		}
	}
	return out
}

// perConnection: min, max and stalled add up exactly. Results keep no
// per-connection counts, so the median is the median of the generators'
// medians, each counted once per connection it stands for.
func perConnection(loads []*result.Load) *result.PerConnection {
	var out *result.PerConnection
	var medians []int64
	for _, l := range loads {
		pc := l.PerConnection
		if pc == nil {
			continue
		}
		if out == nil {
			out = &result.PerConnection{Min: pc.Min, Max: pc.Max}
		}
		out.Min, out.Max = min(out.Min, pc.Min), max(out.Max, pc.Max)
		out.Stalled += pc.Stalled
		for range max(l.Settings.Connections, 1) {
			medians = append(medians, pc.Median)
		}
	}
	if out != nil {
		slices.Sort(medians)
		out.Median = medians[len(medians)/2]
	}
	return out
}

// little recomputes the closed loop's Little's-law check over every
// connection of every generator, as the generator computes it: the mean
// number in flight is the time requests spent in flight within the window,
// summed, over the window's length. Each generator's in_flight × duration_s
// is its sum, exactly; their total over the merged duration_s (the mean of
// theirs: the windows of one --start-at differ by milliseconds) is the
// merged mean in flight. A generator without the check (a -n load, another
// engine) leaves the merge without one.
func little(loads []*result.Load, seconds float64) *result.Little {
	if seconds <= 0 {
		return nil
	}
	out := &result.Little{}
	var inWindowS float64
	for _, l := range loads {
		if l.Little == nil {
			return nil
		}
		out.Connections += l.Little.Connections
		inWindowS += l.Little.InFlight * l.DurationS
	}
	if out.Connections == 0 {
		return nil
	}
	out.InFlight = inWindowS / seconds
	out.Ratio = out.InFlight / float64(out.Connections)
	return out
}

// mergedSettings are the shared settings with the per-generator shares added
// up: the merged result reads as one generator's.
func mergedSettings(loads []*result.Load) result.Settings {
	s := loads[0].Settings
	s.Headers = slices.Clone(s.Headers)
	s.Connections, s.MaxConnections, s.MaxRequests, s.Rate = 0, 0, 0, 0
	grows := false
	for _, l := range loads {
		s.Connections += l.Settings.Connections
		// A generator without --max-connections may open its -c: the
		// merged limit counts those too.
		s.MaxConnections += max(l.Settings.MaxConnections, l.Settings.Connections)
		grows = grows || l.Settings.MaxConnections > 0
		s.MaxRequests += l.Settings.MaxRequests
		s.Rate += l.Settings.Rate
	}
	if !grows {
		s.MaxConnections = 0
	}
	s.Shard = fmt.Sprintf("merged %d", len(loads))
	// Each generator had CPUs of its own host: no list describes them all.
	s.CPUs = ""
	return s
}

// align finds the merged window's start (the earliest generator's) and, for
// each generator, how many whole seconds later its timeline starts. It
// refuses windows that do not overlap by MinOverlap.
func align(loads []*result.Load, names []string) (time.Time, []int, error) {
	var start, end time.Time
	shortest := math.Inf(1)
	for i, l := range loads {
		if l.WindowStart.IsZero() {
			return time.Time{}, nil, fmt.Errorf("%s has no window_start: it cannot show that it measured the same seconds as the others (make it with a restbench load that records window_start, started with --start-at)", names[i])
		}
		e := l.WindowStart.Add(time.Duration(l.DurationS * float64(time.Second)))
		if i == 0 || l.WindowStart.After(start) {
			start = l.WindowStart
		}
		if i == 0 || e.Before(end) {
			end = e
		}
		shortest = min(shortest, l.DurationS)
	}
	if overlap := end.Sub(start).Seconds(); shortest <= 0 || overlap < MinOverlap*shortest {
		var lines string
		for i, l := range loads {
			lines += fmt.Sprintf("\n  %s: %s for %.2f s", names[i], l.WindowStart.UTC().Format(time.RFC3339Nano), l.DurationS)
		}
		return time.Time{}, nil, fmt.Errorf("the windows do not overlap (%.2f s in common, need %.0f %% of %.2f s): these generators did not measure the same seconds; start them all with one --start-at%s",
			max(overlap, 0), 100*MinOverlap, shortest, lines)
	}
	first := loads[0].WindowStart
	for _, l := range loads {
		if l.WindowStart.Before(first) {
			first = l.WindowStart
		}
	}
	shifts := make([]int, len(loads))
	for i, l := range loads {
		shifts[i] = int(math.Round(l.WindowStart.Sub(first).Seconds()))
	}
	return first, shifts, nil
}

// compatible refuses results whose settings differ in anything but a
// generator's share (connections, rate, request count, shard) and its CPUs.
func compatible(loads []*result.Load, names []string) error {
	share := func(s result.Settings) result.Settings {
		s.Connections, s.MaxConnections, s.MaxRequests, s.Rate, s.Shard, s.CPUs = 0, 0, 0, 0, "", ""
		return s
	}
	ref := share(loads[0].Settings)
	for i, l := range loads[1:] {
		if d := diff(ref, share(l.Settings)); d != "" {
			return fmt.Errorf("%s and %s were made with different settings (%s): merge only generators of one load, started with the same command but --shard", names[0], names[i+1], d)
		}
		if (l.Settings.Rate > 0) != (loads[0].Settings.Rate > 0) {
			return fmt.Errorf("%s is an open loop and %s a closed one (or the other way round): give every generator -R, or none", names[0], names[i+1])
		}
	}
	return shards(loads, names)
}

// shards: when the generators say which share they are, the set must be
// complete and without repeats, so that the merge is the whole load.
func shards(loads []*result.Load, names []string) error {
	seen := map[int]string{}
	total := 0
	for i, l := range loads {
		if l.Settings.Shard == "" {
			if len(seen) > 0 {
				return fmt.Errorf("%s has no shard but others do: merge the shards of one distributed load", names[i])
			}
			continue
		}
		var k, n int
		if _, err := fmt.Sscanf(l.Settings.Shard, "%d/%d", &k, &n); err != nil {
			return fmt.Errorf("%s: shard %q is not i/N", names[i], l.Settings.Shard)
		}
		if total != 0 && n != total {
			return fmt.Errorf("%s is shard %s but others are of %d: merge the shards of one distributed load", names[i], l.Settings.Shard, total)
		}
		if prev, dup := seen[k]; dup {
			return fmt.Errorf("%s and %s are both shard %d/%d: a result given twice?", prev, names[i], k, n)
		}
		total, seen[k] = n, names[i]
		if i > 0 && loads[0].Settings.Shard == "" {
			return fmt.Errorf("%s has no shard but others do: merge the shards of one distributed load", names[0])
		}
	}
	if total > 0 && len(seen) != total {
		var missing []int
		for k := range total {
			if _, ok := seen[k]; !ok {
				missing = append(missing, k)
			}
		}
		return fmt.Errorf("have %d of %d shards; missing %v (of 0..%d): a generator failed or its file was left out", len(seen), total, missing, total-1)
	}
	return nil
}

// diff names the first settings that differ.
func diff(a, b result.Settings) string {
	type field struct {
		name string
		a, b any
	}
	for _, f := range []field{
		{"engine", a.Engine, b.Engine}, {"url", a.URL, b.URL}, {"method", a.Method, b.Method},
		{"headers", fmt.Sprint(a.Headers), fmt.Sprint(b.Headers)}, {"body bytes", a.BodyBytes, b.BodyBytes},
		{"duration", a.DurationS, b.DurationS}, {"warmup", a.WarmupS, b.WarmupS}, {"keep-alive", a.KeepAlive, b.KeepAlive},
		{"mix", a.Mix, b.Mix}, {"probe", a.Probe, b.Probe}, {"expect", a.Expect, b.Expect},
		{"expect json", a.ExpectJSON, b.ExpectJSON}, {"timeout", a.TimeoutS, b.TimeoutS},
		{"start at", a.StartAt, b.StartAt},
	} {
		if f.a != f.b {
			return fmt.Sprintf("%s: %v vs %v", f.name, f.a, f.b)
		}
	}
	return ""
}
