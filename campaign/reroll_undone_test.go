package campaign

import (
	"testing"

	"github.com/ltscamp/ltscamp/rules"
)

// TestRerollRefusesAnUndoneRoll: a roll whose command was undone is not
// in effect, so karma has nothing to re-roll (verify would call such a
// re-roll "not a roll in effect"); the refusal appends nothing.
func TestRerollRefusesAnUndoneRoll(t *testing.T) {
	s := diceFile(t, rules.Edition2021, nil)
	mustCreate(t, s, "Ajax", 12, 10, 10)
	r, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Ajax", Faces: []int{6, 6, 5}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Undo(UndoRequest{Reason: "wrong roll"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GrantKarma("Ajax", 1, "a good deed"); err != nil {
		t.Fatal(err)
	}
	before, err := s.EventCount()
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Reroll(RerollRequest{Roll: r.Event.ID, Faces: []int{1, 1, 1}})
	if rules.CodeOf(err) != rules.CodeRule {
		t.Fatalf("re-roll of an undone roll: %v, want a rule error", err)
	}
	after, _ := s.EventCount()
	if after != before {
		t.Errorf("the refused re-roll appended %d events", after-before)
	}
	rep, err := s.Verify()
	if err != nil || !rep.OK {
		t.Errorf("verify after the refusal: %+v, %v", rep, err)
	}
}
