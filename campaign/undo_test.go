package campaign

import (
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/rules"
)

func sheetOf(t *testing.T, s *Service, name string) (unspent, st int) {
	t.Helper()
	sh, err := s.Sheet(name)
	if err != nil {
		t.Fatal(err)
	}
	return sh.XP.Unspent, sh.Attributes.ST
}

// TestRedoRefusedWhenItWouldOverdraw: undo a spend, spend the XP on
// something else, then redo the first spend: it would overdraw, so redo is
// refused and appends nothing.
func TestRedoRefusedWhenItWouldOverdraw(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	if _, err := s.AwardXP([]string{"Ajax"}, 20, "r"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SpendXP(Spend{Character: "Ajax", Target: "ST", Levels: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Undo(UndoRequest{Reason: "changed my mind"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SpendXP(Spend{Character: "Ajax", Target: "DX", Levels: 1}); err != nil { // 17 XP
		t.Fatal(err)
	}
	before := count(t, s)
	_, err := s.Redo(RedoRequest{})
	if rules.CodeOf(err) != rules.CodeRule || !strings.Contains(err.Error(), "commands made since would become invalid:") ||
		!strings.Contains(err.Error(), "DX 11→12 costs 17 XP, but Ajax had 2 unspent") {
		t.Fatalf("redo over a later spend: %v", err)
	}
	if count(t, s) != before {
		t.Fatal("a refused redo appended events")
	}
	if unspent, st := sheetOf(t, s, "Ajax"); unspent != 3 || st != 12 {
		t.Fatalf("after the refused redo: %d unspent, ST %d", unspent, st)
	}
}

// TestCascadeReachesAFixedPoint: three commands chained on one award are
// all reverted by one undo --cascade, in one event.
func TestCascadeReachesAFixedPoint(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	if _, err := s.AwardXP([]string{"Ajax"}, 30, "r"); err != nil {
		t.Fatal(err)
	}
	award, err := s.Log(LogFilter{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"ST", "skill:Knife"} {
		if _, err := s.SpendXP(Spend{Character: "Ajax", Target: target, Levels: 1}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := s.Undo(UndoRequest{Target: award[0].CommandID, Cascade: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Reverted) != 3 {
		t.Fatalf("reverted %d commands, want the award and both spends: %+v", len(res.Reverted), res.Reverted)
	}
	if unspent, st := sheetOf(t, s, "Ajax"); unspent != 0 || st != 12 {
		t.Fatalf("after the cascade: %d unspent, ST %d", unspent, st)
	}
	// One redo restores all three.
	if _, err := s.Redo(RedoRequest{}); err != nil {
		t.Fatal(err)
	}
	if unspent, st := sheetOf(t, s, "Ajax"); unspent != 2 || st != 13 {
		t.Fatalf("after redo: %d unspent, ST %d", unspent, st)
	}
}

// TestUndoAcrossStreams: undoing a character's creation is refused while
// later commands use the character, and a bare roll undoes alone.
func TestUndoAcrossStreams(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	if _, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Ajax", Faces: []int{1, 2, 3}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Roll(RollRequest{Expr: "d6", Faces: []int{4}}); err != nil {
		t.Fatal(err)
	}
	created, err := s.Log(LogFilter{TypePrefix: "character.created"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Undo(UndoRequest{Target: created[0].CommandID})
	if rules.CodeOf(err) != rules.CodeRule || !strings.Contains(err.Error(), "3/DX") {
		t.Fatalf("undoing a character with rolls: %v", err)
	}
	if _, err := s.Undo(UndoRequest{}); err != nil { // the bare d6
		t.Fatal(err)
	}
	res, err := s.Undo(UndoRequest{Target: created[0].CommandID, Cascade: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Reverted) != 2 {
		t.Fatalf("reverted %+v", res.Reverted)
	}
	if _, err := s.Sheet("Ajax"); rules.CodeOf(err) != rules.CodeNotFound {
		t.Fatalf("Ajax after his creation was undone: %v", err)
	}
	// With Ajax gone, a new Ajax may be created.
	mustCreate(t, s, "Ajax", 11, 12, 9)
	if _, err := s.Undo(UndoRequest{}); err != nil {
		t.Fatal(err)
	}
	// Redo of the old Ajax would now clash with nothing: the new one is undone.
	if _, err := s.Redo(RedoRequest{Target: created[0].CommandID}); err != nil {
		t.Fatal(err)
	}
	if _, st := sheetOf(t, s, "Ajax"); st != 12 {
		t.Fatalf("the restored Ajax has ST %d", st)
	}
}

// TestUndoNothing covers the empty cases.
func TestUndoNothing(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	if _, err := s.Undo(UndoRequest{}); rules.CodeOf(err) != rules.CodeNotFound {
		t.Fatalf("undo in an empty campaign: %v", err)
	}
	if _, err := s.Redo(RedoRequest{}); rules.CodeOf(err) != rules.CodeNotFound {
		t.Fatalf("redo with nothing undone: %v", err)
	}
	if _, err := s.Undo(UndoRequest{Target: "1"}); rules.CodeOf(err) != rules.CodeRule {
		t.Fatalf("undo of the campaign's creation: %v", err)
	}
	if _, err := s.Undo(UndoRequest{Target: "99"}); rules.CodeOf(err) != rules.CodeNotFound {
		t.Fatalf("undo of seq 99: %v", err)
	}
}
