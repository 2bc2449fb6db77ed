package suite

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"restbench/internal/load"
	"restbench/internal/request"
	"restbench/internal/suite/settings"
	"restbench/internal/yamlfile"
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
	body       *request.Body
	mix        *request.Mix
	rateOfNode *yaml.Node
}

// assemble builds one run of implementation impl (of language lang, "" when
// unknown) from its layered settings; at is the experiment, for errors that
// belong to no one key.
func assemble(s settings.Layer, at *yaml.Node, lang string, cores int) (Run, pending, error) {
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
	if s.Engine != nil {
		r.Engine = s.Engine.V
	}
	if s.Trials != nil {
		r.Trials = s.Trials.V
	}
	r.MaxTrials = r.Trials
	if s.MaxTrials != nil {
		if s.MaxTrials.V < r.Trials {
			return r, pd, yamlfile.Errorf(s.MaxTrials.Node, "max_trials", "%d is fewer than trials (%d): max_trials is the most trials adaptive rounds may take", s.MaxTrials.V, r.Trials)
		}
		r.MaxTrials = s.MaxTrials.V
	}
	if s.TimeCap != nil {
		r.TimeCap = s.TimeCap.V
	}
	if s.Connections != nil {
		c.Connections = s.Connections.V.N
	}
	if s.ConnectionsCap != nil {
		c.Connections = min(c.Connections, s.ConnectionsCap.V)
	}
	if s.Duration != nil {
		c.Duration = s.Duration.V
	}
	if s.Warmup != nil {
		c.Warmup = s.Warmup.V
	}
	if s.Prewarm != nil {
		r.Prewarm = s.Prewarm.V
	}
	if s.PrewarmRequests != nil && s.PrewarmRequests.V > 0 {
		switch {
		case s.Prewarm == nil:
			return r, pd, yamlfile.Errorf(s.PrewarmRequests.Node, "prewarm_requests", "%d requests need a cap: add prewarm: <duration>, the longest the prewarm may take (the time budget counts it)", s.PrewarmRequests.V)
		case r.Prewarm > 0:
			r.PrewarmRequests = s.PrewarmRequests.V
		}
		// prewarm: 0s (a cell's, say quick's) turns the prewarm off, its
		// count with it.
	}
	if s.Timeout != nil {
		c.Timeout = s.Timeout.V
	}
	if s.Requests != nil {
		c.MaxRequests = s.Requests.V
	}
	if c.Duration == 0 && c.MaxRequests == 0 {
		return r, pd, yamlfile.Errorf(at, "duration", "a run needs a duration or a request count (set duration: or requests:)")
	}
	if s.KeepAlive != nil {
		c.KeepAlive = s.KeepAlive.V
	}
	if s.Expect != nil {
		c.Expect = s.Expect.V
	}
	if s.ExpectJSON != nil {
		c.ExpectJSON = s.ExpectJSON.V
	}
	if pl := s.Placement; pl != nil {
		r.Pinned = !pl.V.Shared && !pl.V.Hosts
		r.ServerCPUs, r.ClientCPUs, r.ServerCores = pl.V.Server, pl.V.Client, pl.V.Cores
		if pl.V.Hosts {
			r.Hosts = DefaultHosts
		}
	}
	if s.Quota != nil {
		r.Quota = s.Quota.V.CPUsOn(cores)
	}
	if s.Probe != nil {
		c.Probe, c.ProbeEvery = s.Probe.V.Path, s.Probe.V.Every
	}
	if err := assembleRuntime(&r, s, lang); err != nil {
		return r, pd, err
	}
	if s.RuntimeFlags != nil && s.RuntimeFlags.V == settings.FlagsDefault {
		r.RuntimeFlags = settings.FlagsDefault
	}
	assembleEnv(&r, s, cores)
	if err := assembleRate(&r, &pd, s); err != nil {
		return r, pd, err
	}
	if err := assembleRequest(&r, &pd, s); err != nil {
		return r, pd, err
	}
	if err := assembleDerived(&r, s); err != nil {
		return r, pd, err
	}
	if r.Prewarm > 0 && r.Hosts > 0 {
		return r, pd, yamlfile.Errorf(s.Prewarm.Node, "prewarm", "placement: hosts runs its load on other hosts, which a prewarm does not reach: leave prewarm out there")
	}
	return r, pd, checkEngine(&r, s)
}

