package result

import "time"

// Env describes the machine and software of a results folder: env.json.
type Env struct {
	Created    time.Time         `json:"created"`
	Host       string            `json:"host"`
	CPUModel   string            `json:"cpu_model"`
	Cores      int               `json:"cores"`
	Kernel     string            `json:"kernel"`
	OS         string            `json:"os"`
	Go         string            `json:"go"`
	Node       string            `json:"node"`
	Restbench  string            `json:"restbench"`  // git commit (+dirty)
	Frameworks map[string]string `json:"frameworks"` // impl id -> framework and version
	// Runtimes are the pinned runtimes the servers ran on, by name (node@24).
	Runtimes map[string]Runtime `json:"runtimes,omitempty"`
	Scale    string             `json:"scale"`
	Command  string             `json:"command"`
	// Idle is the CPUs' idle states while the suite ran: "poll (...)" when
	// restbench held the kernel's wake-up latency at 0 µs (cpu.HoldPollIdle),
	// "default (...)" otherwise; empty in results from before 2026-11-27.
	Idle string `json:"idle,omitempty"`
}

// Suite is the suite as it was run: suite.json in a results folder, so the
// report needs nothing but the folder.
type Suite struct {
	Name        string       `json:"name"`
	Title       string       `json:"title"`
	Source      string       `json:"source"` // the published write-up
	File        string       `json:"file"`
	Scale       string       `json:"scale"`
	Experiments []Experiment `json:"experiments"`

	// PublishedWindow is how long the write-up's loads ran, in its words
	// ("20 s (wrk -d 20s)"): the report states it beside the windows here.
	PublishedWindow string `json:"published_window,omitempty"`
}

// Why an experiment stopped adding rounds (Experiment.Stopped).
const (
	StoppedRounds  = "rounds"
	StoppedDecided = "decided"
	StoppedTimeCap = "time cap"
)

// Experiment is one table of the published write-up.
type Experiment struct {
	Name        string       `json:"name"`
	Title       string       `json:"title"`
	Description string       `json:"description,omitempty"`
	Runs        []RunInfo    `json:"runs"`
	Conclusions []Conclusion `json:"conclusions,omitempty"`
	// Stopped says why the runner measured no more rounds of this
	// experiment: "rounds" (the suite's trial count, or the most a stop rule
	// may take), "decided" (a stop rule found the figures settled; StoppedWhy
	// says how) or "time cap" (the experiment's time cap ran out). Empty
	// until the experiment has finished.
	Stopped    string `json:"stopped,omitempty"`
	StoppedWhy string `json:"stopped_why,omitempty"`
	Rounds     int    `json:"rounds,omitempty"` // interleaved rounds measured
	// Looks is how many times a stop rule may look at the verdicts before
	// the rounds run out (max_trials − trials + 1): each look is a chance to
	// stop on a lucky interval, so the intervals' coverage is corrected for
	// all of them (verdict.Corrected). 0 or 1: the rounds were fixed before
	// measuring.
	Looks int `json:"looks,omitempty"`
}

// RunInfo is one cell of an experiment's matrix: one implementation with one
// set of parameters, measured Trials times.
type RunInfo struct {
	ID     string            `json:"id"`
	Impl   string            `json:"impl"`
	Label  string            `json:"label"`
	Params map[string]string `json:"params,omitempty"`
	Trials int               `json:"trials"`
	// Published holds the figures the source printed for this run, keyed by
	// metric: rps, latency_mean_ms, latency_stdev_ms, latency_max_ms,
	// p50_ms .. p100_ms, cpu_pct, rss_mb, probe_mean_ms, ...
	Published map[string]float64 `json:"published,omitempty"`
	// Note stands beside the published figures when they came from another
	// load than ours ("published at 100 parallel requests; here 10").
	Note string `json:"note,omitempty"`
	// Connections is the run's connection count, and OpenLoop whether it
	// offers a rate: a closed loop's published row must obey Little's law
	// with it (verdict.CheckPublished).
	Connections int  `json:"connections,omitempty"`
	OpenLoop    bool `json:"open_loop,omitempty"`
	// PublishedLoad is the load the write-up measured Published with: which
	// checks the published figures can take (verdict.CheckPublished), and
	// which of our flags are the published condition rather than a fault.
	PublishedLoad *PublishedLoad `json:"published_load,omitempty"`
}

