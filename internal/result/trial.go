package result

import "time"

// Trial statuses.
const (
	StatusOK     = "ok"
	StatusFailed = "failed"
	// StatusNotRun: the trial was not attempted on this machine, and Error
	// says why ("not run: wrk is not installed (apt-get install wrk)",
	// "not run here: needs 6 cores"). It is neither a success nor a failure.
	StatusNotRun = "not-run"
	// StatusNotSupported: the implementation cannot run this way (PM2 on
	// Bun, say); Error says so.
	StatusNotSupported = "not-supported"
)

// Flags a trial can carry; the report shows every one of them.
const (
	FlagClientBound     = "client-bound"      // the generator used >= 90% of its CPU budget
	FlagQuotaNotApplied = "quota-not-applied" // the suite asked for a CPU quota that could not be set
	FlagUnpinned        = "unpinned"          // server and generator shared CPUs (as published)
	FlagFailed          = "failed"            // the server failed to start or died, or the load failed
	// FlagAcceptQueueOverflow: the server's listen (accept) queue overflowed
	// during the trial (Listen.Overflowed): connections waited for TCP's SYN
	// retransmission (1 s, 3 s, ...), which the latencies then measure.
	FlagAcceptQueueOverflow = "accept-queue-overflow"
	// FlagRetransmissionBound: the listen queue overflowed and the server
	// then idled for a whole second or more before the last response
	// (RetransmissionBound): the run ended when its last connections got
	// in on a re-sent SYN, so its length, and its req/s, is TCP's
	// retransmission timer (1, 3, 7, 15 s after the first SYN), not the
	// server's work.
	FlagRetransmissionBound = "retransmission-bound"
)

// Trial is one measured repetition of one run: results/<suite>/<ts>/<run>.t<N>.json.
type Trial struct {
	Suite      string            `json:"suite"`
	Experiment string            `json:"experiment"`
	Run        string            `json:"run"` // id unique in the suite, e.g. "single-thread/node-http"
	Impl       string            `json:"impl"`
	Params     map[string]string `json:"params,omitempty"` // the matrix values of this run
	Trial      int               `json:"trial"`            // 1-based
	// Round is the interleaved round the trial was measured in (1-based):
	// trial k of every run of an experiment is measured in round k, so
	// ratios between runs pair trials of the same round.
	Round      int               `json:"round,omitempty"`
	Started    time.Time         `json:"started"`
	Finished   time.Time         `json:"finished"`
	Status     string            `json:"status"`
	Error      string            `json:"error,omitempty"`
	StderrTail string            `json:"stderr_tail,omitempty"`
	Flags      []string          `json:"flags,omitempty"`
	Placement  Placement         `json:"placement"`
	Env        map[string]string `json:"env,omitempty"`     // what the server was started with (THREADS, GOMAXPROCS, CLUSTER)
	Server     *Server           `json:"server,omitempty"`  // what the server said in its readiness line
	Runtime    *Runtime          `json:"runtime,omitempty"` // the runtime it ran on
	Load       *Load             `json:"load,omitempty"`
	Monitor    *Monitor          `json:"monitor,omitempty"`
	// RateFrom: the suite gave the rate as a fraction of a capacity; the
	// capacity and where it came from (Load.TargetRPS is the rate).
	RateFrom *RateFrom `json:"rate_from,omitempty"`
	// ConnectionsFrom and DurationFrom: the suite gave a rule for the
	// connections or the window, sized at run time (Load.Settings holds
	// what was used).
	ConnectionsFrom *ConnectionsFrom `json:"connections_from,omitempty"`
	DurationFrom    *DurationFrom    `json:"duration_from,omitempty"`
	Listen          *Listen          `json:"listen,omitempty"` // the server's listen queue over the trial
	// PrewarmS: the seconds of closed loop the server was warmed with before
	// the load (the suite's prewarm:), not measured; 0: none.
	PrewarmS float64 `json:"prewarm_s,omitempty"`
	// PrewarmRequests: the responses the prewarm got (the suite's
	// prewarm_requests, or fewer when its cap came first); absent when the
	// prewarm was not counted in requests.
	PrewarmRequests int64 `json:"prewarm_requests,omitempty"`
	// PrewarmQueued: the connections a prewarm without keep-alive left in
	// the server's accept queue, which the load waited for the server to
	// accept before opening its own (runner.awaitAccepted); absent: none.
	PrewarmQueued int `json:"prewarm_queued,omitempty"`
}

