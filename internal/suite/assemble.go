package suite

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"restbench/internal/load"
)

// Defaults for what a suite leaves out.
const (
	DefaultTrials      = 3
	DefaultConnections = 10
	DefaultEngine      = "restbench"
)

// pending is what a run still needs after expansion: its bodies, which Load
// reads or generates only for the chosen scale, and where rate_of was written.
type pending struct {
	body       *bodyValue
	mixBodies  []*bodyValue
	rateOfNode *yaml.Node
}

// assemble builds one run from its layered settings.
func (p *parser) assemble(s settings, at *yaml.Node) (Run, pending, error) {
	var pd pending
	r := Run{
		Engine: DefaultEngine,
		Trials: DefaultTrials,
		Pinned: true,
		Env:    map[string]string{"THREADS": "1"},
		Load: load.Config{
			Connections: DefaultConnections,
			KeepAlive:   true,
			Expect:      200,
			Method:      "GET",
			URL:         "/",
		},
	}
	c := &r.Load
	get := func(key string) (setting, bool) { v, ok := s[key]; return v, ok }

	if v, ok := get("engine"); ok {
		r.Engine = v.V.(string)
	}
	if v, ok := get("trials"); ok {
		r.Trials = v.V.(int)
	}
	if v, ok := get("connections"); ok {
		c.Connections = v.V.(int)
	}
	if v, ok := get("max_connections"); ok && c.Connections > v.V.(int) {
		c.Connections = v.V.(int)
	}
	if v, ok := get("duration"); ok {
		c.Duration = v.V.(time.Duration)
	}
	if v, ok := get("warmup"); ok {
		c.Warmup = v.V.(time.Duration)
	}
	if v, ok := get("timeout"); ok {
		c.Timeout = v.V.(time.Duration)
	}
	if v, ok := get("requests"); ok {
		c.MaxRequests = v.V.(int64)
	}
	if c.Duration == 0 && c.MaxRequests == 0 {
		return r, pd, p.errorf(at, "duration", "a run needs a duration or a request count (set duration: or requests:)")
	}
	if v, ok := get("keepalive"); ok {
		c.KeepAlive = v.V.(bool)
	}
	if v, ok := get("expect"); ok {
		c.Expect = v.V.(int)
	}
	if v, ok := get("expect_json"); ok {
		c.ExpectJSON = v.V.(bool)
	}
	if v, ok := get("placement"); ok {
		pv := v.V.(placementValue)
		r.Pinned = !pv.Shared
		r.ServerCPUs, r.ClientCPUs = pv.Server, pv.Client
	}
	if v, ok := get("quota"); ok {
		r.Quota = v.V.(float64)
	}
	if v, ok := get("runtime"); ok {
		r.Runtime = v.V.(string)
	}
	p.assembleEnv(&r, s)
	if err := p.assembleRate(&r, &pd, s); err != nil {
		return r, pd, err
	}
	if err := p.assembleRequest(&r, &pd, s); err != nil {
		return r, pd, err
	}
	if v, ok := get("probe"); ok {
		pv := v.V.(probeValue)
		c.Probe, c.ProbeEvery = pv.Path, pv.Every
	}
	return r, pd, p.checkEngine(&r, s)
}

// assembleEnv sets the server's environment. THREADS is always set (the
// contract's default is 1); GOMAXPROCS only where the cell asks, because an
// unset GOMAXPROCS is itself an experiment (Go >= 1.25 then sizes it from
// the CPU quota and affinity).
func (p *parser) assembleEnv(r *Run, s settings) {
	if v, ok := s["threads"]; ok {
		r.Env["THREADS"] = v.V.(string)
	}
	if v, ok := s["gomaxprocs"]; ok {
		switch g := v.V.(string); g {
		case "unset":
		case "cores":
			// The number of cores the runner sees, as `docker --cpus=1`
			// left it visible to the published Go server (NumCPU: 4).
			r.Env["GOMAXPROCS"] = strconv.Itoa(runtime.NumCPU())
		default:
			r.Env["GOMAXPROCS"] = g
		}
	}
	if v, ok := s["cluster"]; ok && v.V.(string) == "pm2" {
		r.Env["CLUSTER"] = "pm2"
	}
}

func (p *parser) assembleRate(r *Run, pd *pending, s settings) error {
	v, ok := s["rate"]
	of, hasOf := s["rate_of"]
	if !ok {
		if hasOf {
			return p.errorf(of.Node, "rate_of", "needs a rate given as a fraction, e.g. rate: 0.75x")
		}
		return nil
	}
	rv := v.V.(rateValue)
	if rv.Frac == 0 {
		r.Load.Rate = rv.Abs
		return nil
	}
	if !hasOf {
		return p.errorf(v.Node, "rate", "%s is a fraction of a capacity: add rate_of: <run id> (a closed-loop run earlier in the suite)", v.Text)
	}
	r.RateFraction, r.RateOf, pd.rateOfNode = rv.Frac, of.V.(string), of.Node
	return nil
}

