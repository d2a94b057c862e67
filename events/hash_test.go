package events_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
)

// goldenEvent is a fixed event whose hash must never change: changing it
// would make every stored campaign fail verification.
func goldenEvent() events.Event {
	return events.Event{
		Seq:            7,
		ID:             "01HZX3K7Q4M2N8P5R6S9T0V1W2",
		CommandID:      "01HZX3K7Q4M2N8P5R6S9T0V1W0",
		Stream:         "character/01HZX3K7Q4M2N8P5R6S9T0V1AB",
		StreamVersion:  3,
		Type:           events.TypeXPSpent,
		PayloadVersion: 1,
		Payload:        json.RawMessage(`{"on":"attribute","attribute":"ST","from":12,"to":13,"price":18,"formula":"current level + 6 = 12 + 6","edition":"2021"}`),
		Actor:          "Gwen (GM) — Ümlaut",
		RecordedAt:     time.Date(2024, 5, 17, 19, 4, 5, 123456789, time.FixedZone("CEST", 2*60*60)),
	}
}

// goldenPrev is the PrevHash of goldenEvent: SHA-256 of "prev".
func goldenPrev() []byte {
	h := sha256.Sum256([]byte("prev"))
	return h[:]
}

const goldenHash = "6fed1fd4dd3a0c61a1297dada2653f9de60a52c1e9649270875fc3b5b53ba0b6"

// handEncoding builds the canonical encoding of goldenEvent field by field,
// independently of CanonicalEncoding, from literal values.
func handEncoding(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	for _, f := range []string{
		"ltscamp.event.v1",
		"7",
		"01HZX3K7Q4M2N8P5R6S9T0V1W2",
		"01HZX3K7Q4M2N8P5R6S9T0V1W0",
		"character/01HZX3K7Q4M2N8P5R6S9T0V1AB",
		"3",
		"xp.spent",
		"1",
		"Gwen (GM) — Ümlaut",
		"2024-05-17T17:04:05.123456789Z", // 19:04 CEST is 17:04 UTC
		`{"on":"attribute","attribute":"ST","from":12,"to":13,"price":18,"formula":"current level + 6 = 12 + 6","edition":"2021"}`,
	} {
		if err := binary.Write(&buf, binary.BigEndian, uint32(len(f))); err != nil {
			t.Fatal(err)
		}
		buf.WriteString(f)
	}
	return buf.Bytes()
}

func TestCanonicalEncodingGolden(t *testing.T) {
	want := handEncoding(t)
	if got := events.CanonicalEncoding(goldenEvent()); !bytes.Equal(got, want) {
		t.Fatalf("CanonicalEncoding:\n got %q\nwant %q", got, want)
	}
}

func TestComputeHashGolden(t *testing.T) {
	got := events.ComputeHash(goldenPrev(), goldenEvent())
	if hex.EncodeToString(got) != goldenHash {
		t.Errorf("ComputeHash = %x, want the golden %s", got, goldenHash)
	}
	// The same hash computed a second way: SHA-256 over the prev hash and
	// the hand-built encoding.
	h := sha256.New()
	h.Write(goldenPrev())
	h.Write(handEncoding(t))
	if indep := h.Sum(nil); !bytes.Equal(got, indep) {
		t.Errorf("ComputeHash = %x, hand-built hash = %x", got, indep)
	}
}

func TestComputeHashCoversEveryField(t *testing.T) {
	base := events.ComputeHash(goldenPrev(), goldenEvent())
	for name, change := range map[string]func(*events.Event){
		"seq":             func(e *events.Event) { e.Seq++ },
		"id":              func(e *events.Event) { e.ID += "X" },
		"command_id":      func(e *events.Event) { e.CommandID += "X" },
		"stream":          func(e *events.Event) { e.Stream += "X" },
		"stream_version":  func(e *events.Event) { e.StreamVersion++ },
		"type":            func(e *events.Event) { e.Type = events.TypeXPAwarded },
		"payload_version": func(e *events.Event) { e.PayloadVersion++ },
		"actor":           func(e *events.Event) { e.Actor += "X" },
		"recorded_at":     func(e *events.Event) { e.RecordedAt = e.RecordedAt.Add(time.Nanosecond) },
		"payload":         func(e *events.Event) { e.Payload = json.RawMessage(strings.Replace(string(e.Payload), "18", "17", 1)) },
		"payload spacing": func(e *events.Event) { e.Payload = append(json.RawMessage(" "), e.Payload...) },
		// Length prefixes keep field boundaries: moving a byte from one
		// field to the next must change the hash.
		"boundary": func(e *events.Event) { e.ID, e.CommandID = e.ID[:len(e.ID)-1], e.ID[len(e.ID)-1:]+e.CommandID },
	} {
		e := goldenEvent()
		change(&e)
		if bytes.Equal(events.ComputeHash(goldenPrev(), e), base) {
			t.Errorf("changing %s does not change the hash", name)
		}
	}
	if bytes.Equal(events.ComputeHash(events.GenesisHash(), goldenEvent()), base) {
		t.Error("changing the previous hash does not change the hash")
	}
	// PrevHash and Hash fields are not hashed; prev is passed separately.
	e := goldenEvent()
	e.PrevHash, e.Hash = []byte("x"), []byte("y")
	if !bytes.Equal(events.ComputeHash(goldenPrev(), e), base) {
		t.Error("the PrevHash and Hash fields must not be part of the encoding")
	}
}

