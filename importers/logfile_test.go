package importers

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/exports"
)

// sampleBackup returns a backup of three events in two commands, written
// by exports.WriteLog.
func sampleBackup(t testing.TB) []byte {
	t.Helper()
	at := time.Date(2026, 11, 21, 20, 0, 0, 123, time.UTC)
	var log []events.Event
	seq, hash := int64(0), events.GenesisHash()
	versions := map[string]int64{}
	for _, c := range []events.Command{
		{ID: "C1", Actor: "gm", RecordedAt: at, Expected: map[string]int64{"campaign": 0}, Events: []events.Pending{
			{ID: "E1", Stream: "campaign", Type: "campaign.created", PayloadVersion: 1, Payload: json.RawMessage(`{"name":"Zoë's <crew> & co","edition":"2021"}`)}}},
		{ID: "C2", Actor: "Łukasz", RecordedAt: at.Add(time.Second), Expected: map[string]int64{"character/A": 0}, Events: []events.Pending{
			{ID: "E2", Stream: "character/A", Type: "character.created", PayloadVersion: 1, Payload: json.RawMessage(`{"name":"Ærin\u2028"}`)},
			{ID: "E3", Stream: "character/A", Type: "xp.awarded", PayloadVersion: 1, Payload: json.RawMessage(`{"amount":3,"reason":"a \"quoted\" reason"}`)}}},
	} {
		for _, e := range c.Seal(seq, hash, versions) {
			log = append(log, e)
			seq, hash, versions[e.Stream] = e.Seq, e.Hash, e.StreamVersion
		}
	}
	var b bytes.Buffer
	h := exports.LogHeader{CampaignID: "E1", Campaign: "crew", Edition: "2021", Events: 3, HeadSeq: 3, HeadHash: hexOf(hash)}
	if _, err := exports.WriteLog(&b, h, func(yield func(events.Event, error) bool) {
		for _, e := range log {
			if !yield(e, nil) {
				return
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func hexOf(b []byte) string { return hex.EncodeToString(b) }

func readAll(data []byte) (*LogReader, []events.Event, error) {
	lr, err := NewLogReader("b.ndjson", bytes.NewReader(data))
	if err != nil {
		return nil, nil, err
	}
	var out []events.Event
	for e, err := range lr.Events() {
		if err != nil {
			return lr, out, err
		}
		out = append(out, e)
	}
	return lr, out, nil
}

// TestLogRoundTrip: what WriteLog writes, LogReader reads back whole, the
// payloads byte for byte (HTML characters and U+2028 included) and the
// hashes still chaining.
func TestLogRoundTrip(t *testing.T) {
	data := sampleBackup(t)
	if n := bytes.Count(data, []byte("\n")); n != 4 {
		t.Fatalf("the backup has %d lines, want a header and 3 events", n)
	}
	if !bytes.Contains(data, []byte(`"payload":{"name":"Zoë's <crew> & co","edition":"2021"}`)) {
		t.Fatalf("the payload was not written byte for byte:\n%s", data)
	}
	lr, evs, err := readAll(data)
	if err != nil {
		t.Fatal(err)
	}
	if lr.Header.Campaign != "crew" || lr.Header.Events != 3 || lr.Header.Format != exports.LogFormat || lr.Header.Version != exports.LogFormatVersion {
		t.Fatalf("header = %+v", lr.Header)
	}
	if len(evs) != 3 {
		t.Fatalf("read %d events, want 3", len(evs))
	}
	if seq, reason, broken := events.ChainBreak(evs, events.GenesisHash()); broken {
		t.Fatalf("the chain read back breaks at %d: %s", seq, reason)
	}
	if string(evs[1].Payload) != `{"name":"Ærin\u2028"}` || evs[2].Actor != "Łukasz" || evs[0].RecordedAt.Nanosecond() != 123 {
		t.Fatalf("events read back differ: %+v", evs)
	}
}

// TestLogReaderRefuses names the line of every kind of bad backup.
func TestLogReaderRefuses(t *testing.T) {
	good := strings.Split(strings.TrimSuffix(string(sampleBackup(t)), "\n"), "\n")
	edit := func(f func(ls []string) []string) []byte {
		ls := append([]string(nil), good...)
		return []byte(strings.Join(f(ls), "\n") + "\n")
	}
	for _, tc := range []struct {
		name string
		data []byte
		line int
		want string
	}{
		{"empty", nil, 1, "empty"},
		{"not a backup", []byte("name,st,dx,iq\n"), 1, "not an ltscamp backup"},
		{"a newer version", edit(func(ls []string) []string { ls[0] = strings.Replace(ls[0], `"version":1`, `"version":2`, 1); return ls }), 1, "upgrade ltscamp"},
		{"a bad head hash", edit(func(ls []string) []string {
			ls[0] = strings.Replace(ls[0], `"head_hash":"`, `"head_hash":"X`, 1)
			return ls
		}), 1, "head_hash"},
		{"count and head disagree", edit(func(ls []string) []string { ls[0] = strings.Replace(ls[0], `"events":3`, `"events":4`, 1); return ls }), 1, "must be equal"},
		{"cut short", edit(func(ls []string) []string { return ls[:3] }), 4, "cut short"},
		{"a line added", edit(func(ls []string) []string { return append(ls, ls[3]) }), 5, "lines were added"},
		{"a blank line", edit(func(ls []string) []string { return append(ls[:2:2], append([]string{""}, ls[2:]...)...) }), 3, "blank"},
		{"a field unknown", edit(func(ls []string) []string { ls[2] = strings.Replace(ls[2], `{"seq"`, `{"x":1,"seq"`, 1); return ls }), 3, "unknown field"},
		{"a field missing", edit(func(ls []string) []string { ls[2] = strings.Replace(ls[2], `"actor":"Łukasz",`, ``, 1); return ls }), 3, `"actor" is missing`},
		{"a time in another layout", edit(func(ls []string) []string {
			ls[2] = strings.Replace(ls[2], `.000000123Z"`, `Z"`, 1)
			return ls
		}), 3, "recorded_at"},
		{"an upper-case hash", edit(func(ls []string) []string {
			i := strings.Index(ls[2], `"hash":"`) + 8
			ls[2] = ls[2][:i] + strings.ToUpper(ls[2][i:i+64]) + ls[2][i+64:]
			return ls
		}), 3, "lowercase hex"},
		{"two values on a line", edit(func(ls []string) []string { ls[3] += " {}"; return ls }), 4, "more than one"},
		{"a payload of null", edit(func(ls []string) []string {
			i := strings.Index(ls[3], `"payload":`)
			j := strings.Index(ls[3], `,"actor"`)
			ls[3] = ls[3][:i] + `"payload":null` + ls[3][j:]
			return ls
		}), 4, `"payload" is missing`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := readAll(tc.data)
			var le *LineError
			if !errors.As(err, &le) {
				t.Fatalf("err = %v, want a LineError", err)
			}
			if le.Line != tc.line || le.File != "b.ndjson" || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v (line %d), want line %d saying %q", err, le.Line, tc.line, tc.want)
			}
		})
	}
}

// TestLogReaderLongLine: a line past MaxLogLine is refused by its number,
// not read into memory whole.
func TestLogReaderLongLine(t *testing.T) {
	good := sampleBackup(t)
	header := good[:bytes.IndexByte(good, '\n')+1]
	data := append(bytes.Clone(header), bytes.Repeat([]byte("x"), MaxLogLine+10)...)
	_, _, err := readAll(data)
	var le *LineError
	if !errors.As(err, &le) || le.Line != 2 || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("err = %v, want line 2 too long", err)
	}
}

// FuzzReadLog feeds the backup reader arbitrary bytes: it never panics,
// every error names a line from 1, and every event it yields is whole and
// reads back the same after being written again.
func FuzzReadLog(f *testing.F) {
	good := sampleBackup(f)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(strings.Replace(string(good), `"seq":2`, `"seq":7`, 1)))
	f.Add([]byte("{\"format\":\"ltscamp-log\",\"version\":1,\"events\":0,\"head_seq\":0,\"head_hash\":\"" + strings.Repeat("0", 64) + "\"}\n"))
	f.Add([]byte("\xef\xbb\xbf{}\r\n{}\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lr, evs, err := readAll(data)
		var le *LineError
		if err != nil && errors.As(err, &le) && le.Line < 1 {
			t.Fatalf("an error names line %d: %v", le.Line, err)
		}
		if err == nil && int64(len(evs)) != lr.Header.Events {
			t.Fatalf("read %d events without error, header says %d", len(evs), lr.Header.Events)
		}
		for _, e := range evs {
			if e.Seq < 1 || e.ID == "" || len(e.Hash) != events.HashSize || len(e.PrevHash) != events.HashSize || !json.Valid(e.Payload) {
				t.Fatalf("an event read is not whole: %+v", e)
			}
			line, err := exports.MarshalLogLine(e)
			if err != nil {
				t.Fatalf("an event read cannot be written again: %v", err)
			}
			again, err := parseLogLine(line)
			if err != nil {
				t.Fatalf("an event written again does not read back: %v\n%s", err, line)
			}
			if again.ID != e.ID || !bytes.Equal(again.Payload, e.Payload) || !again.RecordedAt.Equal(e.RecordedAt) || !bytes.Equal(again.Hash, e.Hash) {
				t.Fatalf("an event does not survive writing and reading:\n%+v\n%+v", e, again)
			}
		}
	})
}
