package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"restbench/internal/impl"
	"restbench/internal/runtimes"
)

// cmdImpls prints the manifest of implementations as a table.
func cmdImpls(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("impls", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: restbench impls [--json]\n\nLists the implementations in %s.\n\nflags:\n", impl.ManifestPath)
		fs.PrintDefaults()
	}
	asJSON := fs.Bool("json", false, "print the manifest as JSON ({root, implementations: [{id, language, start, env, ...}]}), for tools such as servers/node/harness.js")
	if err := fs.Parse(args); err != nil {
		return usageError("impls: %v", err)
	}
	if fs.NArg() > 0 {
		return usageError("impls takes no arguments")
	}
	m, lock, err := manifestAndRuntimes()
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(m)
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tLANGUAGE\tFRAMEWORK\tVERSION\tRUNTIME\tSTART")
	for _, im := range m.Impls {
		rt := "-"
		if r, err := lock.Resolve(im.Language, ""); err == nil {
			rt = r.Name + " (" + r.Pin() + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", im.ID, im.Language, im.Framework, im.Version, rt, strings.Join(im.Start, " "))
	}
	return tw.Flush()
}

// manifestFromCwd finds the checkout from the current folder and reads its
// manifest.
func manifestFromCwd() (*impl.Manifest, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	root, err := impl.FindRoot(wd)
	if err != nil {
		return nil, err
	}
	return impl.Load(root)
}

// manifestAndRuntimes reads the implementations and the pinned runtimes of
// the checkout restbench runs in.
func manifestAndRuntimes() (*impl.Manifest, *runtimes.Lock, error) {
	m, err := manifestFromCwd()
	if err != nil {
		return nil, nil, err
	}
	lock, err := runtimes.Load(m.Root)
	if err != nil {
		return nil, nil, err
	}
	return m, lock, nil
}
