package storetest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/ltscamp/ltscamp/events"
)

const snapStream = "character/01HZX3K7Q4M2N8P5R6S9T0SNAP"

// snap returns a snapshot of snapStream at version v (its seq is v too in
// these tests), folded with the commands stream at version 0.
func snap(code string, v int64, state string) events.Snapshot {
	return events.Snapshot{Stream: snapStream, Kind: "character", Code: code, Seq: v, Version: v, Commands: 0, State: []byte(state)}
}

func mustSnapshot(t *testing.T, s events.Store, q events.SnapshotQuery) (events.Snapshot, bool) {
	t.Helper()
	sn, ok, err := s.Snapshot(q)
	if err != nil {
		t.Fatalf("Snapshot(%+v): %v", q, err)
	}
	return sn, ok
}

// appendOn appends one event on snapStream, decided at version v, with
// snapshots attached.
func appendOn(s events.Store, id string, v int64, snaps ...events.Snapshot) (events.AppendResult, error) {
	cmd := command(id, map[string]int64{snapStream: v, events.CommandsStream: 0}, ev(id+"E", snapStream, "roll.made"))
	cmd.Snapshots = snaps
	return s.Append(cmd)
}

func testSnapshotsWithCommand(t *testing.T, s events.Store) {
	q := events.SnapshotQuery{Stream: snapStream, Kind: "character", Code: "c1"}
	if _, ok := mustSnapshot(t, s, q); ok {
		t.Fatal("an empty store has a snapshot")
	}
	for v := int64(0); v < 3; v++ {
		var snaps []events.Snapshot
		if v > 0 {
			snaps = append(snaps, snap("c1", v, fmt.Sprintf(`{"v":%d}`, v)))
		}
		if _, err := appendOn(s, fmt.Sprintf("01CMDSNAP%017d", v), v, snaps...); err != nil {
			t.Fatalf("append at version %d: %v", v, err)
		}
	}
	got, ok := mustSnapshot(t, s, q)
	if !ok || got.Version != 2 || got.Seq != 2 || string(got.State) != `{"v":2}` || got.Commands != 0 {
		t.Fatalf("Snapshot = %+v, %v; want version 2 with its state", got, ok)
	}

	// A refused command (the stream moved on) saves no snapshot.
	if _, err := appendOn(s, "01CMDSNAPREFUSED0000000001", 1, snap("c1", 1, `{"v":"stale"}`)); !errors.Is(err, events.ErrConcurrency) {
		t.Fatalf("append against an old version: err = %v, want ErrConcurrency", err)
	}
	q.UpToSeq = 1
	if got, _ := mustSnapshot(t, s, q); string(got.State) != `{"v":1}` {
		t.Fatalf("a refused command replaced a snapshot: %s", got.State)
	}

	// A duplicate command saves nothing either.
	res, err := appendOn(s, fmt.Sprintf("01CMDSNAP%017d", 2), 3, snap("c1", 3, `{"v":"dup"}`))
	if err != nil || !res.Duplicate {
		t.Fatalf("append of a logged command: %+v, %v; want a duplicate", res, err)
	}
	q.UpToSeq = 0
	if got, _ := mustSnapshot(t, s, q); got.Version != 2 {
		t.Fatalf("a duplicate command saved a snapshot: %+v", got)
	}
}

