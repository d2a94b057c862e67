package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ltscamp/ltscamp/rules"
)

// Permissions of the files ltscamp writes. A backup holds the whole
// campaign, and a document (a sheet, a ledger) a part of it: both are the
// owner's alone, as the campaign file is, until the owner shares them
// (chmod, or a copy). docs/file-format.md lists the modes.
const (
	permDocument fs.FileMode = 0o600
	permBackup   fs.FileMode = 0o600
)

// openInput opens the file a command reads: standard input for "-". The
// caller closes it.
func (a *app) openInput(cmd, file string) (io.ReadCloser, error) {
	if file == "-" {
		return io.NopCloser(a.env.Stdin), nil
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, usagef("%s: %v", cmd, err)
	}
	return f, nil
}

// checkOutput refuses, before any work is done, to write over an existing
// file without force, or to a directory.
func checkOutput(path string, force bool) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("%s: %w", path, err)
	case st.IsDir():
		return usagef("-o %s is a directory: name a file", path)
	case !force:
		return rules.Errorf(rules.CodeConflict, "%s already exists: pass --force to replace it, or choose another -o FILE (nothing was written)", path)
	}
	return nil
}

// writeFileAtomic writes a file through write: into a temporary file in
// the same folder, synced, then renamed into place, so an interrupted
// write never leaves half a file under path. Without force it never
// replaces a file, even one that appeared while it wrote. On failure the
// temporary file is removed and path is untouched.
func writeFileAtomic(path string, force bool, perm fs.FileMode, write func(w io.Writer) error) (err error) {
	if err := checkOutput(path, force); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()
	if err := write(f); err != nil {
		return err
	}
	if err := f.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if force {
		if err := os.Rename(tmp, path); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		return nil
	}
	// A hard link, unlike a rename, fails when path exists.
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return rules.Errorf(rules.CodeConflict, "%s appeared while it was being written: nothing was replaced (pass --force to replace it)", path)
		}
		if _, serr := os.Lstat(path); serr == nil {
			return rules.Errorf(rules.CodeConflict, "%s already exists: pass --force to replace it", path)
		}
		if err := os.Rename(tmp, path); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		return nil
	}
	return os.Remove(tmp)
}
