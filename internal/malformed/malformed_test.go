package malformed

import (
	"bytes"
	"testing"
)

// TestCorpus: the corpus is the same bytes for the same seed, has the
// counts it says, and another seed gives other requests.
func TestCorpus(t *testing.T) {
	c, err := Load("../..")
	if err != nil {
		t.Fatal(err)
	}
	a, err := c.Requests("../..", "h:1")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := c.Requests("../..", "h:1")
	total := 0
	for _, n := range c.Counts {
		total += n
	}
	if len(a) != total {
		t.Fatalf("%d requests, want the counts' %d", len(a), total)
	}
	for i := range a {
		if a[i].Name != b[i].Name || string(bytes.Join(a[i].Pieces, nil)) != string(bytes.Join(b[i].Pieces, nil)) {
			t.Fatalf("request %d differs between two makings with seed %d: %s / %s", i, c.Seed, a[i].Name, b[i].Name)
		}
	}
	c.Seed++
	other, _ := c.Requests("../..", "h:1")
	same := 0
	for i := range a {
		if a[i].Name == other[i].Name {
			same++
		}
	}
	if same == len(a) {
		t.Error("another seed made the same corpus")
	}
}
