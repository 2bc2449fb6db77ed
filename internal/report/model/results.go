// Package model reads results folders into what a report says: per suite its
// runs' measured figures, its verdicts, and the tables every renderer prints.
package model

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"restbench/internal/result"
)

// Results is one results folder, results/<suite>/<timestamp>, read whole.
type Results struct {
	Dir   string
	Env   result.Env
	Suite result.Suite
	// Trials holds every trial file of the folder by run id, in trial order.
	Trials map[string][]result.Trial
	// From names, by run id, the other machine whose trials replaced this
	// machine's not-run ones (see Borrow); nil when none did.
	From map[string]*Machine
	// Others are the other machines' folders of this suite (restbench
	// report --with), in the order given: a conclusion whose premise this
	// machine does not meet may be graded on one that does (see evaluate).
	Others []*Machine
	// LeftOut names each trial file of the folder that does not belong to
	// its suite, and why: another suite's trial, or a run the suite does
	// not have. None of them is in Trials.
	LeftOut []string
}

// Find resolves dir into the results folders it names: a timestamp folder
// (it holds suite.json) is itself; a suite folder gives its `latest` or,
// without one, its newest timestamp folder; a results root gives the newest
// folder of every suite in it.
func Find(dir string) ([]string, error) {
	if result.IsFolder(dir) {
		return []string{dir}, nil
	}
	if d, err := result.Newest(dir); err == nil && d != "" {
		return []string{d}, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read results folder: %w (name a folder written by restbench run, e.g. results)", err)
	}
	var dirs []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if d, err := result.Newest(filepath.Join(dir, e.Name())); err == nil && d != "" {
			dirs = append(dirs, d)
		}
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("%s holds no results (looked for %s in DIR, DIR/<timestamp> and DIR/<suite>/<timestamp>; run `restbench run` first)", dir, result.SuiteFile)
	}
	return dirs, nil
}

// Load reads one results folder. A missing env.json is tolerated (the report
// says "unknown"); a missing or broken suite.json or trial file is an error.
func Load(dir string) (*Results, error) {
	r := &Results{Dir: dir, Trials: map[string][]result.Trial{}}
	if err := result.ReadJSON(filepath.Join(dir, result.SuiteFile), &r.Suite); err != nil {
		return nil, fmt.Errorf("read suite: %w (is %s a results folder?)", err, dir)
	}
	if err := result.ReadJSON(filepath.Join(dir, result.EnvFile), &r.Env); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read environment: %w", err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.t*.json"))
	if err != nil {
		return nil, err
	}
	runs := map[string]bool{}
	for _, e := range r.Suite.Experiments {
		for _, run := range e.Runs {
			runs[run.ID] = true
		}
	}
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), ".") {
			continue // a temporary file of an interrupted write
		}
		var t result.Trial
		if err := result.ReadJSON(f, &t); err != nil {
			return nil, fmt.Errorf("read trial: %w (delete the file or re-run the suite)", err)
		}
		if t.Run == "" {
			return nil, fmt.Errorf("%s: trial has no run id; is it a trial file?", f)
		}
		// A results folder holds one suite: a trial copied in from another
		// would be averaged into a run of the same id.
		switch {
		case t.Suite != r.Suite.Name:
			r.LeftOut = append(r.LeftOut, fmt.Sprintf("%s: a trial of suite %q, not of this folder's %q", f, t.Suite, r.Suite.Name))
			continue
		case !runs[t.Run]:
			r.LeftOut = append(r.LeftOut, fmt.Sprintf("%s: run %q is not in %s's %s", f, t.Run, r.Suite.Name, result.SuiteFile))
			continue
		}
		r.Trials[t.Run] = append(r.Trials[t.Run], t)
	}
	for _, ts := range r.Trials {
		sort.Slice(ts, func(i, j int) bool { return ts[i].Trial < ts[j].Trial })
	}
	return r, nil
}

// LoadAll finds and loads every results folder that dir names.
func LoadAll(dir string) ([]*Results, error) {
	dirs, err := Find(dir)
	if err != nil {
		return nil, err
	}
	var all []*Results
	for _, d := range dirs {
		r, err := Load(d)
		if err != nil {
			return nil, err
		}
		all = append(all, r)
	}
	return all, nil
}
