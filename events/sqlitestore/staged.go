package sqlitestore

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/ltscamp/ltscamp/events"
)

// stagedParams are rwParams without a journal or the fsync on every
// commit: a staged file is thrown away whole if anything fails or the
// process dies, so nothing needs rolling back, and Publish syncs it once
// and turns WAL on.
//
// They also skip the events table's CHECK (json_valid(payload)): Load
// runs events.CheckLoad, which checks every payload with json.Valid on
// other goroutines before the insert commits, so SQLite's own check would
// parse each payload a second time on the one writing thread. The CHECK
// stays in the schema, and every later append runs it.
const stagedParams = "mode=rw" +
	"&_pragma=busy_timeout(10000)" +
	"&_pragma=journal_mode(OFF)" +
	"&_pragma=foreign_keys(1)" +
	"&_pragma=synchronous(OFF)" +
	"&_pragma=cache_size(-16384)" +
	"&_pragma=ignore_check_constraints(1)" +
	"&_txlock=immediate"

// Staged is a new campaign file being built under a temporary name beside
// its final path (a restore from a backup). Nothing stands at the final
// path until Publish; Discard, or a crash, leaves nothing there either.
type Staged struct {
	*Store
	tmp, path string
	// replace is true when Publish may put the file in place of a
	// campaign at path (CreateStagedOver).
	replace bool

	// unsynced counts the events loaded since the last background sync
	// began; syncing is closed when that sync ends (nil before the first).
	mu       sync.Mutex
	unsynced int
	syncing  chan struct{}
}

// CreateStaged starts a new campaign file for path, which must not hold a
// campaign or any other data (an error matching events.ErrExists), under
// a temporary name in the same folder. A stale temporary file of an
// earlier, interrupted run is never reused: each run gets its own name.
func CreateStaged(path string, opts Options) (*Staged, error) {
	if err := pathFree(path); err != nil {
		return nil, err
	}
	return createStaged(path, opts)
}

// CreateStagedOver is CreateStaged for a path that may already hold a
// campaign file, which Publish then replaces (restore --force). It
// refuses, as Publish does again, a path that is a directory, a
// symbolic link, or a file that is not an SQLite database: only a
// campaign is ever replaced.
func CreateStagedOver(path string, opts Options) (*Staged, error) {
	if _, err := replaceable(path); err != nil {
		return nil, err
	}
	s, err := createStaged(path, opts)
	if err != nil {
		return nil, err
	}
	s.replace = true
	return s, nil
}

// createStaged makes the temporary file of a staged campaign for path.
func createStaged(path string, opts Options) (*Staged, error) {
	if opts.Now == nil {
		return nil, errors.New("sqlitestore: Options.Now is nil: a clock is required")
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	tmp := f.Name()
	_ = f.Close()
	removeAll := func() {
		for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
			_ = os.Remove(tmp + suffix)
		}
	}
	db, err := openDB(tmp, stagedParams)
	if err != nil {
		removeAll()
		return nil, err
	}
	ctx := context.Background()
	if err := migrate(ctx, db, tmp, opts.Now, true); err != nil {
		_ = db.Close()
		removeAll()
		return nil, err
	}
	st, err := newStore(ctx, db, tmp)
	if err != nil {
		_ = db.Close()
		removeAll()
		return nil, err
	}
	st.building = true
	return &Staged{Store: st, tmp: tmp, path: path}, nil
}

// Load implements events.Store: Store.Load, and now and then a sync of the
// file on another goroutine. The staged file is written without syncs,
// so the system holds what was loaded in its cache and writes it out
// when it will; syncing as loading goes on writes it while there is
// other work to do, rather than all at once when Publish syncs the file.
func (s *Staged) Load(batch []events.Event) error {
	if err := s.Store.Load(batch); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.unsynced += len(batch)
	if s.unsynced < stagedSyncEvery {
		return nil
	}
	if s.syncing != nil {
		select {
		case <-s.syncing:
		default:
			return nil // the last sync is still running
		}
	}
	s.unsynced = 0
	done := make(chan struct{})
	s.syncing = done
	go func() {
		defer close(done)
		_ = syncFile(s.tmp) // Publish syncs again, and reports errors
	}()
	return nil
}

// stagedSyncEvery is how many events Staged.Load loads between two
// background syncs: about 40 MB.
const stagedSyncEvery = 1 << 16

// waitSync waits for the background sync, if one is running.
func (s *Staged) waitSync() {
	s.mu.Lock()
	syncing := s.syncing
	s.mu.Unlock()
	if syncing != nil {
		<-syncing
	}
}

// pathFree checks that nothing but an empty file stands at path.
func pathFree(path string) error {
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("create %s: %w", path, err)
	case st.IsDir():
		return fmt.Errorf("create %s: it is a directory", path)
	case !st.Mode().IsRegular() || st.Size() > 0:
		return fmt.Errorf("create %s: %w: the file is in the way (remove it or choose another name)", path, events.ErrExists)
	}
	return nil
}

