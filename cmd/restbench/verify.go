package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"restbench/internal/contract"
	"restbench/internal/impl"
	"restbench/internal/payload"
	"restbench/internal/runtimes"
	"restbench/internal/server"
)

// cmdVerify checks implementations against the server contract and prints a
// table of checks × implementations; it fails when any check fails.
func cmdVerify(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: restbench verify [flags] [ids...]\n\n"+
			"Builds each implementation if needed, starts it on a free port (THREADS=1, then\n"+
			"THREADS=2 and, for Go, GOMAXPROCS=4, for Node, CLUSTER=pm2), checks every part\n"+
			"of docs/contract.md and prints a table. No ids: every implementation.\n"+
			"Each runs on its default runtime (servers/runtimes.yaml), or on --runtime.\n\n")
		fs.PrintDefaults()
	}
	verbose := fs.Bool("v", false, "print every check's details, not only the failures'")
	jsonOut := fs.String("json", "", "also write the results as JSON to FILE")
	filterSize := fs.String("filter-size", "200MB", "body size of the filter-memory check")
	maxRSS := fs.String("max-rss", "100MB", "bound on the server's memory in the filter-memory check")
	rtNames := fs.String("runtime", "", "comma-separated pinned runtimes to verify on (node@20,bun,go@1.22; restbench runtimes lists them); default: each implementation's default")
	ids, err := parseFlagsAndArgs(fs, args)
	if err == flag.ErrHelp {
		return nil
	} else if err != nil {
		return err
	}
	size, err := payload.ParseSize(*filterSize)
	if err != nil {
		return usageError("verify: --filter-size: %v", err)
	}
	limit, err := payload.ParseSize(*maxRSS)
	if err != nil {
		return usageError("verify: --max-rss: %v", err)
	}
	out, err := openOutput("verify", "--json", *jsonOut)
	if err != nil {
		return err
	}
	defer out.Abort()
	m, lock, err := manifestAndRuntimes()
	if err != nil {
		return err
	}
	impls, err := m.Select(ids)
	if err != nil {
		return usageError("verify: %v", err)
	}
	defer server.StopAll(time.Second) // on Ctrl-C too: main cancels ctx, Verify returns

	combos, err := verifyCombos(lock, impls, *rtNames)
	if err != nil {
		return usageError("verify: %v", err)
	}
	start := time.Now()
	var results []contract.Result
	installed := map[string]*runtimes.Installed{}
	for _, c := range combos {
		if ctx.Err() != nil {
			break
		}
		in := installed[c.rt.Name]
		if in == nil {
			if in, err = lock.Install(ctx, c.rt, os.Stderr); err != nil {
				return fmt.Errorf("verify: %w", err)
			}
			installed[c.rt.Name] = in
		}
		v := &contract.Verifier{Manifest: m, Log: os.Stderr, FilterSize: size, MaxRSS: limit, Runtime: in}
		results = append(results, v.Verify(ctx, c.im)...)
	}
	fmt.Fprintf(os.Stderr, "verified %d implementation/runtime pairs in %s\n\n", len(combos), time.Since(start).Round(time.Second))
	if err := contract.WriteTable(os.Stdout, results, *verbose); err != nil {
		return err
	}
	if out != nil {
		if err := contract.WriteJSON(out, results); err != nil {
			return fmt.Errorf("verify: --json %s: %w", *jsonOut, err)
		}
		if err := out.Commit(); err != nil {
			return fmt.Errorf("verify: --json: %w", err)
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
