package model

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"restbench/internal/metric"
	"restbench/internal/result"
)

// flagsText is what a run was flagged with, and why any trial of it was
// not run, in one line of text.
func flagsText(r *RunReport) string {
	var fs []string
	if note := placementNote(r); note != "" {
		fs = append(fs, note)
	}
	for _, f := range r.Flags {
		if f == result.FlagFailed {
			f = fmt.Sprintf("failed %d/%d", r.failedCount(), len(r.Trials))
		}
		fs = append(fs, f)
	}
	if len(r.Trials) == 0 {
		fs = append(fs, "no trials")
	}
	fs = append(fs, NotRunReasons(r)...)
	return strings.Join(fs, ", ")
}

// ParamNames are the matrix parameters of an experiment, as table columns.
func ParamNames(e *ExperimentReport) []string {
	seen := map[string]bool{}
	var names []string
	for _, r := range e.Runs {
		for k := range r.Info.Params {
			if !seen[k] && k != "impl" { // the run's label names the implementation
				seen[k] = true
				names = append(names, k)
			}
		}
	}
	sort.Strings(names)
	return names
}

// Num prints a figure with the precision a reader can use: whole numbers
// from 100 up, three significant digits below.
func Num(v float64) string {
	a := math.Abs(v)
	switch {
	case v == 0:
		return "0"
	case a >= 10000:
		return metric.Thousands(v)
	case a >= 100:
		return fmt.Sprintf("%.0f", v)
	case a >= 10:
		return fmt.Sprintf("%.1f", v)
	case a >= 1:
		return fmt.Sprintf("%.2f", v)
	default:
		return fmt.Sprintf("%.3g", v)
	}
}

// Ratio prints a measured/published ratio: 1.24×.
func Ratio(v float64) string { return fmt.Sprintf("%.2f×", v) }

// Med prints a spread's median, or a dash when nothing was measured.
func Med(s metric.Spread) string {
	if s.N == 0 {
		return "—"
	}
	return Num(s.Median)
}

// Rng prints a spread's min–max, or a dash when nothing was measured.
func Rng(s metric.Spread) string {
	if s.N == 0 {
		return "—"
	}
	return Num(s.Min) + "–" + Num(s.Max)
}

// Cell makes text safe inside a Markdown table cell.
func Cell(s string) string {
	return strings.NewReplacer("|", "\\|", "\n", " ").Replace(s)
}

// OneLine folds every run of white space in s into one space.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// LastLines are the last n lines of s.
func LastLines(s string, n int) []string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}

// Anchor is a suite's HTML id.
func Anchor(s string) string {
	return "suite-" + Slug(s)
}

// Slug makes a name safe as a file name or HTML id.
func Slug(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, s)
	for strings.Contains(s, "--") {
		s = strings.ReplaceAll(s, "--", "-")
	}
	return strings.Trim(s, "-")
}

// FirstNonEmpty is the first of ss that is not empty.
func FirstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
