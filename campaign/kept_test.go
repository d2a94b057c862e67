package campaign

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/memstore"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// keptCampaign creates a campaign file with Ajax, through a service that
// checks every kept state (VerifyKept), and returns the service and the
// file.
func keptCampaign(t *testing.T) (*Service, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "c.ltscamp")
	s, err := Create(path, "Kept", rules.Edition2021, Options{VerifyKept: true, Now: fixedClock(), Actor: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	mustCreate(t, s, "Ajax", 12, 11, 9, "Unarmed:2")
	return s, path
}

// roll rolls 3/DX for name with the faces given.
func roll(t *testing.T, s *Service, name string) RollResult {
	t.Helper()
	res, err := s.Roll(RollRequest{Expr: "3/DX", Character: name, Faces: []int{1, 2, 3}})
	if err != nil {
		t.Fatalf("roll for %s: %v", name, err)
	}
	return res
}

// TestKeptStatesSpareTheReads: a command that follows another of the same
// service, with nothing else written meanwhile, reads nothing from the log:
// not the head, not a stream. The first command after the service opened
// reads them.
func TestKeptStatesSpareTheReads(t *testing.T) {
	s, path := keptCampaign(t)
	s.Close()
	s = openFile(t, path)
	cs, c := counted(t, s)
	cs.verifyKept = false // its fresh folds would be counted
	roll(t, cs, "Ajax")
	if c.queries == 0 {
		t.Fatal("the first command of a service read nothing from the log")
	}
	for i := range 3 {
		c.reset()
		roll(t, cs, "Ajax")
		if c.queries != 0 {
			t.Errorf("roll %d after the first read the log %d times (%d events), want 0", i+2, c.queries, c.events)
		}
	}
}

// TestKeptStatesGiveWayToAnotherProcess: a second process writes between
// two commands of a service (XP awarded, a character created); the next
// command of the first is refused on its kept states by the store, and is
// decided again at once from the log, which it then sees whole.
func TestKeptStatesGiveWayToAnotherProcess(t *testing.T) {
	s, path := keptCampaign(t)
	var pauses []time.Duration
	s.sleep = func(d time.Duration) { pauses = append(pauses, d) }
	roll(t, s, "Ajax")
	if s.kept == nil {
		t.Fatal("no states kept after a roll")
	}
	other := openFile(t, path)
	if _, err := other.AwardXP([]string{"Ajax"}, 12, "good play"); err != nil {
		t.Fatal(err)
	}
	mustCreate(t, other, "Zed", 10, 12, 10)

	// Kept, Ajax has no XP and there is no Zed.
	res, err := s.SpendXP(Spend{Character: "Ajax", Target: "skill:Medic", Levels: 1})
	if err != nil {
		t.Fatalf("a spend the other process's award pays for: %v", err)
	}
	if res.Sheet.XP.Unspent >= 12 {
		t.Errorf("unspent XP %d after the spend, want less than the 12 awarded", res.Sheet.XP.Unspent)
	}
	roll(t, s, "Zed")
	if len(pauses) != 0 {
		t.Errorf("a command refused on kept states paused %v before deciding again", pauses)
	}
	// And the other way round: the first service's writes reach the
	// second, which kept states of its own.
	roll(t, other, "Zed")
	sh, err := other.Sheet("Ajax")
	if err != nil {
		t.Fatal(err)
	}
	if sh.XP.Unspent != res.Sheet.XP.Unspent {
		t.Errorf("the other process sees %d XP unspent, the spender %d", sh.XP.Unspent, res.Sheet.XP.Unspent)
	}
}

// TestKeptStatesRefusedWhenTheFileChanged: a change to the file that is no
// append of this store (here, its modification time set back) makes the
// store refuse a command decided on kept states; it is checked and decided
// from the log instead, and goes in.
func TestKeptStatesRefusedWhenTheFileChanged(t *testing.T) {
	s, path := keptCampaign(t)
	roll(t, s, "Ajax")
	past := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(path+"-wal", past, past); err != nil {
		t.Fatal(err)
	}
	cs, c := counted(t, s)
	cs.verifyKept = false
	roll(t, cs, "Ajax")
	if c.queries == 0 {
		t.Error("a command after the file changed read nothing from the log")
	}
}

// TestKeptStatesAfterUndoAndRefusals: an undo changes what is in effect,
// so nothing is kept after it; a command refused on kept states is
// decided again from the log (its refusal is the log's) and keeps
// nothing; one that folded its own events while deciding (a creation)
// leaves the states it moved out. VerifyKept checks every command here
// against the log.
func TestKeptStatesAfterUndoAndRefusals(t *testing.T) {
	s, _ := keptCampaign(t)
	roll(t, s, "Ajax")
	if _, err := s.Undo(UndoRequest{}); err != nil {
		t.Fatal(err)
	}
	if s.kept != nil {
		t.Error("states kept after an undo")
	}
	roll(t, s, "Ajax")
	if _, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Nobody", Faces: []int{1, 2, 3}}); err == nil {
		t.Fatal("a roll for nobody went in")
	}
	if s.kept != nil {
		t.Error("states kept after a refusal")
	}
	roll(t, s, "Ajax")
	mustCreate(t, s, "Zed", 10, 12, 10)
	if s.kept.roster != nil {
		t.Error("the roster a creation folded its own event into was kept")
	}
	roll(t, s, "Zed")
	roll(t, s, "Ajax")
	if _, err := s.Undo(UndoRequest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Redo(RedoRequest{}); err != nil {
		t.Fatal(err)
	}
	roll(t, s, "Ajax")
}

// TestVerifyKeptCatchesADifference: the check the tests run with fails a
// command whose kept state is not what the log folds to: it can fail.
func TestVerifyKeptCatchesADifference(t *testing.T) {
	s, _ := keptCampaign(t)
	roll(t, s, "Ajax")
	for _, c := range s.kept.chars {
		c.sheet.Karma += 5
	}
	before := count(t, s)
	_, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Ajax", Faces: []int{1, 2, 3}})
	if err == nil || !strings.Contains(err.Error(), "kept state") {
		t.Fatalf("a kept state that differs from the log: err = %v", err)
	}
	if got := count(t, s); got != before {
		t.Errorf("%d events appended by the command refused", got-before)
	}
}

// TestHeadMovedIsAConflict: the store's refusal of a command decided on
// kept states is a concurrency error, which a caller can tell apart.
func TestHeadMovedIsAConflict(t *testing.T) {
	err := error(&events.HeadMovedError{Expected: 4, Actual: 6})
	if !errors.Is(err, events.ErrConcurrency) {
		t.Errorf("%v is not an ErrConcurrency", err)
	}
	if !strings.Contains(err.Error(), "seq 6") || !strings.Contains(err.Error(), "seq 4") {
		t.Errorf("%q does not name both heads", err)
	}
}

// TestAuditSnapshotsFollowTheAudit: a character's XP audit snapshot is
// saved with his character snapshot only when the events since add to the
// audit: a run of rolls saves none (the audit of a long campaign holds
// megabytes of rows), an award then does. `audit xp` reads the same either
// way.
func TestAuditSnapshotsFollowTheAudit(t *testing.T) {
	s, err := Init(memstore.New(), "test", rules.Edition2021, Options{VerifyKept: true, Now: fixedClock(), Actor: "gm", SnapEvery: 4})
	if err != nil {
		t.Fatal(err)
	}
	mustCreate(t, s, "Ajax", 12, 11, 9)
	sh, err := s.Sheet("Ajax")
	if err != nil {
		t.Fatal(err)
	}
	latest := func(kind string) (events.Snapshot, bool) {
		t.Helper()
		sn, ok, err := s.store.Snapshot(events.SnapshotQuery{Stream: events.CharacterStreamPrefix + sh.ID, Kind: kind, Code: s.snapCode})
		if err != nil {
			t.Fatal(err)
		}
		return sn, ok
	}
	for range 20 {
		roll(t, s, "Ajax")
	}
	if _, ok := latest(projections.SnapCharacter); !ok {
		t.Fatal("no character snapshot after 20 rolls, saving one every 4 events")
	}
	if sn, ok := latest(projections.SnapAudit); ok {
		t.Errorf("an audit snapshot at version %d, saved for rolls alone", sn.Version)
	}
	if _, err := s.AwardXP([]string{"Ajax"}, 5, "good play"); err != nil {
		t.Fatal(err)
	}
	for range 6 {
		roll(t, s, "Ajax")
	}
	sn, ok := latest(projections.SnapAudit)
	if !ok || sn.Version < 23 {
		t.Fatalf("audit snapshot %v at version %d after an award at version 23, want one at or past it", ok, sn.Version)
	}
	withSnap, err := s.AuditXP("Ajax")
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := New(s.store, Options{Now: fixedClock(), Actor: "gm", Build: "another build"})
	if err != nil {
		t.Fatal(err)
	}
	full, err := fresh.AuditXP("Ajax")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(withSnap) != fmt.Sprint(full) {
		t.Errorf("audit from the snapshot:\n%v\nfolded whole (another build trusts none):\n%v", withSnap, full)
	}
}