// The models of a published load (PublishedLoad.Model).
const (
	// ModelClosed: every connection sends its next request when the last
	// one returns (wrk, ab, autocannon): req/s × mean latency = connections.
	ModelClosed = "closed"
	// ModelOpen: requests are due at a constant rate and each is timed from
	// when it was due (wrk2 -R): req/s is at most the rate, and the mean
	// counts the wait for a busy connection.
	ModelOpen = "open"
)

// PublishedLoad is the load generator and model a write-up's table was
// measured with (a suite's published_load:, docs/suites.md).
type PublishedLoad struct {
	Tool  string `json:"tool"`  // wrk, wrk2, ab, autocannon, …
	Model string `json:"model"` // ModelClosed or ModelOpen
	// Connections is the write-up's connection count (ab -c, wrk -c), which
	// Little's law checks a closed-loop row against: the suite's, or the
	// run's own before a scale capped it.
	Connections int `json:"connections,omitempty"`
	// Rate is the offered req/s of an open loop, where the write-up gives
	// it (wrk2 -R); 0: not published.
	Rate float64 `json:"rate,omitempty"`
	// DurationS is the published window in seconds (wrk -d); 0: not
	// published.
	DurationS float64 `json:"duration_s,omitempty"`
	// Saturated says the published rate sat at or above what the cells'
	// connections and servers carry, so the published rows themselves fell
	// behind and queued requests in the generator: behind-schedule and
	// connection-bound are the published condition, not a fault of ours.
	Saturated bool `json:"saturated,omitempty"`
	// Overflowed says the published load dialled a connection per request
	// (ab without -k) into a listen queue that overflowed: its rows show a
	// retransmitted SYN (ab's Connect max of 1 s or more). Then
	// accept-queue-overflow on our runs without keep-alive is the published
	// condition, not a fault of ours; with keep-alive it stays a fault.
	Overflowed bool `json:"overflowed,omitempty"`
	// Control is the run that measures the same load with the published
	// condition lifted (a backlog 1,000 new connections cannot overflow):
	// a verdict resting on this run gives, beside it, the ratio with the
	// control in its place (verdict.Verdict.Control).
	Control string `json:"control,omitempty"`
}

// Derived reports whether the tool prints the mean latency as concurrency
// ÷ req/s (ab's "Time per request"), so that Little's law holds for the row
// by construction and checks nothing.
func (p *PublishedLoad) Derived() bool { return p != nil && p.Tool == "ab" }