// Publish checkpoints and closes the staged file, syncs it to disk and
// puts it at its final path. It fails, leaving nothing at the path, if a
// non-empty file appeared there meanwhile.
func (s *Staged) Publish() (err error) {
	s.waitSync()
	defer func() {
		if err != nil {
			s.remove()
		}
	}()
	// The writer connection goes back to the pool, for the statements
	// below to run on it rather than on a new one.
	s.st.w.release()
	// Campaign files are in WAL mode (it is recorded in the file).
	if _, err := s.db.ExecContext(context.Background(), `PRAGMA journal_mode=WAL`); err != nil {
		_ = s.Store.Close()
		return fmt.Errorf("create %s: %w", s.path, err)
	}
	if _, err := s.db.ExecContext(context.Background(), `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		_ = s.Store.Close()
		return fmt.Errorf("create %s: %w", s.path, err)
	}
	if err := s.Store.Close(); err != nil {
		return fmt.Errorf("create %s: %w", s.path, err)
	}
	if err := syncFile(s.tmp); err != nil {
		return fmt.Errorf("create %s: %w", s.path, err)
	}
	if s.replace {
		return replaceWith(s.tmp, s.path)
	}
	if err := pathFree(s.path); err != nil {
		return err
	}
	if st, err := os.Lstat(s.path); err == nil && st.Size() == 0 {
		// An empty file is taken over, as Create does.
		if err := os.Rename(s.tmp, s.path); err != nil {
			return fmt.Errorf("create %s: %w", s.path, err)
		}
		err = syncDir(filepath.Dir(s.path))
	} else {
		err = publish(s.tmp, s.path)
	}
	if err == nil {
		markChecked(s.path) // ltscamp made it whole: no write needs to check it
	}
	return err
}

// Discard closes the staged file and removes it.
func (s *Staged) Discard() error {
	s.waitSync()
	err := s.Store.Close()
	s.remove()
	return err
}

// remove deletes the temporary file and its side files.
func (s *Staged) remove() {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		_ = os.Remove(s.tmp + suffix)
	}
}

// replaceable checks that path holds nothing, an empty regular file, or
// an SQLite database that may be replaced by a new campaign; it returns
// what is there (nil for nothing).
func replaceable(path string) (os.FileInfo, error) {
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("replace %s: %w", path, err)
	case st.Mode()&os.ModeSymlink != 0:
		return nil, fmt.Errorf("replace %s: it %w (a campaign is never written through a link)", path, ErrSymlink)
	case st.IsDir():
		return nil, fmt.Errorf("replace %s: it is a directory", path)
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("replace %s: %w: not a regular file", path, events.ErrExists)
	case st.Size() == 0:
		return st, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("replace %s: %w", path, err)
	}
	defer f.Close()
	// An SQLite header with the campaign's application_id (at byte 68).
	head := make([]byte, 72)
	if _, err := io.ReadFull(f, head); err != nil || string(head[:len(sqliteMagic)]) != sqliteMagic || binary.BigEndian.Uint32(head[68:72]) != ApplicationID {
		return nil, fmt.Errorf("replace %s: %w: it is not a campaign file, and only a campaign is ever replaced (move it away or choose another name)", path, events.ErrExists)
	}
	return st, nil
}

// sideSuffixes are the files SQLite keeps beside a database while it is
// open, or after a crash: they belong to the database by name alone.
var sideSuffixes = []string{"-wal", "-shm", "-journal"}

// ErrInUse is returned by Publish, for a staged file that is to replace a
// campaign which another process has open, or whose side files SQLite
// could not fold into it: nothing was replaced.
var ErrInUse = errors.New("is in use")

// replaceWith puts the finished file tmp in place of the campaign at path
// (or at a free path) in one rename. The old campaign's -wal, -shm and
// -journal would be read as the new file's if they stayed, so it is
// first opened and checkpointed, and closed: SQLite removes them when
// its last connection closes. If any is still there, another process
// has the old campaign open (or SQLite could not fold it), and nothing
// is replaced.
func replaceWith(tmp, path string) error {
	old, err := replaceable(path)
	if err != nil {
		return err
	}
	if old == nil {
		return publish(tmp, path)
	}
	if old.Size() > 0 {
		// A damaged campaign may not open or fold: what matters is
		// whether its side files are gone afterwards, checked below.
		if db, err := openDB(path, "mode=rw&_pragma=busy_timeout(2000)"); err == nil {
			var busy, logged, done int
			_ = db.QueryRowContext(context.Background(), `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logged, &done)
			_ = db.Close()
		}
	}
	for _, suffix := range sideSuffixes {
		if _, err := os.Lstat(path + suffix); err == nil {
			return fmt.Errorf("replace %s: it %w: %s%s is there (another program has the campaign open, or left changes SQLite could not fold in); close it and try again (nothing was replaced)", path, ErrInUse, path, suffix)
		}
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("replace %s: %w", path, err)
	}
	return syncDir(filepath.Dir(path))
}
