package hosts

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"restbench/internal/k8s"
	"restbench/internal/merge"
	"restbench/internal/result"
	"restbench/internal/server"
)

// ServerOptions start a server in n's server namespace the way
// server.Start starts any: `ip netns exec` in front of its command (which
// execs it, so the server still leads its own process group), listening on
// the server host's address with PORT=0 (the readiness line names the
// port), the cell's variables env in a clean environment, and restbench's
// own requests (GET /status, as the kubelet's probe would be; the monitor's
// GET /runtime) dialled from a generator host: nothing outside the
// namespaces can reach the server.
func (n *Net) ServerOptions(env map[string]string) server.Options {
	return server.Options{
		Host: n.Server.Addr, Env: env,
		Wrap: []string{"ip", "netns", "exec", n.Server.NS},
		Dial: n.Generators[0].DialContext,
	}
}

// Generate runs the cell's Indexed Job here: one generator process per
// generator namespace, each with the pod's command and environment
// (JOB_COMPLETION_INDEX its index; RESULTS_DIR and BODY_FILE where the pod
// mounts them, here folders below out), all opening the measured window at
// one instant: c.StartAt, or when zero a second after the warm-up could
// begin. It returns the merged result and the shard files.
func Generate(ctx context.Context, n *Net, c k8s.Cell, dir, out string) (*result.Load, []string, error) {
	c.Generators = len(n.Generators)
	c.ServerHost = n.Server.Addr
	if c.Image == "" {
		c.Image = "local" // the container's image plays no part here
	}
	if c.StartAt.IsZero() {
		c.StartAt = StartAt(c.Run.Load.Warmup)
	}
	ct, err := k8s.GeneratorContainer(c)
	if err != nil {
		return nil, nil, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, nil, err
	}
	mounts := map[string]string{k8s.ResultsEnv: out}
	if len(c.Run.Load.Body) > 0 {
		body := filepath.Join(out, "body")
		if err := os.WriteFile(body, c.Run.Load.Body, 0o644); err != nil {
			return nil, nil, err
		}
		mounts[k8s.BodyEnv] = body
	}
	type gen struct {
		cmd    *exec.Cmd
		stderr bytes.Buffer
	}
	gens := make([]*gen, len(n.Generators))
	for i, h := range n.Generators {
		vars := map[string]string{}
		for _, e := range ct.Env {
			switch {
			case e.ValueFrom != nil && e.Name == k8s.IndexEnv:
				vars[e.Name] = strconv.Itoa(i)
			case mounts[e.Name] != "":
				vars[e.Name] = mounts[e.Name]
			default:
				vars[e.Name] = e.Value
			}
		}
		env := []string{"PATH=" + os.Getenv("PATH")}
		for _, k := range slices.Sorted(maps.Keys(vars)) {
			env = append(env, k+"="+vars[k])
		}
		var argv []string
		for _, a := range append(slices.Clone(ct.Command), ct.Args...) {
			argv = append(argv, k8s.Expand(a, vars))
		}
		g := &gen{}
		cmd := h.Command(ctx, dir, env, argv...)
		cmd.Stderr = &g.stderr
		if err := cmd.Start(); err != nil {
			for _, g := range gens[:i] { // they would load the server for nothing
				g.cmd.Process.Kill()
				g.cmd.Wait()
			}
			return nil, nil, fmt.Errorf("start generator %d in %s: %w", i, h.NS, err)
		}
		g.cmd = cmd
		gens[i] = g
	}
	var errs []string
	for i, g := range gens {
		if err := g.cmd.Wait(); err != nil {
			errs = append(errs, fmt.Sprintf("generator %d (%s): %v: %s", i, n.Generators[i].NS, err, strings.TrimSpace(g.stderr.String())))
		}
	}
	if len(errs) > 0 {
		return nil, nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	files := make([]string, len(gens))
	loads := make([]*result.Load, len(gens))
	for i := range gens {
		files[i] = filepath.Join(out, fmt.Sprintf("shard-%d.json", i))
		loads[i] = new(result.Load)
		if err := result.ReadJSON(files[i], loads[i]); err != nil {
			return nil, nil, err
		}
	}
	m, err := merge.Loads(loads, files)
	return m, files, err
}

// StartAt is when a window can open for generators launched now: launching
// a process takes milliseconds, and a second's margin lets the slowest be
// waiting before the warm-up begins.
func StartAt(warmup time.Duration) time.Time {
	return time.Now().Add(warmup + time.Second)
}
