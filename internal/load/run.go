package load

import (
	"context"
	"fmt"
	"math"
	"net"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"restbench/internal/cpu"
	"restbench/internal/result"
)

// runner is what the loops of one stream of load share: the settings in the
// units the loops use (nanoseconds since base) and a few atomic counters.
type runner struct {
	conns      int
	targets    []target
	addr       *net.TCPAddr
	keepAlive  bool
	expect     int
	expectJSON bool
	timeout    int64
	interval   int64 // open loop: ns between two requests of one connection; 0: closed loop
	warmEnd    int64 // the measured part starts here
	end        int64 // no request is sent at or after this; MaxInt64: no time limit
	seconds    int   // length of the timeline; 0: unknown (-n)
	max        int64 // measured requests to send; 0: no limit
	base       time.Time
	ownP       bool // every loop has a P to itself: it may block in raw system calls (sys.go)

	drain   atomic.Int64 // ns that in-flight requests may take to finish after the end
	tickets atomic.Int64 // measured requests started (-n)
	done    atomic.Int64 // measured requests finished (progress)
	stop    *atomic.Bool // end now: Ctrl-C, -n reached, or the main load ended (probe)
	tl      timeline
	loops   []*loop
}

func (r *runner) now() int64 { return int64(time.Since(r.base)) }

// withDefaults fills in the documented defaults of cfg.
func withDefaults(cfg Config) Config {
	if cfg.Connections <= 0 {
		cfg.Connections = 10
	}
	if cfg.Duration <= 0 && cfg.MaxRequests <= 0 {
		cfg.Duration = 10 * time.Second
	}
	if cfg.Expect == 0 {
		cfg.Expect = 200
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.Probe != "" && cfg.ProbeEvery <= 0 {
		cfg.ProbeEvery = time.Second
	}
	if cfg.Threads <= 0 {
		cfg.Threads = runtime.GOMAXPROCS(0)
		if len(cfg.CPUs) > 0 {
			cfg.Threads = len(cfg.CPUs)
		}
	}
	cfg.Threads = min(cfg.Threads, cfg.Connections)
	return cfg
}

// Run generates the load cfg describes and returns what it measured. When
// ctx is cancelled it stops sending, lets the requests in flight finish for
// up to a second, and returns the partial result together with ctx.Err().
// With cfg.CPUs it pins the whole calling process (every thread) to those
// CPUs and leaves it pinned.
func Run(ctx context.Context, cfg Config) (*result.Load, error) {
	cfg = withDefaults(cfg)
	ep, err := resolve(cfg.URL, cfg.AllowRemote)
	if err != nil {
		return nil, err
	}
	if cfg.Rate < 0 || math.IsInf(cfg.Rate, 0) || math.IsNaN(cfg.Rate) {
		return nil, fmt.Errorf("rate %v: use a positive number of requests/s, or 0 for a closed loop", cfg.Rate)
	}
	if len(cfg.CPUs) > 0 {
		if err := cpu.PinSelf(cfg.CPUs); err != nil {
			return nil, err
		}
	}
	targets, err := buildTargets(&cfg, ep)
	if err != nil {
		return nil, err
	}
	var probeTargets []target
	if cfg.Probe != "" {
		probeCfg := Config{Method: "GET", KeepAlive: true, Mix: []Target{{Name: "probe", Path: cfg.Probe}}}
		if probeTargets, err = buildTargets(&probeCfg, ep); err != nil {
			return nil, fmt.Errorf("probe: %w", err)
		}
	}
	var stop, probeStop atomic.Bool
	main := newRunner(&cfg, ep, targets, &stop)
	if cfg.Rate > 0 {
		main.interval = max(int64(float64(cfg.Connections)*1e9/cfg.Rate), 1)
	}
	loops, err := main.newLoops(cfg.Connections, cfg.Threads)
	if err != nil {
		return nil, err
	}
	var probe *runner
	if cfg.Probe != "" {
		probe = newRunner(&cfg, ep, probeTargets, &probeStop)
		probe.keepAlive, probe.expectJSON, probe.max = true, false, 0
		probe.interval = int64(cfg.ProbeEvery)
		probeLoops, err := probe.newLoops(1, 1)
		if err != nil {
			return nil, err
		}
		loops = append(loops, probeLoops...)
	}

	// Loops that each hold a P may block in raw system calls (sys.go),
	// which costs the Go runtime nothing; that needs one P more than loops.
	// GOMAXPROCS counts Ps, not CPUs: raising it does not let the generator
	// use more CPU than its affinity allows.
	if procs := runtime.GOMAXPROCS(0); procs <= len(loops) {
		defer runtime.GOMAXPROCS(procs)
		runtime.GOMAXPROCS(len(loops) + 1)
	}
	main.ownP = true
	if probe != nil {
		probe.ownP = true
	}

	base := time.Now()
	main.base = base
	if probe != nil {
		probe.base, probe.end, probe.warmEnd = base, main.end, main.warmEnd
	}
	var stopAt atomic.Int64 // when Ctrl-C stopped the load early (ns since base)
	finished := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			stopAt.CompareAndSwap(0, main.now())
			main.drain.Store(min(main.drain.Load(), int64(time.Second)))
			stop.Store(true)
		case <-finished:
		}
	}()
	if cfg.Progress != nil {
		go progress(cfg.Progress, main, finished)
	}
	var wg, mainWG sync.WaitGroup
	for i, l := range loops {
		wg.Add(1)
		if i < len(main.loops) {
			mainWG.Add(1)
		}
		go func() {
			defer wg.Done()
			l.run()
			if i < len(main.loops) {
				mainWG.Done()
			}
		}()
	}
	mainWG.Wait()
	endedAt := main.now()
	probeStop.Store(true) // the probe watches the main load, no longer
	wg.Wait()
	close(finished)

	res, err := main.result(&cfg, stopAt.Load(), endedAt)
	if err != nil {
		return nil, err
	}
	if probe != nil {
		p := probe.loops[0]
		if res.Probe, err = mergeStreams(p.measured, res.DurationS); err != nil {
			return nil, err
		}
		res.ClientCPUS += float64(p.cpuNS) / 1e9
	}
	return res, ctx.Err()
}

