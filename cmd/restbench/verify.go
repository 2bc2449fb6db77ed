package main

import (
	"context"
	"errors"
)

// TODO(owner of this file): replace this placeholder.
func cmdVerify(ctx context.Context, args []string) error {
	return errors.New("verify: not yet implemented")
}
