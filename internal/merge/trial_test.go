package merge

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"restbench/internal/result"
	"restbench/internal/suite"
)

func TestTrialFilesTheMergeAsTheSuitesTrial(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	s, err := suite.Load(filepath.Join(filepath.Dir(file), "..", "..", "suites", "heysphere.yaml"), suite.Options{Scale: "quick"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := Loads(twoGenerators(t, 0), nil)
	if err != nil {
		t.Fatal(err)
	}
	run := s.Runs[0]
	tr, err := Trial(s, run.ID, 2, m, result.PlacementHosts)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Suite != s.Name || tr.Run != run.ID || tr.Impl != run.Impl || tr.Experiment != run.Experiment || tr.Trial != 2 ||
		tr.Status != result.StatusOK || tr.Load != m || tr.Placement.Kind() != result.PlacementHosts {
		t.Errorf("trial %+v", tr)
	}
	// Filed as the runner files a trial (suite.NewTrial): its round, the
	// run's variables, never a pinning it did not have.
	if tr.Round != 2 || len(tr.Env) != len(run.Env) || tr.Placement.Pinned {
		t.Errorf("round %d, env %v, placement %+v", tr.Round, tr.Env, tr.Placement)
	}
	if !tr.Started.Before(tr.Finished) {
		t.Errorf("started %v, finished %v", tr.Started, tr.Finished)
	}
	if _, err := Trial(s, "no/such", 1, m, result.PlacementHosts); err == nil || !strings.Contains(err.Error(), "its runs") {
		t.Errorf("unknown run: err = %v", err)
	}
}
