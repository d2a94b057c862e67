package rules

import (
	"fmt"
	"testing"
)

// Issue 21: the winner of the grapplers' ST check rolls damage without a
// hit roll; 2020's stronger grappler adds one; 2020's outside attacks hit
// automatically. Every row is an edition's text:
//   - 2010 "Grappling Attack": "The character winning a ST check hits his
//     opponent ... (an unarmed grappling attack negates armor)".
//   - 2020 "Grappling Options", Example 1: "Ajax (ST12) grapples Hector
//     (ST11). Neither is armed. Ajax rolls 12, Hector 9. Ajax wins and
//     rolls damage on Hector." "Strength Advantage": "While grappling, a
//     stronger character adds one to his damage roll." "Outside Attacks":
//     "Characters attacking into a grappling space automatically hit and
//     roll damage."
//   - 2021 "Grappling Options": "He who wins ST can: 1. Roll damage";
//     example: "Ajax (ST12) grapples a foe (ST11). Ajax rolls 12; his foe
//     9. Ajax wins and rolls damage on his foe."
func TestGrappleAndOutsideAttacks(t *testing.T) {
	all := Editions()
	ajax := AttackInput{Attacker: "Ajax", AttackerDX: 11, AttackerST: 12, Target: "Hector", TargetST: 11}
	grapple := func(f func(*AttackInput)) AttackInput {
		in := ajax
		in.Grappling, in.AutoHit = true, AutoHitGrapple
		if f != nil {
			f(&in)
		}
		return in
	}
	rows := []struct {
		name     string
		editions []Edition
		in       AttackInput
		weapon   string
		armor    string
		dmg      []int
		before   int
		stopped  int
		taken    int
		fatigue  bool
		mods     []Modifier
	}{
		// Example 1: neither armed; d3 rolls 2, +1 for the stronger (U),
		// once: the Strength Advantage is that same one in 2020.
		{name: "unarmed grapple cannot miss", editions: all, in: grapple(nil), weapon: "unarmed", armor: "flak vest",
			dmg: []int{2}, before: 3, taken: 3, fatigue: true,
			mods: []Modifier{{"damage: stronger (ST 12 against 11)", 1, AppliesTotal}}},
		// A (G) weapon: d6+2 rolls 3; 2020 adds one for the stronger.
		{name: "grappling dagger, stronger", editions: []Edition{Edition2020}, in: grapple(nil), weapon: "dagger (G)",
			dmg: []int{3}, before: 6, taken: 6,
			mods: []Modifier{{"damage: modifier", 2, AppliesTotal}, {"damage: strength advantage (ST 12 against 11)", 1, AppliesTotal}}},
		{name: "grappling dagger, stronger, no advantage stated", editions: []Edition{Edition2010, Edition2021}, in: grapple(nil), weapon: "dagger (G)",
			dmg: []int{3}, before: 5, taken: 5,
			mods: []Modifier{{"damage: modifier", 2, AppliesTotal}}},
		{name: "grappling dagger, equal ST", editions: all, in: grapple(func(in *AttackInput) { in.TargetST = 12 }), weapon: "dagger (G)",
			dmg: []int{3}, before: 5, taken: 5},
		// A foe whose ST is not known (0) is not weaker.
		{name: "grappling dagger, target's ST unknown", editions: all, in: grapple(func(in *AttackInput) { in.TargetST = 0 }), weapon: "dagger (G)",
			dmg: []int{3}, before: 5, taken: 5,
			mods: []Modifier{{"damage: modifier", 2, AppliesTotal}}},
		{name: "grappling dagger, weaker", editions: all, in: grapple(func(in *AttackInput) { in.AttackerST = 10 }), weapon: "dagger (G)",
			dmg: []int{3}, before: 5, taken: 5},
		// A (G) weapon meets armour: only an unarmed grapple negates it.
		{name: "grappling dagger against a flak vest", editions: []Edition{Edition2020}, in: grapple(nil), weapon: "dagger (G)", armor: "flak vest",
			dmg: []int{3}, before: 6, stopped: 3, taken: 3},
		{name: "grappling dagger, Knife on damage", editions: []Edition{Edition2020}, in: grapple(func(in *AttackInput) {
			in.SkillName, in.SkillLevel, in.Bonus = "Knife", 1, BonusDamage
		}), weapon: "dagger (G)", dmg: []int{3}, before: 7, taken: 7},
		// Outside Attacks, 2020: a Handgun into the grappling space,
		// example 4's 5,2 against a Flak Vest.
		{name: "outside attack hits", editions: []Edition{Edition2020}, in: func() AttackInput { in := ajax; in.AutoHit = AutoHitOutside; return in }(),
			weapon: "handgun", armor: "flak vest", dmg: []int{5, 2}, before: 6, stopped: 3, taken: 3},
	}
	for _, r := range rows {
		for _, ed := range r.editions {
			t.Run(fmt.Sprintf("%s/%s", ed, r.name), func(t *testing.T) {
				in := r.in
				in.Edition = ed
				in.Weapon = mustWeapon(t, ed, r.weapon)
				if r.armor != "" {
					in.TargetArmor = []Armor{*mustArmor(t, ed, r.armor)}
				}
				hit := &refuseRoller{}
				out, err := ResolveAttack(in, hit, NewGivenFaces(r.dmg))
				if err != nil {
					t.Fatal(err)
				}
				if hit.used {
					t.Error("an attack that hits without a roll rolled to hit")
				}
				if !out.Hit.Pass || len(out.Hit.Faces) != 0 || out.Damage == nil {
					t.Fatalf("hit %+v, damage %+v: want a hit with no faces and a damage roll", out.Hit, out.Damage)
				}
				if out.BeforeArmor != r.before || out.ArmorStopped != r.stopped || out.Taken != r.taken || out.Fatigue != r.fatigue {
					t.Errorf("got before %d stopped %d taken %d fatigue %v; want %d %d %d %v\n%s",
						out.BeforeArmor, out.ArmorStopped, out.Taken, out.Fatigue, r.before, r.stopped, r.taken, r.fatigue, out.Explanation)
				}
				if r.mods != nil && fmt.Sprint(out.Modifiers) != fmt.Sprint(r.mods) {
					t.Errorf("Modifiers = %+v\n     want %+v", out.Modifiers, r.mods)
				}
			})
		}
	}
	// The book's example as the explanation tells it.
	in := grapple(nil)
	in.Edition, in.Weapon = Edition2021, mustWeapon(t, Edition2021, "unarmed")
	out, err := ResolveAttack(in, &refuseRoller{}, NewGivenFaces([]int{2}))
	if err != nil {
		t.Fatal(err)
	}
	if want := "Ajax hits Hector unarmed (no hit roll: he won the ST check); d3 rolls 2 for 3, and Hector takes 3 fatigue."; out.Explanation != want {
		t.Errorf("Explanation = %q\n          want %q", out.Explanation, want)
	}
	// Recorded before issue 21, a grappling attack made a hit roll and had
	// no Strength Advantage: it still resolves so, for old logs.
	old := ajax
	old.Edition, old.Grappling, old.Weapon = Edition2020, true, mustWeapon(t, Edition2020, "dagger (G)")
	out, err = ResolveAttack(old, NewGivenFaces([]int{6, 6, 6}), &refuseRoller{})
	if err != nil || out.Hit.Pass || out.Hit.Total != 18 {
		t.Errorf("an old grappling attack with 6,6,6: %+v, %v; want a miss", out.Hit, err)
	}
}

