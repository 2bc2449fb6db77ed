package markdown

import (
	"fmt"
	"strings"

	"restbench/internal/report/model"
	"restbench/internal/report/summary"
	"restbench/internal/result"
)

// writeVerdictSummary opens report.md with its first screen (firstscreen.go):
// what was learned, the count by state, the windows, the forest plot, then
// one short row per conclusion — the write-ups', their runtime replays,
// restbench's own checks — and each suite's A/A noise floor.
func writeVerdictSummary(b *strings.Builder, suites []*model.SuiteReport, forest string) {
	fs := summary.BuildScreen(suites)
	if len(fs.Rows) == 0 {
		return
	}
	if len(fs.Learned) > 0 {
		fmt.Fprintf(b, "## What was learned\n\n%s\n\n", summary.LearnedIntro)
		for _, l := range fs.Learned {
			fmt.Fprintf(b, "**[%s](#%s)** — %s\n\n", model.Cell(l.Suite), l.SuiteID, model.Cell(l.Title))
			for _, r := range l.Lines {
				fmt.Fprintf(b, "- %s: [%s](#%s): %s (%s)\n", r.State, model.Cell(r.Claim), r.ID, r.Ratio, r.Interval)
			}
			if l.Rest != "" {
				if len(l.Lines) > 0 {
					fmt.Fprintf(b, "\n")
				}
				fmt.Fprintf(b, "%s\n", l.Rest)
			}
			fmt.Fprintf(b, "\n")
		}
	}
	fmt.Fprintf(b, "## Verdicts\n\n")
	for _, c := range fs.Counts {
		fmt.Fprintf(b, "- **%s, %s.**\n", c.Title, c)
	}
	fmt.Fprintf(b, "\n")
	if forest != "" && len(fs.Forest) > 0 {
		fmt.Fprintf(b, "%s\n\n![%s](%s)\n\n", summary.ForestCaption(fs), summary.ForestTitle, forest)
	}
	if len(fs.Windows) > 0 {
		fmt.Fprintf(b, "Windows (how long each load ran; a short window cannot show a slow drift or a long latency):\n\n")
		for _, w := range fs.Windows {
			fmt.Fprintf(b, "- %s\n", w)
		}
		fmt.Fprintf(b, "\n")
	}
	for _, k := range summary.KindTitles {
		n := 0
		for _, r := range fs.Rows {
			if r.Kind != k.Kind {
				continue
			}
			if n == 0 {
				fmt.Fprintf(b, "### %s\n\n| suite | claim | published | claim's region | state | here | interval | why (the claim's line has the full reasoning) |\n|---|---|---|---|---|---|---|---|\n", k.Title)
			}
			n++
			ratio := model.FirstNonEmpty(r.Ratio, "—")
			if r.NotVerdict() {
				ratio += " *(not a verdict)*"
			}
			fmt.Fprintf(b, "| [%s](#%s) | [%s](#%s) | %s | %s | **%s** | %s | %s | %s |\n", model.Cell(r.Suite), r.SuiteID, model.Cell(r.Claim), r.ID,
				model.Cell(r.Published), model.Cell(r.Region), r.State, ratio, model.FirstNonEmpty(r.Interval, "—"), model.Cell(r.Reason))
		}
		if n > 0 {
			fmt.Fprintf(b, "\n")
		}
	}
	if floors := summary.NoiseFloors(suites); len(floors) > 0 {
		fmt.Fprintf(b, "A/A noise floors (one run measured twice in every round; a ratio between two servers inside this band is noise):\n\n")
		for _, f := range floors {
			fmt.Fprintf(b, "- %s\n", f)
		}
		fmt.Fprintf(b, "\n")
	}
	fmt.Fprintf(b, "How the claims are graded: %s\n\n", summary.VerdictsIntro)
}

// writeVerdicts lists an experiment's verdicts, each with its anchor.
func writeVerdicts(b *strings.Builder, s *model.SuiteReport, e *model.ExperimentReport) {
	for i, v := range e.Verdicts {
		if v.Kind == result.KindAA {
			fmt.Fprintf(b, "- <a id=\"%s\"></a>**A/A noise floor**: %s\n", summary.VerdictID(s, e, i), summary.VerdictDetail(v))
			continue
		}
		own := ""
		if v.Own() {
			own = " (restbench's check)"
		}
		fmt.Fprintf(b, "- <a id=\"%s\"></a>**%s**%s: %s\n", summary.VerdictID(s, e, i), summary.OutcomeCell(v), own, summary.VerdictDetail(v))
	}
	if len(e.Verdicts) > 0 {
		fmt.Fprintf(b, "\n")
	}
	if l := summary.RoundsLine(e); l != "" {
		fmt.Fprintf(b, "%s\n\n", l)
	}
}

// writeRunNotes says, above the published figures, where they came from
// another load than ours: one line per note, naming its runs unless every
// run with figures carries it.
func writeRunNotes(b *strings.Builder, e *model.ExperimentReport) {
	var notes []string
	runs := map[string][]string{}
	withFigures := 0
	for _, r := range e.Runs {
		if len(r.Figures) == 0 {
			continue
		}
		withFigures++
		if n := r.Info.Note; n != "" {
			if _, ok := runs[n]; !ok {
				notes = append(notes, n)
			}
			runs[n] = append(runs[n], r.Label())
		}
	}
	for _, n := range notes {
		if len(runs[n]) == withFigures && withFigures > 1 {
			fmt.Fprintf(b, "- every run: %s\n", n)
			continue
		}
		fmt.Fprintf(b, "- %s: %s\n", strings.Join(runs[n], ", "), n)
	}
	if len(notes) > 0 {
		fmt.Fprintf(b, "\n")
	}
}
