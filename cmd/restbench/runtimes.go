package main

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"restbench/internal/runtimes"
)

// cmdRuntimes lists the pinned runtimes and which are installed; with
// --install it installs the named ones (or all).
func cmdRuntimes(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("runtimes", flag.ContinueOnError)
	install := fs.Bool("install", false, "install the named runtimes (all when none is named) before listing")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: restbench runtimes [--install] [names...]\n\n"+
			"Lists the runtimes pinned in %s, the default per language and whether each\n"+
			"is installed. restbench installs a runtime on demand, the first time a suite or\n"+
			"verify needs it.\n\n", runtimes.LockPath)
		fs.PrintDefaults()
	}
	names, err := parseFlagsAndArgs(fs, args)
	if err == flag.ErrHelp {
		return nil
	} else if err != nil {
		return err
	}
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
		if *install {
			if _, err := lock.Install(ctx, rt, os.Stderr); err != nil {
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