// Listen is what the server's listen queue did from before the warm-up to
// after the load (internal/listenq).
type Listen struct {
	// Overflows and Drops are the growth of ListenOverflows and ListenDrops
	// (/proc/net/netstat) in the server's network namespace: under
	// placement pinned or shared that is the machine's, and other programs'
	// listeners count too.
	Overflows int64 `json:"overflows"`
	Drops     int64 `json:"drops"`
	// SocketDrops is the growth of the drops the server's own listening
	// sockets counted (sk_drops, `ss -ltnm`'s d), absent where unreadable.
	SocketDrops *int64 `json:"socket_drops,omitempty"`
	// Backlog is the accept queue's size in effect, listen()'s backlog
	// capped by net.core.somaxconn (`ss -ltn`'s Send-Q of the listener);
	// the smallest when Sockets > 1 (SO_REUSEPORT). 0: not read.
	Backlog int `json:"backlog,omitempty"`
	Sockets int `json:"sockets,omitempty"` // listening sockets on the server's port
	// Queued is the connections still waiting in the accept queue when the
	// load ended (`ss -ltn`'s Recv-Q): the kernel completed their
	// handshakes but the server had not accepted them, so none of them got
	// a response however long the window (node-express at 1,000
	// keep-alive connections left 123 there after 2.5 s).
	Queued int `json:"queued"`
}

// Overflowed says whether connections were dropped at the server's
// listener: the namespace's ListenOverflows or ListenDrops grew, and so did
// the server's own sockets' drops where those could be read. The sockets
// alone do not decide: their sk_drops also counts stray packets a listener
// discards (a go-gorilla trial counted 5 with no listen drop at all), and
// the namespace's counters alone may be another program's.
func (l *Listen) Overflowed() bool {
	if l == nil || l.Overflows <= 0 && l.Drops <= 0 {
		return false
	}
	return l.SocketDrops == nil || *l.SocketDrops > 0
}

// IdleShare is the share of a window's mean rate below which one second of
// its timeline counts as idle (IdleSeconds): a second in which the server
// answered next to nothing while the load still owed it requests.
const IdleShare = 0.05

// IdleSeconds counts the whole seconds of l's timeline before its last
// (partial) second in which fewer responses completed than IdleShare of
// the window's mean per second; a second missing from the timeline
// completed none. 0 without a timeline (wrk, ab).
func IdleSeconds(l *Load) int {
	if l == nil || l.DurationS <= 0 || len(l.Timeline) < 2 {
		return 0
	}
	per := map[int]int64{}
	var n int64
	last := 0
	for _, s := range l.Timeline {
		per[s.T] += s.Requests
		n += s.Requests
		last = max(last, s.T)
	}
	floor := IdleShare * float64(n) / l.DurationS
	idle := 0
	for t := 0; t < last; t++ {
		if float64(per[t]) < floor {
			idle++
		}
	}
	return idle
}

// RetransmissionBound is the idle seconds (IdleSeconds) of a trial whose
// listen queue overflowed, 0 for any other. Only a connection the queue
// dropped keeps a load waiting while the server has nothing to do: its
// SYN is re-sent 1, 3, 7 and 15 s after the first, so a run that owes its
// last requests to such connections ends on that timer (joshuous'
// node-express at half the CPU: 7-9 s of work, then 4-5 s idle until
// 14.5 s; at full speed 4.4 s of work and no idle second).
func RetransmissionBound(t *Trial) int {
	if t == nil || !t.Listen.Overflowed() {
		return 0
	}
	return IdleSeconds(t.Load)
}

// Placement says where the server and the generator ran.
type Placement struct {
	// Mode is how: PlacementPinned or PlacementShared (one machine, CPUs
	// disjoint or not), or PlacementHosts (the server on a host of its own,
	// several generators on others, their results merged). Only hosts
	// trials record it: on one machine Pinned says which (see Kind).
	Mode           string  `json:"mode,omitempty"`
	ServerCPUs     string  `json:"server_cpus,omitempty"`
	ClientCPUs     string  `json:"client_cpus,omitempty"`
	Pinned         bool    `json:"pinned"`
	Quota          float64 `json:"quota,omitempty"` // CPUs, as docker --cpus
	QuotaApplied   bool    `json:"quota_applied,omitempty"`
	QuotaMechanism string  `json:"quota_mechanism,omitempty"` // "cgroup2 cpu.max" or "cgroup1 cpu.cfs_quota_us"
	// ServerCPU is run --server-cpu: the server ran at this fraction of its
	// CPU time (of Quota where it has one, else of its CPUs), over 10 ms
	// periods, standing in for a slower machine. 0: not used.
	ServerCPU float64 `json:"server_cpu,omitempty"`
	// ServerCPUQuota is the CPUs' worth the server was held to under
	// ServerCPU when that is less than ServerCPU × its CPUs or quota: a
	// server running fewer threads than it has CPUs gets ServerCPU × its
	// threads (a cgroup slows the group, not each thread). 0: not narrowed.
	ServerCPUQuota float64 `json:"server_cpu_quota,omitempty"`
	// ClientCPUQuota is the CPUs' worth the generator (restbench, and the
	// ab or wrk it runs) was held to under ServerCPU, where it shared the
	// server's CPUs: ServerCPU × the CPUs it can use. 0: not held (pinned
	// on a core of its own, or no ServerCPU).
	ClientCPUQuota float64 `json:"client_cpu_quota,omitempty"`
}

