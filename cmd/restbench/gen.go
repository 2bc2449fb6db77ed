package main

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"restbench/internal/payload"
)

// newGen writes generated request bodies: `restbench gen filter --size 5MB`.
func newGen(*globals) *cobra.Command {
	c := &cobra.Command{
		Use:   "gen [flags] filter",
		Short: "generate request bodies (gen filter --size 5MB)",
		Long: "Writes a /filter request body (docs/contract.md): a JSON array of records\n" +
			"{name, language, id, bio, version}, the same bytes for the same size and seed.",
	}
	fs := c.Flags()
	size := fs.String("size", "5MB", "body size (5MB, 200MB, 512KiB, or bytes)")
	seed := fs.Int64("seed", 1, "seed: the same size and seed give the same bytes")
	out := fs.StringP("out", "o", "", "write to `FILE` instead of stdout")
	c.RunE = func(c *cobra.Command, args []string) error {
		if err := wantArgs("gen", len(args) == 1 && args[0] == "filter", "name the body to generate: filter"); err != nil {
			return err
		}
		return genFilter(*size, *seed, *out)
	}
	return c
}

func genFilter(size string, seed int64, out string) error {
	n, err := payload.ParseSize(size)
	if err != nil {
		return usageError("gen: --size: %v", err)
	}
	f, err := openOutput("gen", "--out", out)
	if err != nil {
		return err
	}
	defer f.Abort()
	var w io.Writer = os.Stdout
	var bw *bufio.Writer
	if f != nil {
		bw = bufio.NewWriter(f)
		w = bw
	}
	if err := payload.Filter(w, n, seed); err != nil {
		return fmt.Errorf("gen filter: %w", err)
	}
	if f != nil {
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("gen: --out %s: %w", out, err)
		}
		if err := f.Commit(); err != nil {
			return fmt.Errorf("gen: --out: %w", err)
		}
	}
	return nil
}
