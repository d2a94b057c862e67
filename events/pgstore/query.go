package pgstore

import (
	"cmp"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/ltscamp/ltscamp/events"
)

// eventRow selects the columns scanEvent reads, in its order.
const eventRow = `SELECT seq, id, command_id, stream, stream_version, type, payload_version, payload, actor, recorded_at, prev_hash, hash FROM events`

// ReadStream implements events.Store.
func (s *Store) ReadStream(stream string, afterVersion int64) ([]events.Event, error) {
	es, err := s.readAll(context.Background(), s.pool,
		eventRow+` WHERE campaign = $1 AND stream = $2 AND stream_version > $3 ORDER BY stream_version`, s.id, stream, afterVersion)
	if err != nil {
		return nil, Classify(fmt.Errorf("read stream %q: %w", stream, err))
	}
	return es, nil
}

// StreamVersion implements events.Store.
func (s *Store) StreamVersion(stream string) (int64, error) {
	var v int64
	err := s.pool.QueryRow(context.Background(),
		`SELECT coalesce(max(stream_version), 0) FROM events WHERE campaign = $1 AND stream = $2`, s.id, stream).Scan(&v)
	if err != nil {
		return 0, Classify(fmt.Errorf("stream %q: %w", stream, err))
	}
	return v, nil
}

// Read implements events.Store.
func (s *Store) Read(q events.Query) ([]events.Event, error) {
	query, args := s.selectQuery(q)
	es, err := s.readAll(context.Background(), s.pool, query, args...)
	if err != nil {
		return nil, Classify(fmt.Errorf("read events: %w", err))
	}
	if q.Limit > 0 && q.Last {
		slices.SortFunc(es, func(a, b events.Event) int { return cmp.Compare(a.Seq, b.Seq) })
	}
	return es, nil
}

// Iter implements events.Store. The rows are read as the loop asks for
// them, through a cursor in one read-only transaction: a consistent
// snapshot of the log whatever is appended meanwhile, fetched iterBatch
// rows at a time, so that a reader of a million events holds a batch, not
// the log. The loop body may use the store: the cursor holds one
// connection of the pool, and the others serve it.
func (s *Store) Iter(q events.Query) iter.Seq2[events.Event, error] {
	return func(yield func(events.Event, error) bool) {
		if q.Limit > 0 && q.Last {
			// The last Limit rows come newest first: a bounded read.
			events.Each(s.Read(q))(yield)
			return
		}
		fail := func(err error) { yield(events.Event{}, Classify(fmt.Errorf("read events: %w", err))) }
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly, IsoLevel: pgx.RepeatableRead})
		if err != nil {
			fail(err)
			return
		}
		// A read-only transaction commits nothing: rolling it back
		// ends it, whether the loop ran to the end or broke out.
		defer func() { _ = tx.Rollback(context.Background()) }()
		query, args := s.selectQuery(q)
		if _, err := tx.Exec(ctx, `DECLARE log NO SCROLL CURSOR FOR `+query, args...); err != nil {
			fail(err)
			return
		}
		fetch := `FETCH ` + strconv.Itoa(iterBatch) + ` FROM log`
		for {
			rows, err := tx.Query(ctx, fetch)
			if err != nil {
				fail(err)
				return
			}
			n := 0
			var es []events.Event
			for rows.Next() {
				e, err := scanEvent(rows)
				if err != nil {
					rows.Close()
					fail(err)
					return
				}
				es = append(es, e)
				n++
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				fail(err)
				return
			}
			for _, e := range es {
				if !yield(e, nil) {
					return
				}
			}
			if n < iterBatch {
				return
			}
		}
	}
}

// iterBatch is how many rows Iter fetches at a time: enough that the
// round trips cost little beside the rows, few enough that a batch of
// the largest events stays a few megabytes.
const iterBatch = 1000

