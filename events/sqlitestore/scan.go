package sqlitestore

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ltscamp/ltscamp/events"
)

// Events are read as one text column, their twelve columns joined by
// rowSep, rather than as twelve columns. The driver reads a column with
// two or three calls into SQLite, each taking the connection's mutex, and
// boxes every value; with twelve columns that was three quarters of the
// time of a full scan. One column costs one such round, and the fields are
// then cut out of it without copying (but for the payload, which the
// caller may change).
//
// The join is unambiguous: it is read back only when the row holds
// exactly rowFields-1 separators, so no field holds one (a valid payload
// cannot: JSON escapes control characters). A row that holds more, or
// whose fields do not parse, is read again column by column (readSeq),
// which gives it exactly as before, or the same error.
const (
	rowSep    = '\x1f' // ASCII unit separator
	rowFields = 12
	// eventRow selects the joined columns, in the order decodeRow reads.
	eventRow = `SELECT concat_ws(char(31), seq, stream_version, payload_version, id, command_id, stream, type, actor, recorded_at, prev_hash, hash, payload) FROM events`
)

// rowReader reads events from rows that select eventRow, one after the
// other.
type rowReader struct {
	s   *Store
	row string
	rowDecoder
}

// next reads the current row of rows.
func (r *rowReader) next(ctx context.Context, rows *sql.Rows) (events.Event, error) {
	if err := rows.Scan(&r.row); err != nil {
		return events.Event{}, err
	}
	e, ok := r.decode(r.row)
	if ok {
		return e, nil
	}
	return r.s.readSeq(ctx, r.row)
}

// readAll reads every row of rows, which selects eventRow, and closes it.
// It takes QueryContext's results as they come.
func (s *Store) readAll(rows *sql.Rows, err error) ([]events.Event, error) {
	return s.readAllHint(0, rows, err)
}

// readAllHint is readAll for about hint rows: events are large, and
// growing a slice of thousands of them a step at a time costs more than
// the query that tells how many there will be.
func (s *Store) readAllHint(hint int, rows *sql.Rows, err error) ([]events.Event, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []events.Event
	if hint > 0 {
		out = make([]events.Event, 0, hint)
	}
	r := rowReader{s: s}
	for rows.Next() {
		e, err := r.next(context.Background(), rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// decodeRow cuts an event out of a row of eventRow. ok is false when the
// row is not exactly twelve well-formed fields.
func decodeRow(row string) (events.Event, bool) {
	var d rowDecoder
	return d.decode(row)
}

// rowDecoder cuts events out of rows of eventRow. It remembers the last
// recorded time and hash it decoded: the events of a command share their
// time, and an event's prev_hash is the hash of the row before it in a
// read of the log.
type rowDecoder struct {
	timeText string
	time     time.Time
	hashText string
	hash     [events.HashSize]byte
}

// decode cuts an event out of row. ok is false when the row is not
// exactly twelve well-formed fields.
func (d *rowDecoder) decode(row string) (e events.Event, ok bool) {
	var f [rowFields]string
	rest := row
	for i := range rowFields - 1 {
		j := strings.IndexByte(rest, rowSep)
		if j < 0 {
			return events.Event{}, false
		}
		f[i], rest = rest[:j], rest[j+1:]
	}
	if strings.IndexByte(rest, rowSep) >= 0 {
		return events.Event{}, false
	}
	f[rowFields-1] = rest
	var err error
	if e.Seq, err = strconv.ParseInt(f[0], 10, 64); err != nil {
		return events.Event{}, false
	}
	if e.StreamVersion, err = strconv.ParseInt(f[1], 10, 64); err != nil {
		return events.Event{}, false
	}
	if e.PayloadVersion, err = strconv.Atoi(f[2]); err != nil {
		return events.Event{}, false
	}
	e.ID, e.CommandID, e.Stream, e.Type, e.Actor = f[3], f[4], f[5], f[6], f[7]
	if f[8] != d.timeText || d.timeText == "" {
		t, ok := parseTime(f[8])
		if !ok {
			return events.Event{}, false
		}
		d.timeText, d.time = f[8], t
	}
	e.RecordedAt = d.time
	// Both hashes share one allocation.
	hashes := make([]byte, 2*events.HashSize)
	prev, hash := hashes[:events.HashSize:events.HashSize], hashes[events.HashSize:]
	if f[9] == d.hashText && d.hashText != "" {
		copy(prev, d.hash[:])
	} else if !decodeHex(prev, f[9]) {
		return events.Event{}, false
	}
	if !decodeHex(hash, f[10]) {
		return events.Event{}, false
	}
	d.hashText = f[10]
	copy(d.hash[:], hash)
	e.PrevHash, e.Hash = prev, hash
	e.Payload = []byte(f[11])
	return e, true
}

// readSeq reads the event of a row that decodeRow could not cut up (row
// starts with its seq, an integer), column by column.
func (s *Store) readSeq(ctx context.Context, row string) (events.Event, error) {
	seqText, _, _ := strings.Cut(row, string(rowSep))
	seq, err := strconv.ParseInt(seqText, 10, 64)
	if err != nil {
		return events.Event{}, fmt.Errorf("event row %.40q: seq: %w", row, err)
	}
	rows, err := s.db.QueryContext(ctx, eventColumns+` WHERE seq = ?`, seq)
	if err != nil {
		return events.Event{}, err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return events.Event{}, err
		}
		return events.Event{}, fmt.Errorf("event %d: %w", seq, events.ErrNotFound)
	}
	return scanEvent(rows)
}

// decodeHex decodes the hex text s into dst, which it must fill exactly,
// as hex.DecodeString would.
func decodeHex(dst []byte, s string) bool {
	if len(s) != 2*len(dst) {
		return false
	}
	bad := byte(0)
	for i := range dst {
		hi, lo := unhex[s[2*i]], unhex[s[2*i+1]]
		bad |= hi | lo
		dst[i] = hi<<4 | lo&0x0f
	}
	return bad&0xf0 == 0
}

// unhex maps a hex digit, in either case, to its value, and any other byte
// to 0xff.
var unhex = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for c := byte('0'); c <= '9'; c++ {
		t[c] = c - '0'
	}
	for c := byte('a'); c <= 'f'; c++ {
		t[c] = c - 'a' + 10
		t[c-'a'+'A'] = c - 'a' + 10
	}
	return t
}()

// parseTime parses a recorded time in events.TimeLayout,
// "2006-01-02T15:04:05.000000000Z", as events.ParseTime does, without its
// general layout interpreter. ok is false for anything else, which
// events.ParseTime then judges.
func parseTime(s string) (time.Time, bool) {
	if len(s) != len(events.TimeLayout) || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[19] != '.' || s[29] != 'Z' {
		return time.Time{}, false
	}
	num := func(from, to int) (int, bool) {
		n := 0
		for i := from; i < to; i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	year, ok1 := num(0, 4)
	month, ok2 := num(5, 7)
	day, ok3 := num(8, 10)
	hour, ok4 := num(11, 13)
	minute, ok5 := num(14, 16)
	sec, ok6 := num(17, 19)
	nsec, ok7 := num(20, 29)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || !ok7 ||
		month < 1 || month > 12 || day < 1 || day > 28 && day > daysIn(time.Month(month), year) || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC), true
}

// daysIn returns the number of days in month of year.
func daysIn(month time.Month, year int) int {
	return time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC).Day()
}
