package sqlitestore

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"strings"
	"time"

	"github.com/ltscamp/ltscamp/events"
)

// Append implements events.Store. The whole command runs in one BEGIN
// IMMEDIATE transaction: the write lock is taken before the expected
// versions are read, so no other appender can move a stream between the
// check and the insert.
//
// It costs few round trips: one query reads whether the command is in
// the log already, the head and the versions of up to preludeStreams
// streams (the others, if any, take one each); the events go in with a few multi-row INSERTs. An event
// ID already in the log is caught by the events table's UNIQUE (id)
// rather than looked up beforehand, and reported as before.
func (s *Store) Append(cmd events.Command) (res events.AppendResult, err error) {
	if err := cmd.Validate(); err != nil {
		return events.AppendResult{}, err
	}
	ctx := context.Background()
	err = s.write(ctx, "append command "+cmd.ID, func(w *writer) (bool, error) {
		var err error
		res, err = s.appendIn(ctx, w, cmd)
		return err == nil && !res.Duplicate, err
	})
	if err != nil {
		// A damaged file, a full disk, a lock held too long: said as such.
		return events.AppendResult{}, Classify(err)
	}
	return res, nil
}

// appendIn appends cmd in the write transaction under way on w.
func (s *Store) appendIn(ctx context.Context, w *writer, cmd events.Command) (events.AppendResult, error) {
	streams := slices.Sorted(maps.Keys(cmd.Expected)) // Validate: at least one
	var (
		duplicate   bool
		seq         int64
		hashHex     string
		dataVersion int64
	)
	first := streams[:min(len(streams), preludeStreams)]
	versionsRead := make([]int64, len(first))
	args := make([]any, 0, 1+len(first))
	dest := make([]any, 0, 4+len(first))
	args = append(args, cmd.ID)
	dest = append(dest, &duplicate, &seq, &hashHex, &dataVersion)
	for i, stream := range first {
		args = append(args, stream)
		dest = append(dest, &versionsRead[i])
	}
	row, err := w.queryRow(ctx, prelude[len(first)-1], args...)
	if err == nil {
		err = row.Scan(dest...)
	}
	if err != nil {
		return events.AppendResult{}, fmt.Errorf("append command %s: %w", cmd.ID, err)
	}
	if duplicate {
		st, err := w.stmt(ctx, eventRow+` WHERE command_id = ? ORDER BY seq`)
		if err != nil {
			return events.AppendResult{}, fmt.Errorf("append command %s: %w", cmd.ID, err)
		}
		prior, err := s.readAll(st.QueryContext(ctx, cmd.ID))
		if err != nil {
			return events.AppendResult{}, fmt.Errorf("append command %s: %w", cmd.ID, err)
		}
		return events.AppendResult{Events: prior, Duplicate: true}, nil
	}
	// Read within the write transaction, data_version is the one this
	// connection will read after its commit, unless another commits.
	w.txDataVersion, w.txVersionKnown = dataVersion, true
	if cmd.ExpectedHead != nil {
		if err := s.checkHeadExpected(w, cmd, seq, hashHex, dataVersion); err != nil {
			return events.AppendResult{}, err
		}
	}
	current := make(map[string]int64, len(streams))
	for i, stream := range first {
		current[stream] = versionsRead[i]
	}
	for _, stream := range streams[len(first):] {
		var v int64
		row, err := w.queryRow(ctx, selectStreamVersion, stream)
		if err == nil {
			err = row.Scan(&v)
		}
		if err != nil {
			return events.AppendResult{}, fmt.Errorf("append command %s: %w", cmd.ID, err)
		}
		current[stream] = v
	}
	versions, err := cmd.CheckExpected(func(stream string) (int64, error) { return current[stream], nil })
	if err != nil {
		// A reused event ID is a malformed command, which is reported
		// before a stream that moved on.
		if taken := idTaken(ctx, w, cmd.Events, seq); taken != "" {
			return events.AppendResult{}, idTakenError(cmd.ID, taken)
		}
		return events.AppendResult{}, err
	}
	hash := events.GenesisHash()
	if seq > 0 {
		if hash, err = decodeHash(hashHex); err != nil {
			return events.AppendResult{}, fmt.Errorf("append command %s: event %d: hash: %w", cmd.ID, seq, err)
		}
	}
	sealed := cmd.Seal(seq, hash, versions)
	if err := insertEvents(ctx, w, sealed); err != nil {
		var ie *insertError
		if errors.As(err, &ie) && ie.idTaken() {
			if taken := idTaken(ctx, w, cmd.Events, seq); taken != "" {
				return events.AppendResult{}, idTakenError(cmd.ID, taken)
			}
		}
		return events.AppendResult{}, fmt.Errorf("append command %s: %w", cmd.ID, err)
	}
	if err := saveSnapshots(ctx, w, cmd.Snapshots); err != nil {
		return events.AppendResult{}, fmt.Errorf("append command %s: %w", cmd.ID, err)
	}
	return events.AppendResult{Events: sealed}, nil
}

// checkHeadExpected refuses a command decided at a head (ExpectedHead)
// when the log's head, at seq with hashHex, is another, and also when this
// store cannot vouch that nothing but its own appends changed the file
// since the last one: no Append of this store committed on this
// connection yet, another connection committed since (data_version moved
// on) or the guard found the file rewritten. The command is then decided
// again from the log.
func (s *Store) checkHeadExpected(w *writer, cmd events.Command, seq int64, hashHex string, dataVersion int64) error {
	hash := events.GenesisHash()
	if seq > 0 {
		var err error
		if hash, err = decodeHash(hashHex); err != nil {
			return fmt.Errorf("append command %s: event %d: hash: %w", cmd.ID, seq, err)
		}
	}
	if err := cmd.CheckHead(seq, hash); err != nil {
		return err
	}
	why := ""
	switch {
	case !w.versionKnown:
		why = "this store has not appended on its connection since it was opened"
	case dataVersion != w.dataVersion:
		why = "another connection has written to the file since this store's last append"
	case s.guard != nil && !s.guard.untouched:
		why = "the file was changed since this store's last append"
	}
	if why != "" {
		return &events.HeadMovedError{Expected: cmd.ExpectedHead.Seq, Actual: seq, Reason: why}
	}
	return nil
}

