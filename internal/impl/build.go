package impl

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// Build runs the implementation's build command in the repository root,
// unless its Creates path already exists. Output goes to out.
func (m *Manifest) Build(ctx context.Context, im Impl, out io.Writer) error {
	if im.Build == "" {
		return nil
	}
	if im.Creates != "" {
		if _, err := os.Stat(filepath.Join(m.Root, im.Creates)); err == nil {
			return nil
		}
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", im.Build)
	cmd.Dir = m.Root
	cmd.Env = os.Environ()
	for k, v := range im.BuildEnv {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var buf bytes.Buffer
	cmd.Stdout = io.MultiWriter(out, &buf)
	cmd.Stderr = io.MultiWriter(out, &buf)
	if err := cmd.Run(); err != nil {
		b := buf.Bytes()
		return fmt.Errorf("build %s (%s): %w\n%s", im.ID, im.Build, err, b[max(0, len(b)-2000):])
	}
	return nil
}
