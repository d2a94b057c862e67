package campaign

import (
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// mustReplayClean fails t when the replay finds anything wrong in s's log.
func mustReplayClean(t *testing.T, s *Service) {
	t.Helper()
	log, err := s.Store().Read(events.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if w := projections.Replay(log, nil); len(w.Violations) != 0 {
		t.Fatalf("violations: %+v", w.Violations)
	}
}

// combatCampaign is Kira (DX 12, Pistol 1, a Handgun), Brann (ST 14,
// Unarmed 2) and a foe Drone (ST 10, DX 11), in an encounter.
func combatCampaign(t *testing.T, ed rules.Edition) *Service {
	t.Helper()
	s := newCampaign(t, ed)
	mustCreate(t, s, "Kira", 10, 12, 10, "Pistol:1", "Medic:1")
	mustCreate(t, s, "Brann", 14, 10, 8, "Unarmed:2")
	mustCreate(t, s, "Cole", 12, 11, 9, "Knife:1")
	if _, err := s.AddFoe(NewFoe{Name: "Drone", Attributes: rules.Attributes{ST: 10, DX: 11, IQ: 8}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Equip("Kira", "weapon", "handgun", false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AdventureStart("Audit"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EncounterStart("the drone"); err != nil {
		t.Fatal(err)
	}
	return s
}

// Issue 21: "Each level is +1DX to hit OR +1 damage; decide before
// attacking" (all editions). A level is never silently dropped: it goes
// where the attacker's standing choice says (hit until set with `char
// set`), or where --skill-bonus says for one attack, and the attack
// records which and why.
func TestCombatSkillStandingChoice(t *testing.T) {
	type row struct {
		name       string
		set        string // char set --skill-bonus, before the attack
		bonus      string // --skill-bonus
		hit, dmg   []int
		outcome    string
		target     int
		before     int
		wantBonus  string
		wantFrom   string
		wantSkillN int
	}
	rows := []row{
		// The acceptance's Kira: DX 12 + Pistol 1 = 13; 5,4,4 = 13 hits.
		{name: "default: the level goes to hit", hit: []int{5, 4, 4}, dmg: []int{3, 3}, outcome: "hit", target: 13, before: 5, wantBonus: "hit", wantFrom: "standing", wantSkillN: 1},
		{name: "char set damage: the level goes to damage", set: "damage", hit: []int{3, 3, 3}, dmg: []int{3, 3}, outcome: "hit", target: 12, before: 6, wantBonus: "damage", wantFrom: "standing", wantSkillN: 1},
		{name: "char set damage, 13 misses DX 12", set: "damage", hit: []int{5, 4, 4}, outcome: "miss", target: 12, wantBonus: "damage", wantFrom: "standing", wantSkillN: 1},
		{name: "--skill-bonus hit overrides char set damage", set: "damage", bonus: "hit", hit: []int{5, 4, 4}, dmg: []int{3, 3}, outcome: "hit", target: 13, before: 5, wantBonus: "hit", wantFrom: "flag", wantSkillN: 1},
		{name: "--skill-bonus damage overrides the default", bonus: "damage", hit: []int{3, 3, 3}, dmg: []int{3, 3}, outcome: "hit", target: 12, before: 6, wantBonus: "damage", wantFrom: "flag", wantSkillN: 1},
		{name: "--skill-bonus none, said", bonus: "none", hit: []int{3, 3, 3}, dmg: []int{3, 3}, outcome: "hit", target: 12, before: 5, wantBonus: "", wantFrom: "flag", wantSkillN: 1},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			s := combatCampaign(t, rules.Edition2021)
			if r.set != "" {
				sh, err := s.SetSkillBonus("Kira", r.set)
				if err != nil {
					t.Fatal(err)
				}
				if string(sh.SkillBonus) != r.set {
					t.Fatalf("sheet skill bonus %q, want %q", sh.SkillBonus, r.set)
				}
			}
			res, err := s.Attack(AttackRequest{Attacker: "Kira", Target: "Drone", Bonus: r.bonus, HitFaces: r.hit, DamageFaces: r.dmg})
			if err != nil {
				t.Fatal(err)
			}
			am := res.Attack
			if am.Hit.Outcome != r.outcome || am.Hit.Target != r.target || am.BeforeArmor != r.before {
				t.Errorf("hit %s vs %d, %d before armour; want %s vs %d, %d", am.Hit.Outcome, am.Hit.Target, am.BeforeArmor, r.outcome, r.target, r.before)
			}
			if am.Bonus != r.wantBonus || am.BonusFrom != r.wantFrom || am.Skill != "Pistol" || am.SkillLevel != r.wantSkillN {
				t.Errorf("recorded bonus %q from %q, %s %d; want %q from %q, Pistol %d", am.Bonus, am.BonusFrom, am.Skill, am.SkillLevel, r.wantBonus, r.wantFrom, r.wantSkillN)
			}
			if projections.AttackSkillText(&am) == "" {
				t.Error("the attack does not say where the level went")
			}
			mustReplayClean(t, s)
		})
	}
}

// The standing choice is one event, shown on the sheet, undone like any
// command; bad input appends nothing.
func TestSetSkillBonus(t *testing.T) {
	s := combatCampaign(t, rules.Edition2021)
	sh, _ := s.Sheet("Kira")
	if sh.SkillBonus != rules.BonusHit {
		t.Fatalf("a new character's skill bonus is %q, want hit", sh.SkillBonus)
	}
	n := count(t, s)
	for _, bad := range []string{"sideways", "", "none"} {
		_, err := s.SetSkillBonus("Kira", bad)
		if rules.CodeOf(err) != rules.CodeInvalid {
			t.Errorf("SetSkillBonus(%q): %v, want an invalid-input error", bad, err)
		}
	}
	if _, err := s.SetSkillBonus("Kira", "hit"); rules.CodeOf(err) != rules.CodeConflict {
		t.Errorf("setting hit again: %v, want a conflict", err)
	}
	if _, err := s.SetSkillBonus("Nobody", "hit"); rules.CodeOf(err) != rules.CodeNotFound {
		t.Errorf("an unknown character: %v", err)
	}
	if count(t, s) != n {
		t.Fatalf("refused commands appended %d events", count(t, s)-n)
	}
	if sh, err := s.SetSkillBonus("Kira", "DAMAGE"); err != nil || sh.SkillBonus != rules.BonusDamage {
		t.Fatalf("set damage: %+v, %v", sh.SkillBonus, err)
	}
	if _, err := s.Undo(UndoRequest{}); err != nil {
		t.Fatal(err)
	}
	if sh, _ := s.Sheet("Kira"); sh.SkillBonus != rules.BonusHit {
		t.Fatalf("after undo the skill bonus is %q, want hit", sh.SkillBonus)
	}
	// A foe has one too.
	if sh, err := s.SetSkillBonus("Drone", "damage"); err != nil || sh.SkillBonus != rules.BonusDamage {
		t.Fatalf("a foe's: %+v, %v", sh.SkillBonus, err)
	}
	mustReplayClean(t, s)
}

// Issue 21: grappling. 2010 "The character winning a ST check hits his
// opponent"; 2020 "The grappler winning ST can: (1) Roll damage on his
// foe"; 2021 "He who wins ST can: 1. Roll damage". The hit dice, if given,
// are not a hit roll: 6,6,6 cannot miss.
func TestGrappleCannotMiss(t *testing.T) {
	for _, ed := range rules.Editions() {
		t.Run(string(ed), func(t *testing.T) {
			s := combatCampaign(t, ed)
			if _, err := s.Contest(ContestRequest{Sides: [2]string{"Brann:ST", "Drone:ST"}, Faces: [2][]int{{2, 2, 2}, {6, 6, 6}}}); err != nil {
				t.Fatal(err)
			}
			res, err := s.Attack(AttackRequest{Attacker: "Brann", Target: "Drone", Grappling: true, HitFaces: []int{6, 6, 6}, DamageFaces: []int{3}})
			if err != nil {
				t.Fatal(err)
			}
			am := res.Attack
			// d3 3, +1 stronger (ST 14 against 10); Unarmed 2 adds to ST
			// in the contest, not here.
			if am.AutoHit != "grapple" || am.Hit.Outcome != "hit" || len(am.Hit.Faces) != 0 || am.Taken != 4 || !am.Fatigue {
				t.Errorf("grapple: auto %q, hit %+v, taken %d fatigue %v; want a hit without a roll, 4 fatigue", am.AutoHit, am.Hit, am.Taken, am.Fatigue)
			}
			if am.Bonus != "" || am.BonusNote == "" || am.Skill != "Unarmed" {
				t.Errorf("Unarmed grappling: bonus %q, note %q", am.Bonus, am.BonusNote)
			}
			if sh, _ := s.FoeSheet("Drone"); sh.Fatigue != 4 {
				t.Errorf("Drone's fatigue %d, want 4", sh.Fatigue)
			}
			// No dodge: there is no hit roll to see.
			n := count(t, s)
			if _, err := s.Attack(AttackRequest{Attacker: "Brann", Target: "Drone", Grappling: true, Dodge: true, DamageFaces: []int{1}}); rules.CodeOf(err) != rules.CodeRule {
				t.Errorf("a dodged grapple: %v", err)
			}
			if count(t, s) != n {
				t.Error("a refused attack appended events")
			}
			mustReplayClean(t, s)
		})
	}
}

// 2020 "Strength Advantage": "While grappling, a stronger character adds
// one to his damage roll", with a (G) weapon too; 2010 and 2021 state it
// for bare hands only. Cole (ST 12, Knife 1) with the grappling dagger
// (d6+2) on the Drone (ST 10): 3 + 2, +1 Knife (his standing choice is hit,
// and a grapple has no hit roll, so it goes to damage), +1 in 2020.
func TestGrappleStrengthAdvantage(t *testing.T) {
	for ed, want := range map[rules.Edition]int{rules.Edition2010: 6, rules.Edition2020: 7, rules.Edition2021: 6} {
		t.Run(string(ed), func(t *testing.T) {
			s := combatCampaign(t, ed)
			res, err := s.Attack(AttackRequest{Attacker: "Cole", Target: "Drone", Weapon: "dagger (G)", Grappling: true, DamageFaces: []int{3}})
			if err != nil {
				t.Fatal(err)
			}
			am := res.Attack
			if am.Taken != want || am.Bonus != "damage" || am.BonusFrom != "standing" || am.BonusNote == "" {
				t.Errorf("taken %d, bonus %q from %q (%s); want %d on damage from the standing choice", am.Taken, am.Bonus, am.BonusFrom, am.BonusNote, want)
			}
			// --skill-bonus hit cannot go on an attack with no hit roll.
			n := count(t, s)
			if _, err := s.Attack(AttackRequest{Attacker: "Cole", Target: "Drone", Weapon: "dagger (G)", Grappling: true, Bonus: "hit", DamageFaces: []int{3}}); rules.CodeOf(err) != rules.CodeInvalid {
				t.Errorf("--skill-bonus hit on a grapple: %v", err)
			}
			if count(t, s) != n {
				t.Error("a refused attack appended events")
			}
			// A karma re-roll of the damage keeps the placement; of the
			// hit, there is none.
			seq := res.Events[0].Seq
			if _, err := s.GrantKarma("Cole", 2, "test"); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Reroll(RerollRequest{Roll: itoa(seq), Which: "hit", Faces: []int{1, 1, 1}}); rules.CodeOf(err) != rules.CodeRule {
				t.Errorf("re-roll of a grapple's hit: %v", err)
			}
			if _, err := s.Reroll(RerollRequest{Roll: itoa(seq), Which: "damage", Faces: []int{1}}); err != nil {
				t.Fatal(err)
			}
			mustReplayClean(t, s)
		})
	}
}

// 2020 "Outside Attacks": "Characters attacking into a grappling space
// automatically hit and roll damage." 2010 and 2021 state no such rule.
func TestOutsideAttack(t *testing.T) {
	s := combatCampaign(t, rules.Edition2020)
	res, err := s.Attack(AttackRequest{Attacker: "Kira", Target: "Drone", Outside: true, DamageFaces: []int{5, 2}})
	if err != nil {
		t.Fatal(err)
	}
	am := res.Attack
	// 2d6-1 = 6, +1 Pistol (no hit roll: on damage).
	if am.AutoHit != "outside" || am.Hit.Outcome != "hit" || len(am.Hit.Faces) != 0 || am.Taken != 7 || am.Bonus != "damage" {
		t.Errorf("outside attack: %+v", am)
	}
	mustReplayClean(t, s)
	for _, ed := range []rules.Edition{rules.Edition2010, rules.Edition2021} {
		s := combatCampaign(t, ed)
		n := count(t, s)
		_, err := s.Attack(AttackRequest{Attacker: "Kira", Target: "Drone", Outside: true, DamageFaces: []int{5, 2}})
		if rules.CodeOf(err) != rules.CodeRule || count(t, s) != n {
			t.Errorf("%s: an outside attack: %v (%d events appended)", ed, err, count(t, s)-n)
		}
	}
	n := count(t, s)
	if _, err := s.Attack(AttackRequest{Attacker: "Brann", Target: "Drone", Outside: true, Grappling: true}); rules.CodeOf(err) != rules.CodeInvalid || count(t, s) != n {
		t.Errorf("--grapple and --outside: %v", err)
	}
}

// Issue 21: `xp spend Kira Pistol`: a bare skill name is enough when it is
// not an attribute.
func TestSpendOnABareSkillName(t *testing.T) {
	s := combatCampaign(t, rules.Edition2021)
	if _, err := s.AwardXP([]string{"Kira"}, 10, "audit"); err != nil {
		t.Fatal(err)
	}
	n := count(t, s)
	for _, bad := range []string{"Pistl", "Swordplay", "handgun"} {
		_, err := s.SpendXP(Spend{Character: "Kira", Target: bad, Levels: 1})
		if rules.CodeOf(err) != rules.CodeInvalid {
			t.Errorf("spend on %q: %v, want invalid input", bad, err)
		}
	}
	if count(t, s) != n {
		t.Fatal("refused spends appended events")
	}
	res, err := s.SpendXP(Spend{Character: "Kira", Target: "Pistol", Levels: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Sheet.SkillLevel("pistol") != 2 || res.Sheet.XP.Unspent != 0 {
		t.Errorf("after spending on Pistol: %+v", res.Sheet)
	}
	mustReplayClean(t, s)
}
