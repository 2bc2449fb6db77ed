package main

import (
	"context"
	"errors"
)

// TODO(owner of this file): replace this placeholder.
func cmdLoad(ctx context.Context, args []string) error {
	return errors.New("load: not yet implemented")
}
