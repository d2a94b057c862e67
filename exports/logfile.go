package exports

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"iter"

	"github.com/ltscamp/ltscamp/events"
)

// LogFormat names the backup format in its header line.
const LogFormat = "ltscamp-log"

// LogFormatVersion is the version of the backup format this program
// writes. A reader takes every version up to its own and refuses a newer
// one, whose lines it might misread.
const LogFormatVersion = 1

// LogHeader is the first line of a backup: what the rest holds, so a
// reader can tell a whole backup from a cut one before trusting it.
type LogHeader struct {
	// Format is LogFormat; Version the format's version.
	Format  string `json:"format"`
	Version int    `json:"version"`
	// CampaignID is the ID of the campaign.created event (seq 1); Campaign
	// the campaign's name and Edition its edition.
	CampaignID string `json:"campaign_id"`
	Campaign   string `json:"campaign"`
	Edition    string `json:"edition"`
	// Events is how many event lines follow; HeadSeq and HeadHash
	// (lowercase hex) are the last one's seq and hash.
	Events   int64  `json:"events"`
	HeadSeq  int64  `json:"head_seq"`
	HeadHash string `json:"head_hash"`
}

// LogLine is one event of a backup: the whole envelope as stored, the
// payload byte for byte, and the hash chain.
type LogLine struct {
	Seq            int64           `json:"seq"`
	ID             string          `json:"id"`
	CommandID      string          `json:"command_id"`
	Stream         string          `json:"stream"`
	StreamVersion  int64           `json:"stream_version"`
	Type           string          `json:"type"`
	PayloadVersion int             `json:"payload_version"`
	Payload        json.RawMessage `json:"payload"`
	Actor          string          `json:"actor"`
	RecordedAt     string          `json:"recorded_at"`
	PrevHash       string          `json:"prev_hash"`
	Hash           string          `json:"hash"`
}

// NewLogLine returns the backup line of e.
func NewLogLine(e events.Event) LogLine {
	return LogLine{
		Seq: e.Seq, ID: e.ID, CommandID: e.CommandID, Stream: e.Stream, StreamVersion: e.StreamVersion,
		Type: e.Type, PayloadVersion: e.PayloadVersion, Payload: e.Payload, Actor: e.Actor,
		RecordedAt: events.FormatTime(e.RecordedAt), PrevHash: hex.EncodeToString(e.PrevHash), Hash: hex.EncodeToString(e.Hash),
	}
}

// MarshalLogLine returns e's backup line, without its newline, exactly as
// WriteLog writes it: no HTML escaping, so the payload passes through byte
// for byte (the hash covers its bytes).
func MarshalLogLine(e events.Event) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(NewLogLine(e)); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// WriteLog writes a backup: the header, then one line per event of evs,
// which must be the log from seq 1 to h.HeadSeq. It checks the hash chain
// as it goes and fails at the first break, and fails if evs does not end
// at h.HeadSeq with h.HeadHash: a backup that could not be restored is not
// written as if it could. It returns the number of events written.
func WriteLog(w io.Writer, h LogHeader, evs iter.Seq2[events.Event, error]) (int64, error) {
	bw := bufio.NewWriterSize(w, 1<<16)
	enc := json.NewEncoder(bw)
	// No HTML escaping: payloads must pass through byte for byte, since
	// the hash covers their bytes.
	enc.SetEscapeHTML(false)
	h.Format, h.Version = LogFormat, LogFormatVersion
	if err := enc.Encode(h); err != nil {
		return 0, err
	}
	var n, seq int64
	prev := events.GenesisHash()
	for e, err := range evs {
		if err != nil {
			return n, err
		}
		if reason := events.Link(seq, prev, e); reason != "" {
			return n, fmt.Errorf("the log's hash chain breaks at seq %d (%s): run `ltscamp verify`; `ltscamp backup` copies the file as it is", e.Seq, reason)
		}
		if !compactJSON(e.Payload) {
			return n, fmt.Errorf("seq %d: the stored payload is not compact JSON, so a backup line could not carry it byte for byte: run `ltscamp verify`", e.Seq)
		}
		if err := enc.Encode(NewLogLine(e)); err != nil {
			return n, fmt.Errorf("seq %d: %w", e.Seq, err)
		}
		n, seq, prev = n+1, e.Seq, e.Hash
	}
	if n != h.Events || seq != h.HeadSeq || hex.EncodeToString(prev) != h.HeadHash {
		return n, fmt.Errorf("the log ended at seq %d after %d events, but the header promised %d events up to seq %d", seq, n, h.Events, h.HeadSeq)
	}
	return n, bw.Flush()
}

// compactJSON reports whether b has no insignificant white space, so that
// encoding/json, which compacts a json.RawMessage, writes it unchanged.
func compactJSON(b []byte) bool {
	inString, escaped := false, false
	for _, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			return false
		}
	}
	return true
}
