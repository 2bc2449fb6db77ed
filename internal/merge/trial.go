package merge

import (
	"fmt"
	"slices"
	"time"

	"restbench/internal/result"
	"restbench/internal/suite"
)

// Trial files a merged load as trial n of a suite's run, the way the runner
// files a local trial, so that `restbench report` reads it beside the others.
// placement says how the load was made (result.PlacementHosts).
func Trial(s *suite.Suite, runID string, n int, l *result.Load, placement string) (*result.Trial, error) {
	i := slices.IndexFunc(s.Runs, func(r suite.Run) bool { return r.ID == runID })
	if i < 0 {
		ids := make([]string, len(s.Runs))
		for k, r := range s.Runs {
			ids[k] = r.ID
		}
		return nil, fmt.Errorf("suite %s has no run %q at scale %s (its runs: %v)", s.Name, runID, s.Scale, ids)
	}
	run := s.Runs[i]
	end := l.WindowStart.Add(time.Duration(l.DurationS * float64(time.Second)))
	t := s.NewTrial(run, n, l.WindowStart.Add(-time.Duration(l.Settings.WarmupS*float64(time.Second))))
	t.Finished, t.Status, t.Load = end.UTC(), result.StatusOK, l
	t.Placement.Mode = placement
	for _, f := range l.Flags {
		if !slices.Contains(t.Flags, f) {
			t.Flags = append(t.Flags, f)
		}
	}
	return t, nil
}
