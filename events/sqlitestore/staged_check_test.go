package sqlitestore

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
)

// TestStagedLoadStillRefusesBadJSON: a staged file skips SQLite's CHECK
// (json_valid) while it loads, because Load checks every payload itself;
// a payload that is not JSON is still refused, nothing of its batch is
// loaded, and the published campaign enforces the CHECK again.
func TestStagedLoadStillRefusesBadJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "staged.ltscamp")
	st, err := CreateStaged(path, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	event := func(seq int64, prev []byte, payload string) events.Event {
		e := events.Event{Seq: seq, ID: "E" + string(rune('0'+seq)), CommandID: "C", Stream: "s", StreamVersion: seq, Type: events.TypeXPAwarded,
			PayloadVersion: 1, Payload: json.RawMessage(payload), Actor: "gm", RecordedAt: testNow, PrevHash: prev}
		e.Hash = events.ComputeHash(prev, e)
		return e
	}
	good := event(1, events.GenesisHash(), `{"amount":1}`)
	if err := st.Load([]events.Event{good}); err != nil {
		t.Fatal(err)
	}
	bad := []events.Event{event(2, good.Hash, `{"amount":2}`)}
	bad = append(bad, event(3, bad[0].Hash, `{"amount":`))
	if err := st.Load(bad); !errors.Is(err, events.ErrBadLoad) || !strings.Contains(err.Error(), "JSON") {
		t.Fatalf("Load of a payload that is not JSON = %v, want ErrBadLoad naming JSON", err)
	}
	if n, _, err := st.Head(); err != nil || n != 1 {
		t.Fatalf("after the refused batch, Head = %d, %v; want 1", n, err)
	}
	if err := st.Publish(); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = s.db.Exec(`INSERT INTO events (seq, id, command_id, stream, stream_version, type, payload_version, payload, actor, recorded_at, prev_hash, hash)
		VALUES (2, 'X', 'C', 's', 2, 't', 1, '{"amount":', 'gm', 'now', 'p', 'h')`)
	if err == nil || !strings.Contains(err.Error(), "CHECK constraint failed") {
		t.Fatalf("raw insert of bad JSON into the published file = %v, want the CHECK to refuse it", err)
	}
}
