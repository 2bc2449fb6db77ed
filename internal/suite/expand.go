package suite

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"restbench/internal/metric"
	"restbench/internal/result"
	"restbench/internal/suite/settings"
	"restbench/internal/yamlfile"
)

// expand turns the file into runs at one scale, in execution order:
// experiments in file order; in an experiment the matrix's first axis
// varies slowest and the implementations fastest, so the runs compared in a
// published table follow each other (a slow drift of a noisy machine then
// hits both sides alike). langs gives each implementation's language, to
// check runtime:; nil checks nothing.
func (f *file) expand(scale string, langs map[string]string, cores int) ([]Run, []pending, result.Suite, error) {
	var runs []Run
	var pends []pending
	var info result.Suite
	ids := map[string]bool{}
	// A conclusion a smaller scale cannot grade keeps its published ratio,
	// which the full scale's cells give.
	var atFull map[string]*Run
	if scale != "full" {
		full, _, _, err := f.expand("full", langs, cores)
		if err != nil {
			return nil, nil, info, err
		}
		atFull = map[string]*Run{}
		for i := range full {
			atFull[full[i].ID] = &full[i]
		}
	}
	for _, e := range f.Experiments.Items {
		base := settings.Layer{}.With(f.Defaults, &e.Layer, f.Scales.at(scale))
		if s := e.Scales.at(scale); s != nil {
			base.Apply(&s.Layer)
		}
		matrix := e.matrixAt(scale)
		cellUsed := make([]bool, len(e.Cells.Items))
		var exp []Run
		var expPend []pending
		var loads []*publishedLoad // the published load of each run of exp
		for _, combo := range crossProduct(matrix) {
			for _, impl := range e.Impls.ids() {
				if !combo.fits(langs[impl]) {
					continue
				}
				c := e.applyCells(impl, scale, combo, cellUsed)
				if c.excluded {
					continue
				}
				set := base.With(combo.layers...).With(c.layers...)
				r, pd, err := assemble(set, e.node, langs[impl], cores)
				if err != nil {
					return nil, nil, info, err
				}
				r.Experiment, r.Impl, r.Label, r.Params, r.Published, r.Note = e.Name.V, impl, c.label, c.params, c.published, c.note
				pl := cmp.Or(c.publishedLoad, e.PublishedLoad)
				r.PublishedLoad = pl.resolve(nominalConnections(set))
				exp = append(exp, r)
				expPend = append(expPend, pd)
				loads = append(loads, pl)
			}
		}
		if scale == "full" {
			for i, used := range cellUsed {
				if !used && !e.Cells.Items[i].forScale() {
					return nil, nil, info, yamlfile.Errorf(e.Cells.Items[i].node, "cells", "this cell matches no run of experiment %s (check its when:)", e.Name.V)
				}
			}
		}
		labelRuns(exp, matrix)
		for i, pl := range loads {
			if err := pl.checkModel(exp[i]); err != nil {
				return nil, nil, info, err
			}
		}
		exp, expPend, err := e.withAA(exp, expPend, scale)
		if err != nil {
			return nil, nil, info, err
		}
		for i := range exp {
			exp[i].ID = e.Name.V + "/" + exp[i].Label
			if ids[exp[i].ID] {
				return nil, nil, info, yamlfile.Errorf(e.node, "cells", "two runs are both called %q: give one a label:", exp[i].ID)
			}
			ids[exp[i].ID] = true
		}
		if err := checkControls(exp, e.node); err != nil {
			return nil, nil, info, err
		}
		ex, err := e.info(exp, runs, scale, atFull)
		if err != nil {
			return nil, nil, info, err
		}
		info.Experiments = append(info.Experiments, ex)
		runs = append(runs, exp...)
		pends = append(pends, expPend...)
	}
	return runs, pends, info, checkRateOf(runs, pends)
}

// checkControls makes sure every published_load control names a run of
// the same experiment other than the run itself.
func checkControls(exp []Run, n *yaml.Node) error {
	ids := map[string]bool{}
	for _, r := range exp {
		ids[r.ID] = true
	}
	for _, r := range exp {
		c := ""
		if r.PublishedLoad != nil {
			c = r.PublishedLoad.Control
		}
		if c != "" && (!ids[c] || c == r.ID) {
			return yamlfile.Errorf(n, "published_load", "run %s: control %q is not another run of experiment %s: name one by its id (experiment/label)", r.ID, c, r.Experiment)
		}
	}
	return nil
}

