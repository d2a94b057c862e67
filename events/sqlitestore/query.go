package sqlitestore

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ltscamp/ltscamp/events"
)

// eventColumns lists the columns scanEvent reads, in its order.
const eventColumns = `SELECT seq, id, command_id, stream, stream_version, type, payload_version, payload, actor, recorded_at, prev_hash, hash FROM events`

const insertEvent = `INSERT INTO events (seq, id, command_id, stream, stream_version, type, payload_version, payload, actor, recorded_at, prev_hash, hash)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// statements are the store's fixed queries of reading, prepared once per
// connection, and its writer connection (see writer).
type statements struct {
	streamVersion *sql.Stmt // a stream's version
	head          *sql.Stmt // the last seq and hash
	readStream    *sql.Stmt // a stream after a version
	byID          *sql.Stmt // the event with an ID

	// built are the queries built from an events.Query or a snapshot
	// query, prepared the first time they are run, by their text: a
	// store kept open (play) runs the same few shapes over and over, and
	// preparing one costs more than running it.
	mu    sync.Mutex
	built map[string]*sql.Stmt

	w writer
}

// maxBuilt bounds the queries a store keeps prepared; past it, a new
// shape is prepared for each run, as before.
const maxBuilt = 64

// query runs a built query through its prepared statement.
func (s *Store) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := s.st.prepared(ctx, s.db, query)
	if err != nil {
		return nil, err
	}
	if st == nil {
		return s.db.QueryContext(ctx, query, args...)
	}
	return st.QueryContext(ctx, args...)
}

// queryRow is query for one row.
func (s *Store) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := s.st.prepared(ctx, s.db, query)
	if err != nil || st == nil {
		return s.db.QueryRowContext(ctx, query, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// prepared returns query's prepared statement, preparing it the first
// time; nil when the store keeps maxBuilt already.
func (st *statements) prepared(ctx context.Context, db *sql.DB, query string) (*sql.Stmt, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if p, ok := st.built[query]; ok {
		return p, nil
	}
	if len(st.built) >= maxBuilt {
		return nil, nil
	}
	p, err := db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if st.built == nil {
		st.built = map[string]*sql.Stmt{}
	}
	st.built[query] = p
	return p, nil
}

// The queries of writing, prepared on the writer connection.
const (
	// preludeSQL (below) reads, in one round trip, what every Append checks
	// before it inserts.
	selectStreamVersion = `SELECT coalesce(max(stream_version), 0) FROM events WHERE stream = ?`
	selectHead          = `SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1`
	// selectIDTaken reads whether an event ID is in the log up to a seq.
	selectIDTaken = `SELECT EXISTS (SELECT 1 FROM events WHERE id = ?1 AND seq <= ?2)`
)

// preludeStreams is how many streams' versions the prelude reads: a
// command expects a few (a roll: the commands stream, the campaign and
// the roller's); the others, if any, take a query each.
const preludeStreams = 4

// preludeSQL returns the query that reads, in one round trip, what every
// Append checks before it inserts: whether the command ID (?1) is in the
// log already, the log's head (0 and an empty hash when it is empty),
// SQLite's data_version (see Command.ExpectedHead) and the versions of the n streams
// ?2, ?3 ...
func preludeSQL(n int) string {
	var b strings.Builder
	b.WriteString(`SELECT EXISTS (SELECT 1 FROM events WHERE command_id = ?1),
       coalesce((SELECT max(seq) FROM events), 0),
       coalesce((SELECT hash FROM events ORDER BY seq DESC LIMIT 1), ''),
       (SELECT data_version FROM pragma_data_version())`)
	for i := range n {
		fmt.Fprintf(&b, ",\n       (SELECT coalesce(max(stream_version), 0) FROM events WHERE stream = ?%d)", i+2)
	}
	return b.String()
}

// prelude[n-1] is preludeSQL(n).
var prelude = func() (q [preludeStreams]string) {
	for i := range q {
		q[i] = preludeSQL(i + 1)
	}
	return q
}()

// prepare prepares the store's fixed queries on db.
func prepare(ctx context.Context, db *sql.DB) (*statements, error) {
	st := &statements{}
	for _, p := range []struct {
		stmt  **sql.Stmt
		query string
	}{
		{&st.streamVersion, selectStreamVersion},
		{&st.head, selectHead},
		{&st.readStream, eventRow + ` WHERE stream = ? AND stream_version > ? ORDER BY stream_version`},
		{&st.byID, eventRow + ` WHERE id = ?`},
	} {
		var err error
		if *p.stmt, err = db.PrepareContext(ctx, p.query); err != nil {
			st.close()
			return nil, fmt.Errorf("prepare %q: %w", p.query, err)
		}
	}
	return st, nil
}

// close closes every prepared statement and gives the writer connection
// back to the pool, which the store then closes.
func (st *statements) close() {
	st.w.release()
	for _, s := range []*sql.Stmt{st.streamVersion, st.head, st.readStream, st.byID} {
		if s != nil {
			_ = s.Close()
		}
	}
	st.mu.Lock()
	for _, s := range st.built {
		_ = s.Close()
	}
	st.built = nil
	st.mu.Unlock()
}

// ReadStream implements events.Store.
func (s *Store) ReadStream(stream string, afterVersion int64) ([]events.Event, error) {
	// Stream versions have no gaps: the version tells how many there are.
	hint := 0
	if v, err := s.StreamVersion(stream); err == nil && v > afterVersion {
		hint = int(min(v-afterVersion, 1<<16))
	}
	rows, err := s.st.readStream.QueryContext(context.Background(), stream, afterVersion)
	es, err := s.readAllHint(hint, rows, err)
	if err != nil {
		return nil, fmt.Errorf("read stream %q: %w", stream, err)
	}
	return es, nil
}

// StreamVersion implements events.Store.
func (s *Store) StreamVersion(stream string) (int64, error) {
	var v int64
	if err := s.st.streamVersion.QueryRowContext(context.Background(), stream).Scan(&v); err != nil {
		return 0, fmt.Errorf("stream %q: %w", stream, err)
	}
	return v, nil
}

// Read implements events.Store.
func (s *Store) Read(q events.Query) ([]events.Event, error) {
	query, args := selectQuery(q)
	es, err := s.readAll(s.query(context.Background(), query, args...))
	if err != nil {
		return nil, fmt.Errorf("read events: %w", err)
	}
	if q.Limit > 0 && q.Last {
		slices.SortFunc(es, func(a, b events.Event) int { return cmp.Compare(a.Seq, b.Seq) })
	}
	return es, nil
}

// Iter implements events.Store. The rows are read as the loop asks for
// them, in one read transaction (a consistent snapshot of the log, which
// never blocks a writer in WAL mode).
func (s *Store) Iter(q events.Query) iter.Seq2[events.Event, error] {
	return func(yield func(events.Event, error) bool) {
		if q.Limit > 0 && q.Last {
			// The last Limit rows come newest first: a bounded read.
			events.Each(s.Read(q))(yield)
			return
		}
		query, args := selectQuery(q)
		ctx := context.Background()
		rows, err := s.query(ctx, query, args...)
		if err != nil {
			yield(events.Event{}, fmt.Errorf("read events: %w", err))
			return
		}
		defer rows.Close()
		r := rowReader{s: s}
		for rows.Next() {
			e, err := r.next(ctx, rows)
			if err != nil {
				yield(events.Event{}, fmt.Errorf("read events: %w", err))
				return
			}
			if !yield(e, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(events.Event{}, fmt.Errorf("read events: %w", err))
		}
	}
}

// selectQuery returns the SELECT of the events q selects, with its
// arguments. With Limit and Last the rows come newest first.
func selectQuery(q events.Query) (string, []any) {
	// Command IDs and a type prefix (creations, foes, ships, XP) are
	// selective: their indexes find the few rows, where a range of seqs
	// would have SQLite read every row in it (a million, for an as-of read
	// of the roster). The unary + keeps the planner off the seq range then.
	seqCol := "seq"
	if q.TypePrefix != "" || len(q.CommandIDs) > 0 {
		seqCol = "+seq"
	}
	var where []string
	var args []any
	if q.AfterSeq > 0 {
		where = append(where, seqCol+" > ?")
		args = append(args, q.AfterSeq)
	}
	if q.UpToSeq > 0 {
		where = append(where, seqCol+" <= ?")
		args = append(args, q.UpToSeq)
	}
	if len(q.Streams) > 0 {
		col := "stream"
		if len(q.CommandIDs) > 0 {
			col = "+stream" // the command IDs' index finds fewer rows
		}
		where = append(where, col+" IN ("+placeholders(len(q.Streams))+")")
		for _, st := range q.Streams {
			args = append(args, st)
		}
	}
	if q.StreamPrefix != "" {
		cond, a := hasPrefix("stream", q.StreamPrefix)
		where, args = append(where, cond), append(args, a...)
	}
	if q.TypePrefix != "" {
		cond, a := hasPrefix("type", q.TypePrefix)
		where, args = append(where, cond), append(args, a...)
	}
	if len(q.Types) > 0 {
		// Reading in seq order and keeping these types beats the type
		// index, which would visit each type in turn and then sort the
		// lot before yielding the first: the unary + keeps the planner
		// off it.
		where = append(where, "+type IN ("+placeholders(len(q.Types))+")")
		for _, t := range q.Types {
			args = append(args, t)
		}
	}
	if len(q.Seqs) > 0 {
		where = append(where, "seq IN ("+placeholders(len(q.Seqs))+")")
		for _, seq := range q.Seqs {
			args = append(args, seq)
		}
	}
	if len(q.CommandIDs) > 0 {
		where = append(where, "command_id IN ("+placeholders(len(q.CommandIDs))+")")
		for _, id := range q.CommandIDs {
			args = append(args, id)
		}
	}
	if len(q.Actors) > 0 {
		where = append(where, "actor IN ("+placeholders(len(q.Actors))+")")
		for _, a := range q.Actors {
			args = append(args, a)
		}
	}
	// recorded_at is stored fixed-width (events.TimeLayout), so text order
	// is time order.
	if !q.Since.IsZero() {
		where = append(where, "recorded_at >= ?")
		args = append(args, events.FormatTime(q.Since))
	}
	if !q.Until.IsZero() {
		where = append(where, "recorded_at <= ?")
		args = append(args, events.FormatTime(q.Until))
	}
	var b strings.Builder
	b.WriteString(eventRow)
	if len(where) > 0 {
		b.WriteString(" WHERE ")
		b.WriteString(strings.Join(where, " AND "))
	}
	switch {
	case q.Limit > 0 && q.Last && len(q.Streams) == 1 && len(q.CommandIDs) == 0:
		// The last events of one stream: its index (stream,
		// stream_version) holds them newest first, and the read stops at
		// the limit. By seq, SQLite would sort the whole stream first (a
		// long character's 100,000 events for his last 200). A stream's
		// versions follow the seqs (verify checks it); Read puts the rows
		// in seq order whatever they came in.
		b.WriteString(" ORDER BY stream_version DESC")
	case q.Limit > 0 && q.Last:
		b.WriteString(" ORDER BY seq DESC")
	default:
		b.WriteString(" ORDER BY seq")
	}
	if q.Limit > 0 {
		// Written out, not bound: SQLite re-prepares a statement each
		// time a LIMIT parameter is bound (its planner reads the value).
		b.WriteString(" LIMIT " + strconv.Itoa(q.Limit))
	}
	return b.String(), args
}

// hasPrefix returns a condition that column starts with prefix, byte for
// byte. It is a range comparison rather than LIKE, which ignores ASCII case
// and would need its wildcards escaped, or GLOB; a range also uses the
// column's index.
func hasPrefix(column, prefix string) (string, []any) {
	// The smallest string greater than every string with the prefix: drop
	// trailing 0xFF bytes, then add one to the last byte. Text compares
	// with memcmp under the BINARY collation, as Go compares strings.
	b := []byte(prefix)
	for len(b) > 0 && b[len(b)-1] == 0xFF {
		b = b[:len(b)-1]
	}
	if len(b) == 0 {
		return column + " >= ?", []any{prefix}
	}
	b[len(b)-1]++
	return "(" + column + " >= ? AND " + column + " < ?)", []any{prefix, string(b)}
}

// EventByID implements events.Store.
func (s *Store) EventByID(id string) (events.Event, error) {
	es, err := s.readAll(s.st.byID.QueryContext(context.Background(), id))
	if err != nil {
		return events.Event{}, fmt.Errorf("event %q: %w", id, err)
	}
	if len(es) == 0 {
		return events.Event{}, fmt.Errorf("event %q: %w", id, events.ErrNotFound)
	}
	return es[0], nil
}

// Head implements events.Store.
func (s *Store) Head() (int64, []byte, error) {
	seq, hash, err := head(context.Background(), s.st.head)
	if err != nil {
		return 0, nil, fmt.Errorf("read head: %w", err)
	}
	return seq, hash, nil
}

// head returns the last seq and its hash, or 0 and the genesis hash, with
// the statement st.head.
func head(ctx context.Context, stmt *sql.Stmt) (int64, []byte, error) {
	var seq int64
	var hexHash string
	err := stmt.QueryRowContext(ctx).Scan(&seq, &hexHash)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, events.GenesisHash(), nil
	}
	if err != nil {
		return 0, nil, err
	}
	hash, err := decodeHash(hexHash)
	if err != nil {
		return 0, nil, fmt.Errorf("event %d: hash: %w", seq, err)
	}
	return seq, hash, nil
}

// Count implements events.Store.
func (s *Store) Count() (int64, error) {
	var n int64
	if err := s.queryRow(context.Background(), `SELECT count(*) FROM events`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count events: %w", err)
	}
	return n, nil
}

// scanEvent reads the current row of rows, which selects eventColumns.
func scanEvent(rows *sql.Rows) (events.Event, error) {
	var (
		e                          events.Event
		payload                    []byte
		recordedAt, prevHex, hashX string
	)
	if err := rows.Scan(&e.Seq, &e.ID, &e.CommandID, &e.Stream, &e.StreamVersion, &e.Type, &e.PayloadVersion,
		&payload, &e.Actor, &recordedAt, &prevHex, &hashX); err != nil {
		return events.Event{}, err
	}
	e.Payload = payload
	var err error
	if e.RecordedAt, err = events.ParseTime(recordedAt); err != nil {
		return events.Event{}, fmt.Errorf("event %d: %w", e.Seq, err)
	}
	if e.PrevHash, err = decodeHash(prevHex); err != nil {
		return events.Event{}, fmt.Errorf("event %d: prev_hash: %w", e.Seq, err)
	}
	if e.Hash, err = decodeHash(hashX); err != nil {
		return events.Event{}, fmt.Errorf("event %d: hash: %w", e.Seq, err)
	}
	return e, nil
}

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

// placeholders returns n comma-separated question marks.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}
