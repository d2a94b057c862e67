package campaign

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

func TestParseFoeLine(t *testing.T) {
	good := []struct {
		line string
		want NewFoe
	}{
		{"Pirate:ST12,DX11,IQ9", NewFoe{Name: "Pirate", Attributes: rules.Attributes{ST: 12, DX: 11, IQ: 9}}},
		{" Space Rat : iq2, st3 ,dx14", NewFoe{Name: "Space Rat", Attributes: rules.Attributes{ST: 3, DX: 14, IQ: 2}}},
	}
	for _, g := range good {
		got, err := ParseFoeLine(g.line)
		if err != nil || got.Name != g.want.Name || got.Attributes != g.want.Attributes {
			t.Errorf("ParseFoeLine(%q) = %+v, %v; want %+v", g.line, got, err, g.want)
		}
	}
	bad := []struct{ line, want string }{
		{"Pirate", "write NAME with --st --dx --iq"},
		{":ST12,DX11,IQ9", "write NAME with"},
		{"Pirate:ST12,DX11", "lacks IQ"},
		{"Pirate:ST12,DX11,IQ9,ST4", "ST is given twice"},
		{"Pirate:ST12,DX11,XX9", `"XX9" is not an attribute`},
		{"Pirate:ST,DX11,IQ9", `"ST" is not an attribute`},
		{"Pirate:STx,DX11,IQ9", "ST needs a number"},
	}
	for _, b := range bad {
		if _, err := ParseFoeLine(b.line); err == nil || !strings.Contains(err.Error(), b.want) || rules.CodeOf(err) != rules.CodeInvalid {
			t.Errorf("ParseFoeLine(%q) err = %v; want %q", b.line, err, b.want)
		}
	}
}