func newRunner(cfg *Config, ep endpoint, targets []target, stop *atomic.Bool) *runner {
	r := &runner{
		conns: cfg.Connections, targets: targets,
		keepAlive: cfg.KeepAlive, expect: cfg.Expect, expectJSON: cfg.ExpectJSON,
		timeout: int64(cfg.Timeout), max: cfg.MaxRequests,
		warmEnd: int64(cfg.Warmup), end: math.MaxInt64, stop: stop,
	}
	// After a timed end the requests in flight get a little time to finish;
	// after -n the last requests are part of the count and get the timeout.
	r.drain.Store(min(r.timeout, int64(2*time.Second)))
	if cfg.Duration > 0 {
		r.end = r.warmEnd + int64(cfg.Duration)
		r.seconds = int((cfg.Duration + time.Second - 1) / time.Second)
	} else {
		r.drain.Store(r.timeout)
	}
	r.addr = ep.addr
	return r
}

func sockaddr(a *net.TCPAddr) (int, unix.Sockaddr) {
	if ip4 := a.IP.To4(); ip4 != nil {
		sa := &unix.SockaddrInet4{Port: a.Port}
		copy(sa.Addr[:], ip4)
		return unix.AF_INET, sa
	}
	sa := &unix.SockaddrInet6{Port: a.Port}
	copy(sa.Addr[:], a.IP.To16())
	return unix.AF_INET6, sa
}

// newLoops spreads conns connections over threads loops.
func (r *runner) newLoops(conns, threads int) ([]*loop, error) {
	for i := range threads {
		l, err := newLoop(r, uint64(i+1))
		if err != nil {
			return nil, fmt.Errorf("epoll: %w", err)
		}
		r.loops = append(r.loops, l)
	}
	for id := range conns {
		r.loops[id%threads].add(id)
	}
	return r.loops, nil
}

func progress(f func(int64, time.Duration), r *runner, finished <-chan struct{}) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-finished:
			return
		case <-t.C:
			f(r.done.Load(), time.Duration(max(r.now()-r.warmEnd, 0)))
		}
	}
}

// result merges what the loops recorded. stopAt is when Ctrl-C
// stopped the load (0: it was not cancelled); endedAt is when the last loop
// finished.
func (r *runner) result(cfg *Config, stopAt, endedAt int64) (*result.Load, error) {
	measuredEnd := r.end
	if stopAt > 0 || r.end == math.MaxInt64 || endedAt < r.end {
		measuredEnd = endedAt
	}
	if stopAt > 0 {
		measuredEnd = min(stopAt, measuredEnd)
	}
	seconds := float64(max(measuredEnd-r.warmEnd, 0)) / 1e9
	res := &result.Load{DurationS: seconds, Settings: settings(cfg)}
	var all, warm []*stream
	res.Targets = map[string]*result.Stats{}
	for ti, t := range r.targets {
		var per []*stream
		for _, l := range r.loops {
			per = append(per, l.measured[ti])
			all = append(all, l.measured[ti])
			if l.warm != nil {
				warm = append(warm, l.warm[ti])
			}
		}
		st, err := mergeStreams(per, seconds)
		if err != nil {
			return nil, err
		}
		res.Targets[t.name] = st
	}
	st, err := mergeStreams(all, seconds)
	if err != nil {
		return nil, err
	}
	res.Stats = *st
	res.Timeline = r.tl.result()
	if len(warm) > 0 {
		if res.Warmup, err = mergeStreams(warm, float64(r.warmEnd)/1e9); err != nil {
			return nil, err
		}
	}
	for _, l := range r.loops {
		res.ClientCPUS += float64(l.cpuNS) / 1e9
		if r.interval > 0 && r.max == 0 { // with -n, the rest was never meant to be sent
			for _, c := range l.conns {
				if from := max(c.next, r.warmEnd); from < measuredEnd {
					res.Missed += (measuredEnd - from + r.interval - 1) / r.interval
				}
			}
		}
	}
	return res, nil
}

func mergeStreams(streams []*stream, seconds float64) (*result.Stats, error) {
	total := newStream()
	for _, s := range streams {
		total.merge(s)
	}
	return total.stats(seconds)
}

func settings(cfg *Config) result.Settings {
	s := result.Settings{
		Engine: "restbench", URL: cfg.URL, Method: strings.ToUpper(cfg.Method), Headers: cfg.Headers,
		BodyBytes: len(cfg.Body), Connections: cfg.Connections, DurationS: cfg.Duration.Seconds(),
		MaxRequests: cfg.MaxRequests, WarmupS: cfg.Warmup.Seconds(), Rate: cfg.Rate,
		KeepAlive: cfg.KeepAlive, Mix: cfg.MixFile, Expect: cfg.Expect, ExpectJSON: cfg.ExpectJSON,
		TimeoutS: cfg.Timeout.Seconds(),
	}
	if s.Method == "" && len(cfg.Mix) == 0 {
		s.Method = "GET"
		if len(cfg.Body) > 0 {
			s.Method = "POST"
		}
	}
	if cfg.Probe != "" {
		s.Probe = cfg.Probe + "@" + cfg.ProbeEvery.String()
	}
	if len(cfg.CPUs) > 0 {
		s.CPUs = cpu.FormatList(cfg.CPUs)
	}
	return s
}
