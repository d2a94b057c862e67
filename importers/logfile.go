package importers

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/exports"
)

// MaxLogLine is the longest line a backup may have (16 MiB): far beyond
// any event ltscamp writes, and a bound on what one bad line can cost.
const MaxLogLine = 16 << 20

// Decompress returns r, read through gzip when it starts with gzip's
// magic bytes: a backup may be stored compressed.
func Decompress(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	magic, err := br.Peek(2)
	if err != nil || magic[0] != 0x1f || magic[1] != 0x8b {
		return br, nil // too short to be gzip; the reader says what it is
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("a gzip file that cannot be read: %w", err)
	}
	return zr, nil
}

// LineError is a problem at one line of a file.
type LineError struct {
	// File is the file's name as the user gave it ("-" for standard
	// input); Line counts from 1.
	File string
	Line int
	Err  error
}

// Error implements error.
func (e *LineError) Error() string { return fmt.Sprintf("%s: line %d: %v", e.File, e.Line, e.Err) }

// Unwrap returns the problem.
func (e *LineError) Unwrap() error { return e.Err }

// LogReader reads a backup written by exports.WriteLog, one line at a
// time: its memory is one line, whatever the size of the backup.
type LogReader struct {
	// Header is the backup's first line.
	Header exports.LogHeader
	file   string
	sc     *bufio.Scanner
	line   int
}

// NewLogReader reads the header line of a backup from r. file names the
// backup in errors.
func NewLogReader(file string, r io.Reader) (*LogReader, error) {
	br := bufio.NewReader(r)
	if head, _ := br.Peek(len(sqliteHeader)); string(head) == sqliteHeader {
		return nil, &LineError{File: file, Line: 1, Err: fmt.Errorf("not an ltscamp backup in NDJSON: it is a campaign file (`ltscamp backup` writes these); restore it with `ltscamp restore %s --db NEW.ltscamp`", file)}
	}
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 0, 1<<16), MaxLogLine)
	lr := &LogReader{file: file, sc: sc}
	line, err := lr.next()
	if err != nil {
		return nil, err
	}
	if line == nil {
		return nil, &LineError{File: file, Line: 1, Err: errors.New("the file is empty: a backup starts with a header line (`ltscamp export log` writes one)")}
	}
	var h exports.LogHeader
	if err := decodeStrict(line, &h); err != nil || h.Format != exports.LogFormat {
		return nil, lr.errorf("not an ltscamp backup: the first line must be the header {\"format\":%q,...} that `ltscamp export log` writes", exports.LogFormat)
	}
	switch {
	case h.Version < 1:
		return nil, lr.errorf("format version %d is not a version", h.Version)
	case h.Version > exports.LogFormatVersion:
		return nil, lr.errorf("the backup is in format version %d; this ltscamp reads up to version %d: upgrade ltscamp", h.Version, exports.LogFormatVersion)
	case h.Events < 0 || h.HeadSeq != h.Events:
		return nil, lr.errorf("the header says %d events up to seq %d: seqs run from 1 without gaps, so the two must be equal", h.Events, h.HeadSeq)
	}
	if _, err := DecodeHash(h.HeadHash); err != nil {
		return nil, lr.errorf("head_hash: %v", err)
	}
	lr.Header = h
	return lr, nil
}

// Events yields every event line of the backup as an event, in file
// order. A line that cannot be read as an event ends the sequence with a
// *LineError naming it; so does a backup that ends before the header's
// count or goes on past it. It checks only the form of each line: the
// chain and the rules are the store's and the campaign's to check.
func (r *LogReader) Events() iter.Seq2[events.Event, error] {
	return func(yield func(events.Event, error) bool) {
		var n int64
		for {
			line, err := r.next()
			if err != nil {
				yield(events.Event{}, err)
				return
			}
			if line == nil {
				if n != r.Header.Events {
					yield(events.Event{}, &LineError{File: r.file, Line: r.line + 1,
						Err: fmt.Errorf("the backup ends after %d events, but its header says %d: it was cut short (or lines were deleted)", n, r.Header.Events)})
				}
				return
			}
			if n == r.Header.Events {
				yield(events.Event{}, r.errorf("the header says %d events, but the backup goes on (lines were added)", r.Header.Events))
				return
			}
			e, err := parseLogLine(line)
			if err != nil {
				yield(events.Event{}, &LineError{File: r.file, Line: r.line, Err: err})
				return
			}
			n++
			if !yield(e, nil) {
				return
			}
		}
	}
}

