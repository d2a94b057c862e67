package pgstore

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/ltscamp/ltscamp/events"
)

// lockCampaign takes the campaign's advisory transaction lock: every
// append and load of the campaign holds it from before it reads the head
// until its commit, so they go in one at a time, each after the last.
const lockCampaign = `SELECT pg_advisory_xact_lock($1, $2)`

// selectPrelude reads what every Append checks before it inserts: whether
// the command is in the log already, and the log's head (0 and ” when it
// is empty).
const selectPrelude = `SELECT EXISTS (SELECT 1 FROM events WHERE campaign = $1 AND command_id = $2),
       coalesce(h.seq, 0), coalesce(h.hash, '')
FROM (SELECT 1) one
LEFT JOIN LATERAL (SELECT seq, hash FROM events WHERE campaign = $1 ORDER BY seq DESC LIMIT 1) h ON true`

// selectVersions reads the versions of the streams $2 (0 for a stream
// with no events).
const selectVersions = `SELECT s, coalesce((SELECT max(stream_version) FROM events WHERE campaign = $1 AND stream = s), 0)
FROM unnest($2::text[]) AS s`

// selectCommand reads the events of the command $2, in seq order.
const selectCommand = eventRow + ` WHERE campaign = $1 AND command_id = $2 ORDER BY seq`

// versionsInto returns a reader of selectVersions' rows into m, by
// stream.
func versionsInto(m map[string]int64) func(pgx.Rows) error {
	return func(rows pgx.Rows) error {
		var name string
		var v int64
		_, err := pgx.ForEachRow(rows, []any{&name, &v}, func() error {
			m[name] = v
			return nil
		})
		return err
	}
}

// eventIDTaken reports whether err is the events table refusing an event
// ID the campaign's log holds already (UNIQUE (campaign, id)).
func eventIDTaken(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505" && pe.ConstraintName == "events_campaign_id_key"
}

// insertEvents inserts the rows whose columns are the arrays $2...$13, in
// the campaign $1: one statement whatever the number of events.
const insertEvents = `INSERT INTO events (campaign, seq, id, command_id, stream, stream_version, type, payload_version, payload, actor, recorded_at, prev_hash, hash)
SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[], $8::integer[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[])`

// Append implements events.Store. The command runs in one transaction
// that takes the campaign's lock before it reads the head and the stream
// versions it checks: no other appender can move them before its insert.
//
// It costs two round trips, each a pipeline of statements: BEGIN, the
// lock and the reads of what the command checks; then the INSERT of its
// events, its snapshots and COMMIT. The lock is held for about one.
//
// When the connection is lost while the transaction commits, the command
// may or may not be in the log: Append then looks, on a new connection,
// and reports the events if they are there, so that a command is never
// reported failed once committed.
func (s *Store) Append(cmd events.Command) (events.AppendResult, error) {
	if err := cmd.Validate(); err != nil {
		return events.AppendResult{}, err
	}
	ctx := context.Background()
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return events.AppendResult{}, Classify(fmt.Errorf("append command %s: %w", cmd.ID, err))
	}
	res, err := s.appendOn(ctx, conn.Conn(), cmd)
	if conn.Conn().PgConn().TxStatus() != 'I' {
		// Refused, or failed half way: nothing of it is kept. (A
		// connection still in a transaction is closed when released.)
		_, _ = conn.Exec(ctx, "ROLLBACK")
	}
	conn.Release()
	if err != nil {
		if eventIDTaken(err) {
			// An event ID in the log already: which one, read now that
			// the transaction is over.
			if id := s.firstTaken(ctx, cmd.Events); id != "" {
				return events.AppendResult{}, idTakenError(cmd.ID, id)
			}
		}
		if errors.Is(err, events.ErrConcurrency) || errors.Is(err, events.ErrInvalidCommand) {
			return events.AppendResult{}, err // refused, as decided
		}
		if committed, ok := s.committedAnyway(ctx, cmd, err); ok {
			return committed, nil
		}
		return events.AppendResult{}, Classify(fmt.Errorf("append command %s: %w", cmd.ID, err))
	}
	if !res.Duplicate {
		s.appended(res.Events)
	}
	return res, nil
}

// appended records the head es, the events of this store's append, left:
// the head a command decided on kept states must find (checkHeadExpected).
func (s *Store) appended(es []events.Event) {
	if len(es) == 0 {
		return
	}
	last := es[len(es)-1]
	s.mu.Lock()
	s.last = &events.Head{Seq: last.Seq, Hash: slices.Clone(last.Hash)}
	s.mu.Unlock()
}

// inTx runs f in a transaction, committed when f returns nil.
func (s *Store) inTx(ctx context.Context, f func(tx pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, s.pool, f)
}

