package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"restbench/internal/impl"
	"restbench/internal/k8s"
	"restbench/internal/suite"
)

func newK8s(*globals) *cobra.Command {
	c := &cobra.Command{
		Use:   "k8s [flags] SUITE.yaml RUN-ID",
		Short: "render the Kubernetes manifests of one suite cell",
		Long: "Prints the Kubernetes objects that measure one cell of a suite with the server on a node of its\n" +
			"own and N generators on others (docs/scale-out.md). Apply them at once: the generators start\n" +
			"their measured window at the rendered --start-at.",
	}
	var k k8sFlags
	fs := c.Flags()
	fs.StringVar(&k.Scale, "scale", "", "suite scale: quick, standard (default) or full")
	fs.IntVar(&k.Trial, "trial", 1, "the trial number the collector files")
	fs.StringVar(&k.Image, "image", "", "image with a built restbench checkout at --workdir (required)")
	fs.StringVar(&k.WorkDir, "workdir", "/restbench", "the checkout in the image")
	fs.StringVar(&k.Namespace, "namespace", "default", "namespace of the objects")
	fs.IntVar(&k.Generators, "generators", 2, "generator pods (the Indexed Job's completions)")
	fs.IntVar(&k.ServerCPUs, "server-cpus", 1, "whole CPUs of the server pod (requests = limits)")
	fs.StringVar(&k.ServerMemory, "server-memory", "1Gi", "memory of the server pod")
	fs.IntVar(&k.GeneratorCPUs, "generator-cpus", 1, "whole CPUs of each generator pod")
	fs.IntVar(&k.Port, "port", 8080, "the server's port")
	fs.StringVar(&k.StorageClass, "storage-class", "", "storage class of the shared results volume (ReadWriteMany)")
	fs.DurationVar(&k.delay, "start-in", 90*time.Second, "open the measured window this long after rendering (time to pull and schedule)")
	fs.StringVar(&k.startAt, "start-at", "", "or this instant (RFC 3339 or epoch seconds)")
	c.RunE = func(c *cobra.Command, pos []string) error {
		if err := wantArgs("k8s", len(pos) == 2, "want SUITE.yaml RUN-ID"); err != nil {
			return err
		}
		if err := checkRanges("k8s", fs,
			rangeCheck{"trial", k.Trial < 1, "1 or more"},
			rangeCheck{"generators", k.Generators < 1, "1 or more generator pods"},
			rangeCheck{"server-cpus", k.ServerCPUs < 1, "1 or more whole CPUs"},
			rangeCheck{"generator-cpus", k.GeneratorCPUs < 1, "1 or more whole CPUs"},
			rangeCheck{"port", k.Port < 1 || k.Port > 65535, "a port, 1 to 65535"},
		); err != nil {
			return err
		}
		return k.render(pos[0], pos[1])
	}
	return c
}

// k8sFlags are restbench k8s's flags: the cell, and when it starts.
type k8sFlags struct {
	k8s.Cell
	delay   time.Duration
	startAt string
}

// render prints the objects of run runID of suiteFile.
func (k *k8sFlags) render(suiteFile, runID string) error {
	c := k.Cell
	root, err := impl.FindRoot(".")
	if err != nil {
		return err
	}
	m, err := impl.Load(root)
	if err != nil {
		return err
	}
	s, err := suite.Load(suiteFile, suite.Options{Scale: c.Scale, Impls: m.IDs()})
	if err != nil {
		return err
	}
	c.SuiteFile, c.Scale = suiteFile, s.Scale
	for _, r := range s.Runs {
		if r.ID == runID {
			c.Run = r
		}
	}
	if c.Run.ID == "" {
		return usageError("k8s: %s has no run %q at scale %s (restbench run %s --only PATTERN lists what it selects)", suiteFile, runID, s.Scale, suiteFile)
	}
	if c.Impl, err = m.Get(c.Run.Impl); err != nil {
		return err
	}
	c.StartAt = time.Now().Add(k.delay).Truncate(time.Second)
	if k.startAt != "" {
		if c.StartAt, err = parseStartAt(k.startAt); err != nil {
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
