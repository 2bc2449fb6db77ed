package result

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"
)

// The results folder has one owner: this file names, creates and finds
// results/<suite>/<timestamp>/ for the runner (which writes it) and the
// report (which reads it), so both mean the same folder by "the newest".

// NewFolder creates a new timestamp folder below suiteDir for a run started
// at now. Two runs within one second get -2, -3, ...: a folder is never
// shared by two invocations unless --resume asks for it.
func NewFolder(suiteDir string, now time.Time) (string, error) {
	if err := os.MkdirAll(suiteDir, 0o755); err != nil {
		return "", fmt.Errorf("create results folder: %w (choose another with --out)", err)
	}
	name := now.Format(TimestampLayout)
	for i := 2; ; i++ {
		dir := filepath.Join(suiteDir, name)
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			return dir, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return "", fmt.Errorf("create results folder: %w", err)
		}
		name = fmt.Sprintf("%s-%d", now.Format(TimestampLayout), i)
	}
}

// IsFolder reports whether dir is a results folder: it holds suite.json,
// which a run writes before its first trial.
func IsFolder(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, SuiteFile))
	return err == nil && !st.IsDir()
}

// Newest is the results folder a suite folder points at, "" when it holds
// none: its latest link when that holds results (a run points it at its
// folder as soon as suite.json is written, so it is the newest unless a
// user moved it), else the newest timestamp folder that holds results,
// same-second suffixes in number order (…-120000 < …-120000-2 < …-120000-10).
func Newest(suiteDir string) (string, error) {
	latest := filepath.Join(suiteDir, Latest)
	if IsFolder(latest) {
		if target, err := filepath.EvalSymlinks(latest); err == nil {
			return target, nil
		}
		return latest, nil
	}
	entries, err := os.ReadDir(suiteDir)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() || n == Latest || len(n) < len(TimestampLayout) {
			continue
		}
		if _, err := time.Parse(TimestampLayout, n[:len(TimestampLayout)]); err == nil && IsFolder(filepath.Join(suiteDir, n)) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "", nil
	}
	sort.Slice(names, func(i, j int) bool {
		pi, si := splitSuffix(names[i])
		pj, sj := splitSuffix(names[j])
		if pi != pj {
			return pi < pj
		}
		return si < sj
	})
	return filepath.Join(suiteDir, names[len(names)-1]), nil
}

func splitSuffix(name string) (string, int) {
	n := len(TimestampLayout)
	if len(name) <= n+1 {
		return name, 0
	}
	k, _ := strconv.Atoi(name[n+1:])
	return name[:n], k
}

// LinkLatest points <suite>/latest at dir, replacing the link atomically
// (a new link renamed over the old one).
func LinkLatest(dir string) error {
	link := filepath.Join(filepath.Dir(dir), Latest)
	tmp := link + ".tmp"
	os.Remove(tmp)
	if err := os.Symlink(filepath.Base(dir), tmp); err != nil {
		return err
	}
	return os.Rename(tmp, link)
}
