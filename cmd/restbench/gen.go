package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"restbench/internal/payload"
)

// cmdGen writes generated request bodies: `restbench gen filter --size 5MB`.
func cmdGen(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: restbench gen filter [--size 5MB] [--seed N] [-o FILE]\n\n"+
			"Writes a /filter request body (docs/contract.md): a JSON array of records\n"+
			"{name, language, id, bio, version}, the same bytes for the same size and seed.\n\n")
		fs.PrintDefaults()
	}
	size := fs.String("size", "5MB", "body size (5MB, 200MB, 512KiB, or bytes)")
	seed := fs.Int64("seed", 1, "seed: the same size and seed give the same bytes")
	out := fs.String("o", "", "write to FILE instead of stdout")
	rest, err := parseFlagsAndArgs(fs, args)
	if err == flag.ErrHelp {
		return nil
	} else if err != nil {
		return err
	}
	if len(rest) != 1 || rest[0] != "filter" {
		fs.Usage()
		return usageError("gen: name the body to generate: filter")
	}
	n, err := payload.ParseSize(*size)
	if err != nil {
		return usageError("gen: --size: %v", err)
	}
	f, err := openOutput("gen", "-o", *out)
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
	if err := payload.Filter(w, n, *seed); err != nil {
		return fmt.Errorf("gen filter: %w", err)
	}
	if f != nil {
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("gen: -o %s: %w", *out, err)
		}
		if err := f.Commit(); err != nil {
			return fmt.Errorf("gen: -o: %w", err)
		}
	}
	return nil
}