// assembleDerived reads the rules that size a run at run time: connections:
// little(M) and window:. Both need a rate measured on this machine
// (rate_of), and the service time its measurement gives: a capacity
// search's p99 at about the rate, or a closed-loop run's median p99.
func assembleDerived(r *Run, s settings.Layer) error {
	if s.Connections != nil && s.Connections.V.Little > 0 {
		if r.RateOf == "" {
			return yamlfile.Errorf(s.Connections.Node, "connections", "%s sizes connections from a rate and a service time this machine measured: give rate: <fraction>x and rate_of: capacity(<run id>) (or a closed-loop run), or a count", s.Connections.Text())
		}
		l := &Little{Margin: s.Connections.V.Little}
		if s.Delay != nil {
			l.HoldMS += float64(s.Delay.V)
		}
		if s.Work != nil && s.WorkShare != nil && s.WorkShare.V > 0 {
			l.HoldMS += float64(s.Work.V)
		}
		if s.ConnectionsCap != nil {
			l.Cap = s.ConnectionsCap.V
		}
		r.Little, r.Load.Connections = l, 0
	}
	if w := s.Window; w != nil {
		if r.RateOf == "" {
			return yamlfile.Errorf(w.Node, "window", "sizes the window from an open loop's rate and service time: give rate: <fraction>x and rate_of: capacity(<run id>) (or a closed-loop run)")
		}
		if r.Load.MaxRequests > 0 {
			return yamlfile.Errorf(w.Node, "window", "a run of requests: %d ends by its count, not its window; leave one of them out", r.Load.MaxRequests)
		}
		r.Window = &Window{Max: w.Max.V}
		if w.Requests != nil {
			r.Window.Requests = w.Requests.V
		}
		if w.Latencies != nil {
			r.Window.Latencies = w.Latencies.V
		}
		if r.Window.Max < r.Load.Duration {
			return yamlfile.Errorf(w.Max.Node, "max", "%v is shorter than the duration %v, the least window", w.Max.V, r.Load.Duration)
		}
	}
	return nil
}

// assembleRuntime checks the runtime against the implementation's language.
func assembleRuntime(r *Run, s settings.Layer, lang string) error {
	if s.Runtime == nil {
		return nil
	}
	if ok, known := fitsLanguage(s.Runtime.V, lang); known && !ok {
		return yamlfile.Errorf(s.Runtime.Node, "runtime", "%s is not a runtime of a %s implementation (use %s)", s.Runtime.V, lang, strings.Join(settings.Runtimes[lang], ", "))
	}
	r.Runtime = s.Runtime.V
	return nil
}

// fitsLanguage tells whether runtime rt runs implementations of lang; known
// is false where lang has no list of runtimes (an unknown language).
func fitsLanguage(rt, lang string) (ok, known bool) {
	list, known := settings.Runtimes[lang]
	return contains(list, rt), known
}

// assembleEnv sets the server's environment. THREADS is always set (the
// contract's default is 1); GOMAXPROCS and BACKLOG only where the cell asks, because an
// unset GOMAXPROCS is itself an experiment (Go >= 1.25 then sizes it from
// the CPU quota and affinity).
func assembleEnv(r *Run, s settings.Layer, cores int) {
	if s.Threads != nil {
		r.Env["THREADS"] = s.Threads.V
	}
	if s.Gomaxprocs != nil {
		switch g := s.Gomaxprocs.V; g {
		case "unset":
		case "cores":
			// The number of cores the runner sees (or run --server-cores
			// gives the server), as `docker --cpus=1` left it visible to
			// the published Go server (NumCPU: 4).
			r.Env["GOMAXPROCS"] = strconv.Itoa(cores)
		default:
			r.Env["GOMAXPROCS"] = g
		}
	}
	if s.Cluster != nil && s.Cluster.V == "pm2" {
		r.Env["CLUSTER"] = "pm2"
	}
	if s.Backlog != nil && s.Backlog.V != "default" {
		r.Env["BACKLOG"] = s.Backlog.V
	}
}

func assembleRate(r *Run, pd *pending, s settings.Layer) error {
	if err := assembleRateSearch(r, s); err != nil {
		return err
	}
	if s.Rate == nil {
		if s.RateOf != nil {
			return yamlfile.Errorf(s.RateOf.Node, "rate_of", "needs a rate given as a fraction, e.g. rate: 0.75x")
		}
		return nil
	}
	rv := s.Rate.V
	if rv.Frac == 0 {
		r.Load.Rate = rv.Abs
		return nil
	}
	if s.RateOf == nil {
		return yamlfile.Errorf(s.Rate.Node, "rate", "%s is a fraction of a capacity: add rate_of: <run id> (a closed-loop run earlier in the suite) or rate_of: capacity(<run id>) (an open-loop search)", s.Rate.Text())
	}
	r.RateFraction, r.RateOf, pd.rateOfNode = rv.Frac, s.RateOf.V, s.RateOf.Node
	if id, ok := strings.CutPrefix(s.RateOf.V, "capacity("); ok {
		id, ok = strings.CutSuffix(id, ")")
		if !ok || strings.TrimSpace(id) == "" {
			return yamlfile.Errorf(s.RateOf.Node, "rate_of", "%q: write capacity(<run id>), e.g. capacity(delay/node-express delay=0ms)", s.RateOf.V)
		}
		r.RateOf, r.RateSearch = strings.TrimSpace(id), true
	}
	return nil
}

