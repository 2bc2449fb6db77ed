package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"restbench/internal/result"
	"restbench/internal/threshold"
)

// thresholdFlags are --threshold and --allow-flags, which load and capacity
// share: k6-style pass/fail criteria on a load result, exit 99 on a failure.
type thresholdFlags struct {
	list  threshold.List
	allow bool
}

// thresholdList is threshold.List as a pflag.Value.
type thresholdList struct{ *threshold.List }

func (thresholdList) Type() string { return "expr" }

// addThresholdFlags registers them on fs; judged says what the thresholds
// are checked against (the load, or the capacity's own step).
func addThresholdFlags(fs *pflag.FlagSet, judged, examples string) *thresholdFlags {
	tf := &thresholdFlags{}
	fs.Var(thresholdList{&tf.list}, "threshold", fmt.Sprintf("pass/fail criterion on %s, k6 style: %s (repeatable); exit %d when one fails", judged, examples, threshold.ExitCode))
	fs.BoolVar(&tf.allow, "allow-flags", false, fmt.Sprintf("with --threshold: a validity flag (behind-schedule, connection-bound, ...) on %s does not fail", judged))
	return tf
}

// check prints every threshold's outcome against l on w and returns the
// exit error when one failed; nil without thresholds. l nil (nothing to
// judge) fails them all.
func (tf *thresholdFlags) check(w io.Writer, cmd string, l *result.Load) error {
	if len(tf.list) == 0 {
		return nil
	}
	if l == nil {
		return &exitError{threshold.ExitCode, fmt.Errorf("%s: no load to judge, so no threshold can pass", cmd)}
	}
	outcomes := threshold.Check(tf.list, l, tf.allow)
	threshold.Print(w, outcomes)
	if threshold.Failed(outcomes) {
		return &exitError{threshold.ExitCode, errors.New(cmd + ": a threshold failed")}
	}
	return nil
}
