package runner

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"restbench/internal/metric"
	"restbench/internal/result"
	"restbench/internal/suite"
)

// progress reports a suite run: a bar with ETA over every trial on a
// terminal, a plain line per trial otherwise, and on both one line per
// finished run with its median req/s, p99, spread and flags.
type progress struct {
	w     io.Writer
	bar   *progressbar.ProgressBar
	total int
	done  int
	start time.Time
}

func newProgress(w io.Writer, bar bool, total int) *progress {
	p := &progress{w: w, total: total, start: time.Now()}
	if bar {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("trials"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionFullWidth(),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	return p
}

// grow adds n trials to the total: a stop rule asked for another round.
func (p *progress) grow(n int) {
	p.total += n
	if p.bar != nil {
		p.bar.ChangeMax(p.total)
	}
}

// printf prints a line above the bar.
func (p *progress) printf(format string, args ...any) {
	if p.bar != nil {
		p.bar.Clear()
	}
	fmt.Fprintf(p.w, format+"\n", args...)
	if p.bar != nil {
		p.bar.RenderBlank()
	}
}

// trialStart names the trial under way on the bar.
func (p *progress) trialStart(id string, n int) {
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("%s #%d", id, n))
	}
}

func (p *progress) trialDone(id string, n int, t *result.Trial, skipped bool) {
	p.done++
	if p.bar != nil {
		p.bar.Add(1)
		return
	}
	state := t.Status
	notRun := t.Status == result.StatusNotRun || t.Status == result.StatusNotSupported
	if notRun {
		state = t.Error
	}
	if skipped {
		state = "done before (--resume)"
	} else if t.Status == result.StatusOK && t.Load != nil {
		state = fmt.Sprintf("%.0f req/s", t.Load.RPS)
	}
	eta := ""
	if elapsed := time.Since(p.start); p.done < p.total && !skipped && !notRun {
		eta = fmt.Sprintf(", about %s left", (elapsed / time.Duration(p.done) * time.Duration(p.total-p.done)).Round(time.Second))
	}
	fmt.Fprintf(p.w, "[%d/%d] %s trial %d: %s%s\n", p.done, p.total, id, n, state, eta)
}

// runDone prints the run's line: median of the trials and their spread
// ((max-min)/median), so that a noisy run stands out.
func (p *progress) runDone(run suite.Run, trials []*result.Trial) {
	var rps, p99 []float64
	var flags []string
	var failure string
	for _, t := range trials {
		for _, f := range t.Flags {
			if !slices.Contains(flags, f) {
				flags = append(flags, f)
			}
		}
		if t.Status != result.StatusOK || t.Load == nil {
			failure = t.Error
			if tail := strings.TrimSpace(t.StderrTail); tail != "" {
				failure += "\n    stderr: " + tail[strings.LastIndexByte(tail, '\n')+1:]
			}
			continue
		}
		rps = append(rps, t.Load.RPS)
		p99 = append(p99, t.Load.Latency.P99)
	}
	line := fmt.Sprintf("%-50s", run.ID)
	if len(rps) > 0 {
		s := metric.SpreadOf(rps)
		line += fmt.Sprintf(" %10.0f req/s  p99 %8.2f ms", s.Median, result.Median(p99))
		if s.N > 1 && s.Median > 0 {
			line += fmt.Sprintf("  ±%.1f%%", 100*(s.Max-s.Min)/2/s.Median)
		}
	} else if why := notRunReason(trials); why != "" {
		line += " " + why
		failure = ""
	} else {
		line += " failed"
	}
	if len(flags) > 0 {
		line += "  [" + strings.Join(flags, ", ") + "]"
	}
	if failure != "" {
		line += "\n    " + failure
	}
	p.printf("%s", line)
}

// notRunReason is the reason shared by trials that were all not run, "" when
// any trial was attempted.
func notRunReason(trials []*result.Trial) string {
	why := ""
	for _, t := range trials {
		if t.Status != result.StatusNotRun && t.Status != result.StatusNotSupported {
			return ""
		}
		why = t.Error
	}
	return why
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
