package campaign

import (
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// replayUnder replays s under ed and fails the test on an error or a write.
func replayUnder(t *testing.T, s *Service, ed rules.Edition) projections.WhatIfReport {
	t.Helper()
	before, _ := s.EventCount()
	rep, err := s.WhatIf(WhatIfQuery{Edition: string(ed)})
	if err != nil {
		t.Fatalf("WhatIf(%s): %v", ed, err)
	}
	if after, _ := s.EventCount(); after != before {
		t.Fatalf("WhatIf(%s) appended %d events", ed, after-before)
	}
	return rep
}

// differencesOf is a character's differences as "field real→would".
func differencesOf(rep projections.WhatIfReport, name string) []string {
	var out []string
	for _, c := range rep.Characters {
		if c.Character != name {
			continue
		}
		for _, d := range c.Differences {
			out = append(out, d.Field+" "+d.Real+"→"+d.WouldBe)
		}
	}
	return out
}

// TestWhatIfAttackDamageMinimum: a cursed Ajax's dagger (d6) rolls a 1,
// less his curse: 0. 2021 "Damage": "(min=1)", so Hector takes 1; 2010
// states no general minimum, so he would take nothing, and the damage the
// log dealt him is not dealt.
func TestWhatIfAttackDamageMinimum(t *testing.T) {
	s := diceFile(t, rules.Edition2021, nil)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	mustCreate(t, s, "Hector", 11, 12, 9)
	if _, err := s.AdventureStart("One"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddCurse("Ajax", 1, "the idol"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EncounterStart("the brawl"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Equip("Ajax", "weapon", "dagger", false); err != nil {
		t.Fatal(err)
	}
	res, err := s.Attack(AttackRequest{Attacker: "Ajax", Target: "Hector", HitFaces: []int{1, 2, 3}, DamageFaces: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Attack.Taken != 1 {
		t.Fatalf("2021: Hector took %d, want the minimum of 1", res.Attack.Taken)
	}

	rep := replayUnder(t, s, rules.Edition2010)
	if got := strings.Join(differencesOf(rep, "Hector"), "; "); got != "damage 1→0" {
		t.Errorf("Hector under 2010: %q, want damage 1→0", got)
	}
	if len(rep.Commands) != 1 || rep.Commands[0].Kind != projections.WhatIfDiverges || rep.Commands[0].Type != "attack.made" ||
		!strings.Contains(rep.Commands[0].What, "hit, 1 taken under 2021; hit, 0 taken under 2010") {
		t.Errorf("commands %+v, want the attack diverging", rep.Commands)
	}
	for _, ed := range []rules.Edition{rules.Edition2020, rules.Edition2021} {
		if rep := replayUnder(t, s, ed); len(rep.Commands) != 0 || len(differencesOf(rep, "Hector")) != 0 {
			t.Errorf("under %s (a minimum of 1 too): %+v", ed, rep.Commands)
		}
	}
}

// TestWhatIfRefusedEventLeavesTheSheet: an event the other edition's
// rules would not produce stops the line before it: the would-be sheet
// is as it stood, not with the refused event folded in. A wish spent to
// re-roll is 2010's alone ("a wish spent as karma"), so a 2010 campaign's
// wish re-roll stops under 2021, and the wish stays unspent.
func TestWhatIfRefusedEventLeavesTheSheet(t *testing.T) {
	s := diceFile(t, rules.Edition2010, nil)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	if _, err := s.GrantWish("Ajax", 1, "the genie"); err != nil {
		t.Fatal(err)
	}
	r, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Ajax", Faces: []int{6, 6, 5}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reroll(RerollRequest{Roll: r.Event.ID, Faces: []int{1, 1, 1}, UseWish: true}); err != nil {
		t.Fatal(err)
	}
	real, err := s.Sheet("Ajax")
	if err != nil || real.Wishes != 0 {
		t.Fatalf("the 2010 re-roll spent no wish: %d, %v", real.Wishes, err)
	}
	rep := replayUnder(t, s, rules.Edition2021)
	if got := strings.Join(differencesOf(rep, "Ajax"), "; "); got != "wishes 0→1" {
		t.Errorf("Ajax under 2021: %q, want wishes 0→1 (the refused spend not folded)", got)
	}
	var stops int
	for _, c := range rep.Commands {
		if c.Kind == projections.WhatIfStops {
			stops++
			if !strings.Contains(c.What, "2010 only") {
				t.Errorf("stop %+v: want the rule that refuses it", c)
			}
		}
	}
	if stops != 1 {
		t.Errorf("commands %+v: want one stop", rep.Commands)
	}
}
