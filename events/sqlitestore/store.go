// Package sqlitestore is the events.Store kept in an SQLite file, the
// campaign file. It is the only package that knows there is SQL.
//
// The file is in WAL mode with synchronous=FULL, so a committed command
// survives a crash. The events table rejects UPDATE and DELETE with
// triggers, so even the stock sqlite3 shell cannot rewrite history without
// dropping them first, and the hash chain shows it if someone does.
package sqlitestore

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/ltscamp/ltscamp/events"

	"modernc.org/sqlite" // registers the "sqlite" database/sql driver
	sqlite3 "modernc.org/sqlite/lib"
)

func init() {
	// Open reads the campaign file's header itself, and closing that
	// descriptor would drop every POSIX lock this process holds on the
	// file, including those of another Store open on it. Open File
	// Description locks (Linux) survive such a close. Elsewhere, or on a
	// kernel without them, the driver keeps POSIX locks.
	_, _ = sqlite.OFDLocking(true)
}

// ApplicationID is the SQLite application_id of every campaign file:
// 0x4C545343, "LTSC" in ASCII. `file` and the sqlite3 shell show it.
const ApplicationID = 0x4C545343

// sqliteMagic opens the header of every SQLite 3 database file.
const sqliteMagic = "SQLite format 3\x00"

// rwParams are the DSN parameters of every read-write connection. The
// driver applies them to each connection the pool opens, not just the
// first. _txlock=immediate makes every transaction BEGIN IMMEDIATE, so an
// appender takes the write lock before it reads the versions it checks.
const rwParams = "mode=rw" +
	"&_pragma=busy_timeout(10000)" +
	"&_pragma=journal_mode(WAL)" +
	"&_pragma=foreign_keys(1)" +
	"&_pragma=synchronous(FULL)" +
	"&_txlock=immediate"

// probeParams open a file without any possibility of writing to it.
const probeParams = "mode=ro&_pragma=busy_timeout(10000)&_pragma=query_only(1)"

// roParams are the DSN parameters of a read-only store's connections.
// mode=ro opens the file read-only, so SQLite cannot write it whatever a
// statement asks; there is no _txlock=immediate, so reads never take the
// write lock. query_only is left off: it would also refuse VACUUM INTO,
// which writes only the new file a backup goes to.
const roParams = "mode=ro&_pragma=busy_timeout(10000)"

// immutableParam opens a file that cannot change while it is open: SQLite
// then takes no locks and needs no -shm (see openReadOnlyDB).
const immutableParam = "&immutable=1"

// ErrNeedsUpgrade is returned by OpenReadOnly for a campaign whose schema
// is older than this program's: only Open, for writing, migrates it.
var ErrNeedsUpgrade = errors.New("needs upgrading")

// Options configure Create and Open.
type Options struct {
	// Now is the clock that dates schema migrations. It is required: the
	// store never reads the wall clock itself.
	Now func() time.Time

	// step, when set, is called by CreateWith after each of its steps,
	// by name; an error stops it there. Tests use it to stop a create at
	// every step and look at what it leaves.
	step func(name string) error
}

// Store is an events.Store in an SQLite campaign file. It is safe for
// concurrent use, including by several processes on the same file.
type Store struct {
	db   *sql.DB
	st   *statements
	path string
	// readOnly is set on a store from OpenReadOnly.
	readOnly bool
	// guard, on a store opened for writing, checks the file before a
	// write when it may have been changed outside ltscamp (nil on
	// readers, and on files being built).
	guard *guard
	// building is set on a file being built under a temporary name (a
	// new campaign, a restore), which only this store has written.
	building bool
}

var _ events.Store = (*Store)(nil)

// Open opens the campaign file at path for writing and applies any
// migrations it lacks. Before opening anything for writing it checks,
// without changing the file, that the file exists (else an error matching
// fs.ErrNotExist), is an SQLite database made by ltscamp (else
// events.ErrNotCampaign), was not made by a newer ltscamp, and can be
// written (else events.ErrReadOnly). Commands that only read use
// OpenReadOnly.
func Open(path string, opts Options) (s *Store, err error) {
	if opts.Now == nil {
		return nil, errors.New("sqlitestore: Options.Now is nil: a clock is required")
	}
	if err := probe(path, true); err != nil {
		return nil, err
	}
	db, err := openDB(path, rwParams)
	if err != nil {
		return nil, readOnlyError(path, err)
	}
	ctx := context.Background()
	if err := migrate(ctx, db, path, opts.Now, false); err != nil {
		_ = db.Close()
		return nil, readOnlyError(path, err)
	}
	s, err = newStore(ctx, db, path)
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	s.guard = newGuard(path)
	return s, nil
}

