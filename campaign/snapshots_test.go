package campaign

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/memstore"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// referenceSheets folds every party member's sheet and the campaign's
// state from the whole log as of seq upTo (0: all), the plain way: no
// snapshot, no Service, just the projections over the events.
func referenceSheets(t *testing.T, store events.Store, upTo int64) (map[string]projections.Sheet, projections.Campaign, projections.Roster) {
	t.Helper()
	sheets, camp, roster := referenceFold(t, store, upTo)
	out := map[string]projections.Sheet{}
	for _, m := range roster.Members {
		out[m.Name] = *sheets[m.Stream()]
	}
	return out, camp, roster
}

// referenceFold folds the log as of seq upTo (0: all) the plain way: every
// event read, the commands out of effect left out, each stream's sheet
// (keyed by stream), the campaign's state and the roster.
func referenceFold(t *testing.T, store events.Store, upTo int64) (map[string]*projections.Sheet, projections.Campaign, projections.Roster) {
	t.Helper()
	log, err := store.Read(events.Query{UpToSeq: upTo})
	if err != nil {
		t.Fatal(err)
	}
	var rv projections.Reverts
	for _, e := range log {
		if e.Stream == events.CommandsStream {
			if err := rv.Apply(e); err != nil {
				t.Fatal(err)
			}
		}
	}
	var camp projections.Campaign
	var roster projections.Roster
	sheets := map[string]*projections.Sheet{}
	for _, e := range log {
		if !rv.InEffect(e) {
			if e.Stream == events.CampaignStream {
				camp.Version = e.StreamVersion
			}
			continue
		}
		switch {
		case e.Stream == events.CampaignStream:
			if err := camp.Apply(e); err != nil {
				t.Fatal(err)
			}
		case e.Stream != events.CommandsStream && e.Stream != events.DiceStream:
			if err := roster.Apply(e); err != nil {
				t.Fatal(err)
			}
			sh := sheets[e.Stream]
			if sh == nil {
				sh = &projections.Sheet{}
				sheets[e.Stream] = sh
			}
			if err := sh.Apply(e); err != nil {
				t.Fatal(err)
			}
		}
	}
	return sheets, camp, roster
}

// asJSON is how a sheet is compared: as the user sees it with --json.
func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSnapshotsEqualTheFullFold runs random commands, undos (of the
// latest command, and of commands deep in history) and redos on a
// campaign that saves a snapshot at every command, and checks after each
// that every sheet, now and as of an earlier point, and the campaign's
// state equal a plain fold of the whole log.
func TestSnapshotsEqualTheFullFold(t *testing.T) {
	for seed := int64(1); seed <= 6; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) { snapshotProperty(t, seed, 120) })
	}
}