// readAll runs a query that selects eventRow's columns on q and returns
// its rows as events.
func (s *Store) readAll(ctx context.Context, q querier, query string, args ...any) ([]events.Event, error) {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []events.Event
	for rows.Next() {
		e, err := scanEvent(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// scanEvent reads the current row of rows, which selects eventRow's
// columns.
func scanEvent(rows pgx.Rows) (events.Event, error) {
	var (
		e                    events.Event
		payload              []byte
		at, prevHex, hashHex string
		pv                   int32
	)
	if err := rows.Scan(&e.Seq, &e.ID, &e.CommandID, &e.Stream, &e.StreamVersion, &e.Type, &pv,
		&payload, &e.Actor, &at, &prevHex, &hashHex); err != nil {
		return events.Event{}, err
	}
	e.PayloadVersion, e.Payload = int(pv), payload
	var err error
	if e.RecordedAt, err = events.ParseTime(at); err != nil {
		return events.Event{}, fmt.Errorf("event %d: %w", e.Seq, err)
	}
	if e.PrevHash, err = decodeHash(prevHex); err != nil {
		return events.Event{}, fmt.Errorf("event %d: prev_hash: %w", e.Seq, err)
	}
	if e.Hash, err = decodeHash(hashHex); err != nil {
		return events.Event{}, fmt.Errorf("event %d: hash: %w", e.Seq, err)
	}
	return e, nil
}

// selectQuery returns the SELECT of the campaign's events q selects, with
// its arguments. With Limit and Last the rows come newest first.
func (s *Store) selectQuery(q events.Query) (string, []any) {
	args := []any{s.id}
	where := []string{"campaign = $1"}
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	if q.AfterSeq > 0 {
		where = append(where, "seq > "+arg(q.AfterSeq))
	}
	if q.UpToSeq > 0 {
		where = append(where, "seq <= "+arg(q.UpToSeq))
	}
	if len(q.Streams) > 0 {
		where = append(where, "stream = ANY("+arg(q.Streams)+"::text[])")
	}
	// Text columns compare byte for byte (COLLATE "C"), as Go's
	// strings do.
	if q.StreamPrefix != "" {
		where = append(where, "starts_with(stream, "+arg(q.StreamPrefix)+")")
	}
	if q.TypePrefix != "" {
		where = append(where, "starts_with(type, "+arg(q.TypePrefix)+")")
	}
	if len(q.Types) > 0 {
		where = append(where, "type = ANY("+arg(q.Types)+"::text[])")
	}
	if len(q.Seqs) > 0 {
		where = append(where, "seq = ANY("+arg(q.Seqs)+"::bigint[])")
	}
	if len(q.CommandIDs) > 0 {
		where = append(where, "command_id = ANY("+arg(q.CommandIDs)+"::text[])")
	}
	if len(q.Actors) > 0 {
		where = append(where, "actor = ANY("+arg(q.Actors)+"::text[])")
	}
	// recorded_at is stored fixed-width (events.TimeLayout), so text order
	// is time order.
	if !q.Since.IsZero() {
		where = append(where, "recorded_at >= "+arg(events.FormatTime(q.Since)))
	}
	if !q.Until.IsZero() {
		where = append(where, "recorded_at <= "+arg(events.FormatTime(q.Until)))
	}
	var b strings.Builder
	b.WriteString(eventRow)
	b.WriteString(" WHERE ")
	b.WriteString(strings.Join(where, " AND "))
	if q.Limit > 0 && q.Last {
		b.WriteString(" ORDER BY seq DESC")
	} else {
		b.WriteString(" ORDER BY seq")
	}
	if q.Limit > 0 {
		b.WriteString(" LIMIT " + strconv.Itoa(q.Limit))
	}
	return b.String(), args
}

// EventByID implements events.Store.
func (s *Store) EventByID(id string) (events.Event, error) {
	es, err := s.readAll(context.Background(), s.pool, eventRow+` WHERE campaign = $1 AND id = $2`, s.id, id)
	if err != nil {
		return events.Event{}, Classify(fmt.Errorf("event %q: %w", id, err))
	}
	if len(es) == 0 {
		return events.Event{}, fmt.Errorf("event %q: %w", id, events.ErrNotFound)
	}
	return es[0], nil
}

// Head implements events.Store.
func (s *Store) Head() (int64, []byte, error) {
	seq, hash, err := s.head(context.Background(), s.pool)
	if err != nil {
		return 0, nil, Classify(fmt.Errorf("read head: %w", err))
	}
	return seq, hash, nil
}

// head reads the campaign's last seq and hash on q, or 0 and the genesis
// hash.
func (s *Store) head(ctx context.Context, q querier) (int64, []byte, error) {
	var seq int64
	var hashHex string
	err := q.QueryRow(ctx, `SELECT seq, hash FROM events WHERE campaign = $1 ORDER BY seq DESC LIMIT 1`, s.id).Scan(&seq, &hashHex)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, events.GenesisHash(), nil
	}
	if err != nil {
		return 0, nil, err
	}
	hash, err := decodeHash(hashHex)
	if err != nil {
		return 0, nil, fmt.Errorf("event %d: hash: %w", seq, err)
	}
	return seq, hash, nil
}

// Count implements events.Store.
func (s *Store) Count() (int64, error) {
	var n int64
	if err := s.pool.QueryRow(context.Background(), `SELECT count(*) FROM events WHERE campaign = $1`, s.id).Scan(&n); err != nil {
		return 0, Classify(fmt.Errorf("count events: %w", err))
	}
	return n, nil
}

// encodeHash is a hash as stored: lowercase hex, as in SQLite campaign
// files.
func encodeHash(h []byte) string { return hex.EncodeToString(h) }

// decodeHash decodes a stored hex hash.
func decodeHash(s string) ([]byte, error) {
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, err
	}
	if len(b) != events.HashSize {
		return nil, fmt.Errorf("%d bytes, want %d", len(b), events.HashSize)
	}
	return b, nil
}
