package main

import (
	"context"
	"errors"
)

// TODO(owner of this file): replace this placeholder.
func cmdGen(ctx context.Context, args []string) error {
	return errors.New("gen: not yet implemented")
}
