package contract

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"restbench/internal/payload"
	"restbench/internal/server"
)

// The /filter checks: correctness record by record on small generated
// bodies, then a large body streamed through while the server's memory is
// sampled.

func checkFilter(ctx context.Context, t *Target) (string, error) {
	// The table's hand-written records first: their answers are easy to read.
	if err := runCases(ctx, t, "filter"); err != nil {
		return "", err
	}
	cases := []struct {
		query      string
		size, seed int64
		min        float64
	}{
		{"?min_version=5", 1_000_000, 1, 5},
		{"", 100_000, 2, 5}, // min_version defaults to 5
		{"?min_version=7.5", 100_000, 3, 7.5},
		{"?min_version=0", 20_000, 4, 0},
		{"?min_version=10", 20_000, 5, 10},
		{"?min_version=5", 0, 6, 5}, // the empty array
	}
	var details []string
	for _, c := range cases {
		var body bytes.Buffer
		if err := payload.Filter(&body, c.size, c.seed); err != nil {
			return "", err
		}
		want, err := payload.FilterExpected(c.size, c.seed, c.min)
		if err != nil {
			return "", err
		}
		r, err := t.call(ctx, "POST", "/filter"+c.query, body.Bytes())
		if err != nil {
			return "", err
		}
		what := fmt.Sprintf("POST /filter%s with %d bytes (gen seed %d)", c.query, body.Len(), c.seed)
		if err := expectStatus(r, 200); err != nil {
			return "", fmt.Errorf("%s: %w", what, err)
		}
		if err := expectJSONType(r); err != nil {
			return "", fmt.Errorf("%s: %w", what, err)
		}
		if err := sameRecords(r.body, want); err != nil {
			return "", fmt.Errorf("%s: %w", what, err)
		}
		details = append(details, fmt.Sprintf("%d of %d bytes", len(r.body), body.Len()))
	}
	return strings.Join(details, ", "), nil
}

// sameRecords compares a /filter response with the expected records, field
// by field, and names the first difference.
func sameRecords(body []byte, want []payload.Record) error {
	var got []map[string]any
	if err := json.Unmarshal(body, &got); err != nil {
		return fmt.Errorf("response is not a JSON array of objects: %v (%s)", err, clip(body))
	}
	if got == nil {
		return fmt.Errorf("response %s, want a JSON array", clip(body))
	}
	for i, g := range got {
		if i >= len(want) {
			return fmt.Errorf("%d records, want %d (record %d: %v is extra)", len(got), len(want), i, g)
		}
		if diff := recordDiff(g, want[i]); diff != "" {
			return fmt.Errorf("record %d: %s (want id %s, version %v)", i, diff, want[i].ID, want[i].Version)
		}
	}
	if len(got) != len(want) {
		return fmt.Errorf("%d records, want %d (the first missing: id %s, version %v)", len(got), len(want), want[len(got)].ID, want[len(got)].Version)
	}
	return nil
}

// recordDiff names what differs between a decoded record and the expected one.
func recordDiff(got map[string]any, want payload.Record) string {
	fields := map[string]any{"name": want.Name, "language": want.Language, "id": want.ID, "bio": want.Bio, "version": want.Version}
	var diffs []string
	for k, w := range fields {
		if g, ok := got[k]; !ok {
			diffs = append(diffs, k+" missing")
		} else if g != w {
			gb, _ := json.Marshal(g)
			diffs = append(diffs, fmt.Sprintf("%s is %s", k, clip(gb)))
		}
	}
	for k := range got {
		if _, ok := fields[k]; !ok {
			diffs = append(diffs, "extra field "+k)
		}
	}
	sort.Strings(diffs)
	return strings.Join(diffs, ", ")
}

// checkFilterMemory streams a large generated body (200 MB by default)
// through POST /filter?min_version=5 while sampling the resident memory of
// the server's processes: a streaming server stays far below the bound,
// one that holds the body or the response does not. The response is counted
// as it is decoded, so the checker holds no more than the server may.
func checkFilterMemory(ctx context.Context, t *Target) (string, error) {
	if t.Pid <= 0 {
		return "", skip("no server process to measure")
	}
	size, limit := t.FilterSize, t.MaxRSS
	if size <= 0 {
		size = 200_000_000
	}
	if limit <= 0 {
		limit = 100_000_000
	}
	const seed = 42
	want := expectedCount(size, seed, 5)
	base := server.RSS(t.Pid)

	// Sample every 20 ms until the response is read.
	var peak int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			peak = max(peak, server.RSS(t.Pid))
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	})
	start := time.Now()
	n, err := streamFilter(ctx, t, size, seed)
	close(stop)
	wg.Wait()
	took := time.Since(start)
	if err != nil {
		return "", fmt.Errorf("%d MB body: %w (peak RSS %s)", size/1_000_000, err, mb(peak))
	}
	detail := fmt.Sprintf("peak RSS %s (before %s), %d MB in %s, %d records back",
		mb(peak), mb(base), size/1_000_000, took.Round(100*time.Millisecond), n)
	switch {
	case n != want:
		return "", fmt.Errorf("%d records back, want %d (%s)", n, want, detail)
	case peak >= limit:
		return "", fmt.Errorf("%s: over the %s bound, so the server holds the body or the response instead of streaming", detail, mb(limit))
	}
	return detail, nil
}

// streamFilter sends a generated body of size bytes, chunked, and decodes
// the response one record at a time, checking each. It returns the count.
func streamFilter(ctx context.Context, t *Target, size, seed int64) (int, error) {
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(payload.Filter(pw, size, seed)) }()
	defer pr.Close() // stops the generator if the server gave up early
	req, err := http.NewRequestWithContext(ctx, "POST", t.URL+"/filter?min_version=5", pr)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := t.Client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("POST /filter: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return 0, fmt.Errorf("POST /filter: status %d (body %s)", resp.StatusCode, clip(b))
	}
	dec := json.NewDecoder(resp.Body)
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return 0, fmt.Errorf("response does not start a JSON array (%v, %v)", tok, err)
	}
	n := 0
	for dec.More() {
		var r payload.Record
		if err := dec.Decode(&r); err != nil {
			return n, fmt.Errorf("response record %d: %w", n, err)
		}
		if r.Version <= 5 || len(r.ID) != 16 {
			return n, fmt.Errorf("response record %d has version %v and id %q: not one the filter keeps", n, r.Version, r.ID)
		}
		n++
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim(']') {
		return n, fmt.Errorf("response array not closed after %d records (%v, %v)", n, tok, err)
	}
	return n, nil
}

// expectedCount is the number of records above minVersion in the generated
// body, remembered because every implementation is checked with the same body.
func expectedCount(size, seed int64, minVersion float64) int {
	key := fmt.Sprint(size, seed, minVersion)
	countsMu.Lock()
	defer countsMu.Unlock()
	if n, ok := counts[key]; ok {
		return n
	}
	n := 0
	payload.Records(size, seed, func(r payload.Record) error {
		if r.Version > minVersion {
			n++
		}
		return nil
	})
	counts[key] = n
	return n
}

var (
	countsMu sync.Mutex
	counts   = map[string]int{}
)

func mb(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/1e6) }
