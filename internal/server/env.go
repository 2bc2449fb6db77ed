package server

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Inherited names the variables of restbench's own environment that a
// server gets; nothing else of it reaches the server. A GOMAXPROCS, GOGC,
// GODEBUG, GOMEMLIMIT, NODE_OPTIONS or UV_THREADPOOL_SIZE in the user's
// shell would otherwise change a run without a word in its results. PATH
// finds `taskset` and `ip`; HOME, LANG and TMPDIR are what a process expects
// to find. The runtimes need nothing more at run time: Go servers are built
// before they start (the build keeps restbench's environment), and Node,
// Bun and Deno read their settings from the flags and the runtime's env in
// servers/runtimes.yaml.
var Inherited = []string{"PATH", "HOME", "LANG", "TMPDIR"}

// Environ is the whole environment of a server started with opt: the
// Inherited variables of parent (os.Environ()), then im's variables, then
// the cell's (opt.Env), then HOST and PORT. A later layer wins.
func Environ(parent []string, imEnv map[string]string, opt Options) map[string]string {
	env := map[string]string{}
	for _, kv := range parent {
		if k, v, ok := strings.Cut(kv, "="); ok && slices.Contains(Inherited, k) {
			env[k] = v
		}
	}
	maps.Copy(env, imEnv)
	maps.Copy(env, opt.Env)
	env["HOST"], env["PORT"] = opt.Host, strconv.Itoa(opt.Port)
	return env
}

// list is env as KEY=value lines, sorted, for exec.Cmd.Env.
func list(env map[string]string) []string {
	out := make([]string, 0, len(env))
	for _, k := range slices.Sorted(maps.Keys(env)) {
		out = append(out, k+"="+env[k])
	}
	return out
}
