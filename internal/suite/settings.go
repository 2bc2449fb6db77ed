package suite

import (
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"restbench/internal/request"
	"restbench/internal/yamlfile"
)

// settings is one layer of settings: defaults, an experiment, a scale, a
// matrix value or a cell's set. Every field is a pointer, nil where the
// layer leaves the key out, so that apply can put a layer on top of another
// (as k6 merges its options): a later layer replaces what it sets.
// Each value keeps its node, so errors found when a run is assembled still
// name the line.
type settings struct {
	Engine         *engine           `yaml:"engine"`
	Connections    *connections      `yaml:"connections"`
	ConnectionsCap *count            `yaml:"max_connections"` // a cap; unlike load --max-connections, never growth
	Duration       *duration         `yaml:"duration"`
	Warmup         *duration         `yaml:"warmup"`
	Prewarm        *duration         `yaml:"prewarm"`
	Requests       *requests         `yaml:"requests"`
	Trials         *count            `yaml:"trials"`
	MaxTrials      *count            `yaml:"max_trials"`
	TimeCap        *duration         `yaml:"time_cap"`
	Window         *window           `yaml:"window"`
	Timeout        *duration         `yaml:"timeout"`
	KeepAlive      *boolean          `yaml:"keepalive"`
	Rate           *rate             `yaml:"rate"`
	RateOf         *yamlfile.Name    `yaml:"rate_of"`
	RateSearch     *rateSearch       `yaml:"rate_search"`
	Placement      *placement        `yaml:"placement"`
	Quota          *quota            `yaml:"quota"`
	Threads        *threads          `yaml:"threads"`
	Gomaxprocs     *gomaxprocs       `yaml:"gomaxprocs"`
	Cluster        *cluster          `yaml:"cluster"`
	Backlog        *backlog          `yaml:"backlog"`
	Runtime        *runtimeName      `yaml:"runtime"`
	RuntimeFlags   *runtimeFlags     `yaml:"runtime_flags"`
	Delay          *millis           `yaml:"delay"`
	Work           *millis           `yaml:"work"`
	WorkShare      *percent          `yaml:"work_share"`
	Expect         *status           `yaml:"expect"`
	ExpectJSON     *boolean          `yaml:"expect_json"`
	Probe          *probe            `yaml:"probe"`
	BodySize       *request.Size     `yaml:"body_size"`
	Method         *request.Method   `yaml:"method"`
	Path           *request.Path     `yaml:"path"`
	Headers        *request.Headers  `yaml:"headers"`
	Body           *request.Body     `yaml:"body"`
	Request        *requestShorthand `yaml:"request"`
	Mix            *request.Mix      `yaml:"mix"`
}

// requestShorthand is request: {method, path, headers, body}: the four
// settings in one.
type requestShorthand struct {
	Method  *request.Method  `yaml:"method"`
	Path    *request.Path    `yaml:"path"`
	Headers *request.Headers `yaml:"headers"`
	Body    *request.Body    `yaml:"body"`
}

func (r *requestShorthand) UnmarshalYAML(n *yaml.Node) error {
	return yamlfile.DecodeFields(n, "request", r)
}

// UnmarshalYAML reads a block of settings; its errors name the key the
// block is under ("unknown field in defaults").
func (s *settings) UnmarshalYAML(n *yaml.Node) error {
	return yamlfile.DecodeFields(n, "", s)
}

// axisKeys are the settings that can also vary in a matrix or be matched by
// a cell, in the order labels name them.
var axisKeys = []string{
	"engine", "connections", "duration", "requests", "keepalive", "rate", "placement", "quota",
	"threads", "gomaxprocs", "cluster", "backlog", "runtime", "runtime_flags", "delay", "work", "work_share", "path", "body_size",
}

// apply puts layer o on top of s: every key o sets replaces s's.
// request: sets its four keys.
func (s *settings) apply(o *settings) {
	if o == nil {
		return
	}
	dst, src := reflect.ValueOf(s).Elem(), reflect.ValueOf(o).Elem()
	for i := 0; i < src.NumField(); i++ {
		if f := src.Field(i); !f.IsNil() {
			dst.Field(i).Set(f)
		}
	}
	if r := o.Request; r != nil {
		s.Request = nil
		s.apply(&settings{Method: r.Method, Path: r.Path, Headers: r.Headers, Body: r.Body})
	}
}

// with returns s with the layers on top, s itself unchanged.
func (s settings) with(layers ...*settings) settings {
	for _, l := range layers {
		s.apply(l)
	}
	return s
}

// axisTexts returns the values of the axis keys s sets, as written, for
// Params. Values that are not single values (a placement's CPU lists) are
// left out.
func (s *settings) axisTexts() map[string]string {
	out := map[string]string{}
	for key, f := range yamlfile.Fields(s) {
		if f.IsNil() || !contains(axisKeys, key) {
			continue
		}
		if t := f.Interface().(interface{ Text() string }).Text(); t != "" {
			out[key] = t
		}
	}
	return out
}

