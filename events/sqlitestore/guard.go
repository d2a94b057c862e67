package sqlitestore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ltscamp/ltscamp/events"
)

// A write must never append to a damaged file, yet SQLite only notices
// damage on the pages a statement reads or writes: an append walks the
// right edge of each b-tree, so a page overwritten anywhere else goes
// unseen, and its PRAGMA quick_check reads the whole file (1.4 s for a
// million events, thirty times a write). So a writer runs quick_check
// only when the file may have been changed by something other than
// ltscamp since ltscamp last wrote it, which is how a page gets overwritten
// (a dd, a disk tool, a copy cut short):
//
// Every writer, once it has closed the file, records what stat says of the
// file and its -wal (device, inode, size and modification time) in a
// sidecar beside it, ".NAME.checked", private to its owner and replaced
// whole. The next write, holding the write lock, compares the file with
// it; when anything differs, or there is no sidecar, it runs quick_check
// before it appends (damage: a *DamageError, nothing appended). Files
// ltscamp makes whole (init, a restore, the generator) are recorded when
// they are put in place; a backup is not (it is switched to WAL when
// first opened, and checked then). Readers never write the sidecar.
//
// What this does not catch: damage that leaves the file's stat as it was
// (bit rot under a file nobody wrote, a tool that sets the time back, a
// change within the same tick of the file system's clock as ltscamp's
// last write).
// verify runs SQLite's full integrity check every time, and any command
// that reads a damaged page says so.

// checkedSuffix ends the sidecar's name: ".NAME.checked" beside NAME.
const checkedSuffix = ".checked"

// checkedPath returns the sidecar of the campaign file at path.
func checkedPath(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+checkedSuffix)
}

// fileID is what stat says of one file; the zero fileID is a file that is
// not there, or empty (a -wal of no frames holds nothing).
type fileID struct {
	dev, ino    uint64
	size, mtime int64
}

// diskState is the campaign file's and its -wal's fileID.
type diskState struct {
	main, wal fileID
}

// statFile returns path's fileID (the zero one when it is missing, empty
// or cannot be stat'ed: a state no write records matches it).
func statFile(path string) fileID {
	st, err := os.Stat(path)
	if err != nil || st.Size() == 0 {
		return fileID{}
	}
	id := fileID{size: st.Size(), mtime: st.ModTime().UnixNano()}
	id.dev, id.ino = devIno(st)
	return id
}

// diskStateOf returns the state of the campaign file at path.
func diskStateOf(path string) diskState {
	return diskState{main: statFile(path), wal: statFile(path + "-wal")}
}

const checkedHeader = "ltscamp checked 1"

// String is the sidecar's text.
func (s diskState) String() string {
	line := func(name string, id fileID) string {
		return fmt.Sprintf("%s %d %d %d %d\n", name, id.dev, id.ino, id.size, id.mtime)
	}
	return checkedHeader + "\n" + line("file", s.main) + line("wal", s.wal)
}

