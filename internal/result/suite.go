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
}

// Conclusion is one published claim the report checks: the ratio
// Metric(Run A) / Metric(Run B), published and measured, and whether it still
// points the same way. A suite file's conclusions: decode straight into it by
// the yaml tags, so a field added here is a key of the suite file; give a
// field the suite must not set `yaml:"-"`.
type Conclusion struct {
	Text      string  `json:"text" yaml:"text"`     // "single-thread JSON echo: Node faster than Go"
	Metric    string  `json:"metric" yaml:"metric"` // a key of RunInfo.Published, e.g. rps
	A         string  `json:"a" yaml:"a"`           // run id
	B         string  `json:"b" yaml:"b"`           // run id
	Published float64 `json:"published" yaml:"published"`
}
