package result

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestNewest: one rule for "the newest results folder", for the runner's
// --resume and the report alike. Before this rule the report sorted names
// as strings and took …-2 over …-10.
func TestNewest(t *testing.T) {
	for _, c := range []struct {
		name    string
		folders []string // with suite.json
		bare    []string // without: not results
		latest  string   // where the latest link points, "" for none
		want    string
	}{
		{name: "none", want: ""},
		{name: "by time", folders: []string{"20260101-100000", "20260102-090000"}, want: "20260102-090000"},
		{name: "suffix by number", folders: []string{"20260101-100000", "20260101-100000-2", "20260101-100000-10"}, want: "20260101-100000-10"},
		{name: "bare folders are not results", folders: []string{"20260101-100000"}, bare: []string{"20260109-100000"}, want: "20260101-100000"},
		{name: "latest link wins", folders: []string{"20260101-100000", "20260102-100000"}, latest: "20260101-100000", want: "20260101-100000"},
		{name: "latest link without results is ignored", folders: []string{"20260101-100000"}, bare: []string{"20260102-100000"}, latest: "20260102-100000", want: "20260101-100000"},
		{name: "other folders ignored", folders: []string{"20260101-100000"}, bare: []string{"report", "zzz"}, want: "20260101-100000"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range c.folders {
				if err := WriteJSON(filepath.Join(dir, f, SuiteFile), Suite{Name: "s"}); err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range c.bare {
				if err := os.MkdirAll(filepath.Join(dir, f), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if c.latest != "" {
				if err := os.Symlink(c.latest, filepath.Join(dir, Latest)); err != nil {
					t.Fatal(err)
				}
			}
			got, err := Newest(dir)
			if err != nil {
				t.Fatal(err)
			}
			want := ""
			if c.want != "" {
				want = filepath.Join(dir, c.want)
			}
			if got != want {
				t.Errorf("Newest = %q, want %q", got, want)
			}
		})
	}
	if got, err := Newest(filepath.Join(t.TempDir(), "missing")); got != "" || err != nil {
		t.Errorf("Newest(missing) = %q, %v; want \"\", nil", got, err)
	}
}

// TestNewFolder: runs in the same second get folders of their own, and the
// newest of them is the last one made.
func TestNewFolder(t *testing.T) {
	base := filepath.Join(t.TempDir(), "suite")
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	var last string
	for i := 0; i < 11; i++ {
		d, err := NewFolder(base, now)
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteJSON(filepath.Join(d, SuiteFile), Suite{Name: "s"}); err != nil {
			t.Fatal(err)
		}
		last = d
	}
	if filepath.Base(last) != "20260101-100000-11" {
		t.Errorf("11th folder = %s, want 20260101-100000-11", filepath.Base(last))
	}
	if got, _ := Newest(base); got != last {
		t.Errorf("Newest = %s, want %s", got, last)
	}
	if err := LinkLatest(last); err != nil {
		t.Fatal(err)
	}
	if got, _ := Newest(base); got != last {
		t.Errorf("Newest after LinkLatest = %s, want %s", got, last)
	}
}
