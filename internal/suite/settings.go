package suite

import (
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"restbench/internal/gen"
)

// A setting is one parsed key of a settings block (defaults, a scale, an
// experiment, a matrix value or a cell's set), with the node it came from so
// that errors found later, when a run is assembled, still name the line.
type setting struct {
	V    any
	Node *yaml.Node
	Text string // the scalar as written, for labels and Params ("" for blocks)
}

// settings are layered: defaults, then the experiment, then the suite's
// scale, the experiment's scale, the matrix cell and the cells' set. A later
// layer replaces a key of an earlier one.
type settings map[string]setting

func (s settings) with(o settings) settings {
	out := make(settings, len(s)+len(o))
	for k, v := range s {
		out[k] = v
	}
	for k, v := range o {
		out[k] = v
	}
	return out
}

// rateValue is an open-loop rate: an absolute figure or a fraction of a
// capacity measured earlier in the suite.
type rateValue struct {
	Abs  float64
	Frac float64
}

// placementValue is where server and generator run.
type placementValue struct {
	Shared         bool
	Server, Client string
}

type probeValue struct {
	Path  string
	Every time.Duration
}

// bodyValue is a request body: a literal, a file, or a generated filter array.
type bodyValue struct {
	Literal  []byte
	File     string // relative to the suite file
	Generate string // "filter"
	Size     int64
	Seed     int64
	Node     *yaml.Node // for errors found when the file is read
}

type targetValue struct {
	Name    string
	Method  string
	Path    string
	Headers []string
	Body    *bodyValue
	Weight  float64
}

// settingKeys are the keys a settings block may hold; axisKeys those that can
// also vary in a matrix or be matched by a cell.
var (
	settingKeys = []string{
		"engine", "connections", "max_connections", "duration", "warmup", "requests", "trials",
		"timeout", "keepalive", "rate", "rate_of", "placement", "quota", "threads", "gomaxprocs",
		"cluster", "delay", "work", "work_share", "expect", "expect_json", "probe", "body_size",
		"method", "path", "headers", "body", "request", "mix", "runtime",
	}
	axisKeys = []string{
		"engine", "connections", "duration", "requests", "keepalive", "rate", "placement", "quota",
		"runtime", "threads", "gomaxprocs", "cluster", "delay", "work", "work_share", "path", "body_size",
	}
)

// parseSettings reads a settings block. skip lists keys of the enclosing
// mapping that are not settings (an experiment's name, impls, ...).
func (p *parser) parseSettings(n *yaml.Node, field string, skip []string) (settings, error) {
	known := append(append([]string(nil), settingKeys...), skip...)
	ps, err := p.pairs(n, field, known)
	if err != nil {
		return nil, err
	}
	out := settings{}
	for _, kv := range ps {
		if contains(skip, kv.Key) {
			continue
		}
		if kv.Key == "request" {
			req, err := p.parseSettings(kv.Value, "request", nil)
			if err != nil {
				return nil, err
			}
			for k, v := range req {
				if !contains([]string{"method", "path", "headers", "body"}, k) {
					return nil, p.errorf(v.Node, k, "not part of a request (use method, path, headers, body)")
				}
				out[k] = v
			}
			continue
		}
		v, err := p.parseSetting(kv.Key, kv.Value)
		if err != nil {
			return nil, err
		}
		out[kv.Key] = v
	}
	return out, nil
}

