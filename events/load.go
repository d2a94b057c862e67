package events

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// CheckLoad checks a batch of events for Store.Load: each must be a well
// formed envelope (the fields Validate requires of a command, with valid
// UTF-8 and a JSON payload), continue the chain from the event before it
// (headSeq and headHash for the first: the log's head), and continue its
// stream's version by one. version reports a stream's version in the log
// before the batch. It returns a *LoadError (matching ErrBadLoad) for the
// first event that does not fit. ID uniqueness is left to the store, which
// indexes IDs.
func CheckLoad(headSeq int64, headHash []byte, batch []Event, version func(stream string) (int64, error)) error {
	next := map[string]int64{}
	for i, e := range batch {
		bad := func(format string, a ...any) error {
			return &LoadError{Index: i, Seq: e.Seq, EventID: e.ID, Problem: fmt.Sprintf(format, a...)}
		}
		switch {
		case e.ID == "" || !utf8.ValidString(e.ID):
			return bad("no ID, or not UTF-8")
		case e.CommandID == "" || !utf8.ValidString(e.CommandID):
			return bad("no command ID, or not UTF-8")
		case e.Stream == "" || !utf8.ValidString(e.Stream):
			return bad("no stream, or not UTF-8")
		case e.Type == "" || !utf8.ValidString(e.Type):
			return bad("no type, or not UTF-8")
		case e.Actor == "" || !utf8.ValidString(e.Actor):
			return bad("no actor, or not UTF-8")
		case e.PayloadVersion < 1:
			return bad("payload version %d is not 1 or more", e.PayloadVersion)
		case e.RecordedAt.IsZero() || e.RecordedAt.Year() < 1 || e.RecordedAt.Year() > 9999:
			return bad("recorded time %s is outside years 1 to 9999", e.RecordedAt)
		case len(e.Payload) == 0 || !json.Valid(e.Payload) || !utf8.Valid(e.Payload):
			return bad("the payload is not valid JSON")
		}
		if reason := Link(headSeq, headHash, e); reason != "" {
			return bad("%s", reason)
		}
		v, ok := next[e.Stream]
		if !ok {
			var err error
			if v, err = version(e.Stream); err != nil {
				return err
			}
		}
		if e.StreamVersion != v+1 {
			return bad("stream %s is at version %d, so the next is %d, not %d", e.Stream, v, v+1, e.StreamVersion)
		}
		next[e.Stream] = e.StreamVersion
		headSeq, headHash = e.Seq, e.Hash
	}
	return nil
}

// LoadError is an event that Store.Load refused, and why.
type LoadError struct {
	// Index is the event's place in the batch (from 0); Seq and EventID
	// are what the event says of itself.
	Index   int
	Seq     int64
	EventID string
	Problem string
}

// Error implements error.
func (e *LoadError) Error() string {
	return fmt.Sprintf("%s: seq %d (event %s): %s", ErrBadLoad, e.Seq, e.EventID, e.Problem)
}

// Is makes errors.Is(err, ErrBadLoad) true.
func (e *LoadError) Is(target error) bool { return target == ErrBadLoad }
