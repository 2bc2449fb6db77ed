package runner

import (
	"context"
	"fmt"
	"slices"

	"restbench/internal/impl"
	"restbench/internal/result"
	"restbench/internal/runtimes"
	"restbench/internal/suite"
	"restbench/internal/suite/settings"
)

// installRuntimes installs, before anything is measured, every runtime the
// runs use, so that no download happens between two trials. A runtime that
// cannot be installed fails the trials that need it, not the suite.
func (r *Runner) installRuntimes(ctx context.Context, runs []suite.Run) error {
	if r.opt.Runtimes == nil {
		return nil
	}
	tried := map[string]bool{}
	for _, run := range withSearched(runs, r.suite.Runs) {
		im, err := r.opt.Manifest.Get(run.Impl)
		if err != nil {
			return err
		}
		rt, err := r.opt.Runtimes.Resolve(im.Language, run.Runtime)
		if err != nil {
			return fmt.Errorf("%s: run %s: %w", r.suite.File, run.ID, err)
		}
		if tried[rt.Name] {
			continue
		}
		tried[rt.Name] = true
		_, err = r.launch.Install(ctx, rt)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			// No progress bar yet: this comes before the first trial.
			fmt.Fprintf(r.opt.Log, "warning: %v; the runs on %s will fail\n", err, rt.Name)
		}
	}
	return nil
}

// onRuntime returns im as it runs on the run's runtime and the record of
// that runtime for the trial; with no lock file, im as the manifest says.
// notSupported is why im cannot run on it this way, or "".
func (r *Runner) onRuntime(ctx context.Context, im impl.Impl, run suite.Run) (_ impl.Impl, rec *result.Runtime, notSupported string, err error) {
	res, err := r.launch.On(ctx, im, run.Runtime, run.Env, run.RuntimeFlags == settings.FlagsDefault)
	if res.Runtime == nil {
		return res.Impl, nil, "", err
	}
	rec = record(res.Runtime)
	if res.NotSupported != "" {
		return res.Impl, rec, res.NotSupported, nil
	}
	rec.Flags = append([]string{}, res.Impl.RuntimeFlags...) // [], not null, for none
	return res.Impl, rec, "", err
}

// record is what a trial and env.json say of an installed runtime.
func record(in *runtimes.Installed) *result.Runtime {
	return &result.Runtime{Name: in.Name, Version: in.Printed, Path: in.Path, Flags: in.Flags, Env: in.Env}
}

// runtimeRecords is env.json's Runtimes: every runtime installed for this run.
func (r *Runner) runtimeRecords() map[string]result.Runtime {
	out := map[string]result.Runtime{}
	for name, in := range r.launch.Installed() {
		out[name] = *record(in)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// withSearched is runs and the runs their capacity searches start
// (rate_of: capacity(<run id>)) that --only left out: a search starts a
// server of that run, on that run's runtime.
func withSearched(runs, all []suite.Run) []suite.Run {
	out := slices.Clone(runs)
	for _, run := range runs {
		if !run.RateSearch || slices.ContainsFunc(out, func(o suite.Run) bool { return o.ID == run.RateOf }) {
			continue
		}
		if i := slices.IndexFunc(all, func(a suite.Run) bool { return a.ID == run.RateOf }); i >= 0 {
			out = append(out, all[i])
		}
	}
	return out
}
