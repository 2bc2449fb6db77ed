package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"restbench/internal/contract"
	"restbench/internal/impl"
	"restbench/internal/launch"
	"restbench/internal/payload"
	"restbench/internal/runtimes"
	"restbench/internal/server"
)

// newVerify checks implementations against the server contract and prints a
// table of checks × implementations; it fails when any check fails.
func newVerify(g *globals) *cobra.Command {
	c := &cobra.Command{
		Use:   "verify [flags] [ids...]",
		Short: "check implementations against the server contract",
		Long: "Builds each implementation if needed, starts it on a free port (THREADS=1, then\n" +
			"THREADS=2 and, for Go, GOMAXPROCS=4, for Node, CLUSTER=pm2), checks every part\n" +
			"of docs/contract.md and prints a table. No ids: every implementation.\n" +
			"Each runs on its default runtime (servers/runtimes.yaml), or on --runtime.",
	}
	f := &verifyFlags{}
	fs := c.Flags()
	fs.StringVar(&f.json, "json", "", "also write the results as JSON to `FILE`, - for stdout (the table then goes to stderr)")
	fs.StringVar(&f.filterSize, "filter-size", "200MB", "body size of the filter-memory check")
	fs.StringVar(&f.maxRSS, "max-rss", "100MB", "bound on the server's memory in the filter-memory check")
	fs.StringVar(&f.runtimes, "runtime", "", "comma-separated pinned runtimes to verify on (node@20,bun,go@1.22; restbench runtimes lists them); default: each implementation's default")
	c.RunE = func(c *cobra.Command, ids []string) error { return f.verify(c.Context(), g, ids) }
	return c
}

// verifyFlags are restbench verify's flags.
type verifyFlags struct {
	json, filterSize, maxRSS, runtimes string
}

func (f *verifyFlags) verify(ctx context.Context, g *globals, ids []string) error {
	size, err := payload.ParseSize(f.filterSize)
	if err != nil {
		return usageError("verify: --filter-size: %v", err)
	}
	limit, err := payload.ParseSize(f.maxRSS)
	if err != nil {
		return usageError("verify: --max-rss: %v", err)
	}
	out, err := openJSON("verify", f.json)
	if err != nil {
		return err
	}
	defer out.abort()
	m, lock, err := manifestAndRuntimes()
	if err != nil {
		return err
	}
	impls, err := m.Select(ids)
	if err != nil {
		return usageError("verify: %v", err)
	}
	defer server.StopAll(time.Second) // on Ctrl-C too: main cancels ctx, Verify returns

	combos, err := verifyCombos(lock, impls, f.runtimes)
	if err != nil {
		return usageError("verify: %v", err)
	}
	start := time.Now()
	var results []contract.Result
	// A launcher per runtime: it installs the runtime once, and builds
	// each implementation for it once.
	launchers := map[string]*launch.Launcher{}
	for _, c := range combos {
		if ctx.Err() != nil {
			break
		}
		l := launchers[c.rt.Name]
		if l == nil {
			l = &launch.Launcher{Manifest: m, Runtimes: lock, Log: logTo(g), BuildLog: logTo(g)}
			if _, err := l.Install(ctx, c.rt); err != nil {
				return fmt.Errorf("verify: %w", err)
			}
			launchers[c.rt.Name] = l
		}
		v := &contract.Verifier{Launcher: l, Runtime: c.rt.Name, Log: logTo(g), FilterSize: size, MaxRSS: limit}
		results = append(results, v.Verify(ctx, c.im)...)
	}
	fmt.Fprintf(logTo(g), "verified %d implementation/runtime pairs in %s\n\n", len(combos), time.Since(start).Round(time.Second))
	if err := contract.WriteTable(out.text(), results, g.verbose); err != nil {
		return err
	}
	if out != nil {
		write := func(w io.Writer) error { return contract.WriteJSON(w, results) }
		if err := out.write(write); err != nil {
			return fmt.Errorf("verify: --json %s: %w", f.json, err)
		}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if !contract.Passed(results) {
		return fmt.Errorf("verify: some checks failed (details above the exit; rerun one with: restbench verify -v <id>)")
	}
	return nil
}

type verifyCombo struct {
	im impl.Impl
	rt runtimes.Runtime
}

// verifyCombos pairs each implementation with each named runtime of its
// language, or with its default runtime when names is empty. A pair whose
// runtime is of another language is left out (--runtime bun,go@1.22 with
// every implementation), but every runtime must serve at least one of them.
func verifyCombos(lock *runtimes.Lock, impls []impl.Impl, names string) ([]verifyCombo, error) {
	var out []verifyCombo
	if names == "" {
		for _, im := range impls {
			rt, err := lock.Resolve(im.Language, "")
			if err != nil {
				return nil, err
			}
			out = append(out, verifyCombo{im, rt})
		}
		return out, nil
	}
	for _, name := range strings.Split(names, ",") {
		rt, err := lock.Get(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		n := len(out)
		for _, im := range impls {
			if im.Language == rt.Language {
				out = append(out, verifyCombo{im, rt})
			}
		}
		if len(out) == n {
			return nil, fmt.Errorf("--runtime %s runs %s implementations, and none of those was named", rt.Name, rt.Language)
		}
	}
	return out, nil
}