// assembleRateSearch reads rate_search: once searches a capacity(<run id>)
// once for the whole run of the suite instead of once per round; checked
// does too, and checks the search's answer with longer steps.
func assembleRateSearch(r *Run, s settings.Layer) error {
	if s.RateSearch == nil || s.RateSearch.V == "round" {
		return nil
	}
	if s.Rate == nil || s.Rate.V.Frac == 0 || s.RateOf == nil || !strings.HasPrefix(s.RateOf.V, "capacity(") {
		if s.Rate != nil && s.Rate.V.Frac == 0 {
			return nil // an absolute rate (a scale's) searches nothing
		}
		return yamlfile.Errorf(s.RateSearch.Node, "rate_search", "%s needs a rate searched for: rate: 1x with rate_of: capacity(<run id>)", s.RateSearch.V)
	}
	r.RateSearchOnce, r.RateCheck = true, s.RateSearch.V == "checked"
	return nil
}

// assembleRequest sets the request or the mix. delay and work become the
// query of /time; work_share splits the load into a light and a heavy target
// (the heavy one does `work` ms of CPU), each with its own histogram.
func assembleRequest(r *Run, pd *pending, s settings.Layer) error {
	c := &r.Load
	path := "/"
	if s.Path != nil {
		path = s.Path.V
	}
	if s.Headers != nil {
		c.Headers = s.Headers.V
	}
	body := s.Body
	if s.BodySize != nil {
		b, err := body.WithSize(s.BodySize.V)
		if err != nil {
			return yamlfile.Errorf(s.BodySize.Node, "body_size", "%v", err)
		}
		body = b
	}
	c.Method = request.MethodFor(s.Method, body != nil)
	c.Headers = request.WithJSONType(c.Headers, body != nil)
	pd.body = body

	delay, work := -1, -1
	if s.Delay != nil {
		delay = s.Delay.V
	}
	if s.Work != nil {
		work = s.Work.V
	}
	if s.Mix != nil {
		if s.WorkShare != nil {
			return yamlfile.Errorf(s.WorkShare.Node, "work_share", "cannot be combined with mix: (it makes its own light/heavy mix)")
		}
		pd.mix = s.Mix
		c.URL = path
		return nil
	}
	if s.WorkShare == nil {
		c.URL = withQuery(path, delay, work)
		return nil
	}
	pct := s.WorkShare.V
	if work <= 0 {
		return yamlfile.Errorf(s.WorkShare.Node, "work_share", "needs work: (the ms of CPU a heavy request does), e.g. work: 1")
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

// checkEngine refuses what wrk and ab cannot do, so the runner never starts
// a run its engine would quietly do differently.
func checkEngine(r *Run, s settings.Layer) error {
	if r.Engine == DefaultEngine {
		return nil
	}
	at := s.Engine.Node
	c := r.Load
	switch {
	case c.Rate > 0 || r.RateOf != "":
		return yamlfile.Errorf(at, "engine", "%s cannot send at a constant rate (wrk has no -R; use engine: restbench)", r.Engine)
	case len(c.Mix) > 0 || s.Mix != nil:
		return yamlfile.Errorf(at, "engine", "%s cannot send a mix of requests (use engine: restbench)", r.Engine)
	case c.Probe != "":
		return yamlfile.Errorf(at, "engine", "%s cannot send a heartbeat probe (use engine: restbench)", r.Engine)
	case r.Engine == "ab" && c.MaxRequests == 0:
		return yamlfile.Errorf(at, "engine", "ab needs a request count (set requests:, like ab -n)")
	case r.Engine == "wrk" && (c.Warmup%time.Second != 0 || c.Duration%time.Second != 0):
		// Rounded up, a wrk run would warm its server longer and measure a
		// later, longer stretch of it than its restbench pair: a fresh
		// node-http still compiles through its first ~1.2 s, and the
		// standard dotchev check read 0.90× on 0.3 s + 1.5 s against 1 s + 2 s.
		return yamlfile.Errorf(at, "engine", "wrk takes whole seconds, and this run asks for a %v warm-up and a %v window: give warmup and duration in whole seconds (at this scale too), so that the runs it is compared with measure the same part of a server's life", c.Warmup, c.Duration)
	}
	return nil
}