func TestGenesisHash(t *testing.T) {
	g := events.GenesisHash()
	if len(g) != 32 || !bytes.Equal(g, make([]byte, 32)) {
		t.Fatalf("GenesisHash = %x, want 32 zero bytes", g)
	}
	g[0] = 1
	if events.GenesisHash()[0] != 0 {
		t.Fatal("GenesisHash returns a shared slice")
	}
}

func TestFormatParseTime(t *testing.T) {
	in := time.Date(2024, 1, 2, 3, 4, 5, 6, time.FixedZone("X", -5*60*60))
	s := events.FormatTime(in)
	if s != "2024-01-02T08:04:05.000000006Z" {
		t.Fatalf("FormatTime = %q", s)
	}
	out, err := events.ParseTime(s)
	if err != nil {
		t.Fatal(err)
	}
	if !out.Equal(in) || out.Location() != time.UTC {
		t.Fatalf("ParseTime = %v (%v), want %v in UTC", out, out.Location(), in)
	}
	if s := events.FormatTime(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)); s != "2024-01-02T03:04:05.000000000Z" {
		t.Fatalf("FormatTime keeps trailing zeros: got %q", s)
	}
	for _, bad := range []string{"", "2024-01-02T03:04:05Z", "2024-01-02T03:04:05.000000000+01:00", "2024-01-02 03:04:05.000000000Z"} {
		if _, err := events.ParseTime(bad); err == nil {
			t.Errorf("ParseTime(%q) succeeded", bad)
		}
	}
}

// chain builds n valid consecutive events from the genesis hash.
func chain(n int) []events.Event {
	cmd := events.Command{
		ID:         "CMD",
		Actor:      "gm",
		RecordedAt: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC),
		Expected:   map[string]int64{"s": 0},
	}
	for i := range n {
		cmd.Events = append(cmd.Events, events.Pending{
			ID: string(rune('a' + i)), Stream: "s", Type: "t", PayloadVersion: 1, Payload: json.RawMessage(`{}`),
		})
	}
	return cmd.Seal(0, events.GenesisHash(), map[string]int64{"s": 0})
}

func TestChainBreak(t *testing.T) {
	if seq, reason, ok := events.ChainBreak(chain(5), events.GenesisHash()); ok {
		t.Fatalf("intact chain reported broken at %d: %s", seq, reason)
	}
	if _, _, ok := events.ChainBreak(nil, events.GenesisHash()); ok {
		t.Fatal("empty chain reported broken")
	}
	// A tail of the log verifies from the hash before it.
	all := chain(5)
	if seq, reason, ok := events.ChainBreak(all[2:], all[1].Hash); ok {
		t.Fatalf("intact tail reported broken at %d: %s", seq, reason)
	}

	for _, tc := range []struct {
		name   string
		tamper func([]events.Event) []events.Event
		prev   []byte
		seq    int64
		reason string
	}{
		{"payload edited", func(es []events.Event) []events.Event {
			es[2].Payload = json.RawMessage(`{"x":1}`)
			return es
		}, nil, 3, "does not match the event's contents"},
		{"actor edited", func(es []events.Event) []events.Event {
			es[0].Actor = "mallory"
			return es
		}, nil, 1, "does not match the event's contents"},
		{"hash rewritten", func(es []events.Event) []events.Event {
			// Re-hashing an edited event breaks the next event's link.
			es[1].Actor = "mallory"
			es[1].Hash = events.ComputeHash(es[1].PrevHash, es[1])
			return es
		}, nil, 3, "is not the previous event's hash"},
		{"event deleted", func(es []events.Event) []events.Event {
			return append(es[:2], es[3:]...)
		}, nil, 4, "seq gap"},
		{"events swapped", func(es []events.Event) []events.Event {
			es[1], es[2] = es[2], es[1]
			return es
		}, nil, 3, "seq gap"},
		{"wrong start", func(es []events.Event) []events.Event { return es }, goldenPrev(), 1, "genesis"},
		{"seq zero", func(es []events.Event) []events.Event {
			es[0].Seq = 0
			return es
		}, nil, 0, "seqs start at 1"},
		{"whole chain rehashed from another genesis", func(es []events.Event) []events.Event {
			prev := goldenPrev()
			for i := range es {
				es[i].PrevHash = prev
				es[i].Hash = events.ComputeHash(prev, es[i])
				prev = es[i].Hash
			}
			return es
		}, nil, 1, "is not the previous event's hash"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prev := tc.prev
			if prev == nil {
				prev = events.GenesisHash()
			}
			seq, reason, ok := events.ChainBreak(tc.tamper(chain(5)), prev)
			if !ok {
				t.Fatal("tampering not detected")
			}
			if seq != tc.seq || !strings.Contains(reason, tc.reason) {
				t.Errorf("ChainBreak = seq %d, %q; want seq %d, reason containing %q", seq, reason, tc.seq, tc.reason)
			}
		})
	}
}
