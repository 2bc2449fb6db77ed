package contract

import (
	"context"
	"fmt"
	"sync"

	"restbench/internal/contract/cases"
)

// tableCheck is a check made of the rows of the contract's table of cases
// (fixtures/contract-cases.json) whose check is name: the same cases the
// Go and Node servers' own tests run.
func tableCheck(name string) func(ctx context.Context, t *Target) (string, error) {
	return func(ctx context.Context, t *Target) (string, error) {
		return "", runCases(ctx, t, name)
	}
}

// runCases sends every case of the check and judges each answer; the first
// wrong one fails the check.
func runCases(ctx context.Context, t *Target, check string) error {
	all, err := loadCases(t.Root)
	if err != nil {
		return err
	}
	n := 0
	for _, c := range all {
		if c.Check != check {
			continue
		}
		n++
		req, err := c.NewRequest(ctx, t.URL)
		if err != nil {
			return err
		}
		r, err := t.send(req)
		if err != nil {
			if c.Status == 413 {
				err = closedEarly(err)
			}
			return fmt.Errorf("%s: %w", &c, err)
		}
		if err := c.Verify(r.status, r.header, r.body); err != nil {
			return fmt.Errorf("%s: %w", &c, err)
		}
	}
	if n == 0 {
		return fmt.Errorf("%s has no case of check %q: restore them (git checkout %s)", cases.File, check, cases.File)
	}
	return nil
}

// loadCases reads the table once per repository root: every implementation
// is checked with the same cases, some of whose bodies are megabytes.
func loadCases(root string) ([]cases.Case, error) {
	casesMu.Lock()
	defer casesMu.Unlock()
	if c, ok := loaded[root]; ok {
		return c, nil
	}
	c, err := cases.Load(root)
	if err != nil {
		return nil, err
	}
	loaded[root] = c
	return c, nil
}

var (
	casesMu sync.Mutex
	loaded  = map[string][]cases.Case{}
)