// parseSetting parses the value of one key.
func (p *parser) parseSetting(key string, n *yaml.Node) (setting, error) {
	s := setting{Node: n}
	if n.Kind == yaml.ScalarNode {
		s.Text = n.Value
	}
	var err error
	switch key {
	case "engine":
		s.V, err = p.enum(n, key, "restbench", "wrk", "ab")
	case "connections", "max_connections", "trials":
		s.V, err = p.intIn(n, key, 1, 1_000_000)
	case "requests":
		var v int
		v, err = p.intIn(n, key, 0, 1<<40)
		s.V = int64(v)
	case "expect":
		s.V, err = p.intIn(n, key, 100, 599)
	case "delay", "work":
		s.V, err = p.intIn(n, key, 0, 10000) // the contract's bounds for /time
	case "duration", "warmup", "timeout":
		s.V, err = p.duration(n, key)
	case "keepalive", "expect_json":
		s.V, err = p.boolean(n, key)
	case "rate":
		s.V, err = p.rate(n)
	case "rate_of", "runtime":
		s.V, err = p.nonEmpty(n, key)
	case "placement":
		s.V, err = p.placement(n)
	case "quota":
		s.V, err = p.positiveFloat(n, key)
	case "work_share":
		var f float64
		f, err = p.float(n, key)
		if err == nil && (f < 0 || f > 100) {
			err = p.errorf(n, key, "%s is not a percentage (use 0 to 100)", n.Value)
		}
		s.V = f
	case "threads":
		s.V, err = p.countOr(n, key, "auto")
	case "gomaxprocs":
		s.V, err = p.countOr(n, key, "cores", "unset")
	case "cluster":
		s.V, err = p.enum(n, key, "pm2", "none")
	case "probe":
		s.V, err = p.probe(n)
	case "body_size":
		s.V, err = p.size(n, key)
	case "method":
		s.V, err = p.enum(n, key, "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
	case "path":
		s.V, err = p.path(n, key)
	case "headers":
		s.V, err = p.headers(n)
	case "body":
		s.V, err = p.body(n)
	case "mix":
		s.V, err = p.mix(n)
	default:
		err = p.errorf(n, key, "unknown setting (known: %s)", strings.Join(sorted(settingKeys), ", "))
	}
	return s, err
}

func (p *parser) enum(n *yaml.Node, key string, allowed ...string) (string, error) {
	v, err := p.scalar(n, key)
	if err != nil {
		return "", err
	}
	if !contains(allowed, v) {
		return "", p.errorf(n, key, "%q is not one of %s", v, strings.Join(allowed, ", "))
	}
	return v, nil
}

func (p *parser) nonEmpty(n *yaml.Node, key string) (string, error) {
	v, err := p.scalar(n, key)
	if err == nil && strings.TrimSpace(v) == "" {
		err = p.errorf(n, key, "is empty")
	}
	return v, err
}

func (p *parser) intIn(n *yaml.Node, key string, lo, hi int) (int, error) {
	v, err := p.scalar(n, key)
	if err != nil {
		return 0, err
	}
	i, err := strconv.Atoi(strings.ReplaceAll(v, "_", ""))
	if err != nil {
		return 0, p.errorf(n, key, "%q is not a whole number", v)
	}
	if i < lo || i > hi {
		return 0, p.errorf(n, key, "%d is out of range (use %d to %d)", i, lo, hi)
	}
	return i, nil
}

func (p *parser) float(n *yaml.Node, key string) (float64, error) {
	v, err := p.scalar(n, key)
	if err != nil {
		return 0, err
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, p.errorf(n, key, "%q is not a number", v)
	}
	return f, nil
}

func (p *parser) positiveFloat(n *yaml.Node, key string) (float64, error) {
	f, err := p.float(n, key)
	if err == nil && f <= 0 {
		err = p.errorf(n, key, "%s must be more than 0", n.Value)
	}
	return f, err
}

func (p *parser) boolean(n *yaml.Node, key string) (bool, error) {
	v, err := p.scalar(n, key)
	if err != nil {
		return false, err
	}
	switch v {
	case "true", "yes", "on":
		return true, nil
	case "false", "no", "off":
		return false, nil
	}
	return false, p.errorf(n, key, "%q is not true or false", v)
}

func (p *parser) duration(n *yaml.Node, key string) (time.Duration, error) {
	v, err := p.scalar(n, key)
	if err != nil {
		return 0, err
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, p.errorf(n, key, "%q is not a duration (use 20s, 500ms or 2m)", v)
	}
	return d, nil
}

func (p *parser) rate(n *yaml.Node) (rateValue, error) {
	v, err := p.scalar(n, "rate")
	if err != nil {
		return rateValue{}, err
	}
	bad := p.errorf(n, "rate", "%q is not a number (use 10000 or 0.75x)", v)
	if f, ok := strings.CutSuffix(v, "x"); ok {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || x <= 0 {
			return rateValue{}, bad
		}
		return rateValue{Frac: x}, nil
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || x < 0 {
		return rateValue{}, bad
	}
	return rateValue{Abs: x}, nil
}

// countOr accepts a positive whole number or one of the words.
func (p *parser) countOr(n *yaml.Node, key string, words ...string) (string, error) {
	v, err := p.scalar(n, key)
	if err != nil {
		return "", err
	}
	if contains(words, v) {
		return v, nil
	}
	if i, err := strconv.Atoi(v); err == nil && i > 0 {
		return v, nil
	}
	return "", p.errorf(n, key, "%q is not a positive whole number or %s", v, strings.Join(words, " or "))
}

func (p *parser) placement(n *yaml.Node) (placementValue, error) {
	if n.Kind == yaml.ScalarNode {
		v, err := p.enum(n, "placement", "pinned", "shared")
		return placementValue{Shared: v == "shared"}, err
	}
	ps, err := p.pairs(n, "placement", []string{"server", "client"})
	if err != nil {
		return placementValue{}, err
	}
	var pv placementValue
	for _, kv := range ps {
		v, err := p.cpuList(kv.Value, kv.Key)
		if err != nil {
			return pv, err
		}
		if kv.Key == "server" {
			pv.Server = v
		} else {
			pv.Client = v
		}
	}
	if pv.Server == "" || pv.Client == "" {
		return pv, p.errorf(n, "placement", "give both server and client CPU lists, e.g. {server: \"0\", client: \"1\"}")
	}
	return pv, nil
}

// cpuList checks the "0,2-3" syntax of taskset -c.
func (p *parser) cpuList(n *yaml.Node, key string) (string, error) {
	v, err := p.scalar(n, key)
	if err != nil {
		return "", err
	}
	for _, part := range strings.Split(v, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(lo)
		b, err2 := a, error(nil)
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 0 || b < a {
			return "", p.errorf(n, key, "%q is not a CPU list (use 0, 0-1 or 0,2)", v)
		}
	}
	return v, nil
}

func (p *parser) probe(n *yaml.Node) (probeValue, error) {
	v, err := p.scalar(n, "probe")
	if err != nil {
		return probeValue{}, err
	}
	path, every, ok := strings.Cut(v, "@")
	d, derr := time.ParseDuration(every)
	if !ok || !strings.HasPrefix(path, "/") || derr != nil || d <= 0 {
		return probeValue{}, p.errorf(n, "probe", "%q is not PATH@INTERVAL (use /status@5s)", v)
	}
	return probeValue{Path: path, Every: d}, nil
}

// size reads a positive byte count in gen.ParseSize's units: 5104, 256KB,
// 5MB (decimal, as the published texts write them) or 1MiB.
func (p *parser) size(n *yaml.Node, key string) (int64, error) {
	v, err := p.scalar(n, key)
	if err != nil {
		return 0, err
	}
	b, err := gen.ParseSize(v)
	if err != nil || b <= 0 {
		return 0, p.errorf(n, key, "%q is not a size (use 5104, 256KB or 5MB)", v)
	}
	return b, nil
}
