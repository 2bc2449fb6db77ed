package report

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"restbench/internal/result"
	"restbench/internal/verdict"
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

// TestTrendPointUnits: a trend over one run's own figure prints each point
// in the metric's unit; a trend over ratios prints ratios.
func TestTrendPointUnits(t *testing.T) {
	own := Verdict{Verdict: verdict.Verdict{Conclusion: result.Conclusion{Text: "memory grows", Metric: "rss_mb", Claim: result.ClaimGrows},
		Points: []verdict.PointValue{{X: 0, Measured: 97.8}, {X: 30, Measured: 278}}, Outcome: verdict.NotComparable, Why: "flagged"}}
	ratio := Verdict{Verdict: verdict.Verdict{Conclusion: result.Conclusion{Text: "lead grows", Metric: "rps", Claim: result.ClaimGrows},
		Points: []verdict.PointValue{{X: 100, Published: 1.23, Measured: 3.37, Ratio: true}}, Outcome: verdict.NotComparable, Why: "flagged"}}
	for v, want := range map[*Verdict]string{&own: "at 30 published —, here 278 MiB", &ratio: "at 100 published 1.23×, here 3.37×"} {
		if got := verdictDetail(*v); !strings.Contains(got, want) {
			t.Errorf("%s: %q lacks %q", v.Text, got, want)
		}
	}
}

// TestScaledAndDesign: a scaled claim and a claim carried by another design
// than the published one say so beside the verdict (the table's cell) and
// give the rule in the verdict's line; a plain claim says neither.
func TestScaledAndDesign(t *testing.T) {
	base := result.Conclusion{Text: "Go collapses", Metric: "rps", A: "q/go 1", B: "q/go cores", Claim: result.ClaimBand, Low: 5}
	scaled, design := base, base
	scaled.Scaled = "quota = cores ÷ 4, GOMAXPROCS = cores"
	design.Design = "server-bound (0.5-CPU quota on both)"
	for _, c := range []struct {
		name       string
		c          result.Conclusion
		bound      string
		cell, line string // wanted in outcomeCell and verdictDetail; "" wants neither mark
	}{
		{"plain", base, "", "", ""},
		{"scaled", scaled, "", "holds, scaled", "Scaled: quota = cores ÷ 4, GOMAXPROCS = cores."},
		{"design with a bound", design, "lower", "holds (lower bound), design: server-bound (0.5-CPU quota on both)", "Design: server-bound (0.5-CPU quota on both)."},
	} {
		v := Verdict{Verdict: verdict.Verdict{Conclusion: c.c, Outcome: verdict.Holds, Bound: c.bound, Estimate: 6, Lo: 5.5, Hi: 6.5, Pairs: 5, Rule: "above 5×"}}
		cell, line := outcomeCell(v), verdictDetail(v)
		if c.cell == "" {
			if strings.Contains(cell, "scaled") || strings.Contains(cell, "design") || strings.Contains(line, "Scaled:") || strings.Contains(line, "Design:") {
				t.Errorf("%s: %q / %q mark a claim that is neither scaled nor redesigned", c.name, cell, line)
			}
			continue
		}
		if cell != c.cell {
			t.Errorf("%s: outcome cell %q, want %q", c.name, cell, c.cell)
		}
		if !strings.HasSuffix(line, c.line) {
			t.Errorf("%s: verdict line %q does not end with %q", c.name, line, c.line)
		}
	}
}

// controlNote says, beside the state, how the claim reads on a run's
// control and what share of its control's figure the run measured: a
// ratio for a claim on two runs, the metric's unit for one run's figure.
func TestControlNote(t *testing.T) {
	ctl := &verdict.Control{Run: "sum/node", In: "sum/node backlog=4096", Estimate: 2.03, Lo: 1.98, Hi: 2.36, Outcome: verdict.Holds, Share: 0.686, ShareLo: 0.488, ShareHi: 0.829}
	cpu := &verdict.Control{Run: "sum/node", In: "sum/node backlog=4096", Estimate: 103, Lo: 73, Hi: 108, Outcome: verdict.Inconclusive, Share: 0.69, ShareLo: 0.622, ShareHi: 0.771}
	for _, c := range []struct {
		name string
		v    verdict.Verdict
		want string
	}{
		{"none", verdict.Verdict{Conclusion: result.Conclusion{Metric: "rps", A: "sum/go", B: "sum/node"}}, ""},
		{"ratio", verdict.Verdict{Conclusion: result.Conclusion{Metric: "rps", A: "sum/go", B: "sum/node"}, Control: ctl},
			"with the control sum/node backlog=4096 in its place: 2.03× (1.98–2.36), holds; sum/node at 0.686× (0.488–0.829) of its control"},
		{"one run's figure", verdict.Verdict{Conclusion: result.Conclusion{Metric: "cpu_pct", A: "sum/node"}, Control: cpu},
			"with the control sum/node backlog=4096 in its place: 103 % (73 %–108 %), inconclusive; sum/node at 0.69× (0.622–0.771) of its control"},
	} {
		if got := controlNote(Verdict{Verdict: c.v}); got != c.want {
			t.Errorf("%s: %q\nwant %q", c.name, got, c.want)
		}
	}
}
