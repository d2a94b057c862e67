package sqlitestore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
)

// leafPages returns the leaf pages of a table or index of the campaign
// file at path, in key order (dbstat's path), read through a store.
func leafPages(t *testing.T, path, name string) []int64 {
	t.Helper()
	s, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rows, err := s.db.Query(`SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY path`, name)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var p int64
		if err := rows.Scan(&p); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// overwritePage writes garbage over page pg of the file at path, as dd
// would, once the clock has moved on from the last write to it.
func overwritePage(t *testing.T, path string, pg int64) {
	t.Helper()
	// A change within the same tick of the file system's clock as
	// ltscamp's last write leaves the file's time as it was (see guard).
	time.Sleep(20 * time.Millisecond)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	if _, err := f.WriteAt([]byte(strings.Repeat("\xde\xad\xbe\xef", page/4)), (pg-1)*page); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// filledStore makes a campaign file of n one-event commands, with IDs in
// increasing order as ULIDs are, and closes it.
func filledStore(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "c.ltscamp")
	s, err := Create(path, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		mustAppend(t, s, cmd(fmt.Sprintf("C%05d", i), "s"))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// appendOnce opens the file at path for writing, appends one command and
// closes it, returning the append's error and the quick_checks it ran.
func appendOnce(t *testing.T, path, id string) (checks int, err error) {
	t.Helper()
	s, err := Open(path, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Append(cmd(id, "s"))
	checks = s.guard.checks
	if cerr := s.Close(); cerr != nil {
		t.Fatal(cerr)
	}
	return checks, err
}

// TestWriteChecksAFileChangedOutside: a write runs quick_check only when
// the file is not in the state ltscamp left it in, and then refuses a
// damaged file, appending nothing.
func TestWriteChecksAFileChangedOutside(t *testing.T) {
	path := filledStore(t, 300)
	if _, err := os.Stat(checkedPath(path)); err != nil {
		t.Fatalf("no sidecar after a write: %v", err)
	}
	if st, _ := os.Stat(checkedPath(path)); st.Mode().Perm() != 0o600 {
		t.Errorf("sidecar mode %v, want 0600", st.Mode().Perm())
	}
	if checks, err := appendOnce(t, path, "D1"); err != nil || checks != 0 {
		t.Fatalf("a write after ltscamp's own: %d checks, %v; want none", checks, err)
	}

	// Touched from outside (the time moved): checked once, then trusted.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if checks, err := appendOnce(t, path, "D2"); err != nil || checks != 1 {
		t.Fatalf("a write after a touch: %d checks, %v; want 1", checks, err)
	}
	if checks, err := appendOnce(t, path, "D3"); err != nil || checks != 0 {
		t.Fatalf("the write after: %d checks, %v; want none", checks, err)
	}
	// No sidecar (a copy, an older ltscamp): checked.
	if err := os.Remove(checkedPath(path)); err != nil {
		t.Fatal(err)
	}
	if checks, err := appendOnce(t, path, "D4"); err != nil || checks != 1 {
		t.Fatalf("a write without a sidecar: %d checks, %v; want 1", checks, err)
	}

	// A leaf of the index of event IDs overwritten, away from its right
	// edge, where an append of a new ID goes: SQLite alone never sees it.
	leaves := leafPages(t, path, "sqlite_autoindex_events_1")
	if len(leaves) < 2 {
		t.Fatalf("the ID index has %d leaves; the test needs 2 or more", len(leaves))
	}
	before := countEvents(t, path)
	overwritePage(t, path, leaves[0])
	checks, err := appendOnce(t, path, "D5")
	var de *DamageError
	if !errors.As(err, &de) || !errors.Is(err, events.ErrDamaged) || checks != 1 {
		t.Fatalf("a write to a damaged file: %d checks, %v; want a DamageError", checks, err)
	}
	if len(de.Objects) == 0 || !strings.HasPrefix(de.Objects[0], "index sqlite_autoindex_events_1 (events: id)") || de.Path != path {
		t.Errorf("damage named %q in %s, want the index sqlite_autoindex_events_1 first", de.Objects, de.Path)
	}
	if n := countEvents(t, path); n != before {
		t.Errorf("%d events after the refused write, %d before", n, before)
	}
	// Refused again: the damage is not recorded as checked.
	if checks, err := appendOnce(t, path, "D6"); !errors.Is(err, events.ErrDamaged) || checks != 1 {
		t.Fatalf("the next write: %d checks, %v; want refused again", checks, err)
	}
}

// countEvents counts the events of the file at path, with SQL.
func countEvents(t *testing.T, path string) int64 {
	t.Helper()
	s, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var n int64
	if err := s.db.QueryRow(`SELECT count(*) FROM events`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestIntegrityCheckNamesTheDamage: verify's check names a damaged table
// apart from the indexes that only disagree with it.
func TestIntegrityCheckNamesTheDamage(t *testing.T) {
	path := filledStore(t, 300)
	s, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.IntegrityCheck(context.Background()); err != nil {
		t.Fatalf("a whole file: %v", err)
	}
	s.Close()
	leaves := leafPages(t, path, "events")
	overwritePage(t, path, leaves[len(leaves)/2])
	s, err = OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.IntegrityCheck(context.Background())
	var de *DamageError
	if !errors.As(err, &de) {
		t.Fatalf("a damaged events page: %v", err)
	}
	if strings.Join(de.Objects, "; ") != "table events" {
		t.Errorf("damage named %q, want table events alone", de.Objects)
	}
	if len(de.Problems) == 0 || !strings.Contains(de.Problems[0], fmt.Sprintf("page %d", leaves[len(leaves)/2])) {
		t.Errorf("problems %q do not name the page", de.Problems)
	}
}

// TestFilesLtscampMakesAreChecked: a new campaign and a published staged
// file (a restore, the generator's) need no check before their first
// write.
func TestFilesLtscampMakesAreChecked(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new.ltscamp")
	s, err := Create(path, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, cmd("A", "s"))
	if s.guard.checks != 0 {
		t.Errorf("a new campaign: %d checks", s.guard.checks)
	}
	s.Close()
	st, err := CreateStaged(filepath.Join(dir, "r.ltscamp"), testOpts)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Publish(); err != nil {
		t.Fatal(err)
	}
	if checks, err := appendOnce(t, filepath.Join(dir, "r.ltscamp"), "R"); err != nil || checks != 0 {
		t.Errorf("a published staged file: %d checks, %v", checks, err)
	}
}

// TestRefusedWritesAreNotCheckedAgain: a command refused (its stream moved
// on) leaves the file as the store knew it, so the retries of a busy
// campaign do not each run quick_check.
func TestRefusedWritesAreNotCheckedAgain(t *testing.T) {
	path := filledStore(t, 10)
	if err := os.Remove(checkedPath(path)); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	stale := cmd("E1", "s")
	stale.Expected["s"] = 1 // the stream is at 10
	for range 3 {
		if _, err := s.Append(stale); !errors.Is(err, events.ErrConcurrency) {
			t.Fatalf("a stale command: %v", err)
		}
	}
	mustAppend(t, s, cmd("E2", "s"))
	if s.guard.checks != 1 {
		t.Errorf("%d quick_checks for three refused writes and one that went in, want 1", s.guard.checks)
	}
}

// openTwice opens the campaign file at path as two stores, as two
// processes kept open on it would; both close with the test.
func openTwice(t *testing.T, path string) (a, b *Store) {
	t.Helper()
	for _, s := range []**Store{&a, &b} {
		var err error
		if *s, err = Open(path, testOpts); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { (*s).Close() })
	}
	return a, b
}

// TestKeptOpenStoresTrustEachOthersWrites: two stores kept open on one
// file (a screen all evening, a second terminal) each record the state
// their writes leave, so neither runs quick_check for the other's writes;
// an outside change still gets one.
func TestKeptOpenStoresTrustEachOthersWrites(t *testing.T) {
	path := filledStore(t, 3)
	a, b := openTwice(t, path)
	for i := range 3 {
		time.Sleep(5 * time.Millisecond) // a new tick of the file's clock
		mustAppend(t, a, cmd(fmt.Sprintf("A%05d", i), "s"))
		time.Sleep(5 * time.Millisecond)
		mustAppend(t, b, cmd(fmt.Sprintf("B%05d", i), "s"))
	}
	if a.guard.checks != 0 || b.guard.checks != 0 {
		t.Errorf("quick_checks run: %d and %d, want none: each store's writes are ltscamp's", a.guard.checks, b.guard.checks)
	}
	if checks, err := appendOnce(t, path, "C99999"); err != nil || checks != 0 {
		t.Errorf("a third process's write: %d quick_checks (%v), want none", checks, err)
	}
	// A change outside ltscamp: the next write checks.
	time.Sleep(20 * time.Millisecond)
	now := time.Now()
	if err := os.Chtimes(path, now, now); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, a, cmd("A99999", "s"))
	if a.guard.checks != 1 {
		t.Errorf("after an outside change, %d quick_checks, want 1", a.guard.checks)
	}
}

// TestExpectedHeadNeedsTheStoresOwnLastWrite: a command decided at the
// log's head (events.Command.ExpectedHead) goes in only when this store
// can vouch that nothing but its own appends touched the file since the
// last: the head being the one expected is not enough when this store has
// not appended since it was opened, when another connection committed
// since (here another store's append, whose head is then the one
// expected), or when the file was changed outside ltscamp. Each refusal
// says why, and appends nothing; a write of this store's own makes the
// next command decided at its head go in.
func TestExpectedHeadNeedsTheStoresOwnLastWrite(t *testing.T) {
	path := filledStore(t, 2)
	a, b := openTwice(t, path)
	atHead := func(id string) events.Command {
		t.Helper()
		seq, hash, err := a.Head()
		if err != nil {
			t.Fatal(err)
		}
		c := cmd(id, "s")
		c.ExpectedHead = &events.Head{Seq: seq, Hash: hash}
		return c
	}
	refused := func(c events.Command, why string) {
		t.Helper()
		n0, _ := a.Count()
		_, err := a.Append(c)
		var moved *events.HeadMovedError
		if !errors.As(err, &moved) || !errors.Is(err, events.ErrConcurrency) || !strings.Contains(moved.Reason, why) {
			t.Fatalf("%s: err = %v, want a *HeadMovedError saying %q", c.ID, err, why)
		}
		if n, _ := a.Count(); n != n0 {
			t.Errorf("%s: %d events appended by a refused command", c.ID, n-n0)
		}
	}
	refused(atHead("A00001"), "has not appended")
	mustAppend(t, a, cmd("A00002", "s"))
	mustAppend(t, a, atHead("A00003"))
	mustAppend(t, a, atHead("A00004"))

	mustAppend(t, b, cmd("B00001", "s"))
	refused(atHead("A00005"), "another connection")
	mustAppend(t, a, cmd("A00006", "s"))
	mustAppend(t, a, atHead("A00007"))

	time.Sleep(20 * time.Millisecond)
	now := time.Now()
	if err := os.Chtimes(path, now, now); err != nil {
		t.Fatal(err)
	}
	refused(atHead("A00008"), "file was changed")
	mustAppend(t, a, cmd("A00009", "s"))
	mustAppend(t, a, atHead("A00010"))
}