// foeCampaign is a 2021 campaign in an encounter: Kira (Pistol 1, a
// Handgun, 1 karma) and Brann; the foes Drone (a Handgun) and Pirate (a
// Flak Vest).
func foeCampaign(t *testing.T) *Service {
	t.Helper()
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Kira", 10, 12, 10, "Pistol:1")
	mustCreate(t, s, "Brann", 14, 10, 8, "Unarmed:2")
	if _, err := s.Equip("Kira", SlotWeapon, "handgun", false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddFoe(NewFoe{Name: "Drone", Attributes: rules.Attributes{ST: 10, DX: 11, IQ: 8}, Weapon: "handgun"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddFoe(NewFoe{Name: "Pirate", Attributes: rules.Attributes{ST: 12, DX: 11, IQ: 9}, Armor: []string{"flak vest"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AdventureStart("Derelict"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EncounterStart(""); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GrantKarma("Kira", 1, "good play"); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestFoesAreOnTheRosterButNotInTheParty(t *testing.T) {
	s := foeCampaign(t)
	before := count(t, s)
	refusals := []struct {
		do   func() error
		want string
	}{
		{func() error {
			_, err := s.AddFoe(NewFoe{Name: "KIRA", Attributes: rules.Attributes{ST: 5, DX: 5, IQ: 5}})
			return err
		}, `a character named "Kira" is already in the party`},
		{func() error {
			_, err := s.CreateCharacter(NewCharacter{Name: "drone", Attributes: rules.Attributes{ST: 10, DX: 12, IQ: 10}})
			return err
		}, `a foe named "Drone" is already on the roster`},
		{func() error {
			_, err := s.AddFoe(NewFoe{Name: "Ghost", Attributes: rules.Attributes{ST: 100, DX: 5, IQ: 5}})
			return err
		}, "ST 100 (give 1 to 99)"},
		{func() error {
			_, err := s.AddFoe(NewFoe{Name: "Ghost", Attributes: rules.Attributes{ST: 5, DX: 5, IQ: 5}, Skills: []string{"Pilot:1", "pilot:2"}})
			return err
		}, "skill Pilot is given twice"},
		{func() error {
			_, err := s.AddFoe(NewFoe{Name: "Ghost", Attributes: rules.Attributes{ST: 5, DX: 5, IQ: 5}, Weapon: "fire axe"})
			return err
		}, "cannot wield a Fire Axe"},
		{func() error { _, err := s.GrantKarma("Drone", 1, "x"); return err }, "Drone is a foe, not a party member"},
		{func() error { _, err := s.AwardXP([]string{"Pirate"}, 1, "x"); return err }, "Pirate is a foe"},
		{func() error { _, err := s.RemoveFoe("Kira", ""); return err }, "Kira is a party member, not a foe"},
		{func() error { _, err := s.FoeSheet("Kria"); return err }, `no foe "Kria"`},
	}
	for _, r := range refusals {
		if err := r.do(); err == nil || !strings.Contains(err.Error(), r.want) {
			t.Errorf("err = %v; want %q", err, r.want)
		}
	}
	if n := count(t, s); n != before {
		t.Fatalf("refusals appended %d events", n-before)
	}
	sheets, err := s.Sheets()
	if err != nil || len(sheets) != 2 {
		t.Fatalf("party = %d sheets, %v; want Kira and Brann only", len(sheets), err)
	}
	foes, err := s.FoeSheets()
	if err != nil || len(foes) != 2 || !foes[0].Foe || foes[1].Armor == nil || foes[1].Armor.Protection != 3 {
		t.Fatalf("foes = %+v, %v", foes, err)
	}
	// A foe taken off the roster can no longer be named; his name is free.
	if _, err := s.RemoveFoe("pirate", "fled"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Attack(AttackRequest{Attacker: "Pirate", Target: "Kira", HitFaces: []int{1, 1, 1}, DamageFaces: []int{1}}); err == nil || !strings.Contains(err.Error(), `no character or foe "Pirate"`) {
		t.Fatalf("attack by a removed foe: %v", err)
	}
	if _, err := s.AddFoe(NewFoe{Name: "Pirate", Attributes: rules.Attributes{ST: 1, DX: 1, IQ: 1}}); err != nil {
		t.Fatal(err)
	}
	rep := mustVerify(t, s)
	if !rep.OK || len(rep.Ledgers) != 2 {
		t.Fatalf("verify: ok %v, %d ledgers (want 2: foes have none), %+v", rep.OK, len(rep.Ledgers), rep.Violations)
	}
}

func TestRerollAMissedAttack(t *testing.T) {
	s := foeCampaign(t)
	miss, err := s.Attack(AttackRequest{Attacker: "Kira", Target: "Drone", HitFaces: []int{6, 6, 5}, DamageFaces: []int{4, 4}})
	if err != nil {
		t.Fatal(err)
	}
	if miss.Attack.Hit.Outcome != "miss" || len(miss.Attack.SpareDamage) != 2 || miss.Target.Damage != 0 {
		t.Fatalf("first attack %+v", miss.Attack)
	}
	seq := miss.Events[0].Seq
	// Refusals: a set the attack did not roll, a foe's karma.
	for _, r := range []struct {
		req  RerollRequest
		want string
	}{
		{RerollRequest{Roll: itoa(seq), Which: "damage"}, "rolled no damage (miss)"},
		{RerollRequest{Roll: itoa(seq), Which: "dodge"}, "nobody dodged"},
		{RerollRequest{Roll: itoa(seq), Which: "luck"}, `--which "luck": choose hit, damage or dodge`},
		{RerollRequest{Roll: itoa(seq), UseWish: true}, "only in edition 2010"},
	} {
		if _, err := s.Reroll(r.req); err == nil || !strings.Contains(err.Error(), r.want) {
			t.Errorf("reroll %+v: %v; want %q", r.req, err, r.want)
		}
	}
	res, err := s.Reroll(RerollRequest{Roll: itoa(seq), Which: "hit", Faces: []int{1, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if a := res.Attack; a == nil || a.Hit.Outcome != "hit" || a.Taken != 7 || a.Rerolls != miss.Events[0].ID || a.Rerolled != "hit" || !a.Damage.Entered {
		t.Fatalf("re-rolled attack %+v", res.Attack)
	}
	if res.Target == nil || res.Target.Damage != 7 {
		t.Fatalf("Drone after the re-roll: %+v", res.Target)
	}
	kira, _ := s.Sheet("Kira")
	if kira.Karma != 0 {
		t.Fatalf("Kira's karma %d, want 0", kira.Karma)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify after the re-roll: %+v", rep.Violations)
	}
	// Undo takes the re-roll back: karma and the first result.
	if _, err := s.Undo(UndoRequest{}); err != nil {
		t.Fatal(err)
	}
	kira, _ = s.Sheet("Kira")
	drone, _ := s.FoeSheet("Drone")
	if kira.Karma != 1 || drone.Damage != 0 {
		t.Fatalf("after undo: Kira karma %d, Drone damage %d; want 1, 0", kira.Karma, drone.Damage)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify after the undo: %+v", rep.Violations)
	}
}

func TestRerollDamageAndDodge(t *testing.T) {
	s := foeCampaign(t)
	if _, err := s.GrantKarma("Brann", 2, "x"); err != nil {
		t.Fatal(err)
	}
	// Brann's unarmed blow on the Pirate's vest: d3 1 +1 stronger = 2, all
	// stopped. He re-rolls the damage: 3 + 1 = 4, the vest stops 3.
	hit, err := s.Attack(AttackRequest{Attacker: "Brann", Target: "Pirate", HitFaces: []int{2, 2, 2}, DamageFaces: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	if hit.Attack.Taken != 0 {
		t.Fatalf("first blow %+v", hit.Attack)
	}
	res, err := s.Reroll(RerollRequest{Roll: itoa(hit.Events[0].Seq), Which: "damage", Faces: []int{3}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Attack.Taken != 1 || res.Target.Fatigue != 1 || !slices.Equal(res.Attack.Hit.Faces, []int{2, 2, 2}) {
		t.Fatalf("re-rolled damage %+v, Pirate %+v", res.Attack, res.Target)
	}
	// The Pirate's blow on Brann, who fails to dodge; Brann re-rolls the
	// dodge with his own karma and the points are taken back.
	blow, err := s.Attack(AttackRequest{Attacker: "Pirate", Target: "Brann", HitFaces: []int{1, 1, 1}, DodgeFaces: []int{6, 6, 6}, DamageFaces: []int{3}})
	if err != nil {
		t.Fatal(err)
	}
	if blow.Target.Fatigue != 3 {
		t.Fatalf("Brann after the blow: %+v", blow.Target)
	}
	if _, err := s.Reroll(RerollRequest{Roll: itoa(blow.Events[0].Seq), Which: "hit"}); err == nil || !strings.Contains(err.Error(), "Pirate is a foe") {
		t.Fatalf("a foe's hit re-rolled: %v", err)
	}
	res, err = s.Reroll(RerollRequest{Roll: itoa(blow.Events[0].Seq), Which: "dodge", Faces: []int{1, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	brann, _ := s.Sheet("Brann")
	if res.Attack.Dodge.Outcome != "pass" || res.Attack.Taken != 0 || brann.Fatigue != 0 || brann.Karma != 0 {
		t.Fatalf("re-rolled dodge %+v; Brann %+v", res.Attack, brann)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify: %+v", rep.Violations)
	}
}

func TestVerifyFoeAndRerollViolations(t *testing.T) {
	s := foeCampaign(t)
	drone, _ := s.FoeSheet("Drone")
	foeStream := events.FoeStream(drone.ID)
	appendRaw(t, s, foeStream, events.XPAwarded{Amount: 3, Reason: "sneaky"})
	appendRaw(t, s, foeStream, events.DamageWithdrawn{AttackID: "NOPE", Damage: 0})
	appendRaw(t, s, events.FoeStream("GHOST"), events.FoeAdded{FoeID: "GHOST", Name: "Kira", Edition: "2021", Attributes: events.Attributes{ST: 0, DX: 5, IQ: 5}})
	rep := mustVerify(t, s)
	want := []string{"xp.awarded for foe Drone; foes have no XP", "points of attack NOPE withdrawn, but the command re-rolls nothing of it", `a character or foe named "Kira" already exists`}
	if len(rep.Violations) != len(want) {
		t.Fatalf("violations %+v; want %d", rep.Violations, len(want))
	}
	for i, w := range want {
		if !strings.Contains(rep.Violations[i].Problem, w) {
			t.Errorf("violation %d = %q; want %q", i, rep.Violations[i].Problem, w)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
