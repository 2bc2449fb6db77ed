package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"restbench/internal/impl"
	"restbench/internal/k8s"
	"restbench/internal/suite"
)

func cmdK8s(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("k8s", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: restbench k8s [flags] SUITE.yaml RUN-ID\n\n"+
			"Prints the Kubernetes objects that measure one cell of a suite with the server on a node of its\n"+
			"own and N generators on others (docs/scale-out.md). Apply them at once: the generators start\n"+
			"their measured window at the rendered --start-at.\n\n")
		fs.PrintDefaults()
	}
	var c k8s.Cell
	fs.StringVar(&c.Scale, "scale", "", "suite scale: quick, standard (default) or full")
	fs.IntVar(&c.Trial, "trial", 1, "the trial number the collector files")
	fs.StringVar(&c.Image, "image", "", "image with a built restbench checkout at --workdir (required)")
	fs.StringVar(&c.WorkDir, "workdir", "/restbench", "the checkout in the image")
	fs.StringVar(&c.Namespace, "namespace", "default", "namespace of the objects")
	fs.IntVar(&c.Generators, "generators", 2, "generator pods (the Indexed Job's completions)")
	fs.IntVar(&c.ServerCPUs, "server-cpus", 1, "whole CPUs of the server pod (requests = limits)")
	fs.StringVar(&c.ServerMemory, "server-memory", "1Gi", "memory of the server pod")
	fs.IntVar(&c.GeneratorCPUs, "generator-cpus", 1, "whole CPUs of each generator pod")
	fs.IntVar(&c.Port, "port", 8080, "the server's port")
	fs.StringVar(&c.StorageClass, "storage-class", "", "storage class of the shared results volume (ReadWriteMany)")
	delay := fs.Duration("start-in", 90*time.Second, "open the measured window this long after rendering (time to pull and schedule)")
	startAt := fs.String("start-at", "", "or this instant (RFC 3339 or epoch seconds)")
	pos, err := parseFlagsAndArgs(fs, args)
	if err == flag.ErrHelp {
		return nil
	}
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usageError("k8s: want SUITE.yaml RUN-ID (restbench k8s -h)")
	}
	for _, rc := range []rangeCheck{
		{"trial", c.Trial < 1, "1 or more"},
		{"generators", c.Generators < 1, "1 or more generator pods"},
		{"server-cpus", c.ServerCPUs < 1, "1 or more whole CPUs"},
		{"generator-cpus", c.GeneratorCPUs < 1, "1 or more whole CPUs"},
		{"port", c.Port < 1 || c.Port > 65535, "a port, 1 to 65535"},
	} {
		if err := rc.check("k8s", fs); err != nil {
			return err
		}
	}
	root, err := impl.FindRoot(".")
	if err != nil {
		return err
	}
	m, err := impl.Load(root)
	if err != nil {
		return err
	}
	s, err := suite.Load(pos[0], suite.Options{Scale: c.Scale, Impls: m.IDs()})
	if err != nil {
		return err
	}
	c.SuiteFile, c.Scale = pos[0], s.Scale
	for _, r := range s.Runs {
		if r.ID == pos[1] {
			c.Run = r
		}
	}
	if c.Run.ID == "" {
		return usageError("k8s: %s has no run %q at scale %s (restbench run %s --only PATTERN lists what it selects)", pos[0], pos[1], s.Scale, pos[0])
	}
	if c.Impl, err = m.Get(c.Run.Impl); err != nil {
		return err
	}
	c.StartAt = time.Now().Add(*delay).Truncate(time.Second)
	if *startAt != "" {
		if c.StartAt, err = parseStartAt(*startAt); err != nil {
			return usageError("k8s: %v", err)
		}
	}
	out, err := k8s.Render(c)
	if err != nil {
		return fmt.Errorf("k8s: %w", err)
	}
	_, err = os.Stdout.Write(out)
	return err
}
