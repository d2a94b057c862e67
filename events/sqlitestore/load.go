package sqlitestore

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ltscamp/ltscamp/events"
)

// Load implements events.Store. The batch goes in as one transaction:
// all of it, or none of it.
func (s *Store) Load(batch []events.Event) (err error) {
	if len(batch) == 0 {
		return nil
	}
	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("load: %w", err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	seq, hash, err := head(ctx, tx.StmtContext(ctx, s.st.head))
	if err != nil {
		return fmt.Errorf("load: %w", err)
	}
	streamVersion := tx.StmtContext(ctx, s.st.streamVersion)
	err = events.CheckLoad(seq, hash, batch, func(stream string) (int64, error) {
		var v int64
		err := streamVersion.QueryRowContext(ctx, stream).Scan(&v)
		return v, err
	})
	if err != nil {
		return err
	}
	// Rows go in loadRows at a time, one statement each: far fewer round
	// trips through database/sql than a statement per row.
	var multi *sql.Stmt
	args := make([]any, 0, loadRows*12)
	for start := 0; start < len(batch); start += loadRows {
		rows := batch[start:min(start+loadRows, len(batch))]
		args = args[:0]
		for _, e := range rows {
			args = append(args, e.Seq, e.ID, e.CommandID, e.Stream, e.StreamVersion, e.Type, e.PayloadVersion,
				string(e.Payload), e.Actor, events.FormatTime(e.RecordedAt), hex.EncodeToString(e.PrevHash), hex.EncodeToString(e.Hash))
		}
		stmt := tx.StmtContext(ctx, s.st.insert)
		if len(rows) == loadRows {
			if multi == nil {
				if multi, err = tx.PrepareContext(ctx, insertRows(loadRows)); err != nil {
					return fmt.Errorf("load: %w", err)
				}
			}
			stmt = multi
		} else if len(rows) > 1 {
			if stmt, err = tx.PrepareContext(ctx, insertRows(len(rows))); err != nil {
				return fmt.Errorf("load: %w", err)
			}
		}
		if _, err := stmt.ExecContext(ctx, args...); err != nil {
			if strings.Contains(err.Error(), "UNIQUE constraint failed: events.id") {
				// Name the event: the first of these rows whose ID is
				// taken, or repeated among the rows before it.
				for i, e := range rows {
					var taken bool
					if qerr := tx.StmtContext(ctx, s.st.idTaken).QueryRowContext(ctx, e.ID).Scan(&taken); qerr == nil && (taken || repeatsID(rows[:i], e.ID)) {
						return &events.LoadError{Index: start + i, Seq: e.Seq, EventID: e.ID, Problem: fmt.Sprintf("event ID %q is already in the log", e.ID)}
					}
				}
			}
			return fmt.Errorf("load: seqs %d–%d: %w", rows[0].Seq, rows[len(rows)-1].Seq, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("load: commit: %w", err)
	}
	return nil
}

// loadRows is how many rows one INSERT of Load carries: 12 parameters a
// row stays far below SQLite's limit of 32,766.
const loadRows = 64

// insertRows returns an INSERT of n event rows.
func insertRows(n int) string {
	row := "(" + placeholders(12) + ")"
	return `INSERT INTO events (seq, id, command_id, stream, stream_version, type, payload_version, payload, actor, recorded_at, prev_hash, hash) VALUES ` +
		strings.TrimSuffix(strings.Repeat(row+",", n), ",")
}

// repeatsID reports whether an event of rows has the ID.
func repeatsID(rows []events.Event, id string) bool {
	for _, e := range rows {
		if e.ID == id {
			return true
		}
	}
	return false
}

// Backup writes a consistent copy of the campaign to path, which must not
// exist, with SQLite's VACUUM INTO: one read transaction, so writers go on
// meanwhile and the copy is the log as of the moment it began. The copy is
// made under a temporary name beside path, synced to disk and then linked
// into place, so path never holds half a copy.
func (s *Store) Backup(path string) (err error) {
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("back up to %s: %w: the file is in the way (remove it or choose another name)", path, events.ErrExists)
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("back up to %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("back up to %s: %w", path, err)
	}
	name := tmp.Name()
	_ = tmp.Close()
	// VACUUM INTO wants a file that does not exist, or is empty.
	defer func() {
		if err != nil {
			_ = os.Remove(name)
		}
	}()
	if _, err := s.db.ExecContext(context.Background(), `VACUUM INTO ?`, name); err != nil {
		return fmt.Errorf("back up to %s: %w", path, err)
	}
	if err := syncFile(name); err != nil {
		return fmt.Errorf("back up to %s: %w", path, err)
	}
	return publish(name, path)
}

// publish moves the finished file tmp to path without replacing a file
// that appeared at path meanwhile: a hard link fails if path exists. Where
// links are not supported it falls back to a rename after a check. The
// folder is synced, so the new name survives a crash.
func publish(tmp, path string) error {
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("%s: %w: the file appeared while it was being written (nothing was replaced)", path, events.ErrExists)
		}
		if _, serr := os.Lstat(path); serr == nil {
			return fmt.Errorf("%s: %w", path, events.ErrExists)
		}
		if err := os.Rename(tmp, path); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	} else if err := os.Remove(tmp); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return syncDir(filepath.Dir(path))
}

// syncFile flushes a file's contents to disk.
func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// syncDir flushes a folder's entries to disk, where the system allows it.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}
