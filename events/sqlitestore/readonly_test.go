package sqlitestore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
)

// fileState is what a reader must not change: the file's bytes and mtime.
type fileState struct {
	sum   [32]byte
	mtime time.Time
	size  int64
}

func stateOf(t *testing.T, path string) fileState {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fileState{sum: sha256.Sum256(b), mtime: st.ModTime(), size: st.Size()}
}

// closedCampaign makes a campaign of n commands and closes it.
func closedCampaign(t *testing.T, n int) string {
	t.Helper()
	s := newTestStore(t)
	for i := range n {
		mustAppend(t, s, cmd("C"+string(rune('a'+i)), "a"))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return s.Path()
}

// TestOpenReadOnlyReadsAndCannotWrite: a read-only store reads the log,
// refuses every write, and leaves the file's bytes and mtime as they were.
func TestOpenReadOnlyReadsAndCannotWrite(t *testing.T) {
	path := closedCampaign(t, 3)
	before := stateOf(t, path)
	s, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	if !s.ReadOnly() {
		t.Error("ReadOnly() is false")
	}
	if n, err := s.Count(); err != nil || n != 3 {
		t.Fatalf("Count = %d, %v", n, err)
	}
	if _, err := s.Append(cmd("X", "a")); err == nil {
		t.Fatal("Append through a read-only store succeeded")
	}
	if err := s.SaveSnapshots([]events.Snapshot{{Stream: "a", Kind: "k", Code: "c", Version: 1, Seq: 1, Commands: 1, State: []byte("{}")}}); err == nil {
		t.Fatal("SaveSnapshots through a read-only store succeeded")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if after := stateOf(t, path); after != before {
		t.Fatalf("the file changed: %+v, was %+v", after, before)
	}
	// A store opened for writing is not read-only.
	w, err := Open(path, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if w.ReadOnly() {
		t.Error("a store from Open says it is read-only")
	}
}

// TestOpenReadOnlyLeavesAKilledWritersWALAlone: a writer killed with its
// events still in the -wal leaves them there; a reader reads them but, unlike
// a writer's last close, never folds them into the file.
func TestOpenReadOnlyLeavesAKilledWritersWALAlone(t *testing.T) {
	s := newTestStore(t)
	mustAppend(t, s, cmd("C1", "a"))
	mustAppend(t, s, cmd("C2", "a"))
	// A copy of the folder while the writer still has the file open is
	// what a kill leaves: the events are in the -wal.
	image := filepath.Join(copyDir(t, filepath.Dir(s.Path())), filepath.Base(s.Path()))
	if st, err := os.Stat(image + "-wal"); err != nil || st.Size() == 0 {
		t.Fatalf("the killed writer left no -wal with events: %v", err)
	}
	before, wal := stateOf(t, image), stateOf(t, image+"-wal")
	r, err := OpenReadOnly(image)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := r.Count(); err != nil || n != 2 {
		t.Fatalf("Count = %d, %v; want the 2 events in the -wal", n, err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if after := stateOf(t, image); after != before {
		t.Fatal("a reader changed the campaign file (it checkpointed the -wal)")
	}
	if after := stateOf(t, image+"-wal"); after != wal {
		t.Fatal("a reader changed the -wal")
	}
}

// TestReaderDoesNotWaitForTheWriteLock: with another connection holding
// the write lock (BEGIN IMMEDIATE, as a writing process does), a reader
// opens the file and reads at once. The bound is a liveness check, not a
// timing: a reader that waited would wait the busy timeout, 10 s.
func TestReaderDoesNotWaitForTheWriteLock(t *testing.T) {
	path := closedCampaign(t, 2)
	holder := holdWriteLock(t, path)
	defer holder()

	done := make(chan error, 1)
	go func() {
		s, err := OpenReadOnly(path)
		if err != nil {
			done <- err
			return
		}
		defer s.Close()
		_, _, err = s.Head()
		if err == nil {
			_, err = s.ReadStream("a", 0)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the reader is still waiting for the write lock after 2 s")
	}
}

// holdWriteLock takes the write lock of the campaign at path on a
// connection of its own, as another process writing would, and returns
// the function that lets it go.
func holdWriteLock(t *testing.T, path string) func() {
	t.Helper()
	dsn, err := fileURI(path, rwParams)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "INSERT INTO schema_migrations (version, name, applied_at) VALUES (-1, 'lock', 'x')"); err != nil {
		t.Fatal(err)
	}
	// Another writer that does not wait is refused: the lock is held.
	other, err := fileURI(path, "mode=rw&_pragma=busy_timeout(0)")
	if err != nil {
		t.Fatal(err)
	}
	odb, err := sql.Open("sqlite", other)
	if err != nil {
		t.Fatal(err)
	}
	defer odb.Close()
	if _, err := odb.Exec("BEGIN IMMEDIATE"); err == nil {
		t.Fatal("the write lock is not held: another connection took it")
	}
	return func() {
		_, _ = conn.ExecContext(ctx, "ROLLBACK")
		_ = conn.Close()
		_ = db.Close()
	}
}

// TestOpenReadOnlyNeverMigrates: a campaign at an older schema is refused
// by a reader with ErrNeedsUpgrade and left as it is; opening it for
// writing migrates it, and then it reads.
func TestOpenReadOnlyNeverMigrates(t *testing.T) {
	path := closedCampaign(t, 1)
	downgrade(t, path)
	before := stateOf(t, path)
	_, err := OpenReadOnly(path)
	if !errors.Is(err, ErrNeedsUpgrade) {
		t.Fatalf("err = %v, want ErrNeedsUpgrade", err)
	}
	if after := stateOf(t, path); after != before {
		t.Fatal("a reader changed a file it refused")
	}
	w, err := Open(path, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	_ = w.Close()
	r, err := OpenReadOnly(path)
	if err != nil {
		t.Fatalf("after Open migrated it: %v", err)
	}
	_ = r.Close()
}

// downgrade makes the campaign at path one of schema version 1: without
// the snapshots of migration 0002, as an older ltscamp left it.
func downgrade(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{`DROP TABLE snapshots`, `DELETE FROM schema_migrations WHERE version > 1`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOpenReadOnlyUnwritableFolder: a campaign in a folder this user
// cannot write, with no -wal or -shm beside it (another user's file, a
// read-only share), is read as it is, and nothing is made beside it.
// chmod does not stop root, so as root the folder is writable after all
// and this checks only that reading works and changes nothing; the CLI's
// TestReadOnlyCampaignAsAnotherUser runs the same as another user.
func TestOpenReadOnlyUnwritableFolder(t *testing.T) {
	path := closedCampaign(t, 2)
	dir := filepath.Dir(path)
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
	if os.Geteuid() == 0 {
		t.Log("running as root: the folder's mode does not stop root; TestReadOnlyCampaignAsAnotherUser (cmd/ltscamp) checks this as another user")
	}
	before := stateOf(t, path)
	s, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := s.Count(); err != nil || n != 2 {
		t.Fatalf("Count = %d, %v", n, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if after := stateOf(t, path); after != before {
		t.Fatal("the reader changed the file")
	}
	if os.Geteuid() != 0 {
		ents, _ := os.ReadDir(dir)
		if len(ents) != 1 {
			t.Fatalf("files beside the campaign: %v", ents)
		}
		// Writing is refused, with ErrReadOnly, before anything is done.
		if _, err := Open(path, testOpts); !errors.Is(err, events.ErrReadOnly) {
			t.Fatalf("Open for writing: %v, want ErrReadOnly", err)
		}
	}
}