func snapshotProperty(t *testing.T, seed int64, steps int) {
	store := memstore.New()
	s, err := Init(store, "test", rules.Edition2021, Options{VerifyKept: true, Now: fixedClock(), Actor: "gm", Entropy: rand.New(rand.NewSource(seed))})
	if err != nil {
		t.Fatal(err)
	}
	s.snapEvery, s.revertsSnapEvery, s.rebuildEvery = 0, 0, 3
	// plain reads the same log without trusting any snapshot: its code
	// is no build's.
	plain := *s
	plain.snapCode = "none"
	names := []string{"Ajax", "Hector", "Brann"}
	mustCreate(t, s, "Ajax", 12, 11, 9, "Unarmed:2", "Medic:2")
	mustCreate(t, s, "Hector", 11, 12, 9)
	mustCreate(t, s, "Brann", 10, 11, 11)
	if _, err := s.AdventureStart("The long one"); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(seed))
	die := func() int { return r.Intn(6) + 1 }
	var commands []string // every command ID logged, for deep undos
	check := func(step int, what string) {
		checkReverts(t, s, store, fmt.Sprintf("step %d (%s)", step, what))
		head, _, _ := store.Head()
		for _, upTo := range []int64{0, 1 + r.Int63n(head)} {
			want, camp, roster := referenceSheets(t, store, upTo)
			asOf := ""
			if upTo > 0 {
				asOf = fmt.Sprint(upTo)
			}
			for _, name := range names {
				got, err := s.SheetAsOf(name, asOf)
				w, ok := want[name]
				if !ok {
					if err == nil {
						t.Fatalf("step %d (%s): %s has a sheet as of %q, but is not in the party", step, what, name, asOf)
					}
					continue
				}
				if err != nil {
					t.Fatalf("step %d (%s): sheet %s as of %q: %v", step, what, name, asOf, err)
				}
				if g, w := asJSON(t, got), asJSON(t, w); g != w {
					t.Fatalf("step %d (%s): sheet %s as of %q\n got %s\nwant %s", step, what, name, asOf, g, w)
				}
				gotAudit, err := s.AuditXPAsOf(name, asOf)
				if err != nil {
					t.Fatal(err)
				}
				wantAudit, err := plain.AuditXPAsOf(name, asOf)
				if err != nil {
					t.Fatal(err)
				}
				if g, w := asJSON(t, gotAudit), asJSON(t, wantAudit); g != w {
					t.Fatalf("step %d (%s): audit of %s as of %q\n got %s\nwant %s", step, what, name, asOf, g, w)
				}
			}
			v, err := s.view(asOf)
			if err != nil {
				t.Fatal(err)
			}
			gotCamp, err := v.campaign()
			if err != nil {
				t.Fatal(err)
			}
			if g, w := asJSON(t, gotCamp), asJSON(t, camp); g != w {
				t.Fatalf("step %d (%s): campaign as of %q\n got %s\nwant %s", step, what, asOf, g, w)
			}
			gotRoster, err := v.roster()
			if err != nil {
				t.Fatal(err)
			}
			if g, w := asJSON(t, gotRoster), asJSON(t, roster); g != w {
				t.Fatalf("step %d (%s): roster as of %q\n got %s\nwant %s", step, what, asOf, g, w)
			}
		}
	}
	for step := 0; step < steps; step++ {
		who := names[r.Intn(len(names))]
		var err error
		var what string
		// returned are the sheets the command answered with, which must
		// be what a fresh read gives once it is logged (sheetsAfter).
		var returned []projections.Sheet
		switch k := r.Intn(12); {
		case k < 3:
			what = "roll"
			_, err = s.Roll(RollRequest{Expr: "3/DX", Character: who, Faces: []int{die(), die(), die()}})
		case k == 3:
			what = "award"
			if step%2 == 0 {
				returned, err = s.AwardXP([]string{who}, 1+r.Intn(20), "play")
			} else {
				returned, err = s.Plotword(fmt.Sprint("word", step))
			}
		case k == 4:
			what = "spend"
			var sp SpendResult
			sp, err = s.SpendXP(Spend{Character: who, Target: []string{"ST", "DX", "IQ"}[r.Intn(3)], Levels: 1})
			returned = []projections.Sheet{sp.Sheet}
		case k == 5:
			what = "karma"
			var sh projections.Sheet
			sh, err = s.GrantKarma(who, 1+r.Intn(3), "luck")
			returned = []projections.Sheet{sh}
		case k == 6:
			what = "damage"
			_, _, err = s.Damage(DamageRequest{Name: who, Points: 1 + r.Intn(3), Source: "fall"})
		case k == 7:
			what = "day"
			_, err = s.DayNext(1)
		case k == 8:
			what = "undo"
			_, err = s.Undo(UndoRequest{Reason: "oops"})
		case k == 9 && len(commands) > 0:
			what = "deep undo"
			_, err = s.Undo(UndoRequest{Target: commands[r.Intn(len(commands))], Cascade: true, Reason: "retcon"})
		case k == 10:
			what = "redo"
			_, err = s.Redo(RedoRequest{})
		default:
			what = "heal"
			_, err = s.Heal(HealRequest{Name: who, Points: 1})
		}
		if c := rules.CodeOf(err); c == rules.CodeInternal || c == rules.CodeInvalidLog {
			t.Fatalf("step %d (%s %s): %v", step, what, who, err)
		}
		for _, e := range s.Appended()[len(s.Appended())-min(len(s.Appended()), 1):] {
			if e.Stream != events.CommandsStream {
				commands = append(commands, e.CommandID)
			}
		}
		if err == nil && len(returned) > 0 {
			want, _, _ := referenceSheets(t, store, 0)
			for _, got := range returned {
				if g, w := asJSON(t, got), asJSON(t, want[got.Name]); g != w {
					t.Fatalf("step %d (%s): %s's sheet as the command answered\n got %s\nwant %s", step, what, got.Name, g, w)
				}
			}
		}
		check(step, what)
	}
	// A rebuild folds the same, now and as of earlier points (it saves
	// snapshots every s.rebuildEvery events of a stream).
	if _, err := s.Rebuild(); err != nil {
		t.Fatalf("Rebuild: %v", err)
	}
	for i := 0; i < 10; i++ {
		check(steps+i, "rebuild")
	}
	// The run must have exercised what it claims to: snapshots saved of
	// every kind, and some found stale after an undo or a redo.
	for _, q := range []events.SnapshotQuery{
		{Stream: events.CommandsStream, Kind: projections.SnapReverts},
		{Stream: events.CampaignStream, Kind: projections.SnapCampaign},
		{Stream: rosterView, Kind: projections.SnapRoster},
	} {
		q.Code = s.snapCode
		if _, ok, _ := store.Snapshot(q); !ok {
			t.Errorf("no %s snapshot was saved", q.Kind)
		}
	}
	if s.staleSnapshots == 0 {
		t.Errorf("no snapshot was ever found stale: the run did not test undo against snapshots")
	}
}

