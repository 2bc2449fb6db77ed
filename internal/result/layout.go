package result

import (
	"fmt"
	"slices"
	"strings"
)

// A results folder is results/<suite>/<timestamp>/ holding:
//
//	env.json                 Env
//	suite.json               Suite (as run, with the published figures)
//	<run file>.t<N>.json     one Trial per measured repetition
//
// results/<suite>/latest is a symlink to the newest timestamp folder.
const (
	EnvFile   = "env.json"
	SuiteFile = "suite.json"
	Latest    = "latest"
	// TimestampLayout names a results folder: sortable, no colons.
	TimestampLayout = "20060102-150405"
)

// TrialFile is the file name of trial n (1-based) of a run: the run id with
// "/" and other characters unsafe in file names replaced by "_".
func TrialFile(runID string, n int) string {
	safe := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.', r == '=':
			return r
		}
		return '_'
	}, runID)
	return fmt.Sprintf("%s.t%d.json", safe, n)
}

// HlogFile is the file name of trial n's latency interval log, beside its
// TrialFile.
func HlogFile(runID string, n int) string {
	return strings.TrimSuffix(TrialFile(runID, n), ".json") + ".hlog"
}

// Median is the middle of v (the mean of the two middle values for an even
// count), without reordering v; 0 for none. Trials are summarised by their
// median everywhere, so the runner and the report share this one.
func Median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