// DefaultMaxRuns is the most runs a suite may have at any scale unless
// Options.MaxRuns says otherwise: far above any published experiment
// (tens of runs), far below what a typo in a matrix makes of it (a 7-axis
// matrix of 20 values is 1.28 billion runs, and gigabytes to expand).
const DefaultMaxRuns = 2000

// checkRunCount refuses a suite whose matrices would expand, at some
// scale, into more than limit runs. It counts before expanding anything:
// the product of an experiment's axis lengths times its implementations,
// an upper bound (cells and runtime axes may leave some out).
func (f *file) checkRunCount(limit int) error {
	for _, sc := range []string{"full", "standard", "quick"} {
		var total uint64
		for _, e := range f.Experiments.Items {
			total = min(total+e.runCount(sc), maxCount)
			if total > uint64(limit) {
				return yamlfile.Errorf(e.node, "matrix", "%s runs at %s scale (counted up to this experiment), more than the limit of %d: "+
					"check the matrices for a typo, or raise the limit with restbench run --max-runs", countText(total), sc, limit)
			}
		}
	}
	return nil
}

// maxCount caps runCount, far above any limit and far from overflowing.
const maxCount = 1 << 60

// runCount is an upper bound of e's runs at scale, at most maxCount.
func (e *experiment) runCount(scale string) uint64 {
	n := uint64(len(e.Impls.ids()))
	for _, ax := range e.matrixAt(scale) {
		if v := uint64(len(ax.Values)); v > 0 && n > maxCount/v {
			return maxCount
		}
		n *= uint64(len(ax.Values))
	}
	return n
}

func countText(n uint64) string {
	if n >= maxCount {
		return "more than 10^18"
	}
	return strconv.FormatUint(n, 10)
}

// cellResult is what the cells selecting one matrix cell make of it.
type cellResult struct {
	layers    []*settings.Layer
	params    map[string]string
	label     string
	published map[string]float64
	note      string
	excluded  bool
	// publishedLoad is the last selecting cell's published_load, if any.
	publishedLoad *publishedLoad
}

// applyCells applies, in file order, every cell whose when: holds for this
// implementation, scale and matrix combination, and marks the cells used.
// Cells match the matrix values, not what an earlier cell's set: changed.
func (e *experiment) applyCells(impl, scale string, combo combination, used []bool) cellResult {
	out := cellResult{params: map[string]string{}}
	for k, v := range combo.params {
		out.params[k] = v
	}
	for i, c := range e.Cells.Items {
		if !c.matches(impl, scale, combo.params) {
			continue
		}
		used[i] = true
		out.excluded = out.excluded || (c.Exclude != nil && c.Exclude.V)
		if c.Set != nil {
			out.layers = append(out.layers, c.Set)
			for k, v := range c.Set.AxisTexts() {
				out.params[k] = v
			}
		}
		if c.Label.V != "" {
			out.label = c.Label.V
		}
		if c.Note.V != "" {
			out.note = c.Note.V
		}
		if c.PublishedLoad != nil {
			out.publishedLoad = c.PublishedLoad
		}
		if c.Published != nil && out.published == nil {
			out.published = map[string]float64{}
		}
		for k, v := range c.Published {
			out.published[k] = v
		}
	}
	return out
}

// matrixAt is the matrix with the axes a scale replaces.
func (e *experiment) matrixAt(scale string) []axis {
	out := append([]axis(nil), e.Matrix.Axes...)
	for _, ax := range axesOf(e.Scales.at(scale)) {
		for i := range out {
			if out[i].Key == ax.Key {
				out[i] = ax
			}
		}
	}
	return out
}

// combination is one cell of the matrix: a value of every axis.
type combination struct {
	params map[string]string // axis key -> value as written
	layers []*settings.Layer // the values' settings, in axis order
}

// fits tells whether an implementation of language lang can run this cell:
// a runtime axis lists the runtimes of every language an experiment
// compares, and each implementation runs only its own.
func (c combination) fits(lang string) bool {
	rt, ok := c.params["runtime"]
	if !ok {
		return true
	}
	fits, known := fitsLanguage(rt, lang)
	return fits || !known
}