// checkReverts compares the service's reverts, read from its snapshot and
// the commands after it, with a fold of the whole commands stream: which
// commands are out, by which undo (with its details), and what a redo
// would restore.
func checkReverts(t *testing.T, s *Service, store events.Store, at string) {
	t.Helper()
	got, err := s.reverts(0)
	if err != nil {
		t.Fatal(err)
	}
	stream, err := store.ReadStream(events.CommandsStream, 0)
	if err != nil {
		t.Fatal(err)
	}
	want, err := projections.FoldReverts(stream)
	if err != nil {
		t.Fatal(err)
	}
	log, err := store.Read(events.Query{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range log {
		g, gok := got.Reverted(e.CommandID)
		w, wok := want.Reverted(e.CommandID)
		if gok != wok || asJSON(t, g) != asJSON(t, w) {
			t.Fatalf("%s: command %s: reverted %v %s, want %v %s", at, e.CommandID, gok, asJSON(t, g), wok, asJSON(t, w))
		}
	}
	if got.Count() != want.Count() {
		t.Fatalf("%s: %d commands out of effect, want %d", at, got.Count(), want.Count())
	}
	gr, gids, gok := got.LastReverted()
	wr, wids, wok := want.LastReverted()
	if gok != wok || asJSON(t, gr) != asJSON(t, wr) || fmt.Sprint(gids) != fmt.Sprint(wids) || got.Version != want.Version {
		t.Fatalf("%s: last reverted %v %s %v (version %d), want %v %s %v (version %d)", at, gok, asJSON(t, gr), gids, got.Version, wok, asJSON(t, wr), wids, want.Version)
	}
}

// TestUnreadableSnapshotIsFoldedAround: a snapshot that does not decode
// (a damaged row, or one from a build with the same code but another
// shape) is passed over, never trusted and never fatal.
func TestUnreadableSnapshotIsFoldedAround(t *testing.T) {
	store := memstore.New()
	s, err := Init(store, "test", rules.Edition2021, Options{VerifyKept: true, Now: fixedClock(), Actor: "gm", Entropy: rand.New(rand.NewSource(1))})
	if err != nil {
		t.Fatal(err)
	}
	mustCreate(t, s, "Ajax", 12, 11, 9)
	if _, err := s.GrantKarma("Ajax", 2, "luck"); err != nil {
		t.Fatal(err)
	}
	want, err := s.Sheet("Ajax")
	if err != nil {
		t.Fatal(err)
	}
	stream := events.CharacterStream(want.ID)
	bad := []events.Snapshot{
		{Stream: stream, Kind: projections.SnapCharacter, Code: s.snapCode, Seq: want.Seq, Version: want.Version, State: []byte("not json")},
		{Stream: events.CampaignStream, Kind: projections.SnapCampaign, Code: s.snapCode, Seq: 1, Version: 1, State: []byte("[")},
		{Stream: events.CommandsStream, Kind: projections.SnapReverts, Code: s.snapCode, Seq: 1, Version: 1, State: []byte("garbage")},
	}
	if err := store.SaveSnapshots(bad); err != nil {
		t.Fatal(err)
	}
	got, err := s.Sheet("Ajax")
	if err != nil {
		t.Fatalf("with unreadable snapshots: %v", err)
	}
	if asJSON(t, got) != asJSON(t, want) {
		t.Fatalf("with unreadable snapshots\n got %s\nwant %s", asJSON(t, got), asJSON(t, want))
	}
	if _, err := s.GrantKarma("Ajax", 1, "more luck"); err != nil {
		t.Fatalf("a command with unreadable snapshots: %v", err)
	}
}

// TestRosterSnapshotAfterUndoingACreation: a character created before
// the roster's snapshot and undone after it leaves the party; redone, he
// is back, in his place.
func TestRosterSnapshotAfterUndoingACreation(t *testing.T) {
	store := memstore.New()
	s, err := Init(store, "test", rules.Edition2021, Options{VerifyKept: true, Now: fixedClock(), Actor: "gm", Entropy: rand.New(rand.NewSource(1))})
	if err != nil {
		t.Fatal(err)
	}
	s.snapEvery = 0
	mustCreate(t, s, "Ajax", 12, 11, 9)
	mustCreate(t, s, "Hector", 11, 12, 9)
	if _, err := s.GrantKarma("Ajax", 1, "luck"); err != nil { // saves the roster's snapshot
		t.Fatal(err)
	}
	if _, ok, _ := store.Snapshot(events.SnapshotQuery{Stream: rosterView, Kind: projections.SnapRoster, Code: s.snapCode}); !ok {
		t.Fatal("no roster snapshot was saved")
	}
	hector, err := s.Sheet("Hector")
	if err != nil {
		t.Fatal(err)
	}
	created, err := store.ReadStream(events.CharacterStream(hector.ID), 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Undo(UndoRequest{Target: created[0].CommandID, Reason: "never was"}); err != nil {
		t.Fatal(err)
	}
	names := func() string {
		t.Helper()
		ms, err := s.Characters()
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(memberNamesOf(ms))
	}
	if got := names(); got != "[Ajax]" {
		t.Fatalf("after undoing Hector's creation the party is %s, want [Ajax]", got)
	}
	if _, err := s.Sheet("Hector"); rules.CodeOf(err) != rules.CodeNotFound {
		t.Fatalf("Hector's sheet after his creation was undone: err = %v, want not found", err)
	}
	if _, err := s.Redo(RedoRequest{}); err != nil {
		t.Fatal(err)
	}
	if got := names(); got != "[Ajax Hector]" {
		t.Fatalf("after the redo the party is %s, want [Ajax Hector]", got)
	}
}

func memberNamesOf(ms []projections.Member) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Name
	}
	return out
}
