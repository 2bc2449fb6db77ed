package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"restbench/internal/impl"
	"restbench/internal/runtimes"
)

// newImpls prints the manifest of implementations as a table.
func newImpls(*globals) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "impls [flags]",
		Short: "list the implementations of the server contract",
		Long:  "Lists the implementations in " + impl.ManifestPath + ".",
		RunE: func(c *cobra.Command, args []string) error {
			if err := wantArgs("impls", len(args) == 0, "takes no arguments"); err != nil {
				return err
			}
			return printImpls(asJSON)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the manifest as JSON ({root, implementations: [{id, language, start, env, ...}]}), for tools such as servers/node/harness.js")
	return c
}

func printImpls(asJSON bool) error {
	m, lock, err := manifestAndRuntimes()
	if err != nil {
		return err
	}
	if asJSON {
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