// crossProduct lists every combination of the axes' values, the first axis
// varying slowest. No axes give one empty combination.
func crossProduct(axes []axis) []combination {
	combos := []combination{{params: map[string]string{}}}
	for _, ax := range axes {
		var next []combination
		for _, c := range combos {
			for _, v := range ax.Values {
				params := map[string]string{ax.Key: v.Text}
				for k, x := range c.params {
					params[k] = x
				}
				next = append(next, combination{params: params, layers: append(append([]*settings.Layer(nil), c.layers...), v.Set)})
			}
		}
		combos = next
	}
	return combos
}

func (c cell) matches(impl, scale string, params map[string]string) bool {
	for _, w := range c.When {
		got := params[w.Key]
		switch w.Key {
		case "impl":
			got = impl
		case "scale":
			got = scale
		}
		if got != w.Value {
			return false
		}
	}
	return true
}

// forScale reports whether c's when: names a scale: such a cell matches no
// run at the other scales, the full one included, and that is no typo.
func (c cell) forScale() bool {
	for _, w := range c.When {
		if w.Key == "scale" {
			return true
		}
	}
	return false
}

// labelRuns names each run without a label by its implementation and the
// matrix parameters that vary between the runs of that implementation in the
// experiment: "node-express c=100", "go-nethttp GOMAXPROCS=cores". Parameters
// that are the same for all of an implementation's runs are in the
// experiment's title, not in every label; what a cell's set: adds is in
// Params but not in the label (give the cell a label: where it matters).
func labelRuns(runs []Run, matrix []axis) {
	isAxis := map[string]bool{}
	for _, ax := range matrix {
		isAxis[ax.Key] = true
	}
	varying := map[string]map[string]bool{} // impl -> param -> varies
	for _, impl := range implsOf(runs) {
		seen := map[string]map[string]bool{}
		for _, r := range runs {
			if r.Impl != impl {
				continue
			}
			for k, v := range r.Params {
				if seen[k] == nil {
					seen[k] = map[string]bool{}
				}
				seen[k][v] = true
			}
		}
		varying[impl] = map[string]bool{}
		for k, vs := range seen {
			n := 0
			for _, r := range runs {
				if _, ok := r.Params[k]; ok && r.Impl == impl {
					n++
				}
			}
			// A parameter set on only some runs also tells them apart.
			varying[impl][k] = len(vs) > 1 || n < countImpl(runs, impl)
		}
	}
	for i, r := range runs {
		if r.Label != "" {
			continue
		}
		parts := []string{r.Impl}
		for _, k := range sortedKeys(r.Params) {
			// A runtime axis is always named: "go-nethttp go@1.26" beside
			// "node-http node@22", even where a language has one runtime.
			if isAxis[k] && (varying[r.Impl][k] || k == "runtime") {
				parts = append(parts, paramLabel(k, r.Params[k]))
			}
		}
		runs[i].Label = strings.Join(parts, " ")
	}
}

// paramLabel writes one parameter the way the published texts do.
func paramLabel(key, value string) string {
	switch key {
	case "connections":
		return "c=" + value
	case "threads":
		return "THREADS=" + value
	case "gomaxprocs":
		return "GOMAXPROCS=" + value
	case "cluster":
		return "CLUSTER=" + value
	case "delay":
		return "delay=" + value + "ms"
	case "work":
		return "work=" + value + "ms"
	case "work_share":
		return "work=" + value + "%"
	case "runtime":
		return value // node@22, bun, go@1.24
	case "runtime_flags":
		return "flags=" + value
	case "path":
		// A run id has one "/", between experiment and label.
		return strings.ReplaceAll(strings.TrimPrefix(value, "/"), "/", "-")
	}
	return key + "=" + value
}

// sortedKeys orders parameters by settings.AxisKeys, the order people read them in.
func sortedKeys(m map[string]string) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	rank := func(k string) int {
		for i, a := range settings.AxisKeys {
			if a == k {
				return i
			}
		}
		return len(settings.AxisKeys)
	}
	sort.Slice(keys, func(i, j int) bool { return rank(keys[i]) < rank(keys[j]) })
	return keys
}

func implsOf(runs []Run) []string {
	var out []string
	for _, r := range runs {
		if !contains(out, r.Impl) {
			out = append(out, r.Impl)
		}
	}
	return out
}

func countImpl(runs []Run, impl string) int {
	n := 0
	for _, r := range runs {
		if r.Impl == impl {
			n++
		}
	}
	return n
}