// OpenReadOnly opens the campaign file at path for reading only: every
// command that does not write uses it. Its connections open the file
// read-only (SQLite's mode=ro: the file is opened O_RDONLY), so nothing
// run on them can change it, and they never take the write lock: a reader
// answers while another process holds it. It runs no migration: a
// campaign whose schema is older than this program's is refused with
// ErrNeedsUpgrade, one from a newer ltscamp with events.ErrNewerFormat.
//
// A campaign file in WAL mode is read through its -shm file, which SQLite
// creates beside it when it is missing. Where the folder cannot be written
// and there is none, the file is opened as immutable, which is exact as
// long as no one writes it meanwhile: that is only done when there is no
// -wal with events in it beside the file either, so that every committed
// event is in the file itself. A -wal that cannot be read for want of a
// -shm is refused with events.ErrReadOnly.
func OpenReadOnly(path string) (*Store, error) {
	if err := probe(path, false); err != nil {
		return nil, err
	}
	db, err := openReadOnlyDB(path, roParams)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	if err := checkReadable(ctx, db, path); err != nil {
		_ = db.Close()
		return nil, err
	}
	s, err := newStore(ctx, db, path)
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	s.readOnly = true
	return s, nil
}

// probe checks that path is an ltscamp campaign this program can open,
// reading it only. With write, it opens the file for writing (which
// changes nothing in it), so that a file this user cannot write is
// refused with events.ErrReadOnly before any work is done.
func probe(path string, write bool) error {
	var f *os.File
	var err, writeErr error
	if write {
		f, writeErr = os.OpenFile(path, os.O_RDWR, 0)
		err = writeErr
	}
	if f == nil && !errors.Is(err, fs.ErrNotExist) {
		f, err = os.Open(path) // a directory, or a file this user cannot write
	}
	if err == nil && (errors.Is(writeErr, fs.ErrPermission) || errors.Is(writeErr, syscall.EROFS)) {
		_ = f.Close()
		return fmt.Errorf("%s: %w: this user cannot write it", path, events.ErrReadOnly)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no campaign file at %s: %w", path, fs.ErrNotExist)
	}
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	} else if st.IsDir() {
		return fmt.Errorf("%s is %w: it is a directory", path, events.ErrNotCampaign)
	}
	head := make([]byte, 100)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("read %s: %w", path, err)
	}
	_ = f.Close()
	if !bytes.HasPrefix(head[:n], []byte(sqliteMagic)) {
		return fmt.Errorf("%s is %w: not an SQLite database", path, events.ErrNotCampaign)
	}
	if n == len(head) && head[18] == 2 && head[19] == 2 && binary.BigEndian.Uint32(head[68:72]) == ApplicationID {
		// A WAL file whose header carries the campaign's mark (the usual
		// case, once the file has been checkpointed): opening it for
		// writing changes nothing in it, and the schema is checked then,
		// before any migration (see migrate).
		return nil
	}

	// The application ID is read through SQLite rather than from the
	// header bytes: in WAL mode the header page may only be in the -wal
	// file until a checkpoint.
	db, err := openReadOnlyDB(path, probeParams)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	var appID, tables int64
	if err := db.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&appID); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'`).Scan(&tables); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if appID != ApplicationID || tables == 0 {
		return fmt.Errorf("%s is %w: an SQLite database from another program", path, events.ErrNotCampaign)
	}
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	return checkNotNewer(ctx, db, path, ms)
}

// openDB opens a connection pool on path with the given DSN parameters and
// checks that a first connection works.
func openDB(path, params string) (*sql.DB, error) {
	dsn, err := fileURI(path, params)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := db.Ping(); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return db, nil
}

