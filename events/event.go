// Package events holds the event envelope, the stable event type names and
// their payloads, the hash chain that makes the log tamper-evident, and the
// Store interface that every event store implements.
//
// The log is append-only: an event, once committed, is never updated or
// deleted. Corrections are new events.
package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"time"
)

// Event is one committed fact in the campaign log, with its envelope.
type Event struct {
	// Seq is the global, gap-free position of the event in the log (from 1).
	Seq int64 `json:"seq"`
	// ID is the event's ULID.
	ID string `json:"id"`
	// CommandID is the ULID of the user command that produced the event.
	// One command may append several events; undo and audit treat them as one.
	CommandID string `json:"command_id"`
	// Stream names the aggregate the event belongs to: "campaign",
	// "character/<ulid>", "dice", later "ship/<ulid>".
	Stream string `json:"stream"`
	// StreamVersion is the event's position in its stream (from 1).
	StreamVersion int64 `json:"stream_version"`
	// Type is the stable type name, such as "xp.spent".
	Type string `json:"type"`
	// PayloadVersion is the version of the payload's shape for Type.
	PayloadVersion int `json:"payload_version"`
	// Payload is the event's JSON payload, byte for byte as stored.
	Payload json.RawMessage `json:"payload"`
	// Actor is who ran the command.
	Actor string `json:"actor"`
	// RecordedAt is the wall time the command was recorded, in UTC.
	RecordedAt time.Time `json:"recorded_at"`
	// PrevHash is the previous event's Hash (32 zero bytes for seq 1).
	PrevHash []byte `json:"prev_hash"`
	// Hash is SHA-256 over PrevHash and the canonical encoding of the event.
	Hash []byte `json:"hash"`
}

// Pending is an event a command wants to append; the store assigns its
// sequence number, stream version and hashes.
type Pending struct {
	// ID is the event's ULID, chosen by the caller.
	ID string
	// Stream is the stream the event is appended to.
	Stream string
	// Type is the event's stable type name.
	Type string
	// PayloadVersion is the version of the payload's shape.
	PayloadVersion int
	// Payload is the JSON payload, stored byte for byte.
	Payload json.RawMessage
}

// AnyVersion, as an expected stream version, skips the concurrency check for
// that stream.
const AnyVersion int64 = -1

// Command is everything one user command appends, committed as one unit.
type Command struct {
	// ID is the command's ULID. Appending a command whose ID is already in the
	// log appends nothing and reports the events already there.
	ID string
	// Actor is who ran the command.
	Actor string
	// RecordedAt is the wall time of the command; the store keeps it in UTC.
	RecordedAt time.Time
	// Expected maps each stream the command depends on to the version the
	// command was decided against (0: the stream must not exist yet, or
	// AnyVersion). Every stream that Events touch must have an entry; streams
	// with no events here are checked too, as preconditions.
	Expected map[string]int64
	// Events are appended in this order.
	Events []Pending
	// Snapshots are saved with the events, in the same transaction, when
	// the command is appended (not when it is a duplicate or refused).
	// Each must be of a stream the command expects at the snapshot's
	// Version, folded with the commands stream at the version the command
	// expects of it: the checks that guard the append guard the snapshot.
	Snapshots []Snapshot
	// ExpectedHead, when set, is the log's head the command was decided
	// at: a command decided on states kept in memory from the commands
	// before it (a session such as `ltscamp play`), rather than read from
	// the log, names it. The append fails with a *HeadMovedError (an
	// ErrConcurrency) when the head is another. A store also refuses it so
	// when it cannot vouch that nothing but its own appends changed the
	// log since its last one (sqlitestore: another connection committed,
	// or the file was rewritten): the command is then decided again from
	// the log, with the checks of a command read from it.
	ExpectedHead *Head
}

// Head is the log's last event: its seq and hash (seq 0 and GenesisHash
// on an empty log).
type Head struct {
	Seq  int64
	Hash []byte
}

// CheckHead returns a *HeadMovedError when the log's head, at seq with
// hash, is not the one c expects (c.ExpectedHead; nil when it expects
// none).
func (c Command) CheckHead(seq int64, hash []byte) error {
	want := c.ExpectedHead
	if want == nil || (want.Seq == seq && bytes.Equal(want.Hash, hash)) {
		return nil
	}
	return &HeadMovedError{Expected: want.Seq, Actual: seq}
}

// AppendResult reports what an Append committed.
type AppendResult struct {
	// Events are the committed events, with their envelopes.
	Events []Event
	// Duplicate is true when the command ID was already in the log, so
	// nothing was appended; Events then holds the events logged before.
	Duplicate bool
}

