package runtimes

import (
	"fmt"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
)

// Launch is how to build and start one implementation on one runtime.
type Launch struct {
	Build    string            // shell command run in the repository root; "" for none
	BuildEnv map[string]string // extra environment of Build
	Start    []string          // argv run in the repository root
	Env      map[string]string // extra environment of the server
	// Flags are the runtime's flags in Start, as the runtime reads them
	// (Deno: the V8 flags it passes on); nil for none.
	Flags []string
}

// Command returns how to build and start an implementation of language lang
// on the installed runtime in. build and start are the manifest's, written
// for the plain `node` and `go` on PATH:
//
//   - node@X replaces "node" by the pinned binary and keeps the V8 flags,
//     followed by the runtime's own flags (servers/runtimes.yaml), and puts
//     the binary's folder first on the server's PATH (PM2 looks for `node`
//     there);
//   - bun runs the script directly (Bun is JavaScriptCore: V8 flags mean
//     nothing to it);
//   - deno runs the script with `deno run -A`, the V8 flags through
//     --v8-flags, and no deno.lock written into the checkout;
//   - the runtime's env (servers/runtimes.yaml) is added to the server's;
//   - go@X builds with GOTOOLCHAIN=goX.Y.Z (and the toolchain's module file
//     when go.mod's go line is too new for it) into bin/servers/goX.Y.Z/,
//     one folder per toolchain; the plain `go` on PATH keeps the binaries
//     where `make servers` puts them.
func (in *Installed) Command(lang, build string, start []string) (Launch, error) {
	if lang != in.Language {
		return Launch{}, fmt.Errorf("runtime %s runs %s implementations, not %s ones", in.Name, in.Language, lang)
	}
	if len(start) == 0 {
		return Launch{}, fmt.Errorf("no start command")
	}
	l := Launch{Build: build, Start: start}
	if lang == Go {
		return in.goCommand(l)
	}
	if start[0] != "node" {
		return Launch{}, fmt.Errorf("start command %q does not begin with node, so it cannot run on %s", strings.Join(start, " "), in.Name)
	}
	flags, script := splitFlags(start[1:])
	switch {
	case strings.HasPrefix(in.Name, "bun"):
		l.Start = append([]string{in.Path}, script...)
	case strings.HasPrefix(in.Name, "deno"):
		argv := []string{in.Path, "run", "-A", "--no-lock"}
		// --v8-pool-size is Node's (the size of its V8 platform's thread
		// pool), not V8's: Deno refuses it and has no equivalent.
		// (A copy: flags shares start's array, the manifest's own.)
		flags = slices.DeleteFunc(slices.Clone(flags), func(f string) bool { return strings.HasPrefix(f, "--v8-pool-size") })
		if len(flags) > 0 {
			argv = append(argv, "--v8-flags="+strings.Join(flags, ","))
			l.Flags = []string{"--v8-flags=" + strings.Join(flags, ",")}
		}
		l.Start = append(argv, script...)
		l.Env = map[string]string{"DENO_NO_UPDATE_CHECK": "1", "DENO_NO_PROMPT": "1"}
	default:
		l.Start = slices.Concat([]string{in.Path}, flags, in.Flags, script)
		l.Flags = slices.Concat(flags, in.Flags)
		// PM2 refuses to start an app whose interpreter, `node`, is not on
		// PATH (its workers then fork from the pinned binary all the same):
		// on a machine whose only Node is the pinned one it never became
		// ready. Its folder first, so that whatever starts `node` by name
		// starts this one.
		l.Env = map[string]string{"PATH": path.Dir(in.Path) + string(os.PathListSeparator) + os.Getenv("PATH")}
	}
	if len(in.Env) > 0 {
		if l.Env == nil {
			l.Env = map[string]string{}
		}
		maps.Copy(l.Env, in.Env)
	}
	return l, nil
}

func (in *Installed) goCommand(l Launch) (Launch, error) {
	l.BuildEnv = map[string]string{"GOTOOLCHAIN": in.Toolchain}
	bin := l.Start[0]
	if !strings.Contains(l.Build, bin) {
		if in.Modfile == "" {
			return l, nil // a binary the build does not write: nothing to keep apart
		}
		return Launch{}, fmt.Errorf("build command %q does not write %s, so restbench cannot build it with %s elsewhere", l.Build, bin, in.Toolchain)
	}
	// A binary of its own per toolchain, so that two toolchains never
	// share one (go@1.26 and go@1.27 both build without a module file of
	// their own: in one folder the second would be measured as the first's
	// build), and the default one is never replaced by a pinned build.
	own := path.Join(path.Dir(bin), in.Toolchain, path.Base(bin))
	l.Build = strings.Replace(l.Build, bin, own, 1)
	l.Start = append([]string{own}, l.Start[1:]...)
	if in.Modfile != "" {
		// GOFLAGS rather than rewriting the build command: the user's own
		// flags (-buildvcs=false, say) still apply.
		l.BuildEnv["GOFLAGS"] = strings.TrimSpace(os.Getenv("GOFLAGS") + " -modfile=" + in.Modfile)
	}
	return l, nil
}

// splitFlags separates the runtime's flags (before the script) from the
// script and its arguments.
func splitFlags(args []string) (flags, rest []string) {
	for i, a := range args {
		if !strings.HasPrefix(a, "-") {
			return args[:i], args[i:]
		}
	}
	return args, nil
}