// idTakenError is the error of a command that reuses an event ID.
func idTakenError(commandID, eventID string) error {
	return fmt.Errorf("%w: command %q: event ID %q is already in the log", events.ErrInvalidCommand, commandID, eventID)
}

// idTaken returns the first ID of pending that is in the log up to seq
// (its head before the command), or "".
func idTaken(ctx context.Context, w *writer, pending []events.Pending, seq int64) string {
	for _, p := range pending {
		if isIDTaken(ctx, w, p.ID, seq) {
			return p.ID
		}
	}
	return ""
}

// isIDTaken reports whether an event with the ID is in the log up to seq.
func isIDTaken(ctx context.Context, w *writer, id string, seq int64) bool {
	var taken bool
	row, err := w.queryRow(ctx, selectIDTaken, id, seq)
	return err == nil && row.Scan(&taken) == nil && taken
}

// insertSizes is how many multi-row INSERTs the store prepares: of 1, 2,
// 4 ... maxInsertRows rows. 12 parameters a row keeps the largest far below
// SQLite's limit of 32,766.
const (
	insertSizes   = 8
	maxInsertRows = 1 << (insertSizes - 1)
)

// insertRowsSQL returns an INSERT of n event rows.
func insertRowsSQL(n int) string {
	row := "(" + placeholders(12) + ")"
	return `INSERT INTO events (seq, id, command_id, stream, stream_version, type, payload_version, payload, actor, recorded_at, prev_hash, hash) VALUES ` +
		strings.TrimSuffix(strings.Repeat(row+",", n), ",")
}

// insertSQL[i] is the INSERT of 1<<i rows.
var insertSQL = func() (q [insertSizes]string) {
	for i := range q {
		q[i] = insertRowsSQL(1 << i)
	}
	return q
}()

// insertChunk returns how many of n rows the next INSERT takes: as many as
// it can, in a size the store keeps.
func insertChunk(n int) int {
	if n >= maxInsertRows {
		return maxInsertRows
	}
	return 1 << (bits.Len(uint(n)) - 1)
}

// insertError is a failed INSERT of the rows from Start of a batch.
type insertError struct {
	Start, N int
	Err      error
}

func (e *insertError) Error() string {
	if e.N == 1 {
		return fmt.Sprintf("event %d of the batch: %v", e.Start+1, e.Err)
	}
	return fmt.Sprintf("events %d–%d of the batch: %v", e.Start+1, e.Start+e.N, e.Err)
}

func (e *insertError) Unwrap() error { return e.Err }

// idTaken reports whether the INSERT failed on the events table's UNIQUE
// (id): an event ID that is in the log already, or twice among the rows
// inserted.
func (e *insertError) idTaken() bool {
	return strings.Contains(e.Err.Error(), "UNIQUE constraint failed: events.id")
}

// insertEvents inserts es, in the order given, with as few INSERTs as it
// can.
func insertEvents(ctx context.Context, w *writer, es []events.Event) error {
	var args rowArgs
	for start := 0; start < len(es); {
		k := insertChunk(len(es) - start)
		args.build(es[start : start+k])
		if err := insertRows(ctx, w, start, args.args); err != nil {
			return err
		}
		start += k
	}
	return nil
}

// insertRows runs the INSERT of the rows whose arguments are args (12 a
// row, as rowArgs builds them), which are rows start... of a batch.
func insertRows(ctx context.Context, w *writer, start int, args []any) error {
	k := len(args) / 12
	st, err := w.stmt(ctx, insertSQL[bits.Len(uint(k))-1])
	if err != nil {
		return err
	}
	if _, err := st.ExecContext(ctx, args...); err != nil {
		return &insertError{Start: start, N: k, Err: err}
	}
	return nil
}

// rowArgs builds the arguments of an INSERT of event rows.
type rowArgs struct {
	args               []any
	lastTime           time.Time
	lastText, lastHash string
	lastHashBytes      []byte
}

// build sets r.args to the arguments of es's rows, 12 a row, in
// insertRows' column order.
func (r *rowArgs) build(es []events.Event) {
	r.args = r.args[:0]
	for _, e := range es {
		if r.lastText == "" || !e.RecordedAt.Equal(r.lastTime) { // a command's events share one time
			r.lastTime, r.lastText = e.RecordedAt, events.FormatTime(e.RecordedAt)
		}
		// An event's prev_hash is the hash of the event before it, which
		// is usually the row before.
		prev := r.lastHash
		if !bytes.Equal(e.PrevHash, r.lastHashBytes) {
			prev = hex.EncodeToString(e.PrevHash)
		}
		r.lastHash, r.lastHashBytes = hex.EncodeToString(e.Hash), e.Hash
		r.args = append(r.args, e.Seq, e.ID, e.CommandID, e.Stream, e.StreamVersion, e.Type, e.PayloadVersion,
			// The payload is bound as TEXT: a BLOB would be stored as
			// such, and json_valid would read it as JSONB.
			string(e.Payload),
			e.Actor, r.lastText, prev, r.lastHash)
	}
}
