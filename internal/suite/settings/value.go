package settings

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"restbench/internal/yamlfile"
)

// Value is a decoded setting and where it was written.
type Value[T any] struct {
	yamlfile.At
	V T
}

func (v *Value[T]) read(n *yaml.Node, parse func(*yaml.Node) (T, error)) (err error) {
	v.Node = n
	v.V, err = parse(n)
	return err
}

// The kinds of setting. Each checks its value when it is decoded; the
// error's field is filled in by yamlfile.DecodeFields with the key.
type (
	Engine       struct{ Value[string] }
	Count        struct{ Value[int] }
	Requests     struct{ Value[int64] }
	Status       struct{ Value[int] }
	Millis       struct{ Value[int] } // the contract's bounds for /time's delay and work
	Duration     struct{ Value[time.Duration] }
	Boolean      struct{ Value[bool] }
	Quota        struct{ Value[QuotaValue] }
	Factor       struct{ Value[float64] } // a positive multiple: window's latencies
	Percent      struct{ Value[float64] }
	Threads      struct{ Value[string] }
	Gomaxprocs   struct{ Value[string] }
	Backlog      struct{ Value[string] }
	Cluster      struct{ Value[string] }
	RuntimeName  struct{ Value[string] }
	RuntimeFlags struct{ Value[string] }
	Rate         struct{ Value[RateValue] }
	RateSearch   struct{ Value[string] }
	Connections  struct{ Value[ConnectionsValue] }
	Placement    struct{ Value[PlacementValue] }
	Probe        struct{ Value[ProbeValue] }
)

func (v *Engine) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (string, error) { return yamlfile.OneOf(n, "restbench", "wrk", "ab") })
}
func (v *Count) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (int, error) { return yamlfile.Int(n, 1, 1_000_000) })
}
func (v *Requests) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (int64, error) { i, err := yamlfile.Int(n, 0, 1<<40); return int64(i), err })
}
func (v *Status) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (int, error) { return yamlfile.Int(n, 100, 599) })
}
func (v *Millis) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (int, error) { return yamlfile.Int(n, 0, 10000) })
}
func (v *Duration) UnmarshalYAML(n *yaml.Node) error { return v.read(n, parseDuration) }
func (v *Boolean) UnmarshalYAML(n *yaml.Node) error  { return v.read(n, parseFlag) }
func (v *Quota) UnmarshalYAML(n *yaml.Node) error    { return v.read(n, parseQuota) }
func (v *Factor) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (float64, error) {
		x, frac, err := numberOrFraction(n)
		if err != nil || frac || x <= 0 {
			return 0, yamlfile.Errorf(n, "", "%q is not a positive number (e.g. 50)", n.Value)
		}
		return x, nil
	})
}

// QuotaValue is a CPU quota: a number of CPUs, or a fraction of the cores
// restbench sees (0.25x: a quarter of them, as docker --cpus=1 on the
// published 4 cores), resolved when the suite is loaded as gomaxprocs'
// cores is.
type QuotaValue struct {
	CPUs    float64
	OfCores float64
}

func parseQuota(n *yaml.Node) (QuotaValue, error) {
	x, frac, err := numberOrFraction(n)
	if err != nil || x <= 0 {
		return QuotaValue{}, yamlfile.Errorf(n, "", "%q is not a positive number of CPUs (use 1, 0.5, or 0.25x for a quarter of the cores)", n.Value)
	}
	if frac {
		return QuotaValue{OfCores: x}, nil
	}
	return QuotaValue{CPUs: x}, nil
}

// numberOrFraction reads 10000, or 0.75x: a fraction of what the key
// measures against (a capacity, the cores). The caller checks the range
// and words the error.
func numberOrFraction(n *yaml.Node) (x float64, frac bool, err error) {
	v, err := yamlfile.Scalar(n, "")
	if err != nil {
		return 0, false, err
	}
	f, frac := strings.CutSuffix(v, "x")
	x, err = strconv.ParseFloat(f, 64)
	if err == nil && (math.IsNaN(x) || math.IsInf(x, 0)) {
		err = strconv.ErrRange
	}
	return x, frac, err
}

