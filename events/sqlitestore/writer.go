package sqlitestore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"sync"
)

// writer is the one connection through which a store writes its log: taken
// from the pool by the first Append or Load and held until Close, with the
// statements of writing prepared on it once.
//
// A write transaction is BEGIN IMMEDIATE ... COMMIT run on it as
// statements, rather than a database/sql transaction, which starts a
// goroutine, a context and a statement lookup per transaction; that was a
// tenth of a small Append. Writers of the same store queue on mu, as they
// would on SQLite's write lock, which still orders them against other
// stores and processes.
type writer struct {
	mu    sync.Mutex
	conn  *sql.Conn
	stmts map[string]*sql.Stmt
	// dataVersion is SQLite's data_version on conn as the last Append
	// that committed read it, when versionKnown: it moves on when another
	// connection commits to the file, never for this one's own commits.
	// txDataVersion is the one the Append under way read.
	dataVersion, txDataVersion   int64
	versionKnown, txVersionKnown bool
}

// write runs f in a write transaction on the store's writer connection.
// The transaction commits when f returns commit and no error, and rolls
// back otherwise. f's error is returned as it is; the others begin with
// what.
func (s *Store) write(ctx context.Context, what string, f func(w *writer) (commit bool, err error)) (err error) {
	w := &s.st.w
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.conn == nil {
		conn, err := s.db.Conn(ctx)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		// A multi-row INSERT keeps a statement journal (SQLite would undo
		// the rows before a failed one), which goes to a temporary file
		// once it passes 64 KiB: in memory it costs a copy of the pages
		// instead of writes. The setting stays with the connection, where
		// it only moves temporary files to memory.
		if _, err := conn.ExecContext(ctx, "PRAGMA temp_store = MEMORY"); err != nil {
			_ = conn.Close()
			return fmt.Errorf("%s: %w", what, err)
		}
		w.conn, w.stmts = conn, map[string]*sql.Stmt{}
	}
	w.txVersionKnown = false
	if _, err := w.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		if errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) {
			w.drop(driver.ErrBadConn) // the next write takes another
		}
		return fmt.Errorf("%s: %w", what, err)
	}
	ended := false
	defer func() {
		if !ended { // f panicked inside the transaction
			w.drop(driver.ErrBadConn)
		}
	}()
	g := s.guard
	if g != nil {
		// A file changed outside ltscamp is checked before anything is
		// written to it (see guard).
		if err = g.before(ctx, w, s.path); err != nil {
			ended = true
			if _, rerr := w.ExecContext(ctx, "ROLLBACK"); rerr != nil {
				w.drop(driver.ErrBadConn)
			}
			return err
		}
		defer func() { g.after(s.path, err) }()
	}
	commit, err := f(w)
	ended = true
	if err == nil && commit {
		if _, err = w.ExecContext(ctx, "COMMIT"); err == nil {
			// Another kind of write (a Load, snapshots) leaves it unknown.
			w.dataVersion, w.versionKnown = w.txDataVersion, w.txVersionKnown
			return nil
		}
		err = fmt.Errorf("%s: commit: %w", what, err)
	}
	if _, rerr := w.ExecContext(ctx, "ROLLBACK"); rerr != nil {
		// The connection may be left inside the transaction: it must
		// not go back to the pool.
		w.drop(driver.ErrBadConn)
	}
	return err
}

// QueryContext runs a query on the writer connection, unprepared (an
// integrity check runs on it).
func (w *writer) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return w.conn.QueryContext(ctx, query, args...)
}

// stmt returns query prepared on the writer connection.
func (w *writer) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := w.stmts[query]; ok {
		return st, nil
	}
	st, err := w.conn.PrepareContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("prepare %q: %w", query, err)
	}
	w.stmts[query] = st
	return st, nil
}

// queryRow runs a query of one row on the writer connection.
func (w *writer) queryRow(ctx context.Context, query string, args ...any) (*sql.Row, error) {
	st, err := w.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryRowContext(ctx, args...), nil
}

// ExecContext runs a statement on the writer connection (saveSnapshots
// takes it as an execer).
func (w *writer) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := w.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

// drop closes the writer's statements and gives its connection up: back
// to the pool when err is nil, closed when it is driver.ErrBadConn. The
// next write takes a connection again.
func (w *writer) drop(err error) {
	for _, st := range w.stmts {
		_ = st.Close()
	}
	if w.conn != nil {
		if err != nil {
			_ = w.conn.Raw(func(any) error { return err })
		}
		_ = w.conn.Close()
	}
	w.conn, w.stmts, w.versionKnown = nil, nil, false
}

// release gives the writer connection back to the pool, when no write
// runs.
func (w *writer) release() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.drop(nil)
}
