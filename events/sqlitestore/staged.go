package sqlitestore

import (
	"context"
	"errors"
	"fmt"
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
	if opts.Now == nil {
		return nil, errors.New("sqlitestore: Options.Now is nil: a clock is required")
	}
	if err := pathFree(path); err != nil {
		return nil, err
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
