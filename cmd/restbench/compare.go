package main

import (
	"context"
	"errors"
)

// TODO(owner of this file): replace this placeholder.
func cmdCompare(ctx context.Context, args []string) error {
	return errors.New("compare: not yet implemented")
}