func testSnapshotsSelected(t *testing.T, s events.Store) {
	get := func(code string, upTo int64) (string, bool) {
		t.Helper()
		sn, ok := mustSnapshot(t, s, events.SnapshotQuery{Stream: snapStream, Kind: "character", Code: code, UpToSeq: upTo})
		return string(sn.State), ok
	}
	if err := s.SaveSnapshots([]events.Snapshot{snap("c1", 10, `"a"`), snap("c1", 20, `"b"`)}); err != nil {
		t.Fatalf("SaveSnapshots: %v", err)
	}
	for _, tc := range []struct {
		code  string
		upTo  int64
		want  string
		found bool
	}{
		{"c1", 0, `"b"`, true},
		{"c1", 25, `"b"`, true},
		{"c1", 19, `"a"`, true},
		{"c1", 10, `"a"`, true},
		{"c1", 9, "", false},
		{"c2", 0, "", false},
	} {
		if got, ok := get(tc.code, tc.upTo); ok != tc.found || got != tc.want {
			t.Errorf("code %s up to %d: %q, %v; want %q, %v", tc.code, tc.upTo, got, ok, tc.want, tc.found)
		}
	}
	if got, ok := mustSnapshot(t, s, events.SnapshotQuery{Stream: snapStream, Kind: "sheet", Code: "c1"}); ok {
		t.Errorf("another kind found %+v", got)
	}

	// The same version again replaces it.
	if err := s.SaveSnapshots([]events.Snapshot{snap("c1", 20, `"b2"`)}); err != nil {
		t.Fatal(err)
	}
	if got, _ := get("c1", 0); got != `"b2"` {
		t.Errorf("after saving version 20 again: %q, want \"b2\"", got)
	}
	// A snapshot folded by other code drops those of the old code, which
	// no reader of the new code trusts; a Latest one drops every other.
	if err := s.SaveSnapshots([]events.Snapshot{snap("c2", 30, `"c"`), snap("c2", 40, `"d"`)}); err != nil {
		t.Fatal(err)
	}
	if got, ok := get("c1", 0); ok {
		t.Errorf("code c1's snapshot %q is still there after code c2 saved one", got)
	}
	if got, _ := get("c2", 35); got != `"c"` {
		t.Errorf("code c2 up to 35: %q, want \"c\"", got)
	}
	latest := snap("c2", 15, `"l"`)
	latest.Latest = true
	if err := s.SaveSnapshots([]events.Snapshot{latest}); err != nil {
		t.Fatal(err)
	}
	if got, ok := get("c2", 0); !ok || got != `"l"` {
		t.Errorf("after a Latest save: %q, %v; want only it", got, ok)
	}

	if err := s.DropSnapshots(); err != nil {
		t.Fatalf("DropSnapshots: %v", err)
	}
	if got, ok := get("c2", 0); ok {
		t.Errorf("after DropSnapshots: %q", got)
	}
}

func testSnapshotsRefused(t *testing.T, s events.Store) {
	before := take(t, s)
	for name, sn := range map[string]events.Snapshot{
		"no state":     snap("c1", 1, ""),
		"no code":      snap("", 1, "{}"),
		"version zero": snap("c1", 0, "{}"),
	} {
		if err := s.SaveSnapshots([]events.Snapshot{sn}); !errors.Is(err, events.ErrInvalidCommand) {
			t.Errorf("SaveSnapshots with %s: err = %v, want ErrInvalidCommand", name, err)
		}
	}
	// A command's snapshot must be of a version the command expects, and
	// folded with the commands version it expects.
	bad := snap("c1", 1, "{}")
	if _, err := appendOn(s, "01CMDSNAPBAD00000000000001", 0, bad); !errors.Is(err, events.ErrInvalidCommand) {
		t.Errorf("a snapshot at version 1 on a command expecting 0: err = %v, want ErrInvalidCommand", err)
	}
	if _, err := appendOn(s, "01CMDSNAPBAD00000000000002", 0); err != nil {
		t.Fatal(err)
	}
	bad.Commands = 4
	if _, err := appendOn(s, "01CMDSNAPBAD00000000000003", 1, bad); !errors.Is(err, events.ErrInvalidCommand) {
		t.Errorf("a snapshot folded with commands version 4 on a command expecting 0: err = %v, want ErrInvalidCommand", err)
	}
	if n, _ := s.Count(); n != before.count+1 {
		t.Errorf("refused commands appended events: %d, want %d", n, before.count+1)
	}
	if got, ok := mustSnapshot(t, s, events.SnapshotQuery{Stream: snapStream, Kind: "character", Code: "c1"}); ok {
		t.Errorf("a refused snapshot was saved: %+v", got)
	}
}
