package events

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strconv"
	"time"
)

// HashSize is the length in bytes of every hash in the chain (SHA-256).
const HashSize = sha256.Size

// canonicalTag opens every canonical encoding, so that a hash of version 1
// can never be mistaken for a hash of a later encoding.
const canonicalTag = "ltscamp.event.v1"

// TimeLayout is the fixed-width layout in which RecordedAt is stored and
// hashed: UTC, nanoseconds always written out, so that the text of a time
// sorts as the time does and always hashes the same.
const TimeLayout = "2006-01-02T15:04:05.000000000Z"

// GenesisHash returns the hash that precedes the first event of every log:
// 32 zero bytes.
func GenesisHash() []byte { return make([]byte, HashSize) }

// FormatTime returns t in UTC in TimeLayout.
func FormatTime(t time.Time) string { return t.UTC().Format(TimeLayout) }

// ParseTime parses a time written by FormatTime and returns it in UTC.
func ParseTime(s string) (time.Time, error) {
	t, err := time.Parse(TimeLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("parse recorded time %q: %w", s, err)
	}
	return t.UTC(), nil
}

// CanonicalEncoding returns the bytes of e that the hash chain covers. Each
// field is written, in this order, as a 4-byte big-endian length followed by
// its UTF-8 bytes: the tag "ltscamp.event.v1", seq, id, command_id, stream,
// stream_version, type, payload_version, actor, recorded_at (FormatTime) and
// the payload exactly as stored. Numbers are written in decimal. PrevHash and
// Hash are not part of it: ComputeHash chains PrevHash in front.
func CanonicalEncoding(e Event) []byte {
	fields := [...][]byte{
		[]byte(canonicalTag),
		strconv.AppendInt(nil, e.Seq, 10),
		[]byte(e.ID),
		[]byte(e.CommandID),
		[]byte(e.Stream),
		strconv.AppendInt(nil, e.StreamVersion, 10),
		[]byte(e.Type),
		strconv.AppendInt(nil, int64(e.PayloadVersion), 10),
		[]byte(e.Actor),
		[]byte(FormatTime(e.RecordedAt)),
		e.Payload,
	}
	n := 0
	for _, f := range fields {
		n += 4 + len(f)
	}
	buf := make([]byte, 0, n)
	for _, f := range fields {
		buf = binary.BigEndian.AppendUint32(buf, uint32(len(f)))
		buf = append(buf, f...)
	}
	return buf
}

// ComputeHash returns SHA-256(prev || CanonicalEncoding(e)), the Hash of e
// when prev is the Hash of the event before it.
func ComputeHash(prev []byte, e Event) []byte {
	h := sha256.New()
	h.Write(prev)
	h.Write(CanonicalEncoding(e))
	return h.Sum(nil)
}

// ChainBreak walks events, which must be consecutive and in seq order, from
// prev, the Hash of the event before the first one (GenesisHash when the
// first is seq 1). It reports the first event that breaks the chain: ok is
// true when a break was found, seq is that event's Seq and reason says why
// (a seq gap, a PrevHash that is not the previous event's Hash, or a Hash
// that does not match the event's contents). ok is false when the chain is
// intact.
func ChainBreak(events []Event, prev []byte) (seq int64, reason string, ok bool) {
	if len(events) == 0 {
		return 0, "", false
	}
	// The seq before the first event: a genesis prev hash stands before
	// seq 1, any other before whatever seq comes first.
	last := events[0].Seq - 1
	if bytes.Equal(prev, GenesisHash()) {
		last = 0
	}
	for _, e := range events {
		if reason := Link(last, prev, e); reason != "" {
			return e.Seq, reason, true
		}
		last, prev = e.Seq, e.Hash
	}
	return 0, "", false
}

// Link checks that e continues the chain after the event at seq prevSeq
// whose hash is prevHash (0 and GenesisHash before the first event). It
// returns why e does not continue it (a seq that is not prevSeq+1, a
// PrevHash that is not prevHash, or a Hash that does not match the event's
// contents), or "" when it does.
func Link(prevSeq int64, prevHash []byte, e Event) string {
	switch {
	case e.Seq < 1:
		return fmt.Sprintf("seq %d is not a log position (seqs start at 1)", e.Seq)
	case e.Seq != prevSeq+1:
		return fmt.Sprintf("seq gap: expected seq %d after %d, found %d", prevSeq+1, prevSeq, e.Seq)
	case e.Seq == 1 && !bytes.Equal(prevHash, GenesisHash()):
		return "the chain does not start from the genesis hash"
	case !bytes.Equal(e.PrevHash, prevHash):
		return fmt.Sprintf("prev_hash %x is not the previous event's hash %x", e.PrevHash, prevHash)
	}
	if want := ComputeHash(prevHash, e); !bytes.Equal(e.Hash, want) {
		return fmt.Sprintf("hash %x does not match the event's contents (recomputed %x)", e.Hash, want)
	}
	return ""
}
