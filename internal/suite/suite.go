package suite

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"restbench/internal/load"
	"restbench/internal/request"
	"restbench/internal/result"
	"restbench/internal/yamlfile"
)

// Scales are the run lengths a suite can be loaded at: quick (seconds per
// run, for CI), standard (the default; all five suites within 20 minutes on a
// 2-core machine) and full (the published durations and counts).
var Scales = []string{"quick", "standard", "full"}

// DefaultScale is the scale used when Options.Scale is empty.
const DefaultScale = "standard"

// Suite is a suite file expanded at one scale: the runs to measure, in
// execution order, and the description the runner writes as suite.json.
type Suite struct {
	Name, Title, Source, File, Scale string
	Runs                             []Run // in execution order; Run.ID unique
	Info                             result.Suite
}

// Options tune Load.
type Options struct {
	Scale string   // quick, standard or full; "" is standard
	Impls []string // known implementation ids; empty skips the check
	// Languages gives each implementation's language (go, node), to check
	// runtime: against it and to leave a runtime axis's other-language
	// values out of an implementation's runs; nil checks nothing.
	Languages map[string]string
	// MaxRuns is the most runs the suite may have at any scale, counted
	// before it is expanded; 0 is DefaultMaxRuns.
	MaxRuns int
	// Cores is the machine's cores as the suite's `gomaxprocs: cores` and
	// fractional quotas (0.25x) read them; 0 is the CPUs this process sees
	// (runtime.NumCPU). run --server-cores N sets N: the published machine
	// of N cores on a machine of more.
	Cores int
}

// Load reads the suite file at path and expands it at opt.Scale. Every
// scale is expanded to check the file, so a suite that loads at quick also
// loads at full. Errors name the file and line:
// "suites/heysphere.yaml:14: rate: "10k" is not a number (use 10000 or 0.75x)".
func Load(path string, opt Options) (*Suite, error) {
	scale := opt.Scale
	if scale == "" {
		scale = DefaultScale
	}
	if !contains(Scales, scale) {
		return nil, fmt.Errorf("unknown scale %q (use %s)", scale, strings.Join(Scales, ", "))
	}
	s, err := readSuite(path, scale, opt)
	return s, yamlfile.InFile(err, path)
}

// readSuite decodes the file, checks it against the manifest and expands it.
func readSuite(path, scale string, opt Options) (*Suite, error) {
	var f file
	if err := yamlfile.Read(path, &f); err != nil {
		if errors.Is(err, yamlfile.ErrEmpty) {
			return nil, fmt.Errorf("%w (see docs/suites.md for an example)", err)
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("read suite: %w", err)
		}
		return nil, err
	}
	if err := f.check(opt.Impls, opt.Languages); err != nil {
		return nil, err
	}
	limit := opt.MaxRuns
	if limit <= 0 {
		limit = DefaultMaxRuns
	}
	if err := f.checkRunCount(limit); err != nil {
		return nil, err
	}
	var chosen []Run
	var pends []pending
	var info result.Suite
	// full first: its errors (cells that select nothing, conclusions on
	// missing runs) are about the file itself, not about a scale.
	for _, sc := range []string{"full", "standard", "quick"} {
		runs, pd, inf, err := f.expand(sc, opt.Languages, cmp.Or(opt.Cores, runtime.NumCPU()))
		if err != nil {
			return nil, err
		}
		if sc == scale {
			chosen, pends, info = runs, pd, inf
		}
	}
	bodies := request.NewBodies(filepath.Dir(path))
	for i := range chosen {
		if err := resolveBodies(&chosen[i], pends[i], bodies); err != nil {
			return nil, err
		}
	}
	s := &Suite{Name: f.Name.V, Title: f.Title.V, Source: f.source(), File: path, Scale: scale, Runs: chosen}
	info.Name, info.Title, info.Source, info.File, info.Scale = s.Name, s.Title, s.Source, s.File, s.Scale
	info.PublishedWindow = f.Source.Window.V
	s.Info = info
	return s, nil
}

// check refuses an implementation id the manifest does not know (known
// empty: not checked), cells that could select nothing, and a runtime axis
// value that no implementation of the experiment runs on (langs nil: not
// checked).
func (f *file) check(known []string, langs map[string]string) error {
	for _, e := range f.Experiments.Items {
		for _, id := range e.Impls.IDs {
			if len(known) > 0 && !contains(known, id.V) {
				return yamlfile.Errorf(id.Node, "impls", "unknown implementation %q (known: %s)", id.V, strings.Join(sorted(known), ", "))
			}
		}
		if err := e.checkCells(); err != nil {
			return err
		}
		if err := e.checkRuntimes(langs); err != nil {
			return err
		}
	}
	return nil
}

// checkRuntimes makes sure every value of a runtime axis runs at least one
// of the experiment's implementations: the others leave it out of their
// runs, so a value that fits none would silently measure nothing.
func (e *experiment) checkRuntimes(langs map[string]string) error {
	ax := e.axis("runtime")
	if ax == nil || langs == nil {
		return nil
	}
	for _, v := range ax.Values {
		fits := false
		for _, id := range e.Impls.ids() {
			ok, known := fitsLanguage(v.Text, langs[id])
			fits = fits || ok || !known
		}
		if !fits {
			return yamlfile.Errorf(v.Set.Runtime.Node, "runtime", "%s runs none of this experiment's implementations (%s)", v.Text, strings.Join(e.Impls.ids(), ", "))
		}
	}
	return nil
}

// resolveBodies fills in the bytes of a run's body and its mix, which
// expansion leaves for the chosen scale only (a 5 MB body is not generated
// for a scale that is not run).
func resolveBodies(r *Run, pd pending, bodies *request.Bodies) error {
	data, err := bodies.Get(pd.body)
	if err != nil {
		return err
	}
	r.Load.Body = data
	if pd.mix != nil {
		r.Load.Mix, err = load.MixTargets(*pd.mix, bodies)
		return err
	}
	// A work_share mix repeats the run's request; its targets carry the body too.
	for i := range r.Load.Mix {
		r.Load.Mix[i].Body = data
	}
	return nil
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
