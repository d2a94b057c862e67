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
	"time"

	"github.com/ltscamp/ltscamp/events"

	"modernc.org/sqlite" // registers the "sqlite" database/sql driver
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

// Options configure Create and Open.
type Options struct {
	// Now is the clock that dates schema migrations. It is required: the
	// store never reads the wall clock itself.
	Now func() time.Time
}

// Store is an events.Store in an SQLite campaign file. It is safe for
// concurrent use, including by several processes on the same file.
type Store struct {
	db   *sql.DB
	st   *statements
	path string
}

var _ events.Store = (*Store)(nil)

// Create makes a new campaign file at path and returns it open. It refuses,
// with an error matching events.ErrExists, to touch a path that already
// holds a non-empty file; an empty file is taken over. On failure it
// removes the file it created.
func Create(path string, opts Options) (s *Store, err error) {
	if opts.Now == nil {
		return nil, errors.New("sqlitestore: Options.Now is nil: a clock is required")
	}
	created, err := claim(path)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil && created {
			for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
				_ = os.Remove(path + suffix)
			}
		}
	}()
	db, err := openDB(path, rwParams)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			_ = db.Close()
		}
	}()
	ctx := context.Background()
	// Make sure the database really is empty, whatever SQLite made of the
	// file (SQLite itself discards a stale -wal next to an empty file).
	var tables, appID int64
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema`).Scan(&tables); err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	if err := db.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&appID); err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	if tables > 0 || appID != 0 {
		return nil, fmt.Errorf("create %s: %w: the database already has content", path, events.ErrExists)
	}
	if err := migrate(ctx, db, path, opts.Now, true); err != nil {
		return nil, err
	}
	return newStore(ctx, db, path)
}

// claim makes sure path is free for a new campaign: it creates the file,
// or accepts an existing empty one. created reports whether it made it.
func claim(path string) (created bool, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err == nil {
		return true, f.Close()
	}
	if !errors.Is(err, fs.ErrExist) {
		return false, fmt.Errorf("create %s: %w", path, err)
	}
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return false, fmt.Errorf("create %s: %w", path, err)
	case st.IsDir():
		return false, fmt.Errorf("create %s: it is a directory", path)
	case st.Size() > 0:
		return false, fmt.Errorf("create %s: %w: the file is in the way (remove it or choose another name)", path, events.ErrExists)
	}
	return false, nil
}

// Open opens the campaign file at path and applies any migrations it
// lacks. Before opening anything for writing it checks, without changing
// the file, that the file exists (else an error matching fs.ErrNotExist),
// is an SQLite database made by ltscamp (else events.ErrNotCampaign), and
// was not made by a newer ltscamp.
func Open(path string, opts Options) (s *Store, err error) {
	if opts.Now == nil {
		return nil, errors.New("sqlitestore: Options.Now is nil: a clock is required")
	}
	if err := probe(path); err != nil {
		return nil, err
	}
	db, err := openDB(path, rwParams)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	if err := migrate(ctx, db, path, opts.Now, false); err != nil {
		_ = db.Close()
		return nil, err
	}
	s, err = newStore(ctx, db, path)
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	return s, nil
}

// probe checks that path is an ltscamp campaign this program can open,
// reading it only.
func probe(path string) error {
	f, err := os.Open(path)
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
	db, err := openDB(path, probeParams)
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

// Close implements events.Store. It closes the file; the last connection
// to close checkpoints the WAL into it.
func (s *Store) Close() error {
	s.st.close()
	return s.db.Close()
}