// CPUsOn is the quota in CPUs on a machine with cores cores.
func (q QuotaValue) CPUsOn(cores int) float64 {
	if q.OfCores > 0 {
		return q.OfCores * float64(cores)
	}
	return q.CPUs
}
func (v *Percent) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (float64, error) {
		f, err := yamlfile.Float(n)
		if err == nil && (f < 0 || f > 100) {
			err = yamlfile.Errorf(n, "", "%s is not a percentage (use 0 to 100)", n.Value)
		}
		return f, err
	})
}
func (v *Threads) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (string, error) { return countOr(n, "auto") })
}
func (v *Gomaxprocs) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (string, error) { return countOr(n, "cores", "unset") })
}
func (v *Backlog) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (string, error) { return countOr(n, "default") })
}
func (v *RuntimeFlags) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (string, error) { return yamlfile.OneOf(n, FlagsManifest, FlagsDefault) })
}
func (v *Cluster) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (string, error) { return yamlfile.OneOf(n, "pm2", "none") })
}
func (v *RuntimeName) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (string, error) { return yamlfile.OneOf(n, allRuntimes()...) })
}
func (v *Rate) UnmarshalYAML(n *yaml.Node) error { return v.read(n, parseRate) }
func (v *RateSearch) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (string, error) { return yamlfile.OneOf(n, "round", "once", "checked") })
}
func (v *Connections) UnmarshalYAML(n *yaml.Node) error { return v.read(n, parseConnections) }
func (v *Placement) UnmarshalYAML(n *yaml.Node) error   { return v.read(n, parsePlacement) }
func (v *Probe) UnmarshalYAML(n *yaml.Node) error       { return v.read(n, parseProbe) }

// Runtimes are the runtimes a server may run on, by the language of its
// implementation (servers/implementations.yaml); "" in suite.Run.Runtime is
// the implementation's default.
var Runtimes = map[string][]string{
	"node": {"node@20", "node@22", "node@24", "node@26", "bun", "deno"},
	"go":   {"go@1.22", "go@1.24", "go@1.26", "go@1.27"},
}

// The values of runtime_flags.
const (
	FlagsManifest = "manifest" // the manifest's flags and the runtime's (the default)
	FlagsDefault  = "default"  // none: the runtime as a user starts it
)

func allRuntimes() []string {
	return append(append([]string(nil), Runtimes["node"]...), Runtimes["go"]...)
}

func parseDuration(n *yaml.Node) (time.Duration, error) {
	v, err := yamlfile.Scalar(n, "")
	if err != nil {
		return 0, err
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, yamlfile.Errorf(n, "", "%q is not a duration (use 20s, 500ms or 2m)", v)
	}
	return d, nil
}

func parseFlag(n *yaml.Node) (bool, error) {
	v, err := yamlfile.Scalar(n, "")
	switch {
	case err != nil:
		return false, err
	case v == "true" || v == "yes" || v == "on":
		return true, nil
	case v == "false" || v == "no" || v == "off":
		return false, nil
	}
	return false, yamlfile.Errorf(n, "", "%q is not true or false", v)
}

// countOr accepts a positive whole number or one of the words.
func countOr(n *yaml.Node, words ...string) (string, error) {
	v, err := yamlfile.Scalar(n, "")
	if err != nil || slices.Contains(words, v) {
		return v, err
	}
	if i, err := strconv.Atoi(v); err == nil && i > 0 {
		return v, nil
	}
	return "", yamlfile.Errorf(n, "", "%q is not a positive whole number or %s", v, strings.Join(words, " or "))
}

// RateValue is an open-loop rate: an absolute figure or a fraction of a
// capacity measured earlier in the suite.
type RateValue struct {
	Abs  float64
	Frac float64
}

func parseRate(n *yaml.Node) (RateValue, error) {
	x, frac, err := numberOrFraction(n)
	switch {
	case err != nil || x < 0 || frac && x == 0:
		return RateValue{}, yamlfile.Errorf(n, "", "%q is not a number (use 10000 or 0.75x)", n.Value)
	case frac:
		return RateValue{Frac: x}, nil
	}
	return RateValue{Abs: x}, nil
}

// ConnectionsValue is a connection count, or the rule that sizes it at
// run time: little(M), Little's law with a margin of M.
type ConnectionsValue struct {
	N      int
	Little float64
}

