package runner

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"restbench/internal/impl"
	"restbench/internal/result"
)

// environment describes this machine and the software under test: env.json.
func environment(m *impl.Manifest, impls []string, scale, command string) result.Env {
	e := result.Env{
		Created:    time.Now().UTC(),
		CPUModel:   cpuModel(),
		Cores:      runtime.NumCPU(),
		OS:         runtime.GOOS + "/" + runtime.GOARCH,
		Go:         firstOf(output(m.Root, "go", "env", "GOVERSION"), runtime.Version()),
		Node:       output(m.Root, "node", "--version"),
		Restbench:  output(m.Root, "git", "describe", "--always", "--dirty"),
		Frameworks: map[string]string{},
		Scale:      scale,
		Command:    command,
	}
	e.Host, _ = os.Hostname()
	var u unix.Utsname
	if unix.Uname(&u) == nil {
		e.Kernel = unix.ByteSliceToString(u.Release[:])
	}
	for _, id := range impls {
		if im, err := m.Get(id); err == nil {
			e.Frameworks[id] = strings.TrimSpace(im.Framework + " " + im.Version)
		}
	}
	return e
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

// output runs a short command for its first line; "" when it fails (no git
// checkout, no node), which env.json then simply leaves empty.
func output(dir string, argv ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return line
}

func firstOf(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