// Placement modes.
const (
	PlacementPinned = "pinned"
	PlacementShared = "shared"
	PlacementHosts  = "hosts"
)

// Kind is p's mode, read from Pinned where Mode was not recorded.
func (p Placement) Kind() string {
	switch {
	case p.Mode != "":
		return p.Mode
	case p.Pinned:
		return PlacementPinned
	}
	return PlacementShared
}

// Monitor is what the process monitor saw during the measured part of a trial.
type Monitor struct {
	IntervalMS int      `json:"interval_ms"`
	Samples    []Sample `json:"samples"`
	// Summary over the samples.
	ServerCPUMean  float64 `json:"server_cpu_mean"`  // percent of one core
	ServerCPUPeak  float64 `json:"server_cpu_peak"`  // percent of one core
	ServerRSSPeak  int64   `json:"server_rss_peak"`  // bytes
	ClientCPUMean  float64 `json:"client_cpu_mean"`  // percent of one core
	ClientCPUShare float64 `json:"client_cpu_share"` // mean client CPU / its budget (0..1)
	// ServerCPUS is the CPU time the server used in the measured part,
	// seconds: each sample's CPU over the time it covers, summed.
	ServerCPUS float64 `json:"server_cpu_s,omitempty"`
	// CPUPerResponseUS is ServerCPUS per response that passed validation,
	// in microseconds: the cost of one request, comparable when the
	// generator or the machine limited req/s. Absent without such a response.
	CPUPerResponseUS *float64 `json:"cpu_per_response_us,omitempty"`
	// IdleCPU is the server at rest, percent of one core, measured over
	// IdleMS after it was ready and before the warm-up.
	IdleCPU *float64 `json:"idle_cpu,omitempty"`
	IdleMS  int      `json:"idle_ms,omitempty"`
	// Runtime is what the server said about its runtime (GET /runtime)
	// every interval of the measured part; RuntimeError the last reason a
	// reading failed (a server without the endpoint: 404).
	Runtime      []RuntimeSample `json:"runtime,omitempty"`
	RuntimeError string          `json:"runtime_error,omitempty"`
}

// Covers is the seconds samples[i] stands for: its readings are means since
// the sample before; the first's cover at most one interval, part of it
// maybe in the warm-up.
func Covers(samples []Sample, i, intervalMS int) float64 {
	if i > 0 {
		return samples[i].T - samples[i-1].T
	}
	return min(samples[0].T, float64(intervalMS)/1000)
}

// Sample is one reading of the monitor.
type Sample struct {
	T         float64   `json:"t"`          // seconds since the measured part began
	ServerCPU float64   `json:"server_cpu"` // percent of one core, whole process tree
	ServerRSS int64     `json:"server_rss"` // bytes, whole process tree
	Procs     int       `json:"procs"`      // processes in the server's tree
	ClientCPU float64   `json:"client_cpu"` // percent of one core
	Cores     []float64 `json:"cores"`      // system busy percent per core
	// ServerThreadCPU is the server's busiest thread, percent of one core
	// (at most 100); 0 where threads cannot be read (not Linux).
	ServerThreadCPU float64 `json:"server_thread_cpu,omitempty"`
}

// Server is what a server under test reported when it became ready.
type Server struct {
	PID        int    `json:"pid"`
	Port       int    `json:"port"`
	Threads    int    `json:"threads"`              // THREADS as the server resolved it
	GOMAXPROCS int    `json:"gomaxprocs,omitempty"` // Go: the effective runtime.GOMAXPROCS(0)
	Workers    int    `json:"workers,omitempty"`    // Node cluster or PM2 worker processes
	Line       string `json:"line,omitempty"`       // the readiness line as printed
	// Env is the whole environment restbench started the server with: the
	// few variables it passes on (PATH, HOME, LANG, TMPDIR), the
	// implementation's and runtime's, the cell's, HOST and PORT.
	Env map[string]string `json:"env,omitempty"`
}

// Runtime is the pinned runtime a server ran on.
type Runtime struct {
	Name    string `json:"name"`           // node@24, bun, deno, go@1.26
	Version string `json:"version"`        // as the runtime printed it (v24.21.0)
	Path    string `json:"path,omitempty"` // the binary
	// Flags are the flags the runtime was started with (V8's, say), from
	// the manifest's start command and servers/runtimes.yaml: [] when it
	// ran with its defaults (runtime_flags: default, Bun, Go), absent
	// (null) in trials from before they were recorded and in env.json.
	Flags []string `json:"flags"`
	// Env is what servers/runtimes.yaml adds to every server's environment
	// on this runtime.
	Env map[string]string `json:"env,omitempty"`
}