// Query selects events from the whole log, in seq order.
type Query struct {
	// AfterSeq keeps events with Seq > AfterSeq.
	AfterSeq int64
	// UpToSeq, when positive, keeps events with Seq <= UpToSeq.
	UpToSeq int64
	// Filters combine with AND. A nil or empty list filter is not applied.
	//
	// Streams, when set, keeps events of these streams only.
	Streams []string
	// StreamPrefix, when set, keeps events whose stream starts with it.
	StreamPrefix string
	// TypePrefix, when set, keeps events whose type starts with it
	// ("xp." matches "xp.awarded" and "xp.spent").
	TypePrefix string
	// Types, when set, keeps events of these types only.
	Types []string
	// CommandIDs, when set, keeps events of these commands only.
	CommandIDs []string
	// Seqs, when set, keeps the events at these seqs only (in seq order,
	// each once, whatever the order and repeats given): a reader that
	// checks scattered events (an audit's rows) reads them in a few
	// queries rather than one each.
	Seqs []int64
	// Actors, when set, keeps events recorded by these actors only.
	Actors []string
	// Since and Until, when not zero, keep events recorded at or after
	// Since and at or before Until (wall time).
	Since, Until time.Time
	// Limit, when positive, caps the number of events returned.
	Limit int
	// Last, with Limit, returns the last Limit matching events (still in seq
	// order) instead of the first.
	Last bool
}

// Store is an append-only event log. Implementations must pass the
// conformance suite in package events/storetest.
type Store interface {
	// Append commits cmd's events atomically after checking every expected
	// stream version. It returns a *ConcurrencyError (matching
	// ErrConcurrency) when a stream has moved on, and appends nothing.
	Append(cmd Command) (AppendResult, error)
	// ReadStream returns the events of stream with StreamVersion >
	// afterVersion, in order.
	ReadStream(stream string, afterVersion int64) ([]Event, error)
	// StreamVersion returns the version of stream's last event, 0 if none.
	StreamVersion(stream string) (int64, error)
	// Read returns the events that q selects, in seq order.
	Read(q Query) ([]Event, error)
	// Iter yields the events that q selects, in seq order, one at a time,
	// so that a reader of the whole log holds one event at once. It
	// yields a non-nil error once, as its last pair, when reading fails;
	// breaking out of the loop early releases the read.
	Iter(q Query) iter.Seq2[Event, error]
	// Snapshots keeps projections' snapshots beside the log.
	Snapshots
	// Load appends events sealed elsewhere (a restore from a backup),
	// keeping their seqs, IDs, envelopes and hashes. Each must continue
	// the chain from the log's head (see Link) and its stream's version
	// by one, and its ID must be new; otherwise Load returns an error
	// matching ErrBadLoad and appends none of them.
	Load(batch []Event) error
	// EventByID returns the event with the given ULID, or an error matching
	// ErrNotFound.
	EventByID(id string) (Event, error)
	// Head returns the last seq and its hash (0 and the genesis hash when the
	// log is empty).
	Head() (seq int64, hash []byte, err error)
	// Count returns the number of events in the log.
	Count() (int64, error)
	// Close releases the store.
	Close() error
}

// Each yields es in order, as a Store's Iter does, or err once when err
// is set: an Iter over events a store read whole (a bounded read, such as
// a query's last Limit events).
func Each(es []Event, err error) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		if err != nil {
			yield(Event{}, err)
			return
		}
		for _, e := range es {
			if !yield(e, nil) {
				return
			}
		}
	}
}

// Sentinel errors shared by every store.
var (
	// ErrConcurrency means a stream changed since the command read it.
	ErrConcurrency = errors.New("concurrent change")
	// ErrNotFound means no event matched.
	ErrNotFound = errors.New("event not found")
	// ErrNotCampaign means a file is not an ltscamp campaign.
	ErrNotCampaign = errors.New("not an ltscamp campaign")
	// ErrExists means a campaign file already exists where one was to be made.
	ErrExists = errors.New("campaign already exists")
	// ErrNewerFormat means a campaign was written by a newer ltscamp, whose
	// schema this program must not touch.
	ErrNewerFormat = errors.New("made by a newer ltscamp")
	// ErrInvalidCommand means a command is malformed (no ID, a stream with no
	// expected version, an empty payload...). It is a programming error.
	ErrInvalidCommand = errors.New("invalid command")
	// ErrBadLoad means events given to Load do not continue the log.
	ErrBadLoad = errors.New("events do not continue the log")
)

// ConcurrencyError reports which stream moved on.
type ConcurrencyError struct {
	// Stream is the stream that moved on.
	Stream string
	// Expected is the version the command was decided against.
	Expected int64
	// Actual is the stream's version in the log.
	Actual int64
}

// Error implements error.
func (e *ConcurrencyError) Error() string {
	return fmt.Sprintf("%s: stream %q is at version %d, the command expected %d", ErrConcurrency, e.Stream, e.Actual, e.Expected)
}

// Is makes errors.Is(err, ErrConcurrency) true.
func (e *ConcurrencyError) Is(target error) bool { return target == ErrConcurrency }

// HeadMovedError is the error of an append refused because the log is not
// as the command expected it (Command.ExpectedHead).
type HeadMovedError struct {
	// Expected is the head's seq the command was decided at; Actual the
	// log's.
	Expected, Actual int64
	// Reason, when set, says why a store that found the head as expected
	// refused the command all the same.
	Reason string
}

// Error implements error.
func (e *HeadMovedError) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("%s: the command was decided at the log's head, seq %d, but %s", ErrConcurrency, e.Expected, e.Reason)
	}
	return fmt.Sprintf("%s: the log's head is seq %d, the command was decided at seq %d", ErrConcurrency, e.Actual, e.Expected)
}

// Is makes errors.Is(err, ErrConcurrency) true.
func (e *HeadMovedError) Is(target error) bool { return target == ErrConcurrency }
