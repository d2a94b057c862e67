package pgstore

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/ltscamp/ltscamp/events"
)

// loadInsertRows is how many rows each INSERT of a Load takes where COPY
// cannot be used.
const loadInsertRows = 1000

// Load implements events.Store. The batch goes in as one transaction,
// under the campaign's lock: all of it, or none of it. It is checked
// whole (events.CheckLoad: the envelopes, the chain with every hash
// recomputed, the stream versions) before a row is sent, and then copied
// in with COPY, the server's fastest way in. An ID already in the log is
// caught by UNIQUE (campaign, id).
func (s *Store) Load(batch []events.Event) error {
	if len(batch) == 0 {
		return nil
	}
	ctx := context.Background()
	var loadErr error
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, lockCampaign, int32(lockSpace), s.id); err != nil {
			return err
		}
		seq, hash, err := s.head(ctx, tx)
		if err != nil {
			return err
		}
		streams := map[string]bool{}
		for _, e := range batch {
			streams[e.Stream] = true
		}
		versions := map[string]int64{}
		rows, err := tx.Query(ctx, selectVersions, s.id, slices.Sorted(maps.Keys(streams)))
		if err != nil {
			return err
		}
		if err := versionsInto(versions)(rows); err != nil {
			return err
		}
		if err := events.CheckLoad(seq, hash, batch, func(stream string) (int64, error) { return versions[stream], nil }); err != nil {
			loadErr = err
			return err
		}
		seen := make(map[string]bool, len(batch))
		for i, e := range batch {
			if seen[e.ID] {
				loadErr = &events.LoadError{Index: i, Seq: e.Seq, EventID: e.ID, Problem: fmt.Sprintf("event ID %q is already in the log", e.ID)}
				return loadErr
			}
			seen[e.ID] = true
		}
		// COPY is refused on a table whose row security binds this role
		// (a role the owner granted campaigns to): such a role's rows go
		// in with INSERTs, which the policies check.
		var bound bool
		if err := tx.QueryRow(ctx, `SELECT row_security_active('events')`).Scan(&bound); err != nil {
			return err
		}
		if bound {
			for start := 0; start < len(batch); start += loadInsertRows {
				rows := batch[start:min(start+loadInsertRows, len(batch))]
				if _, err := tx.Exec(ctx, insertEvents, append([]any{s.id}, columns(rows)...)...); err != nil {
					return err
				}
			}
			return nil
		}
		cols := []string{"campaign", "seq", "id", "command_id", "stream", "stream_version", "type", "payload_version", "payload", "actor", "recorded_at", "prev_hash", "hash"}
		i := 0
		_, err = tx.CopyFrom(ctx, pgx.Identifier{"events"}, cols, pgx.CopyFromFunc(func() ([]any, error) {
			if i == len(batch) {
				return nil, nil
			}
			e := batch[i]
			i++
			return []any{s.id, e.Seq, e.ID, e.CommandID, e.Stream, e.StreamVersion, e.Type, int32(e.PayloadVersion),
				string(e.Payload), e.Actor, events.FormatTime(e.RecordedAt), encodeHash(e.PrevHash), encodeHash(e.Hash)}, nil
		}))
		return err
	})
	if loadErr != nil {
		return loadErr
	}
	if eventIDTaken(err) {
		// An ID in the log before the batch: name the first.
		pending := make([]events.Pending, len(batch))
		for i, e := range batch {
			pending[i].ID = e.ID
		}
		if id := s.firstTaken(ctx, pending); id != "" {
			i := slices.IndexFunc(batch, func(e events.Event) bool { return e.ID == id })
			return &events.LoadError{Index: i, Seq: batch[i].Seq, EventID: id, Problem: fmt.Sprintf("event ID %q is already in the log", id)}
		}
	}
	if err != nil {
		return Classify(fmt.Errorf("load seqs %d–%d: %w", batch[0].Seq, batch[len(batch)-1].Seq, err))
	}
	return nil
}
