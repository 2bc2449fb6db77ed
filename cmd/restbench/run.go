package main

import (
	"context"
	"errors"
)

// TODO(owner of this file): replace this placeholder.
func cmdRun(ctx context.Context, args []string) error {
	return errors.New("run: not yet implemented")
}
