package main

import (
	"encoding/json"
	"io"
	"os"

	"github.com/spf13/pflag"

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

// jsonOutput is where --json sends a result: a file written whole, or
// stdout for "-" (restbench load --json - | jq .rps).
type jsonOutput struct {
	file   *result.AtomicFile
	stdout bool
}

// openJSON opens --json's path (nil for ""), "-" being stdout.
func openJSON(cmd, path string) (*jsonOutput, error) {
	if path == "-" {
		return &jsonOutput{stdout: true}, nil
	}
	f, err := openOutput(cmd, "--json", path)
	if f == nil {
		return nil, err
	}
	return &jsonOutput{file: f}, nil
}

// commit writes v, indented as in a file.
func (o *jsonOutput) commit(v any) error {
	if o.stdout {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	return o.file.CommitJSON(v)
}

// write writes with encode: to stdout, or to the file, committed.
func (o *jsonOutput) write(encode func(io.Writer) error) error {
	if o.stdout {
		return encode(os.Stdout)
	}
	if err := encode(o.file); err != nil {
		o.file.Abort()
		return err
	}
	return o.file.Commit()
}

// text is where a command prints what people read: stdout, unless the
// JSON goes there (--json -).
func (o *jsonOutput) text() io.Writer {
	if o != nil && o.stdout {
		return os.Stderr
	}
	return os.Stdout
}

func (o *jsonOutput) abort() {
	if o != nil && o.file != nil {
		o.file.Abort()
	}
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
// connections". A flag is named as people write it: its shorthand if it
// has one.
func (c rangeCheck) check(cmd string, fs *pflag.FlagSet) error {
	if !c.bad {
		return nil
	}
	f := fs.Lookup(c.flag)
	name := "--" + f.Name
	if f.Shorthand != "" {
		name = "-" + f.Shorthand
	}
	v := f.Value.String()
	if v == "" {
		v = "0" // a zero duration prints empty (loadflags.Seconds)
	}
	return usageError("%s: %s %s: use %s", cmd, name, v, c.allowed)
}

// checkRanges returns the first of checks that fails.
func checkRanges(cmd string, fs *pflag.FlagSet, checks ...rangeCheck) error {
	for _, c := range checks {
		if err := c.check(cmd, fs); err != nil {
			return err
		}
	}
	return nil
}

// logTo is where a command writes what it is doing (builds, installs):
// stderr, or nowhere with -q.
func logTo(g *globals) io.Writer {
	if g.quiet {
		return io.Discard
	}
	return os.Stderr
}