// readChecked returns the state recorded beside the campaign file at
// path, and false when there is none that reads.
func readChecked(path string) (diskState, bool) {
	b, err := os.ReadFile(checkedPath(path))
	if err != nil {
		return diskState{}, false
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 3 || lines[0] != checkedHeader {
		return diskState{}, false
	}
	var s diskState
	for i, want := range []struct {
		name string
		id   *fileID
	}{{"file", &s.main}, {"wal", &s.wal}} {
		var name string
		if n, err := fmt.Sscanf(lines[i+1], "%s %d %d %d %d", &name, &want.id.dev, &want.id.ino, &want.id.size, &want.id.mtime); err != nil || n != 5 || name != want.name {
			return diskState{}, false
		}
	}
	return s, s.main != fileID{}
}

// recordChecked records st as the state of the campaign file at path that
// ltscamp left: written under a temporary name and renamed over the
// sidecar, so that it is whole or absent. It is a hint, not a promise: a
// sidecar lost or left stale costs the next write a quick_check, so errors
// are dropped.
func recordChecked(path string, st diskState) {
	if st.main == (fileID{}) {
		return
	}
	side := checkedPath(path)
	f, err := os.CreateTemp(filepath.Dir(side), filepath.Base(side)+"-*") // mode 0600
	if err != nil {
		return
	}
	_, werr := f.WriteString(st.String())
	if cerr := f.Close(); werr != nil || cerr != nil {
		_ = os.Remove(f.Name())
		return
	}
	if err := os.Rename(f.Name(), side); err != nil {
		_ = os.Remove(f.Name())
	}
}

// noteChecked is recordChecked written in place, as a write's last step:
// cheaper than a new file renamed, and as safe, since a sidecar read
// half-written does not parse, and costs the reader a quick_check only.
func noteChecked(path string, st diskState) {
	if st.main == (fileID{}) {
		return
	}
	// Written over, never truncated: a file system that makes
	// truncate-and-write durable on close (ext4's auto_da_alloc) would
	// flush it. The record is padded to one length with spaces that
	// readChecked ignores, so that it always covers an older one.
	text := st.String()
	if len(text) < noteSize {
		text = text[:len(text)-1] + strings.Repeat(" ", noteSize-len(text)) + "\n"
	}
	_ = writeAt(checkedPath(path), []byte(text))
}

// noteSize is the length noteChecked pads its record to: more than the
// longest record (three lines of a header and five numbers).
const noteSize = 256

// markChecked records the campaign file at path, just made whole by
// ltscamp, as checked.
func markChecked(path string) { recordChecked(path, diskStateOf(path)) }

// guard is a writing store's account of whether the file is as ltscamp
// left it. Its fields are the writer's: guarded by writer.mu.
type guard struct {
	// known is a state of the file known to be whole: the one recorded
	// beside it, or the one this store left after its last write. ok is
	// false when there is none.
	known diskState
	ok    bool
	// checks counts the quick_checks run (tests read it).
	checks int
	// untouched is set by before when it found the file as this store's
	// last write left it (see Command.ExpectedHead).
	untouched bool
}

// newGuard returns the guard of a store opened for writing at path.
func newGuard(path string) *guard {
	st, ok := readChecked(path)
	return &guard{known: st, ok: ok}
}

// quickCheck is the check a write runs on a file changed outside ltscamp.
var quickCheck = fmt.Sprintf("PRAGMA quick_check(%d)", maxIntegrityProblems)

// before runs at the start of a write transaction on w, holding the write
// lock: unless the file is in the state known whole, it runs quick_check,
// and returns a *DamageError when the file is damaged.
func (g *guard) before(ctx context.Context, w *writer, path string) error {
	now := diskStateOf(path)
	g.untouched = g.ok && now == g.known
	if g.untouched {
		return nil
	}
	// Another ltscamp process that wrote the file since (a second
	// terminal, while play keeps it open) recorded the state it left.
	if side, ok := readChecked(path); ok && side == now {
		g.known, g.ok = now, true
		return nil
	}
	g.ok = false
	g.checks++
	if err := checkIntegrity(ctx, w, path, quickCheck); err != nil {
		return err
	}
	g.known, g.ok = now, true
	return nil
}

// after runs once a write transaction ended: the file as it is now is
// this store's doing, unless the write met damage or the disk failed. A
// command refused (a stream moved on, a rule) leaves it as it was: the
// retries of a busy campaign are not checked again.
func (g *guard) after(path string, err error) {
	if err := Classify(err); errors.Is(err, events.ErrDamaged) || errors.Is(err, events.ErrIO) {
		g.ok = false
		return
	}
	g.known, g.ok = diskStateOf(path), true
	// Recorded now, not only at Close: another process's write meanwhile
	// (while play keeps the file open all evening) then needs no check.
	noteChecked(path, g.known)
}

// closing runs just before the store's connections close, and returns
// whether the state after they closed may be recorded: only when nothing
// but this store changed the file since it last knew it whole.
func (g *guard) closing(path string) bool {
	return g.ok && diskStateOf(path) == g.known
}
