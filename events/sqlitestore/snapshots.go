package sqlitestore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/ltscamp/ltscamp/events"
)

const (
	insertSnapshot = `INSERT OR REPLACE INTO snapshots (stream, kind, code, version, seq, commands, state) VALUES (?, ?, ?, ?, ?, ?, ?)`
	// dropOthers removes the other snapshots of a stream and kind before a
	// Latest one is saved; dropOtherCodes, those folded by other code.
	dropOthers     = `DELETE FROM snapshots WHERE stream = ? AND kind = ?`
	dropOtherCodes = `DELETE FROM snapshots WHERE stream = ? AND kind = ? AND code <> ?`
	selectSnapshot = `SELECT version, seq, commands, state FROM snapshots
WHERE stream = ? AND kind = ? AND code = ? AND (? <= 0 OR seq <= ?) ORDER BY seq DESC LIMIT 1`
)

// execer is a *sql.Tx or a *sql.DB.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// saveSnapshots writes snaps in tx, and drops the snapshots of the same
// streams and kinds that other code folded: no other build will trust
// them, or, after an upgrade, this one (see events.Snapshot).
func saveSnapshots(ctx context.Context, tx execer, snaps []events.Snapshot) error {
	for _, sn := range snaps {
		drop, args := dropOtherCodes, []any{sn.Stream, sn.Kind, sn.Code}
		if sn.Latest {
			drop, args = dropOthers, args[:2]
		}
		if _, err := tx.ExecContext(ctx, drop, args...); err != nil {
			return fmt.Errorf("snapshot of %s (%s): %w", sn.Stream, sn.Kind, err)
		}
		if _, err := tx.ExecContext(ctx, insertSnapshot, sn.Stream, sn.Kind, sn.Code, sn.Version, sn.Seq, sn.Commands, sn.State); err != nil {
			return fmt.Errorf("snapshot of %s (%s): %w", sn.Stream, sn.Kind, err)
		}
	}
	return nil
}

// Snapshot implements events.Store.
func (s *Store) Snapshot(q events.SnapshotQuery) (events.Snapshot, bool, error) {
	sn := events.Snapshot{Stream: q.Stream, Kind: q.Kind, Code: q.Code}
	err := s.queryRow(context.Background(), selectSnapshot, q.Stream, q.Kind, q.Code, q.UpToSeq, q.UpToSeq).
		Scan(&sn.Version, &sn.Seq, &sn.Commands, &sn.State)
	if errors.Is(err, sql.ErrNoRows) {
		return events.Snapshot{}, false, nil
	}
	if err != nil {
		return events.Snapshot{}, false, fmt.Errorf("read snapshot of %s (%s): %w", q.Stream, q.Kind, err)
	}
	return sn, true, nil
}

// SaveSnapshots implements events.Store, in one write transaction.
func (s *Store) SaveSnapshots(snaps []events.Snapshot) error {
	for _, sn := range snaps {
		if err := sn.Validate(); err != nil {
			return err
		}
	}
	ctx := context.Background()
	return s.write(ctx, "save snapshots", func(w *writer) (bool, error) {
		return true, saveSnapshots(ctx, w, snaps)
	})
}

// DropSnapshots implements events.Store.
func (s *Store) DropSnapshots() error {
	ctx := context.Background()
	return s.write(ctx, "drop snapshots", func(w *writer) (bool, error) {
		if _, err := w.ExecContext(ctx, `DELETE FROM snapshots`); err != nil {
			return false, fmt.Errorf("drop snapshots: %w", err)
		}
		return true, nil
	})
}