// info describes an experiment for suite.json. A conclusion whose runs are
// not part of this scale is listed as not graded at it, its published ratio
// read from atFull (the full scale's runs); at full scale it is an error.
// A conclusion may read a run of an earlier experiment (earlier): a scaled
// twin set against a cell that runs as published, say; the report pairs
// them by round like any two runs.
func (e *experiment) info(runs, earlier []Run, scale string, atFull map[string]*Run) (result.Experiment, error) {
	ex := result.Experiment{Name: e.Name.V, Title: e.Title.V, Description: e.Description.V}
	byID := map[string]*Run{}
	for i := range earlier {
		byID[earlier[i].ID] = &earlier[i]
	}
	minTrials, maxTrials := 0, 0
	for i, r := range runs {
		byID[r.ID] = &runs[i]
		ex.Runs = append(ex.Runs, result.RunInfo{
			ID: r.ID, Impl: r.Impl, Label: r.Label, Params: r.Params, Trials: r.Trials, Published: r.Published, Note: r.Note,
			Connections: r.Load.Connections, OpenLoop: r.Load.Rate > 0 || r.RateOf != "", PublishedLoad: r.PublishedLoad,
		})
		least, most := r.Trials, max(r.Trials, r.MaxTrials)
		if i == 0 || least < minTrials {
			minTrials = least
		}
		maxTrials = max(maxTrials, most)
	}
	if maxTrials > minTrials {
		// A stop rule may look after every round from the least to the
		// most: each look is a chance to stop on a lucky interval.
		ex.Looks = maxTrials - minTrials + 1
	}
	for _, c := range e.Conclusions.Items {
		if scale != "full" && len(c.Points) > 2 {
			// A trend keeps the points this scale runs, two at least: a
			// scale that leaves out a middle cell still grades the trend
			// over the others, and says which it left out.
			c = c.atScale(byID)
		}
		missing, key := "", "a"
		for _, id := range c.runs() {
			if byID[id] == nil && missing == "" {
				missing = id
				if id == c.B {
					key = "b"
				} else if id != c.A {
					key = "points"
				}
			}
		}
		if missing != "" && scale == "full" {
			return ex, yamlfile.Errorf(c.at(key), "conclusions", "no run %q in experiment %s or an earlier one (runs: %s)", missing, e.Name.V, strings.Join(runIDs(runs), ", "))
		}
		// Every field of the conclusion goes on, the published ratio filled
		// in (a trend's is its published points, which the verdict reads).
		// A scale that leaves out one of its runs lists it all the same,
		// marked: the report says it is not graded here instead of losing it.
		rc, pubRuns := c.Conclusion, byID
		if missing != "" {
			rc.NotGraded = fmt.Sprintf("not graded at %s: its cells run at full (%s is not run at %s)", scale, missing, scale)
			pubRuns = atFull
		}
		if rc.Published == 0 && c.A != "" && c.B == "" {
			if pa, ok := metric.PublishedValue(pubRuns[c.A].Published, c.Metric); ok {
				rc.Published = pa
			}
		} else if rc.Published == 0 && c.A != "" {
			pa, okA := metric.PublishedValue(pubRuns[c.A].Published, c.Metric)
			pb, okB := metric.PublishedValue(pubRuns[c.B].Published, c.Metric)
			switch {
			case okA && okB && pb != 0:
				rc.Published = pa / pb
			case c.Claim == "" || c.Claim == result.ClaimDirection:
				// A direction claim's side of 1 is the published ratio's;
				// a band or a tie states its own region, and may rest on a
				// graph that printed no figure.
				return ex, yamlfile.Errorf(c.node, "published", "give the published ratio, or published %s figures for both %s and %s", c.Metric, c.A, c.B)
			}
		}
		ex.Conclusions = append(ex.Conclusions, rc)
	}
	if e.AA != nil {
		for _, r := range runs {
			if strings.HasSuffix(r.Label, aaSuffix) {
				ex.Conclusions = append(ex.Conclusions, result.Conclusion{
					Text: "A/A: " + strings.TrimSuffix(r.Label, aaSuffix) + " against itself", Kind: result.KindAA,
					Metric: e.AA.Metric.V, A: strings.TrimSuffix(r.ID, aaSuffix), B: r.ID, Claim: result.ClaimTie, Published: 1,
					Note: "the same run twice in every round: the noise floor of this experiment's ratios",
				})
			}
		}
	}
	return ex, nil
}

// aaSuffix ends the label of an A/A arm's twin.
const aaSuffix = " A/A"

