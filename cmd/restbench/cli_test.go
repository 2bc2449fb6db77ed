package main

import (
	"context"
)

// command is restbench's command name as the function the tests call, as
// main runs it: restbench NAME args...
func command(name string) func(context.Context, []string) error {
	return func(ctx context.Context, args []string) error {
		return execute(ctx, append([]string{name}, args...))
	}
}

var (
	cmdLoad     = command("load")
	cmdCapacity = command("capacity")
	cmdRun      = command("run")
	cmdReport   = command("report")
	cmdMerge    = command("merge")
	cmdK8s      = command("k8s")
	cmdImpls    = command("impls")
)
