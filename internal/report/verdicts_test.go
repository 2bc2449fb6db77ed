package report

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestVerdictSummary: report.md and report.html open with the table of every
// verdict, before any suite's section, and every row links to a line that
// exists.
func TestVerdictSummary(t *testing.T) {
	w, err := Write(fixtureRoot, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	suite, _ := fixtureSuite()
	conclusions := 0
	for _, e := range suite.Experiments {
		conclusions += len(e.Conclusions)
	}
	for _, c := range []struct {
		file, summary, section string
		link, target           *regexp.Regexp
	}{
		{w.Markdown, "## Verdicts", `<a id="suite-mini">`, regexp.MustCompile(`\]\(#(v-[a-z0-9-]+)\)`), regexp.MustCompile(`<a id="(v-[a-z0-9-]+)">`)},
		{w.HTML, `<section id="verdicts">`, `<section id="suite-mini">`, regexp.MustCompile(`href="#(v-[a-z0-9-]+)"`), regexp.MustCompile(`<li id="(v-[a-z0-9-]+)">`)},
	} {
		data, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		page := string(data)
		s, sec := strings.Index(page, c.summary), strings.Index(page, c.section)
		if s < 0 || sec < 0 || s > sec {
			t.Errorf("%s: summary at %d, first suite section at %d: the summary must come first", c.file, s, sec)
		}
		targets := map[string]bool{}
		for _, m := range c.target.FindAllStringSubmatch(page, -1) {
			targets[m[1]] = true
		}
		links := map[string]bool{} // the table's, the learned lines' and the forest plot's
		for _, m := range c.link.FindAllStringSubmatch(page, -1) {
			links[m[1]] = true
		}
		if len(links) != conclusions || len(targets) != conclusions {
			t.Errorf("%s: %d claims linked and %d verdict lines, want %d of each", c.file, len(links), len(targets), conclusions)
		}
		for id := range links {
			if !targets[id] {
				t.Errorf("%s: the first screen links to #%s, which no verdict line carries", c.file, id)
			}
		}
	}
}
