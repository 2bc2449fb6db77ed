package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"restbench/internal/contract"
	"restbench/internal/payload"
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
			"of docs/contract.md and prints a table. No ids: every implementation.\n\n")
		fs.PrintDefaults()
	}
	verbose := fs.Bool("v", false, "print every check's details, not only the failures'")
	jsonOut := fs.String("json", "", "also write the results as JSON to FILE")
	filterSize := fs.String("filter-size", "200MB", "body size of the filter-memory check")
	maxRSS := fs.String("max-rss", "100MB", "bound on the server's memory in the filter-memory check")
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
	m, err := manifestFromCwd()
	if err != nil {
		return err
	}
	impls, err := m.Select(ids)
	if err != nil {
		return usageError("verify: %v", err)
	}
	// The checks set these per start; inherited values would change what
	// the servers do (GOMAXPROCS set outside overrides THREADS by contract).
	for _, k := range []string{"GOMAXPROCS", "THREADS", "CLUSTER", "HOST", "PORT"} {
		os.Unsetenv(k)
	}
	defer server.StopAll(time.Second) // on Ctrl-C too: main cancels ctx, Verify returns

	v := &contract.Verifier{Manifest: m, Log: os.Stderr, FilterSize: size, MaxRSS: limit}
	start := time.Now()
	var results []contract.Result
	for _, im := range impls {
		if ctx.Err() != nil {
			break
		}
		results = append(results, v.Verify(ctx, im)...)
	}
	fmt.Fprintf(os.Stderr, "verified %d implementations in %s\n\n", len(impls), time.Since(start).Round(time.Second))
	if err := contract.WriteTable(os.Stdout, results, *verbose); err != nil {
		return err
	}
	if *jsonOut != "" {
		f, err := os.Create(*jsonOut)
		if err != nil {
			return fmt.Errorf("verify: --json: %w", err)
		}
		defer f.Close()
		if err := contract.WriteJSON(f, results); err != nil {
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
