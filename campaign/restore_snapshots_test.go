package campaign

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/sqlitestore"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// snapshotsOf lists every snapshot of st that this build reads: of each
// stream of the log and each kind, from the newest back.
func snapshotsOf(t *testing.T, s *Service) []events.Snapshot {
	t.Helper()
	evs, err := s.store.Read(events.Query{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{rosterView: true}
	streams := []string{rosterView}
	for _, e := range evs {
		if !seen[e.Stream] {
			seen[e.Stream] = true
			streams = append(streams, e.Stream)
		}
	}
	slices.Sort(streams)
	var out []events.Snapshot
	for _, stream := range streams {
		for _, kind := range []string{projections.SnapCharacter, projections.SnapAudit, projections.SnapCampaign, projections.SnapRoster, projections.SnapReverts} {
			upTo := int64(0)
			for {
				sn, ok, err := s.store.Snapshot(events.SnapshotQuery{Stream: stream, Kind: kind, Code: s.snapCode, UpToSeq: upTo})
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					break
				}
				out = append(out, sn)
				if sn.Seq <= 1 {
					break
				}
				upTo = sn.Seq - 1
			}
		}
	}
	return out
}

// sameSnapshots fails unless got holds the snapshots want holds: the same
// streams, kinds, places and states.
func sameSnapshots(t *testing.T, what string, got, want []events.Snapshot) {
	t.Helper()
	if len(want) == 0 {
		t.Fatalf("%s: the rebuild saved no snapshots", what)
	}
	if len(got) != len(want) {
		t.Fatalf("%s: %d snapshots, a rebuild saves %d", what, len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Stream != w.Stream || g.Kind != w.Kind || g.Seq != w.Seq || g.Version != w.Version || g.Commands != w.Commands || !bytes.Equal(g.State, w.State) {
			t.Fatalf("%s: snapshot %d differs from the rebuild's:\n got  %s %s seq %d v%d c%d %s\n want %s %s seq %d v%d c%d %s", what, i,
				g.Stream, g.Kind, g.Seq, g.Version, g.Commands, g.State, w.Stream, w.Kind, w.Seq, w.Version, w.Commands, w.State)
		}
	}
}

// openFile opens the campaign at path for the test.
func openFile(t *testing.T, path string) *Service {
	t.Helper()
	s, err := Open(path, Options{VerifyKept: true, Now: func() time.Time { return time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC) }, Actor: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// sheetsJSON returns the sheets of names as s reads them, as JSON.
func sheetsJSON(t *testing.T, s *Service, names []string) string {
	t.Helper()
	var b bytes.Buffer
	for _, n := range names {
		sh, err := s.Sheet(n)
		if err != nil {
			t.Fatal(err)
		}
		j, _ := json.Marshal(sh)
		b.Write(j)
	}
	return b.String()
}

// TestRestoredAndGeneratedSnapshots checks that a generated campaign, and
// a campaign restored from a campaign file or from a log, hold the
// snapshots a rebuild saves, and read the sheets a plain fold gives. The
// generated log undoes commands, and its streams run past the versions
// where a rebuild saves snapshots on the way.
func TestRestoredAndGeneratedSnapshots(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2026, 1, 1, 19, 0, 0, 0, time.UTC)
	src := filepath.Join(dir, "gen.ltscamp")
	st, err := sqlitestore.CreateStaged(src, sqlitestore.Options{Now: func() time.Time { return start }})
	if err != nil {
		t.Fatal(err)
	}
	names, err := Generate(st, GenerateOptions{Characters: 3, EventsPerCharacter: 1300, EventsPerCommand: 7, Seed: 5, Start: start, Edition: rules.Edition2021})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Publish(); err != nil {
		t.Fatal(err)
	}
	gen := openFile(t, src)
	generated := snapshotsOf(t, gen)
	plain := func() string {
		// A copy without snapshots folds every sheet from the log.
		cp := filepath.Join(t.TempDir(), "plain.ltscamp")
		if _, _, err := gen.Backup(cp); err != nil {
			t.Fatal(err)
		}
		p := openFile(t, cp)
		if err := p.store.DropSnapshots(); err != nil {
			t.Fatal(err)
		}
		return sheetsJSON(t, p, names)
	}()
	if _, err := gen.Rebuild(); err != nil {
		t.Fatal(err)
	}
	want := snapshotsOf(t, gen)
	sameSnapshots(t, "generated", generated, want)
	kinds := map[string]int{}
	for _, sn := range want {
		kinds[sn.Kind]++
	}
	if kinds[projections.SnapCharacter] <= len(names) || kinds[projections.SnapReverts] != 1 || kinds[projections.SnapRoster] != 1 {
		t.Fatalf("the rebuild's snapshots do not cover what the test needs: %v", kinds)
	}

	opts := Options{VerifyKept: true, Now: func() time.Time { return start }, Actor: "gm"}
	fromFile := filepath.Join(dir, "from-file.ltscamp")
	rep, err := RestoreFile(src, fromFile, opts, RestoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Snapshots != len(want) {
		t.Errorf("RestoreFile reports %d snapshots saved, want %d", rep.Snapshots, len(want))
	}
	head, hash, _ := gen.store.Head()
	fromLog := filepath.Join(dir, "from-log.ltscamp")
	created, _ := gen.store.Read(events.Query{Limit: 1})
	if _, err := RestoreLog(fromLog, RestoreExpect{Events: head, HeadHash: hash, CampaignID: created[0].ID}, gen.Events(0), opts); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fromFile, fromLog} {
		r := openFile(t, path)
		sameSnapshots(t, filepath.Base(path), snapshotsOf(t, r), want)
		if got := sheetsJSON(t, r, names); got != plain {
			t.Errorf("%s: the sheets read from its snapshots differ from a plain fold's:\n got  %s\n want %s", path, got, plain)
		}
	}
	if got := sheetsJSON(t, gen, names); got != plain {
		t.Errorf("generated: the sheets read from its snapshots differ from a plain fold's")
	}
}

// TestFoldBehindRefusesALateUndo checks the generator's fold: an undo of
// the command just before it is folded as a rebuild would, and an undo of
// a command folded already is an error, not a wrong snapshot.
func TestFoldBehindRefusesALateUndo(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	seq := int64(0)
	versions := map[string]int64{}
	event := func(command, stream string, p events.Payload) events.Event {
		pe, err := events.Encode(fmt.Sprintf("E%03d", seq+1), stream, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		seq++
		versions[stream]++
		return events.Event{Seq: seq, ID: pe.ID, CommandID: command, Stream: stream, StreamVersion: versions[stream], Type: pe.Type,
			PayloadVersion: pe.PayloadVersion, Payload: pe.Payload, Actor: "gm", RecordedAt: at}
	}
	ajax := events.CharacterStream("A")
	log := []events.Event{
		event("C1", events.CampaignStream, events.CampaignCreated{Name: "t", Edition: "2021"}),
		event("C2", ajax, events.CharacterCreated{CharacterID: "A", Name: "Ajax", Edition: "2021", Attributes: events.Attributes{ST: 10, DX: 11, IQ: 11}, Skills: []events.SkillLevel{}}),
		event("C3", ajax, events.KarmaGranted{Amount: 1, Reason: "kept"}),
		event("C4", ajax, events.KarmaGranted{Amount: 1, Reason: "by mistake"}),
		event("C5", events.CommandsStream, events.CommandReverted{CommandID: "C4", Reason: "mistake"}),
	}
	b := newFoldBehind("code", defaultRebuildEvery)
	for _, e := range log {
		if err := b.add(e); err != nil {
			t.Fatal(err)
		}
	}
	snaps, err := b.finish()
	if err != nil {
		t.Fatal(err)
	}
	var karma int
	for _, sn := range snaps {
		if sn.Stream == ajax && sn.Kind == projections.SnapCharacter {
			sh, _, err := projections.DecodeCharacter(sn.State)
			if err != nil {
				t.Fatal(err)
			}
			karma = sh.Karma
		}
	}
	if karma != 1 {
		t.Errorf("Ajax's snapshot has %d karma, want 1: the undone grant was folded", karma)
	}

	// An undo of C3, two commands back: folded already.
	b = newFoldBehind("code", defaultRebuildEvery)
	for _, e := range log[:4] {
		if err := b.add(e); err != nil {
			t.Fatal(err)
		}
	}
	late := event("C6", events.CommandsStream, events.CommandReverted{CommandID: "C3", Reason: "late"})
	if err := b.add(late); err == nil || !strings.Contains(err.Error(), "folded already") {
		t.Errorf("an undo of a command folded already: %v", err)
	}
}
