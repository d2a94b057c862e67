package events

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"
)

// Validate reports whether c is well formed, with an error matching
// ErrInvalidCommand that says what is wrong. Every store calls it before
// appending, so a malformed command appends nothing.
//
// A command needs an ID, an actor, a recorded time (between years 1 and
// 9999, the range TimeLayout can write) and at least one event. Every event
// needs an ID unique within the command, a stream, a type, a payload
// version of at least 1 and a payload of valid JSON, and its stream needs
// an entry in Expected. Expected versions are 0 or more, or AnyVersion.
// Every text field must be valid UTF-8, since the hash chain encodes it as
// such.
func (c Command) Validate() error {
	bad := func(format string, args ...any) error {
		if c.ID == "" {
			return fmt.Errorf("%w: "+format, append([]any{ErrInvalidCommand}, args...)...)
		}
		return fmt.Errorf("%w: command %q: "+format, append([]any{ErrInvalidCommand, c.ID}, args...)...)
	}
	switch {
	case c.ID == "":
		return bad("the command has no ID")
	case !utf8.ValidString(c.ID):
		return bad("the command ID is not valid UTF-8")
	case c.Actor == "":
		return bad("no actor")
	case !utf8.ValidString(c.Actor):
		return bad("the actor is not valid UTF-8")
	case c.RecordedAt.IsZero():
		return bad("no recorded time")
	}
	if y := c.RecordedAt.UTC().Year(); y < 1 || y > 9999 {
		return bad("recorded time %s is outside years 1 to 9999", c.RecordedAt)
	}
	if len(c.Events) == 0 {
		return bad("no events to append")
	}
	if h := c.ExpectedHead; h != nil && h.Seq < 0 {
		return bad("the expected head's seq %d is negative", h.Seq)
	}
	for _, stream := range slices.Sorted(maps.Keys(c.Expected)) {
		v := c.Expected[stream]
		switch {
		case stream == "":
			return bad("an expected version is given for an empty stream name")
		case !utf8.ValidString(stream):
			return bad("expected stream %q is not valid UTF-8", stream)
		case v < AnyVersion:
			return bad("expected version %d of stream %q is negative (use AnyVersion to skip the check)", v, stream)
		}
	}
	seen := make(map[string]int, len(c.Events))
	for i, p := range c.Events {
		n := i + 1
		switch {
		case p.ID == "":
			return bad("event %d has no ID", n)
		case !utf8.ValidString(p.ID):
			return bad("event %d: the ID is not valid UTF-8", n)
		case p.Stream == "":
			return bad("event %d (%s) has no stream", n, p.ID)
		case p.Type == "":
			return bad("event %d (%s) has no type", n, p.ID)
		case !utf8.ValidString(p.Type):
			return bad("event %d (%s): the type is not valid UTF-8", n, p.ID)
		case p.PayloadVersion < 1:
			return bad("event %d (%s): payload version %d is not 1 or more", n, p.ID, p.PayloadVersion)
		case len(p.Payload) == 0:
			return bad("event %d (%s) has an empty payload", n, p.ID)
		case !json.Valid(p.Payload):
			return bad("event %d (%s): the payload is not valid JSON", n, p.ID)
		case !utf8.Valid(p.Payload):
			return bad("event %d (%s): the payload is not valid UTF-8", n, p.ID)
		}
		if _, ok := c.Expected[p.Stream]; !ok {
			return bad("event %d (%s) appends to stream %q, which has no expected version", n, p.ID, p.Stream)
		}
		if j, dup := seen[p.ID]; dup {
			return bad("events %d and %d have the same ID %q", j, n, p.ID)
		}
		seen[p.ID] = n
	}
	for _, sn := range c.Snapshots {
		if err := sn.Validate(); err != nil {
			return bad("%s", strings.TrimPrefix(err.Error(), ErrInvalidCommand.Error()+": "))
		}
		if v, ok := c.Expected[sn.Stream]; !sn.Across && (!ok || v != sn.Version) {
			return bad("a snapshot of stream %q at version %d is not of a version the command expects", sn.Stream, sn.Version)
		}
		if v, ok := c.Expected[CommandsStream]; !ok || v != sn.Commands {
			return bad("a snapshot of stream %q was folded with commands version %d, which the command does not expect", sn.Stream, sn.Commands)
		}
	}
	return nil
}

// CheckExpected compares each expected stream version of c, in stream-name
// order, with the stream's current version as reported by current. It
// returns the current version of every stream in Expected, or a
// *ConcurrencyError for the first stream that does not match. Stores call
// it inside their write transaction, after Validate.
func (c Command) CheckExpected(current func(stream string) (int64, error)) (map[string]int64, error) {
	versions := make(map[string]int64, len(c.Expected))
	for _, stream := range slices.Sorted(maps.Keys(c.Expected)) {
		actual, err := current(stream)
		if err != nil {
			return nil, err
		}
		if want := c.Expected[stream]; want != AnyVersion && want != actual {
			return nil, &ConcurrencyError{Stream: stream, Expected: want, Actual: actual}
		}
		versions[stream] = actual
	}
	return versions, nil
}

// Seal turns the pending events of c into the events to commit after the
// log's head (headSeq and headHash, 0 and GenesisHash on an empty log):
// it assigns seqs, stream versions following versions (the current version
// of each stream, as CheckExpected returns them), the envelope, and the
// hash chain. versions is not modified. Payloads are copied.
func (c Command) Seal(headSeq int64, headHash []byte, versions map[string]int64) []Event {
	next := maps.Clone(versions)
	if next == nil {
		next = map[string]int64{}
	}
	prev := slices.Clone(headHash)
	out := make([]Event, len(c.Events))
	for i, p := range c.Events {
		next[p.Stream]++
		e := Event{
			Seq:            headSeq + int64(i) + 1,
			ID:             p.ID,
			CommandID:      c.ID,
			Stream:         p.Stream,
			StreamVersion:  next[p.Stream],
			Type:           p.Type,
			PayloadVersion: p.PayloadVersion,
			Payload:        slices.Clone(p.Payload),
			Actor:          c.Actor,
			RecordedAt:     c.RecordedAt.UTC(),
			PrevHash:       prev,
		}
		e.Hash = ComputeHash(prev, e)
		prev = e.Hash
		out[i] = e
	}
	return out
}
