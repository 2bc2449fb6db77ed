package main

import (
	"strings"
	"testing"

	"restbench/internal/load"
	"restbench/internal/loadflags"
)

// FuzzProbe feeds loadflags.ParseProbe what a user may give --probe: a path and a
// positive interval, or an error; a probe it accepts is a request the
// generator can build against a URL.
func FuzzProbe(f *testing.F) {
	for _, s := range []string{"/status@5s", "/status@500ms", "/a?b=c@1m", "status@5s", "/x@0s", "/x@-1s", "/x", "@"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		path, every, err := loadflags.ParseProbe(s)
		if err != nil {
			return
		}
		if !strings.HasPrefix(path, "/") || every <= 0 {
			t.Fatalf("%q: accepted path %q every %v", s, path, every)
		}
		if strings.ContainsAny(path, " \t\r\n") {
			t.Errorf("%q: accepted path %q would break the request line", s, path)
		}
		if err := load.CheckURL("http://127.0.0.1:1"+path, false); err != nil && !strings.ContainsAny(path, "%#") {
			t.Errorf("%q: accepted path %q makes no URL: %v", s, path, err)
		}
	})
}