// assembleRequest sets the request or the mix. delay and work become the
// query of /time; work_share splits the load into a light and a heavy target
// (the heavy one does `work` ms of CPU), each with its own histogram.
func (p *parser) assembleRequest(r *Run, pd *pending, s settings) error {
	c := &r.Load
	path := "/"
	if v, ok := s["path"]; ok {
		path = v.V.(string)
	}
	if v, ok := s["headers"]; ok {
		c.Headers = v.V.([]string)
	}
	var body *bodyValue
	if v, ok := s["body"]; ok {
		body = v.V.(*bodyValue)
	}
	if v, ok := s["body_size"]; ok {
		if body == nil || body.Generate == "" {
			return p.errorf(v.Node, "body_size", "only a generated body ({generate: filter, size: ...}) has a size to change")
		}
		b := *body
		b.Size = v.V.(int64)
		body = &b
	}
	if v, ok := s["method"]; ok {
		c.Method = v.V.(string)
	} else if body != nil {
		c.Method = "POST"
	}
	if body != nil && !hasHeader(c.Headers, "Content-Type") {
		// Every body of the contract is JSON, and express.json() ignores a
		// body sent without this header.
		c.Headers = append(append([]string(nil), c.Headers...), "Content-Type: application/json")
	}
	pd.body = body

	delay, work := -1, -1
	if v, ok := s["delay"]; ok {
		delay = v.V.(int)
	}
	if v, ok := s["work"]; ok {
		work = v.V.(int)
	}
	share, hasShare := s["work_share"]
	if mix, ok := s["mix"]; ok {
		if hasShare {
			return p.errorf(share.Node, "work_share", "cannot be combined with mix: (it makes its own light/heavy mix)")
		}
		for _, t := range mix.V.([]targetValue) {
			tg := load.Target{Name: t.Name, Method: t.Method, Path: t.Path, Headers: t.Headers, Weight: t.Weight}
			if tg.Method == "" {
				tg.Method = "GET"
				if t.Body != nil {
					tg.Method = "POST"
				}
			}
			c.Mix = append(c.Mix, tg)
			pd.mixBodies = append(pd.mixBodies, t.Body)
		}
		c.URL = path
		return nil
	}
	if !hasShare {
		c.URL = withQuery(path, delay, work)
		return nil
	}
	pct := share.V.(float64)
	if work <= 0 {
		return p.errorf(share.Node, "work_share", "needs work: (the ms of CPU a heavy request does), e.g. work: 1")
	}
	c.URL = withQuery(path, delay, -1)
	// A share of 0 still gets a mix of one target, so every cell of the
	// experiment has a "light" histogram to compare.
	c.Mix = []load.Target{{Name: "light", Method: c.Method, Path: c.URL, Headers: c.Headers, Weight: 100 - pct}}
	if pct > 0 {
		c.Mix = append(c.Mix, load.Target{Name: "heavy", Method: c.Method, Path: withQuery(path, delay, work), Headers: c.Headers, Weight: pct})
	}
	if pct == 100 {
		c.Mix = c.Mix[1:]
	}
	return nil
}

// withQuery appends delay= and work= (when >= 0) to path.
func withQuery(path string, delay, work int) string {
	var q []string
	if delay >= 0 {
		q = append(q, fmt.Sprintf("delay=%d", delay))
	}
	if work >= 0 {
		q = append(q, fmt.Sprintf("work=%d", work))
	}
	if len(q) == 0 {
		return path
	}
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return path + sep + strings.Join(q, "&")
}

func hasHeader(hs []string, name string) bool {
	for _, h := range hs {
		if n, _, _ := strings.Cut(h, ":"); strings.EqualFold(strings.TrimSpace(n), name) {
			return true
		}
	}
	return false
}

// checkEngine refuses what wrk and ab cannot do, so the runner never starts
// a run its engine would quietly do differently.
func (p *parser) checkEngine(r *Run, s settings) error {
	if r.Engine == DefaultEngine {
		return nil
	}
	e := s["engine"]
	c := r.Load
	switch {
	case c.Rate > 0 || r.RateOf != "":
		return p.errorf(e.Node, "engine", "%s cannot send at a constant rate (wrk has no -R; use engine: restbench)", r.Engine)
	case len(c.Mix) > 0:
		return p.errorf(e.Node, "engine", "%s cannot send a mix of requests (use engine: restbench)", r.Engine)
	case c.Probe != "":
		return p.errorf(e.Node, "engine", "%s cannot send a heartbeat probe (use engine: restbench)", r.Engine)
	case r.Engine == "ab" && c.MaxRequests == 0:
		return p.errorf(e.Node, "engine", "ab needs a request count (set requests:, like ab -n)")
	}
	return nil
}
