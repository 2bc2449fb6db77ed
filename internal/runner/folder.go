package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
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
		if dir, err := newest(base); err != nil {
			return nil, false, err
		} else if dir != "" {
			return &folder{dir: dir}, true, nil
		}
	}
	if err := os.MkdirAll(base, 0o755); err != nil {
		return nil, false, fmt.Errorf("create results folder: %w (choose another with --out)", err)
	}
	// Two runs within one second get -2, -3, ...: a folder is never shared
	// by two invocations unless --resume asks for it.
	name := now.Format(result.TimestampLayout)
	for i := 2; ; i++ {
		dir := filepath.Join(base, name)
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			return &folder{dir: dir}, false, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, false, fmt.Errorf("create results folder: %w", err)
		}
		name = fmt.Sprintf("%s-%d", now.Format(result.TimestampLayout), i)
	}
}

// newest is the newest timestamp folder below base, "" when there is none.
func newest(base string) (string, error) {
	entries, err := os.ReadDir(base)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != result.Latest {
			if _, err := time.Parse(result.TimestampLayout, e.Name()[:min(len(e.Name()), len(result.TimestampLayout))]); err == nil {
				names = append(names, e.Name())
			}
		}
	}
	if len(names) == 0 {
		return "", nil
	}
	// Same-second suffixes sort after their base name and by number:
	// 20260101-120000 < 20260101-120000-2 < 20260101-120000-10.
	sort.Slice(names, func(i, j int) bool {
		pi, si := splitSuffix(names[i])
		pj, sj := splitSuffix(names[j])
		if pi != pj {
			return pi < pj
		}
		return si < sj
	})
	return filepath.Join(base, names[len(names)-1]), nil
}

func splitSuffix(name string) (string, int) {
	n := len(result.TimestampLayout)
	if len(name) <= n+1 {
		return name, 0
	}
	k, _ := strconv.Atoi(name[n+1:])
	return name[:n], k
}

// linkLatest points <suite>/latest at this folder, replacing the link
// atomically (a new link renamed over the old one).
func (f *folder) linkLatest() error {
	link := filepath.Join(filepath.Dir(f.dir), result.Latest)
	tmp := link + ".tmp"
	os.Remove(tmp)
	if err := os.Symlink(filepath.Base(f.dir), tmp); err != nil {
		return err
	}
	return os.Rename(tmp, link)
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
