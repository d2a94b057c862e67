package campaign

import (
	"encoding/json"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// TestSpaceSuitFailsOnAllSixes: "(SS) Space suit: if the character rolls all
// sixes on any check ... the suit is R=3."
func TestSpaceSuitFailsOnAllSixes(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	if _, err := s.Equip("Ajax", "armor", "space suit", false); err != nil {
		t.Fatal(err)
	}
	sh, _ := s.Sheet("Ajax")
	if sh.Adjusted.DX != 10 {
		t.Fatalf("in a space suit (R1) Ajax's DX is %d, want 10", sh.Adjusted.DX)
	}
	if _, err := s.Roll(RollRequest{Expr: "3/IQ", Character: "Ajax", Faces: []int{6, 6, 6}}); err != nil {
		t.Fatal(err)
	}
	sh, _ = s.Sheet("Ajax")
	if sh.Armor == nil || !sh.Armor.Failed || sh.Armor.Restriction != 3 || sh.Adjusted.DX != 8 || sh.Adjusted.MA != 4 {
		t.Fatalf("after all sixes: %+v, adjusted %+v", sh.Armor, sh.Adjusted)
	}
}

// TestLifecycleReplaysClean runs a story through every lifecycle command and
// checks that the replay finds nothing wrong, that sheets folded per stream
// equal the replay's, and that the timeline folds the same twice.
func TestLifecycleReplaysClean(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9, "Unarmed:2", "Medic:2")
	mustCreate(t, s, "Hector", 11, 12, 9, "Pistol:1")
	mustCreate(t, s, "Cass", 8, 14, 10, "Storyteller:1")
	steps := []func() error{
		func() error { _, err := s.AdventureStart("Kit-Kat run"); return err },
		func() error { _, err := s.Storytell("Cass", []int{1, 2, 3}, []string{"Hector"}); return err },
		func() error { _, err := s.Equip("Hector", "weapon", "handgun", false); return err },
		func() error { _, err := s.Equip("Ajax", "armor", "flak vest", false); return err },
		func() error { _, err := s.EncounterStart("pirates"); return err },
		func() error {
			_, err := s.Attack(AttackRequest{Attacker: "Hector", Target: "Ajax", Bonus: "hit", HitFaces: []int{4, 4, 4}, DamageFaces: []int{6, 5}})
			return err
		},
		func() error { _, _, err := s.Damage(DamageRequest{Name: "Ajax", Points: 2, Fatigue: true}); return err },
		func() error {
			_, err := s.Heal(HealRequest{Name: "Ajax", Medic: "Ajax", MedicFaces: []int{2, 2, 2}})
			return err
		},
		func() error { _, err := s.EncounterEnd(OutcomeVictory, nil); return err },
		func() error { _, err := s.Sleep(); return err },
		func() error {
			_, err := s.Rest(RestRequest{Names: []string{"Ajax"}, Days: 3, Conditions: allGood})
			return err
		},
		func() error { _, err := s.DayNext(1); return err },
		func() error { _, err := s.AddCurse("Hector", 1, ""); return err },
		func() error { _, _, err := s.CurseLift("Hector", "attribute"); return err },
		func() error { _, err := s.AdventureEnd(); return err },
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	log, err := s.Store().Read(events.Query{})
	if err != nil {
		t.Fatal(err)
	}
	w := projections.Replay(log, nil)
	if len(w.Violations) != 0 {
		t.Fatalf("violations: %+v", w.Violations)
	}
	sheets, err := s.Sheets()
	if err != nil {
		t.Fatal(err)
	}
	for _, sh := range sheets {
		a, _ := json.Marshal(sh)
		b, _ := json.Marshal(w.Sheets[sh.ID])
		if string(a) != string(b) {
			t.Errorf("%s per stream:\n%s\nreplayed:\n%s", sh.Name, a, b)
		}
		if sh.Damage != 0 || sh.Fatigue != 0 {
			t.Errorf("%s not fully recovered after the adventure: %+v", sh.Name, sh)
		}
	}
	t1, err := s.Timeline(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	t2, err := s.Timeline(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	j1, _ := json.Marshal(t1)
	j2, _ := json.Marshal(t2)
	if string(j1) != string(j2) {
		t.Fatal("the timeline folded differently twice")
	}
}

var allGood = rules.RestConditions{StayedPut: true, Sheltered: true, Provisioned: true, NoStrenuous: true}