// fileURI returns the SQLite URI of path with the query params. The path
// is made absolute and percent-encoded: in a URI, '?' would start the
// query, '#' a fragment, and '%' an escape.
func fileURI(path, params string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("open %s: %w", path, err)
	}
	abs = filepath.ToSlash(abs)
	if !strings.HasPrefix(abs, "/") { // a Windows drive: file:/C:/...
		abs = "/" + abs
	}
	var b strings.Builder
	b.WriteString("file:")
	for i := 0; i < len(abs); i++ {
		c := abs[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("/-._~", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	b.WriteString("?")
	b.WriteString(params)
	return b.String(), nil
}

// newStore returns the store on db, a migrated campaign.
func newStore(ctx context.Context, db *sql.DB, path string) (*Store, error) {
	st, err := prepare(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return &Store{db: db, st: st, path: path}, nil
}

// Path returns the path the store was created or opened with.
func (s *Store) Path() string { return s.path }

// ReadOnly reports whether the store was opened with OpenReadOnly: its
// connections cannot write the file.
func (s *Store) ReadOnly() bool { return s.readOnly }

// openReadOnlyDB opens path with params, which open it read-only. Where
// SQLite cannot create the -shm a WAL file is read through (a folder this
// user cannot write, or a disk with no room left for it) and no -wal
// holds events the file lacks, it opens the file as immutable instead:
// reading needs no room on the disk.
func openReadOnlyDB(path, params string) (*sql.DB, error) {
	db, err := openDB(path, params)
	full := sqliteCode(err) == sqlite3.SQLITE_IOERR_SHMSIZE
	if err == nil || !(sideFilesRefused(err) || full) {
		return db, err
	}
	if st, serr := os.Stat(path + "-wal"); serr == nil && st.Size() > 0 {
		if full {
			return nil, fmt.Errorf("cannot read %s: %w: its latest events are in %s-wal, which SQLite reads through %s-shm, and there is no room on the disk to make it (%v)", path, events.ErrDiskFull, path, path, err)
		}
		return nil, fmt.Errorf("cannot read %s: %w: its latest events are in %s-wal, which SQLite reads through %s-shm, and that cannot be made in a folder this user cannot write", path, events.ErrReadOnly, path, path)
	}
	return openDB(path, params+immutableParam)
}

// sqliteCode returns the SQLite result code of err, 0 if it has none.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code()
	}
	return 0
}

// sideFilesRefused reports whether err is SQLite failing to make or open
// a WAL file's -wal or -shm beside it.
func sideFilesRefused(err error) bool {
	c := sqliteCode(err)
	return c == sqlite3.SQLITE_READONLY_DIRECTORY || c == sqlite3.SQLITE_CANTOPEN
}

// readOnlyError marks err, from opening path for writing, with
// events.ErrReadOnly when SQLite found it could not write there: the
// file's folder, or its -wal or -shm, are not this user's to write.
func readOnlyError(path string, err error) error {
	if err == nil || errors.Is(err, events.ErrReadOnly) {
		return err
	}
	if sqliteCode(err)&0xff == sqlite3.SQLITE_READONLY {
		return fmt.Errorf("%s: %w: SQLite cannot write beside it (its folder, or its -wal and -shm files, are not this user's to write): %v", path, events.ErrReadOnly, err)
	}
	return err
}

// checkReadable checks, reading only, that db is a campaign whose schema
// is this program's: events.ErrNotCampaign, events.ErrNewerFormat or
// ErrNeedsUpgrade if not.
func checkReadable(ctx context.Context, db *sql.DB, path string) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	var tables int64
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'`).Scan(&tables); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if tables == 0 {
		return fmt.Errorf("%s is %w: an SQLite database from another program", path, events.ErrNotCampaign)
	}
	if err := checkNotNewer(ctx, db, path, ms); err != nil {
		return err
	}
	if !upToDate(ctx, db, ms) {
		var have sql.NullInt64
		_ = db.QueryRowContext(ctx, `SELECT max(version) FROM schema_migrations`).Scan(&have)
		return fmt.Errorf("%s %w: it is at schema version %d, and this program reads version %d, to which only opening it for writing upgrades it", path, ErrNeedsUpgrade, have.Int64, ms[len(ms)-1].Version)
	}
	return nil
}

// Close implements events.Store. It closes the file; the last connection
// to close checkpoints the WAL into it.
//
// A store opened for writing then records the file's state beside it,
// when nothing but ltscamp changed it since it was last known whole (see
// guard).
func (s *Store) Close() error {
	s.st.close()
	record := s.guard != nil && s.guard.closing(s.path)
	err := s.db.Close()
	if record && err == nil {
		recordChecked(s.path, diskStateOf(s.path))
	}
	return err
}
