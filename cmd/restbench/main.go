// Command restbench benchmarks HTTP servers that serve one contract
// (docs/contract.md): a load generator, a conformance checker, a suite runner
// and a report. Each subcommand lives in its own file and only parses flags
// and wires the internal packages together.
//
// Every command follows one convention (cobra and pflag): flags may come
// before, between or after the arguments; -h and --help print the usage
// and exit 0; -q prints less and -v more; an output path is --out (or
// --json, --hlog for a format); a usage error exits 2 naming the flag.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"restbench/internal/load"
)

// globals are the flags every command takes.
type globals struct {
	quiet, verbose bool
	args           []string // the command line after restbench, for the record
	// prepared, when set (by a test), is given the load that restbench
	// load is about to run, and its error is load's: the argv internal/k8s
	// builds is parsed without a load.
	prepared func(load.Config) error
}

// newRoot builds the command tree; each call a fresh one, with its own
// flag values (the tests run many) in g.
func newRoot(g *globals) *cobra.Command {
	root := &cobra.Command{
		Use:   "restbench <command> [flags] [args]",
		Short: "benchmark HTTP servers that serve one contract (docs/contract.md)",
		// A bare restbench prints the commands and exits 2, as any usage
		// error does; a name that is no command is one.
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError("unknown command %q (restbench -h lists them)", args[0])
			}
			return nil
		},
		RunE: func(c *cobra.Command, _ []string) error {
			c.SetOut(c.ErrOrStderr())
			c.Usage()
			return usageError("name a command")
		},
		SilenceUsage:      true,
		SilenceErrors:     true,
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
	}
	root.PersistentFlags().BoolVarP(&g.quiet, "quiet", "q", false, "print less: no progress line or bar, no build or install log, no step table (capacity)")
	root.PersistentFlags().BoolVarP(&g.verbose, "verbose", "v", false, "print more where a command has more to say: every check's details (verify)")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError("%s: %v (restbench %s -h lists the flags)", c.Name(), err, c.Name())
	})
	cobra.EnableCommandSorting = false // the pipeline's order, as the README lists them
	root.AddCommand(
		newLoad(g), newCapacity(g), newVerify(g), newRun(g), newReport(g), newCompare(g),
		newMerge(g), newK8s(g), newImpls(g), newRuntimes(g), newGen(g),
	)
	for _, c := range root.Commands() {
		// Flag names print as people write them: -c, --max-connections.
		c.Flags().SortFlags = false
	}
	return root
}

// execute runs the command args name, as main does with os.Args[1:].
func execute(ctx context.Context, args []string) error {
	root := newRoot(&globals{args: args})
	root.SetArgs(args)
	return root.ExecuteContext(ctx)
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

func main() {
	// Ctrl-C and SIGTERM cancel the context; every command stops its children
	// and keeps what it has written, then main exits 130.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	code := exitCode(ctx, execute(ctx, os.Args[1:]))
	stop()
	os.Exit(code)
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

// wantArgs is a usage error unless ok: say tells what to give.
func wantArgs(cmd string, ok bool, say string) error {
	if ok {
		return nil
	}
	return usageError("%s: %s (restbench %s -h shows the usage)", cmd, say, cmd)
}
