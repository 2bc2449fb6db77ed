package main

import (
	"context"
	"errors"
)

// TODO(owner of this file): replace this placeholder.
func cmdReport(ctx context.Context, args []string) error {
	return errors.New("report: not yet implemented")
}