func TestGrappleAndOutsideAttackErrors(t *testing.T) {
	base := func(ed Edition, weapon string) AttackInput {
		return AttackInput{Edition: ed, Attacker: "Ajax", AttackerDX: 11, AttackerST: 12, Target: "Hector", TargetST: 11, Weapon: mustWeapon(t, ed, weapon)}
	}
	rows := []struct {
		name string
		in   AttackInput
		code Code
		msg  string
	}{
		{"outside attack in 2021", func() AttackInput { in := base(Edition2021, "handgun"); in.AutoHit = AutoHitOutside; return in }(), CodeRule,
			"edition 2021 states no rule for attacks into a grappling space (only 2020: \"Characters attacking into a grappling space automatically hit\"): roll the hit as usual"},
		{"outside attack in 2010", func() AttackInput { in := base(Edition2010, "handgun"); in.AutoHit = AutoHitOutside; return in }(), CodeRule,
			"edition 2010 states no rule for attacks into a grappling space (only 2020: \"Characters attacking into a grappling space automatically hit\"): roll the hit as usual"},
		{"outside attack by a grappler", func() AttackInput {
			in := base(Edition2020, "unarmed")
			in.AutoHit, in.Grappling = AutoHitOutside, true
			return in
		}(), CodeInvalid, "an attack into a grappling space comes from outside it: it is not a grappler's attack"},
		{"grapple hit without grappling", func() AttackInput { in := base(Edition2020, "unarmed"); in.AutoHit = AutoHitGrapple; return in }(), CodeInvalid,
			"only a grappler's attack on the foe he grapples hits for winning ST"},
		{"skill to hit with no hit roll", func() AttackInput {
			in := base(Edition2020, "dagger (G)")
			in.AutoHit, in.Grappling = AutoHitGrapple, true
			in.SkillName, in.SkillLevel, in.Bonus = "Knife", 1, BonusHit
			return in
		}(), CodeInvalid, "a grappling attack makes no hit roll, so a combat skill cannot go to hit"},
		{"only (G) weapons grappling", func() AttackInput {
			in := base(Edition2020, "cutlass")
			in.AutoHit, in.Grappling = AutoHitGrapple, true
			return in
		}(), CodeRule, "a Cutlass cannot be used grappling: only bare hands and (G) weapons can"},
		{"unknown automatic hit", func() AttackInput { in := base(Edition2020, "dagger"); in.AutoHit = "always"; return in }(), CodeInvalid,
			`unknown automatic hit "always" (grapple or outside)`},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			hit, dmg := &refuseRoller{}, &refuseRoller{}
			_, err := ResolveAttack(r.in, hit, dmg)
			wantError(t, err, r.code, r.msg)
			if hit.used || dmg.used {
				t.Error("a refused attack rolled dice")
			}
		})
	}
}

