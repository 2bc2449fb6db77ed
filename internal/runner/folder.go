package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"restbench/internal/result"
)

// folder is one results folder: results/<suite>/<timestamp>/.
type folder struct {
	dir string
}

// openFolder returns the folder for suite below out: the newest existing one
// when resuming (a new one when there is none), a new one otherwise.
func openFolder(out, suiteName string, resume bool, now time.Time) (*folder, bool, error) {
	base := filepath.Join(out, suiteName)
	if resume {
		if dir, err := result.Newest(base); err != nil {
			return nil, false, err
		} else if dir != "" {
			return &folder{dir: dir}, true, nil
		}
	}
	dir, err := result.NewFolder(base, now)
	if err != nil {
		return nil, false, err
	}
	return &folder{dir: dir}, false, nil
}

func (f *folder) trialPath(runID string, n int) string {
	return filepath.Join(f.dir, result.TrialFile(runID, n))
}

func (f *folder) hlogPath(runID string, n int) string {
	return filepath.Join(f.dir, result.HlogFile(runID, n))
}

// finished reads trial n of a run back when it was written with status ok.
func (f *folder) finished(runID string, n int) (*result.Trial, bool) {
	t, _ := f.readTrial(runID, n)
	return t, t != nil
}

// readTrial is finished's answer, and why a trial file that is there
// cannot be read back (a write cut short: truncated JSON), or "".
func (f *folder) readTrial(runID string, n int) (*result.Trial, string) {
	var t result.Trial
	err := result.ReadJSON(f.trialPath(runID, n), &t)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, ""
	case err != nil:
		return nil, fmt.Sprintf("%s is truncated or unreadable (%v)", f.trialPath(runID, n), err)
	case t.Status != result.StatusOK:
		return nil, ""
	}
	return &t, ""
}
