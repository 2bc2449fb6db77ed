package contract

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// Passed says whether no result failed.
func Passed(results []Result) bool {
	for _, r := range results {
		if r.Status == Fail {
			return false
		}
	}
	return true
}

// WriteTable prints the results as a table, one row per check and one
// column per implementation, then the details of every failure (and, when
// verbose, of every result that has one).
func WriteTable(w io.Writer, results []Result, verbose bool) error {
	var ids []string
	cell := map[[2]string]Status{}
	for _, r := range results {
		if !slices.Contains(ids, r.column()) {
			ids = append(ids, r.column())
		}
		cell[[2]string{r.column(), r.Check}] = r.Status
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "CHECK\t%s\n", strings.Join(ids, "\t"))
	for _, name := range CheckNames() {
		row := []string{name}
		for _, id := range ids {
			s, ok := cell[[2]string{id, name}]
			if !ok {
				s = Skip
			}
			row = append(row, string(s))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var failed int
	for _, r := range results {
		if r.Status == Fail {
			failed++
		}
	}
	if failed > 0 {
		fmt.Fprintf(w, "\n%d failed:\n", failed)
	}
	for _, r := range results {
		if r.Detail == "" || (r.Status != Fail && r.Status != NotSupported && !verbose) {
			continue
		}
		detail := strings.ReplaceAll(strings.TrimRight(r.Detail, "\n"), "\n", "\n    ")
		fmt.Fprintf(w, "%s %s %s: %s\n", r.Status, r.column(), r.Check, detail)
	}
	return nil
}

// column is the table's column of a result: the implementation, and the
// runtime it ran on when one was pinned ("node-express/bun").
func (r Result) column() string {
	if r.Runtime == "" {
		return r.Impl
	}
	return r.Impl + "/" + r.Runtime
}

// WriteJSON writes the results as one JSON document.
func WriteJSON(w io.Writer, results []Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Passed  bool     `json:"passed"`
		Results []Result `json:"results"`
	}{Passed(results), results})
}
