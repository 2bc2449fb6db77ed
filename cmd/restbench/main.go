// Command restbench benchmarks HTTP servers that serve one contract
// (docs/contract.md): a load generator, a conformance checker, a suite runner
// and a report. Each subcommand lives in its own file and only parses flags
// and wires the internal packages together.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string) error
}

var commands = []command{
	{"load", "generate HTTP load against a URL (wrk/wrk2/ab-like)", cmdLoad},
	{"capacity", "find the highest open-loop rate a server sustains", cmdCapacity},
	{"verify", "check implementations against the server contract", cmdVerify},
	{"run", "run benchmark suites (suites/*.yaml)", cmdRun},
	{"report", "render tables and charts from a results folder", cmdReport},
	{"compare", "compare two results folders run by run", cmdCompare},
	{"merge", "add up the results of generators that ran at the same time", cmdMerge},
	{"k8s", "render the Kubernetes manifests of one suite cell", cmdK8s},
	{"impls", "list the implementations of the server contract", cmdImpls},
	{"runtimes", "list the pinned runtimes (Node, Bun, Deno, Go) and which are installed", cmdRuntimes},
	{"gen", "generate request bodies (gen filter --size 5MB)", cmdGen},
}

// exitError carries a specific exit status (2 for usage, 130 for Ctrl-C).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageError(format string, a ...any) error {
	return &exitError{2, fmt.Errorf(format, a...)}
}

func usage() {
	fmt.Fprintf(os.Stderr, "usage: restbench <command> [flags] [args]\n\ncommands:\n")
	for _, c := range commands {
		fmt.Fprintf(os.Stderr, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(os.Stderr, "\nrestbench <command> -h shows a command's flags.\n")
}

func main() {
	if len(os.Args) < 2 || os.Args[1] == "-h" || os.Args[1] == "--help" || os.Args[1] == "help" {
		usage()
		if len(os.Args) < 2 {
			os.Exit(2)
		}
		return
	}
	// Ctrl-C and SIGTERM cancel the context; every command stops its children
	// and keeps what it has written, then main exits 130.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	for _, c := range commands {
		if c.name != os.Args[1] {
			continue
		}
		code := exitCode(ctx, c.run(ctx, os.Args[2:]))
		stop()
		os.Exit(code)
	}
	fmt.Fprintf(os.Stderr, "restbench: unknown command %q\n\n", os.Args[1])
	usage()
	os.Exit(2)
}

func exitCode(ctx context.Context, err error) int {
	if ctx.Err() != nil {
		if err != nil && !errors.Is(err, context.Canceled) {
			fmt.Fprintf(os.Stderr, "restbench: %v\n", err)
		}
		fmt.Fprintln(os.Stderr, "restbench: interrupted")
		return 130
	}
	if err == nil {
		return 0
	}
	fmt.Fprintf(os.Stderr, "restbench: %v\n", err)
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return 1
}
