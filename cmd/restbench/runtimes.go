package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"restbench/internal/runtimes"
)

// newRuntimes lists the pinned runtimes and which are installed; with
// --install it installs the named ones (or all).
func newRuntimes(g *globals) *cobra.Command {
	var install bool
	c := &cobra.Command{
		Use:   "runtimes [flags] [names...]",
		Short: "list the pinned runtimes (Node, Bun, Deno, Go) and which are installed",
		Long: "Lists the runtimes pinned in " + runtimes.LockPath + ", the default per language and whether each\n" +
			"is installed. restbench installs a runtime on demand, the first time a suite or\n" +
			"verify needs it.",
		RunE: func(c *cobra.Command, names []string) error { return listRuntimes(c.Context(), g, names, install) },
	}
	c.Flags().BoolVar(&install, "install", false, "install the named runtimes (all when none is named) before listing")
	return c
}

func listRuntimes(ctx context.Context, g *globals, names []string, install bool) error {
	_, lock, err := manifestAndRuntimes()
	if err != nil {
		return err
	}
	if len(names) == 0 {
		names = lock.Names()
	}
	for _, n := range names {
		rt, err := lock.Get(n)
		if err != nil {
			return usageError("runtimes: %v", err)
		}
		if install {
			if _, err := lock.Install(ctx, rt, logTo(g)); err != nil {
				return err
			}
		}
	}
	cache, _ := runtimes.CacheDir()
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tLANGUAGE\tPINNED\tFROM\tDEFAULT FOR\tINSTALLED\tNOT SUPPORTED")
	for _, n := range names {
		rt, _ := lock.Get(n)
		from := "npm " + rt.NPM
		if rt.Language == runtimes.Go {
			from = "GOTOOLCHAIN (module proxy)"
		}
		var def []string
		for lang, name := range lock.Defaults {
			if name == rt.Name {
				def = append(def, lang)
			}
		}
		state := "no"
		if in, err := lock.Find(ctx, rt); err == nil {
			state = in.Path
		}
		unsup := slices.Sorted(maps.Keys(rt.Unsupported))
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", rt.Name, rt.Language, rt.Pin(), from,
			strings.Join(slices.Sorted(slices.Values(def)), ","), state, strings.Join(unsup, ","))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Printf("\nnpm runtimes are unpacked in %s (set RESTBENCH_CACHE to move it); Go toolchains live in Go's module cache.\n", cache)
	return nil
}