func parseConnections(n *yaml.Node) (ConnectionsValue, error) {
	v, err := yamlfile.Scalar(n, "")
	if err != nil {
		return ConnectionsValue{}, err
	}
	if m, ok := strings.CutPrefix(v, "little("); ok {
		m, ok = strings.CutSuffix(m, ")")
		x, err := strconv.ParseFloat(strings.TrimSpace(m), 64)
		if !ok || err != nil || x < 1 {
			return ConnectionsValue{}, yamlfile.Errorf(n, "", "%q: write little(M) with a margin M of at least 1, e.g. little(1.5)", v)
		}
		return ConnectionsValue{Little: x}, nil
	}
	i, err := yamlfile.Int(n, 1, 1_000_000)
	if err != nil {
		return ConnectionsValue{}, yamlfile.Errorf(n, "", "%q is not a whole number from 1 to 1000000 (or little(M): connections sized by Little's law, e.g. little(1.5))", v)
	}
	return ConnectionsValue{N: i}, nil
}

// Window is the rule that lengthens a run's measured window at run time
// (suite.Run.Window): window: {requests: 20, latencies: 50, max: 6s}.
type Window struct {
	yamlfile.At `yaml:"-"`
	Requests    *Count    `yaml:"requests"`
	Latencies   *Factor   `yaml:"latencies"`
	Max         *Duration `yaml:"max"`
}

func (w *Window) UnmarshalYAML(n *yaml.Node) error {
	w.Node = n
	if err := yamlfile.DecodeFields(n, "window", w); err != nil {
		return err
	}
	if w.Max == nil {
		return yamlfile.Errorf(n, "window", "needs max: (the longest window the rule may ask for, which the time budget counts), e.g. max: 6s")
	}
	return nil
}

// PlacementValue is where server and generator run.
type PlacementValue struct {
	Shared         bool   // no pinning: both on every CPU
	Hosts          bool   // on separate hosts (scale-out)
	Server, Client string // explicit taskset -c lists
	Cores          int    // {cores: N}: the server on N CPUs of its own, the generator on the rest
}

func parsePlacement(n *yaml.Node) (PlacementValue, error) {
	if n.Kind == yaml.ScalarNode {
		v, err := yamlfile.OneOf(n, "pinned", "shared", "hosts")
		return PlacementValue{Shared: v == "shared", Hosts: v == "hosts"}, err
	}
	var lists struct {
		Server cpuList `yaml:"server"`
		Client cpuList `yaml:"client"`
		Cores  *int    `yaml:"cores"`
	}
	if err := yamlfile.DecodeFields(n, "placement", &lists); err != nil {
		return PlacementValue{}, err
	}
	if lists.Cores != nil {
		if lists.Server != "" || lists.Client != "" {
			return PlacementValue{}, yamlfile.Errorf(n, "placement", "give either cores or the server and client CPU lists, not both")
		}
		if *lists.Cores < 1 {
			return PlacementValue{}, yamlfile.Errorf(n, "placement", "cores is how many CPUs the server gets, 1 or more (got %d)", *lists.Cores)
		}
		return PlacementValue{Cores: *lists.Cores}, nil
	}
	if lists.Server == "" || lists.Client == "" {
		return PlacementValue{}, yamlfile.Errorf(n, "placement", "give both server and client CPU lists, e.g. {server: \"0\", client: \"1\"}, or the server's count, e.g. {cores: 6}")
	}
	return PlacementValue{Server: string(lists.Server), Client: string(lists.Client)}, nil
}

// cpuList is a CPU list in taskset -c syntax: 0, 0-1, 0,2.
type cpuList string

func (c *cpuList) UnmarshalYAML(n *yaml.Node) error {
	v, err := yamlfile.Scalar(n, "")
	if err != nil {
		return err
	}
	for _, part := range strings.Split(v, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(lo)
		b, err2 := a, error(nil)
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 0 || b < a {
			return yamlfile.Errorf(n, "", "%q is not a CPU list (use 0, 0-1 or 0,2)", v)
		}
	}
	*c = cpuList(v)
	return nil
}

// ProbeValue is the heartbeat probe: a path, sent every Every.
type ProbeValue struct {
	Path  string
	Every time.Duration
}

func parseProbe(n *yaml.Node) (ProbeValue, error) {
	v, err := yamlfile.Scalar(n, "")
	if err != nil {
		return ProbeValue{}, err
	}
	path, every, ok := strings.Cut(v, "@")
	d, derr := time.ParseDuration(every)
	if !ok || !strings.HasPrefix(path, "/") || derr != nil || d <= 0 {
		return ProbeValue{}, yamlfile.Errorf(n, "", "%q is not PATH@INTERVAL (use /status@5s)", v)
	}
	return ProbeValue{Path: path, Every: d}, nil
}