// Conclusion is one published claim the report grades: what is compared
// (run A against run B, or how A/B moves over Points), on which metric, and
// what the write-up claimed (Claim). internal/verdict turns it into holds,
// does not hold or inconclusive from a bootstrap interval of the ratio
// A/B paired by round. A suite file's conclusions: decode straight into it
// by the yaml tags, so a field added here is a key of the suite file; give a
// field the suite must not set `yaml:"-"`.
type Conclusion struct {
	Text   string `json:"text" yaml:"text"`     // the claim in the write-up's words
	Metric string `json:"metric" yaml:"metric"` // a key of RunInfo.Published, or p99_p50 (tail shape)
	A      string `json:"a,omitempty" yaml:"a"` // run id
	B      string `json:"b,omitempty" yaml:"b"` // run id
	// Published is the ratio A/B the write-up printed; 0 in a suite file
	// means "derive it from the runs' published figures".
	Published float64 `json:"published,omitempty" yaml:"published"`
	// Claim is how the ratio is graded: direction (the default: on the
	// published side of 1), band (inside Low..High), tie (within
	// ±Tolerance of 1), grows or shrinks (the fitted change of the metric,
	// or of A/B, over Points is above or below 1).
	Claim string `json:"claim,omitempty" yaml:"claim"`
	// Low and High bound a band: "about 2×" is written 1.6–2.5×, "far
	// slower" as a Low alone. High 0 means no upper bound.
	Low  float64 `json:"low,omitempty" yaml:"low"`
	High float64 `json:"high,omitempty" yaml:"high"`
	// Tolerance of a tie, as a fraction: 0.05 (the default) is ±5 %.
	Tolerance float64 `json:"tolerance,omitempty" yaml:"tolerance"`
	// Over names the parameter a trend moves along, and Points its cells.
	Over   string  `json:"over,omitempty" yaml:"over"`
	Points []Point `json:"points,omitempty" yaml:"points"`
	// Note stands beside the published figure: how a band was derived, or
	// that the published load differs from ours (100 parallel against 10).
	Note string `json:"note,omitempty" yaml:"note"`
	// Kind tells the write-up's own conclusions ("", KindConclusion) from
	// restbench's checks (KindCheck: generator cross-checks, comparisons
	// the write-up's figures allow but its text does not make) and the A/A
	// noise floor (KindAA, made by an experiment's aa: key).
	Kind string `json:"kind,omitempty" yaml:"kind"`
	// Requires is the claim's premise in cores and requests in flight: a
	// machine or a load that does not meet it gets "not run here: needs …",
	// never a verdict.
	Requires *Requires `json:"requires,omitempty" yaml:"requires"`
	// NotRun says why no machine restbench runs can test the claim (the
	// write-up's "perhaps" names no workload the suite has): the claim is
	// listed with that reason and the state "not run here", never graded.
	NotRun string `json:"not_run,omitempty" yaml:"not_run"`
	// NotGraded is set by the suite's expansion at a scale that leaves out
	// a run the claim compares ("not graded at standard: its cells run at
	// full"): the claim is listed with that reason instead of vanishing.
	NotGraded string `json:"not_graded,omitempty" yaml:"-"`
	// Scaled is the rule by which a claim whose mechanism survives scaling
	// was scaled to this machine ("quota = cores ÷ 4, GOMAXPROCS = cores:
	// the published 4 threads under 1 CPU of 4"): the cells are not the
	// published ones, and the report says so beside the verdict.
	Scaled string `json:"scaled,omitempty" yaml:"scaled"`
	// Design names the set-up that carried the verdict where it is not the
	// published one ("server-bound: the same 0.5-CPU quota on both
	// servers"), shown beside the verdict; keep it to a few words.
	Design string `json:"design,omitempty" yaml:"design"`
}

// Conclusion kinds.
const (
	KindConclusion = "conclusion"
	KindCheck      = "check"
	KindAA         = "aa"
	// KindReplay is a write-up's conclusion graded again on another
	// runtime (the runtimes suite): counted apart, never as a second
	// conclusion of the write-up.
	KindReplay = "replay"
)

// Requires is what a claim's argument needs of every run it compares.
type Requires struct {
	// MinCores and MaxCores bound the CPUs the server had (its CPU list,
	// or its quota when smaller): "uses parallelism" needs several, "12
	// threads on 6 physical cores" exactly 6.
	MinCores int `json:"min_cores,omitempty" yaml:"min_cores"`
	MaxCores int `json:"max_cores,omitempty" yaml:"max_cores"`
	// MinInFlight is the fewest requests in flight (connections): a thread
	// count compared with too few requests leaves threads idle.
	MinInFlight int `json:"min_in_flight,omitempty" yaml:"min_in_flight"`
	// OfferedWork: every run needs the cores its offered CPU work takes,
	// computed from the trial, not typed: the open loop's rate × each
	// target's share × its work ms (work=W in its query), in CPU-seconds
	// per second, rounded up. 17,900 req/s × 25 % × 1 ms is 4.5: 5 cores.
	OfferedWork bool `json:"offered_work,omitempty" yaml:"offered_work"`
}

// Point is one cell of a trend: run A (over run B, when given) at X.
type Point struct {
	X float64 `json:"x" yaml:"x"`
	A string  `json:"a" yaml:"a"`
	B string  `json:"b,omitempty" yaml:"b"`
}

// Claim kinds of a Conclusion.
const (
	ClaimDirection = "direction"
	ClaimBand      = "band"
	ClaimTie       = "tie"
	ClaimGrows     = "grows"
	ClaimShrinks   = "shrinks"
)

// Claims lists the claim kinds, for suite validation.
var Claims = []string{ClaimDirection, ClaimBand, ClaimTie, ClaimGrows, ClaimShrinks}