// value is a decoded setting and where it was written.
type value[T any] struct {
	yamlfile.At
	V T
}

func (v *value[T]) read(n *yaml.Node, parse func(*yaml.Node) (T, error)) (err error) {
	v.Node = n
	v.V, err = parse(n)
	return err
}

// The kinds of setting. Each checks its value when it is decoded; the
// error's field is filled in by yamlfile.DecodeFields with the key.
type (
	engine       struct{ value[string] }
	count        struct{ value[int] }
	requests     struct{ value[int64] }
	status       struct{ value[int] }
	millis       struct{ value[int] } // the contract's bounds for /time's delay and work
	duration     struct{ value[time.Duration] }
	boolean      struct{ value[bool] }
	quota        struct{ value[quotaValue] }
	factor       struct{ value[float64] } // a positive multiple: window's latencies
	percent      struct{ value[float64] }
	threads      struct{ value[string] }
	gomaxprocs   struct{ value[string] }
	backlog      struct{ value[string] }
	cluster      struct{ value[string] }
	runtimeName  struct{ value[string] }
	runtimeFlags struct{ value[string] }
	rate         struct{ value[rateValue] }
	rateSearch   struct{ value[string] }
	connections  struct{ value[connectionsValue] }
	placement    struct{ value[placementValue] }
	probe        struct{ value[probeValue] }
)

func (v *engine) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (string, error) { return yamlfile.OneOf(n, "restbench", "wrk", "ab") })
}
func (v *count) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (int, error) { return yamlfile.Int(n, 1, 1_000_000) })
}
func (v *requests) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (int64, error) { i, err := yamlfile.Int(n, 0, 1<<40); return int64(i), err })
}
func (v *status) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (int, error) { return yamlfile.Int(n, 100, 599) })
}
func (v *millis) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (int, error) { return yamlfile.Int(n, 0, 10000) })
}
func (v *duration) UnmarshalYAML(n *yaml.Node) error { return v.read(n, parseDuration) }
func (v *boolean) UnmarshalYAML(n *yaml.Node) error  { return v.read(n, parseFlag) }
func (v *quota) UnmarshalYAML(n *yaml.Node) error    { return v.read(n, parseQuota) }
func (v *factor) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (float64, error) {
		x, frac, err := numberOrFraction(n)
		if err != nil || frac || x <= 0 {
			return 0, yamlfile.Errorf(n, "", "%q is not a positive number (e.g. 50)", n.Value)
		}
		return x, nil
	})
}

// quotaValue is a CPU quota: a number of CPUs, or a fraction of the cores
// restbench sees (0.25x: a quarter of them, as docker --cpus=1 on the
// published 4 cores), resolved when the suite is loaded as gomaxprocs'
// cores is.
type quotaValue struct {
	CPUs    float64
	OfCores float64
}

func parseQuota(n *yaml.Node) (quotaValue, error) {
	x, frac, err := numberOrFraction(n)
	if err != nil || x <= 0 {
		return quotaValue{}, yamlfile.Errorf(n, "", "%q is not a positive number of CPUs (use 1, 0.5, or 0.25x for a quarter of the cores)", n.Value)
	}
	if frac {
		return quotaValue{OfCores: x}, nil
	}
	return quotaValue{CPUs: x}, nil
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

// cpus is the quota in CPUs on a machine with cores cores.
func (q quotaValue) cpus(cores int) float64 {
	if q.OfCores > 0 {
		return q.OfCores * float64(cores)
	}
	return q.CPUs
}
func (v *percent) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (float64, error) {
		f, err := yamlfile.Float(n)
		if err == nil && (f < 0 || f > 100) {
			err = yamlfile.Errorf(n, "", "%s is not a percentage (use 0 to 100)", n.Value)
		}
		return f, err
	})
}
func (v *threads) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (string, error) { return countOr(n, "auto") })
}
func (v *gomaxprocs) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (string, error) { return countOr(n, "cores", "unset") })
}
func (v *backlog) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (string, error) { return countOr(n, "default") })
}
func (v *runtimeFlags) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (string, error) { return yamlfile.OneOf(n, FlagsManifest, FlagsDefault) })
}
func (v *cluster) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (string, error) { return yamlfile.OneOf(n, "pm2", "none") })
}
func (v *runtimeName) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (string, error) { return yamlfile.OneOf(n, allRuntimes()...) })
}
func (v *rate) UnmarshalYAML(n *yaml.Node) error { return v.read(n, parseRate) }
func (v *rateSearch) UnmarshalYAML(n *yaml.Node) error {
	return v.read(n, func(n *yaml.Node) (string, error) { return yamlfile.OneOf(n, "round", "once", "checked") })
}
func (v *connections) UnmarshalYAML(n *yaml.Node) error { return v.read(n, parseConnections) }
func (v *placement) UnmarshalYAML(n *yaml.Node) error   { return v.read(n, parsePlacement) }
func (v *probe) UnmarshalYAML(n *yaml.Node) error       { return v.read(n, parseProbe) }