// Issue 21: "Each level is +1DX to hit OR +1 damage; decide before
// attacking" (all editions): the level goes where --skill-bonus says, else
// where the standing choice says (hit unless set); it is never dropped
// unsaid.
func TestPlaceSkillBonus(t *testing.T) {
	type row struct {
		name      string
		ed        Edition
		weapon    string
		level     int
		standing  SkillBonus
		flag      SkillBonus
		flagGiven bool
		grappling bool
		auto      AutoHit
		want      SkillPlacement
		code      Code
		msg       string
	}
	rows := []row{
		{name: "the default is hit", ed: Edition2021, weapon: "handgun", level: 1,
			want: SkillPlacement{Bonus: BonusHit, Source: SourceStanding}},
		{name: "standing damage", ed: Edition2021, weapon: "handgun", level: 1, standing: BonusDamage,
			want: SkillPlacement{Bonus: BonusDamage, Source: SourceStanding}},
		{name: "standing hit", ed: Edition2010, weapon: "hatchet", level: 2, standing: BonusHit,
			want: SkillPlacement{Bonus: BonusHit, Source: SourceStanding}},
		{name: "--skill-bonus hit overrides standing damage", ed: Edition2021, weapon: "handgun", level: 1, standing: BonusDamage, flag: BonusHit, flagGiven: true,
			want: SkillPlacement{Bonus: BonusHit, Source: SourceFlag}},
		{name: "--skill-bonus damage overrides the default", ed: Edition2020, weapon: "handgun", level: 1, flag: BonusDamage, flagGiven: true,
			want: SkillPlacement{Bonus: BonusDamage, Source: SourceFlag}},
		{name: "--skill-bonus none, said", ed: Edition2021, weapon: "handgun", level: 1, flagGiven: true,
			want: SkillPlacement{Source: SourceFlag}},
		{name: "no level, nothing to place", ed: Edition2021, weapon: "handgun", standing: BonusDamage,
			want: SkillPlacement{}},
		{name: "no skill for the weapon", ed: Edition2021, weapon: "cutlass",
			want: SkillPlacement{}},
		{name: "a grapple has no hit roll: standing hit goes to damage", ed: Edition2020, weapon: "dagger (G)", level: 1, grappling: true, auto: AutoHitGrapple,
			want: SkillPlacement{Bonus: BonusDamage, Source: SourceStanding, Note: "no hit roll to put it on"}},
		{name: "an outside attack has no hit roll", ed: Edition2020, weapon: "handgun", level: 1, auto: AutoHitOutside,
			want: SkillPlacement{Bonus: BonusDamage, Source: SourceStanding, Note: "no hit roll to put it on"}},
		{name: "a grapple, standing damage", ed: Edition2021, weapon: "dagger (G)", level: 1, standing: BonusDamage, grappling: true, auto: AutoHitGrapple,
			want: SkillPlacement{Bonus: BonusDamage, Source: SourceStanding}},
		{name: "grappling, Unarmed adds to ST", ed: Edition2021, weapon: "unarmed", level: 2, grappling: true, auto: AutoHitGrapple,
			want: SkillPlacement{Source: SourceStanding, Note: "Unarmed 2: on ST in the ST check (contest NAME:ST+Unarmed), not here"}},
		{name: "striking, Unarmed to hit", ed: Edition2021, weapon: "unarmed", level: 2,
			want: SkillPlacement{Bonus: BonusHit, Source: SourceStanding}},
		{name: "--skill-bonus hit on a grapple", ed: Edition2020, weapon: "dagger (G)", level: 1, flag: BonusHit, flagGiven: true, grappling: true, auto: AutoHitGrapple,
			code: CodeInvalid, msg: "a grappling attack makes no hit roll, so Knife cannot go to hit: use --skill-bonus damage, or leave it out"},
		{name: "--skill-bonus damage with Unarmed grappling", ed: Edition2010, weapon: "unarmed", level: 1, flag: BonusDamage, flagGiven: true, grappling: true, auto: AutoHitGrapple,
			code: CodeRule, msg: "grappling, Unarmed 1 adds to ST in the ST check (contest NAME:ST+Unarmed), not to the attack: leave out --skill-bonus"},
		{name: "--skill-bonus with no level", ed: Edition2021, weapon: "handgun", flag: BonusHit, flagGiven: true,
			code: CodeRule, msg: "there is no Pistol level to put on hit with a Handgun"},
		{name: "--skill-bonus sideways", ed: Edition2021, weapon: "handgun", level: 1, flag: "sideways", flagGiven: true,
			code: CodeInvalid, msg: `unknown skill bonus "sideways": a combat skill goes to hit or to damage`},
	}
	for _, r := range rows {
		t.Run(fmt.Sprintf("%s/%s", r.ed, r.name), func(t *testing.T) {
			got, err := PlaceSkillBonus(r.ed, mustWeapon(t, r.ed, r.weapon), r.level, r.standing, r.flag, r.flagGiven, r.grappling, r.auto)
			if r.code != "" {
				wantError(t, err, r.code, r.msg)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != r.want {
				t.Errorf("got %+v\nwant %+v", got, r.want)
			}
		})
	}
}
