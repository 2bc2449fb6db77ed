package result

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// WriteJSON writes v as indented JSON to path atomically: it writes a
// temporary file in the same folder, syncs it and renames it over path, so a
// crash or Ctrl-C leaves either the old file or the new one, never half.
func WriteJSON(path string, v any) error {
	f, err := CreateAtomic(path)
	if err != nil {
		return err
	}
	return f.CommitJSON(v)
}

// WriteFile writes data to path atomically (see WriteJSON).
func WriteFile(path string, data []byte) error {
	f, err := CreateAtomic(path)
	if err != nil {
		return err
	}
	return f.CommitData(data)
}

// AtomicFile is a file that replaces path whole or not at all: CreateAtomic
// opens a temporary file beside path, Commit syncs it and renames it over
// path, Abort removes it. Opening it first also checks, before the work
// whose output it holds, that path's folder can be written.
type AtomicFile struct {
	*os.File
	path string
	done bool
}

// CreateAtomic creates path's folder if need be and a temporary file in it.
func CreateAtomic(path string) (*AtomicFile, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s is a directory: name a file", path)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return nil, err
	}
	return &AtomicFile{File: f, path: path}, nil
}

// Commit makes the file written so far path.
func (f *AtomicFile) Commit() error {
	f.done = true
	tmp := f.Name()
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("sync %s: %w", f.path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	if err := os.Rename(tmp, f.path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("rename %s: %w", f.path, err)
	}
	return nil
}

// CommitJSON writes v as indented JSON and commits the file.
func (f *AtomicFile) CommitJSON(v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		f.Abort()
		return fmt.Errorf("encode %s: %w", f.path, err)
	}
	return f.CommitData(append(data, '\n'))
}

// CommitData writes data and commits the file.
func (f *AtomicFile) CommitData(data []byte) error {
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	return f.Commit()
}

// Abort removes the temporary file, path staying as it was; after Commit
// it does nothing.
func (f *AtomicFile) Abort() {
	if f == nil || f.done {
		return
	}
	f.done = true
	f.Close()
	os.Remove(f.Name())
}

// ReadJSON reads path into v.
func ReadJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
