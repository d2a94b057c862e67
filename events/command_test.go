package events_test

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
)

func TestSeal(t *testing.T) {
	cmd := events.Command{
		ID:         "C1",
		Actor:      "gm",
		RecordedAt: time.Date(2024, 1, 1, 12, 0, 0, 5, time.FixedZone("X", 3600)),
		Expected:   map[string]int64{"a": 4, "b": events.AnyVersion},
		Events: []events.Pending{
			{ID: "e1", Stream: "a", Type: "t", PayloadVersion: 1, Payload: json.RawMessage(`{}`)},
			{ID: "e2", Stream: "b", Type: "t", PayloadVersion: 2, Payload: json.RawMessage(`[]`)},
			{ID: "e3", Stream: "a", Type: "t", PayloadVersion: 1, Payload: json.RawMessage(`1`)},
		},
	}
	head := sha256.Sum256([]byte("head"))
	versions := map[string]int64{"a": 4, "b": 9}
	got := cmd.Seal(10, head[:], versions)
	if versions["a"] != 4 || versions["b"] != 9 {
		t.Fatalf("Seal modified versions: %v", versions)
	}
	wantSeq := []int64{11, 12, 13}
	wantVer := []int64{5, 10, 6}
	for i, e := range got {
		if e.Seq != wantSeq[i] || e.StreamVersion != wantVer[i] || e.CommandID != "C1" || e.Actor != "gm" || e.RecordedAt.Location() != time.UTC || !e.RecordedAt.Equal(cmd.RecordedAt) {
			t.Errorf("event %d = %+v", i, e)
		}
	}
	if _, reason, broken := events.ChainBreak(got, head[:]); broken {
		t.Errorf("sealed chain broken: %s", reason)
	}
	cmd.Events[0].Payload[0] = '['
	if string(got[0].Payload) != "{}" {
		t.Error("Seal does not copy payloads")
	}
}

func TestCheckExpected(t *testing.T) {
	cmd := events.Command{Expected: map[string]int64{"a": 2, "b": 0, "c": events.AnyVersion, "d": 1}}
	current := map[string]int64{"a": 2, "b": 0, "c": 7, "d": 1}
	versions, err := cmd.CheckExpected(func(s string) (int64, error) { return current[s], nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(versions) != 4 || versions["c"] != 7 {
		t.Fatalf("versions = %v", versions)
	}
	current["b"], current["d"] = 1, 3
	_, err = cmd.CheckExpected(func(s string) (int64, error) { return current[s], nil })
	var ce *events.ConcurrencyError
	if !errors.As(err, &ce) || !errors.Is(err, events.ErrConcurrency) {
		t.Fatalf("err = %v, want a *ConcurrencyError", err)
	}
	// Streams are checked in name order, so the first mismatch is "b".
	if *ce != (events.ConcurrencyError{Stream: "b", Expected: 0, Actual: 1}) {
		t.Fatalf("ConcurrencyError = %+v", *ce)
	}
	boom := errors.New("boom")
	if _, err := cmd.CheckExpected(func(string) (int64, error) { return 0, boom }); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
}

func TestValidate(t *testing.T) {
	valid := func() events.Command {
		return events.Command{
			ID:         "C1",
			Actor:      "gm",
			RecordedAt: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC),
			Expected:   map[string]int64{"a": 0, "b": events.AnyVersion},
			Events: []events.Pending{
				{ID: "e1", Stream: "a", Type: "t", PayloadVersion: 1, Payload: json.RawMessage(`{"k":1}`)},
			},
		}
	}
	if err := valid().Validate(); err != nil {
		t.Fatalf("valid command rejected: %v", err)
	}
	for _, tc := range []struct {
		name   string
		change func(*events.Command)
		msg    string
	}{
		{"no ID", func(c *events.Command) { c.ID = "" }, "no ID"},
		{"no actor", func(c *events.Command) { c.Actor = "" }, "no actor"},
		{"no time", func(c *events.Command) { c.RecordedAt = time.Time{} }, "no recorded time"},
		{"year 10000", func(c *events.Command) { c.RecordedAt = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) }, "outside years"},
		{"no events", func(c *events.Command) { c.Events = nil }, "no events"},
		{"event without ID", func(c *events.Command) { c.Events[0].ID = "" }, "event 1 has no ID"},
		{"event without stream", func(c *events.Command) { c.Events[0].Stream = "" }, "no stream"},
		{"event without type", func(c *events.Command) { c.Events[0].Type = "" }, "no type"},
		{"payload version 0", func(c *events.Command) { c.Events[0].PayloadVersion = 0 }, "payload version 0"},
		{"empty payload", func(c *events.Command) { c.Events[0].Payload = nil }, "empty payload"},
		{"invalid JSON", func(c *events.Command) { c.Events[0].Payload = json.RawMessage(`{"k":}`) }, "not valid JSON"},
		{"invalid UTF-8 payload", func(c *events.Command) { c.Events[0].Payload = json.RawMessage("\"\xff\"") }, "not valid UTF-8"},
		{"invalid UTF-8 actor", func(c *events.Command) { c.Actor = "\xff" }, "not valid UTF-8"},
		{"stream without expected version", func(c *events.Command) { c.Events[0].Stream = "z" }, `stream "z", which has no expected version`},
		{"negative expected version", func(c *events.Command) { c.Expected["a"] = -2 }, "negative"},
		{"empty expected stream", func(c *events.Command) { c.Expected[""] = 0 }, "empty stream name"},
		{"duplicate event IDs", func(c *events.Command) {
			c.Events = append(c.Events, events.Pending{ID: "e1", Stream: "b", Type: "t", PayloadVersion: 1, Payload: json.RawMessage(`{}`)})
		}, `events 1 and 2 have the same ID "e1"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := valid()
			tc.change(&c)
			err := c.Validate()
			if !errors.Is(err, events.ErrInvalidCommand) {
				t.Fatalf("err = %v, want ErrInvalidCommand", err)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("err = %q, want it to mention %q", err, tc.msg)
			}
		})
	}
}
