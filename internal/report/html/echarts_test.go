package html

import (
	"os/exec"
	"strings"
	"testing"

	"restbench/internal/report/chart"
)

// TestHTMLPercentileLabels runs the axis-label function the page gives
// ECharts, in Node, on the values ECharts puts ticks at on a log axis: the
// labels must be the spec's (99.99%, not 99.990%), blank between them.
func TestHTMLPercentileLabels(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH to run the page's label function")
	}
	script := "const f = " + tickFormatter(chart.PercentileTicks()) + ";\n" +
		"console.log(JSON.stringify([1, 2, 10, 100, 1000, 10000, 100000, 1000.0000000001, 3].map(f)));"
	out, err := exec.Command(node, "-e", script).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	want := `["0%","50%","90%","99%","99.9%","99.99%","99.999%","99.9%",""]`
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("labels %s, want %s", got, want)
	}
}