// withAA adds the A/A arm's twin right after the run it repeats: the same
// settings, measured in the same rounds, its own server each time. Quick
// scale, one round, has no noise floor to measure and leaves it out.
func (e *experiment) withAA(runs []Run, pends []pending, scale string) ([]Run, []pending, error) {
	if e.AA == nil || scale == "quick" {
		return runs, pends, nil
	}
	for i, r := range runs {
		if r.Label == e.AA.Run.V {
			twin := r
			twin.Label, twin.Published, twin.Note = r.Label+aaSuffix, nil, ""
			return slices.Insert(runs, i+1, twin), slices.Insert(pends, i+1, pends[i]), nil
		}
	}
	var labels []string
	for _, r := range runs {
		labels = append(labels, r.Label)
	}
	return nil, nil, yamlfile.Errorf(e.AA.node, "run", "no run labelled %q in experiment %s at this scale (labels: %s)", e.AA.Run.V, e.Name.V, strings.Join(labels, ", "))
}

func runIDs(runs []Run) []string {
	var out []string
	for _, r := range runs {
		out = append(out, r.ID)
	}
	return out
}

// checkRateOf makes sure a rate given as a fraction of a capacity names a
// run the runner can take it from: a closed-loop run that comes earlier (it
// has been measured in time), or for capacity(<id>) any run of the suite
// whose load a search can offer (its connections and request; its rate is
// the search's to choose).
func checkRateOf(runs []Run, pends []pending) error {
	before := map[string]*Run{}
	all := map[string]*Run{}
	for i := range runs {
		all[runs[i].ID] = &runs[i]
	}
	for i, r := range runs {
		node := pends[i].rateOfNode
		switch {
		case r.RateOf == "":
		case r.RateSearch:
			ref := all[r.RateOf]
			switch {
			case ref == nil:
				return yamlfile.Errorf(node, "rate_of", "capacity(%s): no run %q in the suite (runs: %s)", r.RateOf, r.RateOf, strings.Join(runIDs(runs), ", "))
			case ref.Hosts > 0 || r.Hosts > 0:
				return yamlfile.Errorf(node, "rate_of", "capacity(%s): a capacity search runs on this machine; placement hosts cannot take part (give an absolute rate)", r.RateOf)
			case ref.Engine != "" && ref.Engine != "restbench":
				return yamlfile.Errorf(node, "rate_of", "capacity(%s): the search needs an open loop, which engine %s cannot do (use engine: restbench)", r.RateOf, ref.Engine)
			case ref.Load.MaxRequests > 0:
				return yamlfile.Errorf(node, "rate_of", "capacity(%s): a search step is a duration, and that run gives requests: %d (give it a duration)", r.RateOf, ref.Load.MaxRequests)
			}
		default:
			ref := before[r.RateOf]
			switch {
			case ref == nil:
				return yamlfile.Errorf(node, "rate_of", "no run %q earlier in the suite (earlier runs: %s)", r.RateOf, strings.Join(runIDs(runs[:i]), ", "))
			case ref.Load.Rate > 0 || ref.RateOf != "":
				return yamlfile.Errorf(node, "rate_of", "%q is an open-loop run; name a closed-loop run whose req/s is the capacity, or search its capacity: rate_of: capacity(%s)", r.RateOf, r.RateOf)
			}
		}
		before[r.ID] = &runs[i]
	}
	return nil
}

// atScale is a trend with the points whose runs this scale has (byID),
// when at least two remain; the note names the points left out.
func (c conclusion) atScale(byID map[string]*Run) conclusion {
	var kept []result.Point
	var left []string
	for _, p := range c.Points {
		if byID[p.A] != nil && (p.B == "" || byID[p.B] != nil) {
			kept = append(kept, p)
		} else {
			left = append(left, strconv.FormatFloat(p.X, 'f', -1, 64))
		}
	}
	if len(left) == 0 || len(kept) < 2 {
		return c
	}
	c.Points = kept
	note := "points " + strings.Join(left, ", ") + " left out at this scale"
	if c.Note != "" {
		note = c.Note + "; " + note
	}
	c.Note = note
	return c
}

// nominalConnections is a run's connection count before a scale's
// max_connections capped it: the write-up's, where the suite follows it.
func nominalConnections(s settings.Layer) int {
	if s.Connections != nil {
		return s.Connections.V.N // 0 under little(M): sized at run time
	}
	return 10 // load.Config's default
}