// appendOn appends cmd on conn, in a transaction it begins and, when the
// command goes in, commits; otherwise it leaves the transaction for the
// caller to roll back.
func (s *Store) appendOn(ctx context.Context, conn *pgx.Conn, cmd events.Command) (res events.AppendResult, err error) {
	streams := slices.Sorted(maps.Keys(cmd.Expected)) // Validate: at least one
	var (
		duplicate bool
		seq       int64
		hashHex   string
	)
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue(lockCampaign, int32(lockSpace), s.id)
	b.Queue(selectPrelude, s.id, cmd.ID).QueryRow(func(row pgx.Row) error {
		return row.Scan(&duplicate, &seq, &hashHex)
	})
	current := make(map[string]int64, len(streams))
	b.Queue(selectVersions, s.id, streams).Query(versionsInto(current))
	if err := conn.SendBatch(ctx, b).Close(); err != nil {
		return res, err
	}
	if duplicate {
		prior, err := s.readAll(ctx, conn, selectCommand, s.id, cmd.ID)
		if err != nil {
			return res, err
		}
		return events.AppendResult{Events: prior, Duplicate: true}, nil
	}
	hash := events.GenesisHash()
	if seq > 0 {
		if hash, err = decodeHash(hashHex); err != nil {
			return res, fmt.Errorf("event %d: hash: %w", seq, err)
		}
	}
	if cmd.ExpectedHead != nil {
		if err := s.checkHeadExpected(cmd, seq, hash); err != nil {
			return res, err
		}
	}
	versions, err := cmd.CheckExpected(func(stream string) (int64, error) { return current[stream], nil })
	if err != nil {
		// A reused event ID is a malformed command, which is reported
		// before a stream that moved on.
		if id := firstTakenIn(ctx, conn, s.id, cmd.Events); id != "" {
			return res, idTakenError(cmd.ID, id)
		}
		return res, err
	}
	sealed := cmd.Seal(seq, hash, versions)
	b = &pgx.Batch{}
	b.Queue(insertEvents, append([]any{s.id}, columns(sealed)...)...)
	s.queueSnapshots(b, cmd.Snapshots)
	b.Queue("COMMIT")
	if err := conn.SendBatch(ctx, b).Close(); err != nil {
		return res, err
	}
	return events.AppendResult{Events: sealed}, nil
}

// checkHeadExpected refuses a command decided at a head (ExpectedHead)
// when the log's head, at seq with hash, is another, and also when it is
// not the head this store's own last append left: a store that has not
// appended yet cannot vouch that the states kept since are the log's.
func (s *Store) checkHeadExpected(cmd events.Command, seq int64, hash []byte) error {
	if err := cmd.CheckHead(seq, hash); err != nil {
		return err
	}
	s.mu.Lock()
	last := s.last
	s.mu.Unlock()
	why := ""
	switch {
	case last == nil:
		why = "this store has not appended since it was opened"
	case last.Seq != seq:
		why = "another process has appended since this store's last append"
	}
	if why != "" {
		return &events.HeadMovedError{Expected: cmd.ExpectedHead.Seq, Actual: seq, Reason: why}
	}
	return nil
}

// columns returns es's fields as the arrays insertEvents takes, in its
// column order after the campaign.
func columns(es []events.Event) []any {
	n := len(es)
	var (
		seq, ver                                 = make([]int64, n), make([]int64, n)
		id, cmd, stream, typ, payload, actor, at = make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		prev, hash                               = make([]string, n), make([]string, n)
		pv                                       = make([]int32, n)
	)
	for i, e := range es {
		seq[i], id[i], cmd[i], stream[i], ver[i], typ[i] = e.Seq, e.ID, e.CommandID, e.Stream, e.StreamVersion, e.Type
		pv[i], payload[i], actor[i], at[i] = int32(e.PayloadVersion), string(e.Payload), e.Actor, events.FormatTime(e.RecordedAt)
		prev[i], hash[i] = encodeHash(e.PrevHash), encodeHash(e.Hash)
	}
	return []any{seq, id, cmd, stream, ver, typ, pv, payload, actor, at, prev, hash}
}

// idTakenError is the error of a command that reuses an event ID.
func idTakenError(commandID, eventID string) error {
	return fmt.Errorf("%w: command %q: event ID %q is already in the log", events.ErrInvalidCommand, commandID, eventID)
}

// firstTaken returns the first ID of pending that is in the campaign's
// log, or "".
func (s *Store) firstTaken(ctx context.Context, pending []events.Pending) string {
	return firstTakenIn(ctx, s.pool, s.id, pending)
}

// querier is a pool, a connection or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// firstTakenIn is firstTaken on q.
func firstTakenIn(ctx context.Context, q querier, campaign int32, pending []events.Pending) string {
	ids := make([]string, len(pending))
	for i, p := range pending {
		ids[i] = p.ID
	}
	rows, err := q.Query(ctx, `SELECT id FROM events WHERE campaign = $1 AND id = ANY($2::text[])`, campaign, ids)
	if err != nil {
		return ""
	}
	found, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return ""
	}
	for _, id := range ids {
		if slices.Contains(found, id) {
			return id
		}
	}
	return ""
}

// committedAnyway looks, after an append failed with err, whether cmd is
// in the log all the same: the connection was lost as the commit went
// out, and the server committed it. It returns the committed events and
// true if so.
func (s *Store) committedAnyway(ctx context.Context, cmd events.Command, err error) (events.AppendResult, bool) {
	if !connectionLost(err) {
		return events.AppendResult{}, false
	}
	es, rerr := s.readAll(ctx, s.pool, selectCommand, s.id, cmd.ID)
	if rerr != nil || len(es) != len(cmd.Events) {
		return events.AppendResult{}, false
	}
	for i, e := range es {
		if e.ID != cmd.Events[i].ID {
			return events.AppendResult{}, false
		}
	}
	s.appended(es)
	return events.AppendResult{Events: es}, true
}