// LineOf returns the line of a backup's n-th event (from 1): the header is
// line 1, and a backup has no blank lines.
func LineOf(n int64) int64 { return n + 1 }

// next returns the next line, nil at the end of the input. A blank line is
// an error: backups have none, so one is a sign of editing.
func (r *LogReader) next() ([]byte, error) {
	if !r.sc.Scan() {
		if err := r.sc.Err(); err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				return nil, &LineError{File: r.file, Line: r.line + 1, Err: fmt.Errorf("the line is longer than %d MiB", MaxLogLine>>20)}
			}
			return nil, fmt.Errorf("read %s: %w", r.file, err)
		}
		return nil, nil
	}
	r.line++
	line := r.sc.Bytes()
	if len(bytes.TrimSpace(line)) == 0 {
		return nil, r.errorf("the line is blank: a backup has one JSON object on every line")
	}
	return line, nil
}

func (r *LogReader) errorf(format string, a ...any) error {
	return &LineError{File: r.file, Line: r.line, Err: fmt.Errorf(format, a...)}
}

// parseLogLine reads one event line.
func parseLogLine(line []byte) (events.Event, error) {
	var l exports.LogLine
	if err := decodeStrict(line, &l); err != nil {
		return events.Event{}, err
	}
	for _, f := range []struct {
		name string
		ok   bool
	}{
		{"seq", l.Seq > 0}, {"id", l.ID != ""}, {"command_id", l.CommandID != ""}, {"stream", l.Stream != ""},
		{"stream_version", l.StreamVersion > 0}, {"type", l.Type != ""}, {"payload_version", l.PayloadVersion > 0},
		{"payload", len(l.Payload) > 0 && string(l.Payload) != "null"}, {"actor", l.Actor != ""}, {"recorded_at", l.RecordedAt != ""},
	} {
		if !f.ok {
			return events.Event{}, fmt.Errorf("%q is missing or empty", f.name)
		}
	}
	at, err := events.ParseTime(l.RecordedAt)
	if err != nil {
		return events.Event{}, fmt.Errorf("recorded_at: %q is not a time as ltscamp writes it (%s)", l.RecordedAt, events.TimeLayout)
	}
	prev, err := DecodeHash(l.PrevHash)
	if err != nil {
		return events.Event{}, fmt.Errorf("prev_hash: %v", err)
	}
	hash, err := DecodeHash(l.Hash)
	if err != nil {
		return events.Event{}, fmt.Errorf("hash: %v", err)
	}
	return events.Event{
		Seq: l.Seq, ID: l.ID, CommandID: l.CommandID, Stream: l.Stream, StreamVersion: l.StreamVersion,
		Type: l.Type, PayloadVersion: l.PayloadVersion, Payload: bytes.Clone(l.Payload), Actor: l.Actor,
		RecordedAt: at, PrevHash: prev, Hash: hash,
	}, nil
}

// decodeStrict decodes one JSON object that must fill v's fields only and
// be alone on the line.
func decodeStrict(line []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("not a backup line: %v", err)
	}
	if dec.More() {
		return errors.New("not a backup line: more than one JSON value on the line")
	}
	return nil
}

// DecodeHash reads a hash as backups write it: lowercase hex SHA-256.
func DecodeHash(s string) ([]byte, error) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != events.HashSize || hex.EncodeToString(b) != s {
		return nil, fmt.Errorf("%q is not %d lowercase hex digits", s, 2*events.HashSize)
	}
	return b, nil
}
