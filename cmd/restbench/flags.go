package main

import "flag"

// parseFlagsAndArgs parses flags that may come before, between or after
// the positional arguments (restbench verify go-gin -v), and returns the
// positional ones. After -h it returns flag.ErrHelp, usage printed.
func parseFlagsAndArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return nil, err // the caller returns nil: -h is not a failure
			}
			return nil, usageError("%s: %v", fs.Name(), err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return rest, nil
		}
		if args[0] == "--" {
			return append(rest, args[1:]...), nil
		}
		rest = append(rest, args[0])
		args = args[1:]
	}
}
