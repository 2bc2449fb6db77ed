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

// generator is one stream of load, the main load or the probe, spread over
// loops: the settings in the units the loops use (nanoseconds since base)
// and the few atomic counters they share.
type generator struct {
	conns      int
	maxConns   int // open loop: connections it may open in all
	targets    []target
	addr       *net.TCPAddr
	keepAlive  bool
	expect     int
	expectJSON bool
	timeout    int64
	rate       float64 // open loop: requests/s; 0: closed loop
	warmEnd    int64   // the measured window opens here
	end        int64   // the window closes here; MaxInt64: no time limit (-n)
	drain      int64   // open loop: how long after end it waits for what is in flight (Config.drain); 0: not at all
	seconds    int     // length of the timeline; 0: unknown (-n)
	max        int64   // measured requests to send; 0: no limit
	base       time.Time

	opened  atomic.Int64 // connections opened so far (open loop growth)
	tickets atomic.Int64 // measured requests started (-n)
	done    atomic.Int64 // measured requests finished (progress)
	stop    *atomic.Bool // close the window now: Ctrl-C, or the main load ended (probe)
	tl      timeline
	loops   []*loop
}

func (g *generator) now() int64 { return int64(time.Since(g.base)) }

// openConn numbers one more connection of the open loop, if maxConns
// allows it; the loops of one generator share the allowance.
func (g *generator) openConn() (int, bool) {
	for {
		n := g.opened.Load()
		if n >= int64(g.maxConns) {
			return 0, false
		}
		if g.opened.CompareAndSwap(n, n+1) {
			return int(n), true
		}
	}
}

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
	if cfg.MaxConnections <= 0 {
		cfg.MaxConnections = cfg.Connections
	}
	if cfg.MaxDialing <= 0 {
		cfg.MaxDialing = DefaultMaxDialing
	}
	if cfg.Drain == 0 && cfg.Rate > 0 && cfg.Duration > 0 {
		cfg.Drain = DefaultDrain(cfg.Duration, cfg.Timeout)
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
// ctx is cancelled the window closes at once (the requests in flight are
// unfinished) and Run returns the partial result together with ctx.Err().
// With cfg.CPUs it pins the whole calling process (every thread) to those
// CPUs and leaves it pinned.
func Run(ctx context.Context, cfg Config) (*result.Load, error) {
	cfg = withDefaults(cfg)
	if cfg.MaxRequests > 0 && cfg.Warmup > 0 {
		return warmThenCount(ctx, cfg)
	}
	return generate(ctx, cfg)
}

// warmThenCount runs an -n load's warm-up as a load of its own, then the n
// requests, as ab's warm-up is a run of its own (engine.warmThenMeasure):
// the warm-up's requests still in flight when it ends are left unfinished
// (reported with it), and the counted load opens its own connections, so it
// counts exactly n requests, timed from its first send to its last
// completion, as ab times them. In one continuous load the warm-up's last
// requests, one per connection, completed in the window and counted (n +
// connections), and without keep-alive the SYNs of the warm-up's first
// burst of connections that a full accept queue dropped came back 1, 3 or
// 7 s later inside the window: the window then ended a warm-up's length
// earlier than ab's. On joshuous' Node cell (50,000 requests, 1,000
// connections, no keep-alive, a 0.5 s warm-up) restbench read 6,788-6,876
// req/s against ab's 6,340-6,364 that way, and 6,221-6,352 this way
// (docs/benchmarks.md, "restbench against ab"). cfg.Begin runs once, before
// the warm-up.
func warmThenCount(ctx context.Context, cfg Config) (*result.Load, error) {
	warm := cfg
	warm.Duration, warm.Warmup, warm.MaxRequests, warm.Drain = cfg.Warmup, 0, 0, NoDrain
	warm.Probe, warm.Hlog, warm.Progress = "", nil, nil
	wres, err := generate(ctx, warm)
	if err != nil {
		if wres == nil {
			return nil, err
		}
		return &result.Load{Settings: settings(&cfg), Warmup: &wres.Stats}, err
	}
	counted := cfg
	counted.Warmup, counted.Begin = 0, nil
	res, err := generate(ctx, counted)
	if res != nil {
		res.Settings.WarmupS = cfg.Warmup.Seconds()
		res.Warmup = &wres.Stats
	}
	return res, err
}

func generate(ctx context.Context, cfg Config) (*result.Load, error) {
	ep, err := resolve(cfg.URL, cfg.AllowRemote)
	if err != nil {
		return nil, err
	}
	if cfg.Rate < 0 || math.IsInf(cfg.Rate, 0) || math.IsNaN(cfg.Rate) {
		return nil, fmt.Errorf("rate %v: use a positive number of requests/s, or 0 for a closed loop", cfg.Rate)
	}
	if cfg.MaxConnections < cfg.Connections {
		return nil, fmt.Errorf("max connections %d is below the %d connections (-c): give at least as many, or leave it out", cfg.MaxConnections, cfg.Connections)
	}
	if cfg.MaxConnections > cfg.Connections && cfg.Rate == 0 {
		return nil, fmt.Errorf("max connections %d: only an open loop (-R) opens connections beyond -c %d", cfg.MaxConnections, cfg.Connections)
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
	main := newGenerator(&cfg, ep, targets, &stop)
	loops, err := main.newLoops(cfg.Threads)
	if err != nil {
		return nil, err
	}
	var probe *generator
	if cfg.Probe != "" {
		probe = newGenerator(&cfg, ep, probeTargets, &probeStop)
		probe.keepAlive, probe.expectJSON, probe.max = true, false, 0
		probe.conns, probe.maxConns, probe.rate = 1, 1, 1/cfg.ProbeEvery.Seconds()
		probeLoops, err := probe.newLoops(1)
		if err != nil {
			return nil, err
		}
		loops = append(loops, probeLoops...)
	}

	// A keep-alive load's connections open before its clock starts, a
	// bounded number at a time, so that no handshake (nor a SYN the
	// server's full accept queue dropped) falls in the warm-up, the window
	// or a latency. Without keep-alive every request dials: that is the load.
	var pool *result.Pool
	if cfg.KeepAlive {
		pool = main.openPool(ctx, cfg.MaxDialing, cfg.Timeout)
	}
	if cfg.Begin != nil {
		if err := cfg.Begin(ctx); err != nil {
			for _, l := range loops {
				for _, c := range l.conns {
					c.closeSocket(l)
				}
				unix.Close(l.epfd)
			}
			return nil, err
		}
	}

	defer reserveProcs(len(loops))()

	base := time.Now()
	main.base = base
	if cfg.Hlog != nil {
		main.tl.hlog = result.NewHlogWriter(cfg.Hlog, base.Add(time.Duration(main.warmEnd)))
	}
	if probe != nil {
		probe.base, probe.end, probe.warmEnd = base, main.end, main.warmEnd
	}
	var stopAt atomic.Int64 // when Ctrl-C stopped the load early (ns since base)
	finished := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			stopAt.CompareAndSwap(0, main.now())
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
	res.Pool = pool
	if probe != nil {
		p := probe.loops[0]
		if res.Probe, err = mergeStreams(p.measured, res.DurationS); err != nil {
			return nil, err
		}
		res.ClientCPUS += float64(p.cpuNS) / 1e9
	}
	return res, ctx.Err()
}

// newGenerator sets up the stream of load cfg describes. Its two stops
// differ on purpose: with -d the window closes at the deadline and what is
// in flight then is unfinished; with -n there is no deadline, and every one
// of the n requests completes or times out.
func newGenerator(cfg *Config, ep endpoint, targets []target, stop *atomic.Bool) *generator {
	g := &generator{
		conns: cfg.Connections, maxConns: cfg.MaxConnections, targets: targets,
		keepAlive: cfg.KeepAlive, expect: cfg.Expect, expectJSON: cfg.ExpectJSON,
		timeout: int64(cfg.Timeout), max: cfg.MaxRequests, rate: cfg.Rate,
		warmEnd: int64(cfg.Warmup), end: math.MaxInt64, stop: stop,
	}
	if cfg.Duration > 0 {
		g.end = g.warmEnd + int64(cfg.Duration)
		g.seconds = int((cfg.Duration + time.Second - 1) / time.Second)
		g.drain = int64(cfg.drain())
	}
	g.addr = ep.addr
	return g
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

// newLoops spreads g's connections over threads loops, connection id on
// loop id % threads. In the open loop arrival j of one constant-rate
// schedule (due at j/rate s) belongs to connection j % conns, and so to
// that connection's loop: each loop offers the share of the rate its
// connections carry, and together the loops send each arrival once. (An
// equal share per loop overloads a loop with fewer connections while
// another idles.)
func (g *generator) newLoops(threads int) ([]*loop, error) {
	for i := range threads {
		l, err := newLoop(g, uint64(i+1))
		if err != nil {
			return nil, fmt.Errorf("epoll: %w", err)
		}
		g.loops = append(g.loops, l)
	}
	for id := range g.conns {
		l := g.loops[id%threads]
		l.idle.push(l.add(id))
		if g.rate > 0 {
			l.slots = append(l.slots, int64(id))
		}
	}
	if g.rate > 0 {
		for _, l := range g.loops {
			l.cycle, l.interval = int64(g.conns), 1e9/g.rate
		}
	}
	g.opened.Store(int64(g.conns))
	return g.loops, nil
}

func progress(f func(int64, time.Duration), r *generator, finished <-chan struct{}) {
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
// finished, which closes the window of a -n load.
func (g *generator) result(cfg *Config, stopAt, endedAt int64) (*result.Load, error) {
	// A deadline (-d) or a stop closes the window at that instant. A -n
	// load that ran out of requests first, with or without a deadline behind
	// it, closes it when its last request finished: its rate is n over the
	// time the n took, not over a deadline it never reached.
	windowEnd := g.end
	if stopAt > 0 {
		windowEnd = min(stopAt, windowEnd)
	} else if !windowClosed(g) {
		windowEnd = min(endedAt, windowEnd)
	}
	seconds := float64(max(windowEnd-g.warmEnd, 0)) / 1e9
	res := &result.Load{DurationS: seconds, Settings: settings(cfg), WindowStart: g.base.Add(time.Duration(g.warmEnd)).UTC()}
	var all, warm []*stream
	res.Targets = map[string]*result.Stats{}
	for ti, t := range g.targets {
		var per []*stream
		for _, l := range g.loops {
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
	for _, l := range g.loops {
		all = append(all, l.missed)
	}
	st, err := mergeStreams(all, seconds)
	if err != nil {
		return nil, err
	}
	res.Stats = *st
	if res.Timeline, err = g.tl.result(seconds); err != nil {
		return nil, fmt.Errorf("hlog: %w", err)
	}
	if len(warm) > 0 {
		if res.Warmup, err = mergeStreams(warm, float64(g.warmEnd)/1e9); err != nil {
			return nil, err
		}
	}
	for _, l := range g.loops {
		res.ClientCPUS += float64(l.cpuNS) / 1e9
		if l.drainedAt > 0 {
			res.DrainMS = max(res.DrainMS, float64(l.drainedAt-g.end)/1e6)
		}
	}
	g.account(res)
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
	if cfg.MaxConnections > cfg.Connections {
		s.MaxConnections = cfg.MaxConnections
	}
	s.DrainS = cfg.drain().Seconds()
	for _, t := range cfg.Mix {
		s.MixTargets = append(s.MixTargets, result.MixTarget{Name: t.Name, Method: t.Method, Path: t.Path, Weight: t.Weight})
	}
	if cfg.Probe != "" {
		s.Probe = cfg.Probe + "@" + cfg.ProbeEvery.String()
	}
	if len(cfg.CPUs) > 0 {
		s.CPUs = cpu.FormatList(cfg.CPUs)
	}
	return s
}
