package sqlitestore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ltscamp/ltscamp/events"
)

// ErrSymlink is returned by Create for a path that is a symbolic link:
// a new campaign is never written through one, nor put in its place.
var ErrSymlink = errors.New("is a symbolic link")

// InitTempPrefix begins the name of the temporary file a new campaign is
// built in, after a dot and the final name: a campaign for c.ltscamp is
// built in .c.ltscamp.init-RANDOM beside it. One left by a killed process
// is never used again, and can be deleted.
const InitTempPrefix = ".init-"

// Create makes a new campaign file at path, with the schema and an empty
// log, and returns it open. See CreateWith.
func Create(path string, opts Options) (*Store, error) {
	return CreateWith(path, opts, nil)
}

// CreateWith makes a new campaign file at path and returns it open. The
// file is built under a temporary name in path's folder (see
// InitTempPrefix): the schema, then whatever fill writes to it (the first
// events of the campaign), when fill is not nil. Only when all of that is
// done is the file switched to WAL, synced to disk and moved to path, and
// the folder synced, so that path never holds part of a campaign, even
// when the process is killed at any point: it holds nothing, or all of it.
// On failure the temporary file is removed.
//
// CreateWith refuses, with an error matching events.ErrExists, a path
// that holds anything but an empty regular file, and with ErrSymlink a
// symbolic link (which it never follows). An empty regular file at path
// (made by touch or mktemp) is replaced, as long as it is still empty and
// the same file when the new one is put in its place. New campaign files
// have mode 0600: the log is its owner's.
func CreateWith(path string, opts Options, fill func(*Store) error) (s *Store, err error) {
	if opts.Now == nil {
		return nil, errors.New("sqlitestore: Options.Now is nil: a clock is required")
	}
	empty, err := targetFree(path)
	if err != nil {
		return nil, err
	}
	step := func(name string) error {
		if opts.step != nil {
			return opts.step(name)
		}
		return nil
	}
	// CreateTemp makes the file with mode 0600, which SQLite keeps, and
	// gives each run a name of its own.
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+InitTempPrefix+"*")
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	tmp := f.Name()
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	placed := false
	defer func() {
		if err != nil && !placed {
			for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
				_ = os.Remove(tmp + suffix)
			}
		}
	}()
	if err := step("temp"); err != nil {
		return nil, err
	}
	if err := build(tmp, path, opts, fill, step); err != nil {
		return nil, err
	}
	if err := syncFile(tmp); err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	if err := step("synced"); err != nil {
		return nil, err
	}
	if err := place(tmp, path, empty); err != nil {
		return nil, err
	}
	placed = true
	if err := step("placed"); err != nil {
		return nil, err
	}
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	if err := step("published"); err != nil {
		return nil, err
	}
	markChecked(path) // ltscamp made it whole: no write needs to check it
	return Open(path, opts)
}

// targetFree checks that path may receive a new campaign: nothing is
// there, or an empty regular file, whose details it returns.
func targetFree(path string) (empty fs.FileInfo, err error) {
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("create %s: %w", path, err)
	case st.Mode()&fs.ModeSymlink != 0:
		return nil, fmt.Errorf("create %s: it %w (a new campaign is never written through a link)", path, ErrSymlink)
	case st.IsDir():
		return nil, fmt.Errorf("create %s: it is a directory", path)
	case !st.Mode().IsRegular() || st.Size() > 0:
		return nil, fmt.Errorf("create %s: %w: the file is in the way (remove it or choose another name)", path, events.ErrExists)
	}
	return st, nil
}

// build makes the campaign in the temporary file tmp: the schema, fill's
// events, then WAL mode, with the file closed at the end. It is built
// without a journal or syncs, as a restore is (stagedParams): if anything
// fails the file is thrown away whole, and it is synced once, after.
func build(tmp, path string, opts Options, fill func(*Store) error, step func(string) error) error {
	db, err := openDB(tmp, stagedParams)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	ctx := context.Background()
	if err := migrate(ctx, db, tmp, opts.Now, true); err != nil {
		_ = db.Close()
		return err
	}
	st, err := newStore(ctx, db, tmp)
	if err != nil {
		_ = db.Close()
		return err
	}
	st.building = true
	if err := step("schema"); err != nil {
		_ = st.Close()
		return err
	}
	if fill != nil {
		if err := fill(st); err != nil {
			_ = st.Close()
			return err
		}
	}
	if err := step("filled"); err != nil {
		_ = st.Close()
		return err
	}
	// The writer connection goes back to the pool, for the statements
	// below to run on it rather than on a new one.
	st.st.w.release()
	var mode string
	if err := db.QueryRowContext(ctx, `PRAGMA journal_mode=WAL`).Scan(&mode); err != nil || !strings.EqualFold(mode, "wal") {
		_ = st.Close()
		return fmt.Errorf("create %s: WAL mode: %q, %v", path, mode, err)
	}
	if _, err := db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		_ = st.Close()
		return fmt.Errorf("create %s: %w", path, err)
	}
	if err := st.Close(); err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	return step("closed")
}

// place puts the finished file tmp at path without replacing anything but
// the empty file found there at the start (empty, or nil for none): a hard
// link fails when path exists, where a rename would replace it. Where the
// file system has no hard links it renames, after checking again.
func place(tmp, path string, empty fs.FileInfo) error {
	if empty != nil {
		st, err := os.Lstat(path)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("create %s: %w", path, err)
		}
		if err == nil {
			if !os.SameFile(st, empty) || !st.Mode().IsRegular() || st.Size() > 0 {
				return fmt.Errorf("create %s: %w: the file changed while the campaign was being made (nothing was replaced)", path, events.ErrExists)
			}
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("create %s: %w", path, err)
			}
		}
	}
	err := os.Link(tmp, path)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrExist):
		return fmt.Errorf("create %s: %w: a file appeared there while the campaign was being made (nothing was replaced)", path, events.ErrExists)
	}
	if _, serr := os.Lstat(path); !errors.Is(serr, fs.ErrNotExist) {
		return fmt.Errorf("create %s: %w", path, events.ErrExists)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	return nil
}
