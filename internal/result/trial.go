package result

import "time"

// Trial statuses.
const (
	StatusOK     = "ok"
	StatusFailed = "failed"
)

// Flags a trial can carry; the report shows every one of them.
const (
	FlagClientBound     = "client-bound"      // the generator used >= 90% of its CPU budget
	FlagQuotaNotApplied = "quota-not-applied" // the suite asked for a CPU quota that could not be set
	FlagUnpinned        = "unpinned"          // server and generator shared CPUs (as published)
	FlagFailed          = "failed"            // the server failed to start or died, or the load failed
)

// Trial is one measured repetition of one run: results/<suite>/<ts>/<run>.t<N>.json.
type Trial struct {
	Suite      string            `json:"suite"`
	Experiment string            `json:"experiment"`
	Run        string            `json:"run"` // id unique in the suite, e.g. "single-thread/node-http"
	Impl       string            `json:"impl"`
	Params     map[string]string `json:"params,omitempty"` // the matrix values of this run
	Trial      int               `json:"trial"`            // 1-based
	Started    time.Time         `json:"started"`
	Finished   time.Time         `json:"finished"`
	Status     string            `json:"status"`
	Error      string            `json:"error,omitempty"`
	StderrTail string            `json:"stderr_tail,omitempty"`
	Flags      []string          `json:"flags,omitempty"`
	Placement  Placement         `json:"placement"`
	Env        map[string]string `json:"env,omitempty"` // what the server was started with (THREADS, GOMAXPROCS, CLUSTER)
	Load       *Load             `json:"load,omitempty"`
	Monitor    *Monitor          `json:"monitor,omitempty"`
}

// Placement says where the server and the generator ran.
type Placement struct {
	ServerCPUs     string  `json:"server_cpus,omitempty"`
	ClientCPUs     string  `json:"client_cpus,omitempty"`
	Pinned         bool    `json:"pinned"`
	Quota          float64 `json:"quota,omitempty"` // CPUs, as docker --cpus
	QuotaApplied   bool    `json:"quota_applied,omitempty"`
	QuotaMechanism string  `json:"quota_mechanism,omitempty"` // "cgroup2 cpu.max" or "cgroup1 cpu.cfs_quota_us"
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
}

// Sample is one reading of the monitor.
type Sample struct {
	T         float64   `json:"t"`          // seconds since the measured part began
	ServerCPU float64   `json:"server_cpu"` // percent of one core, whole process tree
	ServerRSS int64     `json:"server_rss"` // bytes, whole process tree
	Procs     int       `json:"procs"`      // processes in the server's tree
	ClientCPU float64   `json:"client_cpu"` // percent of one core
	Cores     []float64 `json:"cores"`      // system busy percent per core
}