// Runtimes are the runtimes a server may run on, by the language of its
// implementation (servers/implementations.yaml); "" in Run.Runtime is the
// implementation's default.
var Runtimes = map[string][]string{
	"node": {"node@20", "node@22", "node@24", "node@26", "bun", "deno"},
	"go":   {"go@1.22", "go@1.24", "go@1.26", "go@1.27"},
}

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
	if err != nil || contains(words, v) {
		return v, err
	}
	if i, err := strconv.Atoi(v); err == nil && i > 0 {
		return v, nil
	}
	return "", yamlfile.Errorf(n, "", "%q is not a positive whole number or %s", v, strings.Join(words, " or "))
}

// rateValue is an open-loop rate: an absolute figure or a fraction of a
// capacity measured earlier in the suite.
type rateValue struct {
	Abs  float64
	Frac float64
}

func parseRate(n *yaml.Node) (rateValue, error) {
	x, frac, err := numberOrFraction(n)
	switch {
	case err != nil || x < 0 || frac && x == 0:
		return rateValue{}, yamlfile.Errorf(n, "", "%q is not a number (use 10000 or 0.75x)", n.Value)
	case frac:
		return rateValue{Frac: x}, nil
	}
	return rateValue{Abs: x}, nil
}

// connectionsValue is a connection count, or the rule that sizes it at
// run time: little(M), Little's law with a margin of M.
type connectionsValue struct {
	N      int
	Little float64
}

func parseConnections(n *yaml.Node) (connectionsValue, error) {
	v, err := yamlfile.Scalar(n, "")
	if err != nil {
		return connectionsValue{}, err
	}
	if m, ok := strings.CutPrefix(v, "little("); ok {
		m, ok = strings.CutSuffix(m, ")")
		x, err := strconv.ParseFloat(strings.TrimSpace(m), 64)
		if !ok || err != nil || x < 1 {
			return connectionsValue{}, yamlfile.Errorf(n, "", "%q: write little(M) with a margin M of at least 1, e.g. little(1.5)", v)
		}
		return connectionsValue{Little: x}, nil
	}
	i, err := yamlfile.Int(n, 1, 1_000_000)
	if err != nil {
		return connectionsValue{}, yamlfile.Errorf(n, "", "%q is not a whole number from 1 to 1000000 (or little(M): connections sized by Little's law, e.g. little(1.5))", v)
	}
	return connectionsValue{N: i}, nil
}

// window is the rule that lengthens a run's measured window at run time
// (Run.Window): window: {requests: 20, latencies: 50, max: 6s}.
type window struct {
	yamlfile.At `yaml:"-"`
	Requests    *count    `yaml:"requests"`
	Latencies   *factor   `yaml:"latencies"`
	Max         *duration `yaml:"max"`
}

func (w *window) UnmarshalYAML(n *yaml.Node) error {
	w.Node = n
	if err := yamlfile.DecodeFields(n, "window", w); err != nil {
		return err
	}
	if w.Max == nil {
		return yamlfile.Errorf(n, "window", "needs max: (the longest window the rule may ask for, which the time budget counts), e.g. max: 6s")
	}
	return nil
}

// placementValue is where server and generator run.
type placementValue struct {
	Shared         bool   // no pinning: both on every CPU
	Hosts          bool   // on separate hosts (scale-out)
	Server, Client string // explicit taskset -c lists
}

func parsePlacement(n *yaml.Node) (placementValue, error) {
	if n.Kind == yaml.ScalarNode {
		v, err := yamlfile.OneOf(n, "pinned", "shared", "hosts")
		return placementValue{Shared: v == "shared", Hosts: v == "hosts"}, err
	}
	var lists struct {
		Server cpuList `yaml:"server"`
		Client cpuList `yaml:"client"`
	}
	if err := yamlfile.DecodeFields(n, "placement", &lists); err != nil {
		return placementValue{}, err
	}
	if lists.Server == "" || lists.Client == "" {
		return placementValue{}, yamlfile.Errorf(n, "placement", "give both server and client CPU lists, e.g. {server: \"0\", client: \"1\"}")
	}
	return placementValue{Server: string(lists.Server), Client: string(lists.Client)}, nil
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

type probeValue struct {
	Path  string
	Every time.Duration
}

func parseProbe(n *yaml.Node) (probeValue, error) {
	v, err := yamlfile.Scalar(n, "")
	if err != nil {
		return probeValue{}, err
	}
	path, every, ok := strings.Cut(v, "@")
	d, derr := time.ParseDuration(every)
	if !ok || !strings.HasPrefix(path, "/") || derr != nil || d <= 0 {
		return probeValue{}, yamlfile.Errorf(n, "", "%q is not PATH@INTERVAL (use /status@5s)", v)
	}
	return probeValue{Path: path, Every: d}, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sorted(list []string) []string {
	out := append([]string(nil), list...)
	sort.Strings(out)
	return out
}
