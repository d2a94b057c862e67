package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/ltscamp/ltscamp/events"
)

const (
	// upsertSnapshot stores a snapshot, replacing the one of the same
	// stream, kind, code and version.
	upsertSnapshot = `INSERT INTO snapshots (campaign, stream, kind, code, version, seq, commands, state) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
ON CONFLICT (campaign, stream, kind, code, version) DO UPDATE SET seq = excluded.seq, commands = excluded.commands, state = excluded.state`
	// dropOthers removes the other snapshots of a stream and kind before a
	// Latest one is saved; dropOtherCodes, those folded by other code.
	dropOthers     = `DELETE FROM snapshots WHERE campaign = $1 AND stream = $2 AND kind = $3`
	dropOtherCodes = `DELETE FROM snapshots WHERE campaign = $1 AND stream = $2 AND kind = $3 AND code <> $4`
	selectSnapshot = `SELECT version, seq, commands, state FROM snapshots
WHERE campaign = $1 AND stream = $2 AND kind = $3 AND code = $4 AND ($5 <= 0 OR seq <= $5) ORDER BY seq DESC LIMIT 1`
)

// queueSnapshots queues on b the statements that store snaps, after
// dropping the snapshots of the same streams and kinds that other code
// folded: no other build will trust them (see events.Snapshot).
func (s *Store) queueSnapshots(b *pgx.Batch, snaps []events.Snapshot) {
	for _, sn := range snaps {
		if sn.Latest {
			b.Queue(dropOthers, s.id, sn.Stream, sn.Kind)
		} else {
			b.Queue(dropOtherCodes, s.id, sn.Stream, sn.Kind, sn.Code)
		}
		b.Queue(upsertSnapshot, s.id, sn.Stream, sn.Kind, sn.Code, sn.Version, sn.Seq, sn.Commands, sn.State)
	}
}

// Snapshot implements events.Store.
func (s *Store) Snapshot(q events.SnapshotQuery) (events.Snapshot, bool, error) {
	sn := events.Snapshot{Stream: q.Stream, Kind: q.Kind, Code: q.Code}
	err := s.pool.QueryRow(context.Background(), selectSnapshot, s.id, q.Stream, q.Kind, q.Code, q.UpToSeq).
		Scan(&sn.Version, &sn.Seq, &sn.Commands, &sn.State)
	if errors.Is(err, pgx.ErrNoRows) {
		return events.Snapshot{}, false, nil
	}
	if err != nil {
		return events.Snapshot{}, false, Classify(fmt.Errorf("read snapshot of %s (%s): %w", q.Stream, q.Kind, err))
	}
	return sn, true, nil
}

// SaveSnapshots implements events.Store, in one transaction.
func (s *Store) SaveSnapshots(snaps []events.Snapshot) error {
	for _, sn := range snaps {
		if err := sn.Validate(); err != nil {
			return err
		}
	}
	ctx := context.Background()
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		b := &pgx.Batch{}
		s.queueSnapshots(b, snaps)
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return fmt.Errorf("save snapshots: %w", err)
		}
		return nil
	})
	return Classify(err)
}

// DropSnapshots implements events.Store: the campaign's, not the other
// campaigns' of the database.
func (s *Store) DropSnapshots() error {
	if _, err := s.pool.Exec(context.Background(), `DELETE FROM snapshots WHERE campaign = $1`, s.id); err != nil {
		return Classify(fmt.Errorf("drop snapshots: %w", err))
	}
	return nil
}
