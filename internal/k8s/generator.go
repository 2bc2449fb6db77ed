// Package k8s renders one experiment cell of a suite as Kubernetes objects:
// the server in a Pod of its own with exclusive cores, N generators as an
// Indexed Job whose pods each offer one shard of the load from other nodes,
// all starting the measured window at one instant, and a collector that
// merges their results into the suite's usual trial file. The generator's
// command is built here once, for the Job and for the network-namespace
// stand-in (internal/hosts) alike.
package k8s

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"restbench/internal/loadflags"
	"restbench/internal/suite"
)

// Variables the generator's arguments refer to as $(NAME), expanded by the
// kubelet in a pod and by Expand elsewhere.
const (
	IndexEnv   = "JOB_COMPLETION_INDEX" // the pod's index in the Indexed Job
	ResultsEnv = "RESULTS_DIR"          // where each generator writes shard-<index>.json
	BodyEnv    = "BODY_FILE"            // the request body, when the cell has one
)

// Binary is restbench in the image, relative to the working directory (the
// repository root, as in a checkout).
const Binary = "bin/restbench"

// GeneratorArgs builds the generator command (argv, before the kubelet
// expands $(VAR); argv[0] is Binary) for run: the cell's whole load
// (-c, -R and -n are totals) in the flags restbench load reads
// (internal/loadflags writes them), this pod's shard of it, the shared
// start and the server at serverURL (scheme, host and port), to which the
// suite's path is appended. --allow-remote is passed because the server is
// on another host by design; nothing else in restbench loads a
// non-loopback address.
func GeneratorArgs(run suite.Run, serverURL string, generators int, startAt time.Time, threads int) ([]string, error) {
	if err := Supported(run); err != nil {
		return nil, err
	}
	c := run.Load
	// What the generator sets itself: its threads (one per CPU of its pod)
	// and a target on another host.
	c.Threads, c.AllowRemote, c.CPUs = threads, true, nil
	a := []string{Binary, "load", "-q",
		"--shard", "$(" + IndexEnv + ")/" + strconv.Itoa(generators),
		"--start-at", startAt.UTC().Format(time.RFC3339Nano),
		"--json", "$(" + ResultsEnv + ")/shard-$(" + IndexEnv + ").json",
	}
	a = append(a, loadflags.Args(c, "$("+BodyEnv+")")...)
	return append(a, strings.TrimRight(serverURL, "/")+c.URL), nil
}

// Supported says whether run can be measured by generators on other hosts,
// and if not, why and what to do.
func Supported(run suite.Run) error {
	switch {
	case run.Engine != "" && run.Engine != "restbench":
		return fmt.Errorf("%s: engine %s: only restbench's own generator can be sharded and merged (its histograms add up); use engine: restbench", run.ID, run.Engine)
	case len(run.Load.Mix) > 0:
		return fmt.Errorf("%s: a request mix is not carried to other hosts yet; measure this cell with placement: pinned", run.ID)
	case run.RateOf != "":
		return fmt.Errorf("%s: rate_of needs the capacity of another run first; give an absolute rate for placement: hosts", run.ID)
	}
	return nil
}

// Expand replaces $(NAME) in s with env[NAME], as the kubelet does for a
// container's command and arguments: a name that is not in env is left as
// written, and $$ stands for a literal $.
func Expand(s string, env map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch {
		case s[i+1] == '$':
			b.WriteByte('$')
			i++
		case s[i+1] == '(':
			end := strings.IndexByte(s[i+2:], ')')
			if end < 0 {
				b.WriteString(s[i:])
				return b.String()
			}
			name := s[i+2 : i+2+end]
			if v, ok := env[name]; ok {
				b.WriteString(v)
			} else {
				b.WriteString(s[i : i+3+end])
			}
			i += 2 + end
		default:
			b.WriteByte('$')
		}
	}
	return b.String()
}
