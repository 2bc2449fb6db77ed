package main

import (
	"flag"
	"os"

	"restbench/internal/result"
)

// Every output a flag names is opened (a file) or tried (a folder) before
// the work whose result it will hold: a folder that cannot be written fails
// at once, naming the flag, not after a 10-minute load.

// openOutput opens the file that flag names (nil for ""); Commit writes it
// in place whole, Abort drops it.
func openOutput(cmd, flag, path string) (*result.AtomicFile, error) {
	if path == "" {
		return nil, nil
	}
	f, err := result.CreateAtomic(path)
	if err != nil {
		return nil, usageError("%s: %s %s: %v (name a file in a folder you can write)", cmd, flag, path, err)
	}
	return f, nil
}

// checkOutputDir creates the folder that flag names, if need be, and
// checks that a file can be written in it.
func checkOutputDir(cmd, flag, dir string) error {
	f, err := result.CreateAtomic(dir + "/.restbench-check")
	if err == nil {
		f.Abort()
		return nil
	}
	return usageError("%s: %s %s: %v (name a folder you can write)", cmd, flag, dir, err)
}

// rangeCheck is one flag's value checked against what it allows.
type rangeCheck struct {
	flag    string
	bad     bool
	allowed string
}

// check returns the usage error of a bad value: "load: -c 0: use 1 or more
// connections".
func (c rangeCheck) check(cmd string, fs *flag.FlagSet) error {
	if !c.bad {
		return nil
	}
	name := "--" + c.flag
	if len(c.flag) == 1 {
		name = "-" + c.flag
	}
	v := fs.Lookup(c.flag).Value.String()
	if v == "" {
		v = "0" // a zero duration prints empty (seconds.String)
	}
	return usageError("%s: %s %s: use %s", cmd, name, v, c.allowed)
}

var _ = os.Stderr
