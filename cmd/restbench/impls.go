package main

import (
	"context"
	"errors"
)

// TODO(owner of this file): replace this placeholder.
func cmdImpls(ctx context.Context, args []string) error {
	return errors.New("impls: not yet implemented")
}
