package rules

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// refuseRoller is a Roller that must not be used: it records the attempt
// and fails.
type refuseRoller struct{ used bool }

func (r *refuseRoller) Roll(count, sides int) ([]int, error) {
	r.used = true
	return nil, Errorf(CodeInternal, "this roller must not be used")
}

// mustWeapon looks a weapon up or fails t.
func mustWeapon(t *testing.T, ed Edition, name string) Weapon {
	t.Helper()
	w, err := LookupWeapon(ed, name)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// mustArmor looks armour up or fails t.
func mustArmor(t *testing.T, ed Edition, name string) *Armor {
	t.Helper()
	a, err := LookupArmor(ed, name)
	if err != nil {
		t.Fatal(err)
	}
	return &a
}

// Example 4: 2d6-1 with faces 5,2 deals 6. Armour 3 stops 3 of 6: 3 damage
// taken. Every edition, with its own Flak Vest (2010 3/0, 2020/2021 3/1)
// and its own 2d6-1 Handgun; the hit is example 2's 1,3,6 on DX11.
func TestExample4Attack(t *testing.T) {
	for _, ed := range Editions() {
		t.Run(fmt.Sprintf("example4/%s", ed), func(t *testing.T) {
			vest := mustArmor(t, ed, "Flak Vest")
			wantR := map[Edition]int{Edition2010: 0, Edition2020: 1, Edition2021: 1}[ed]
			if vest.Protection != 3 || vest.Restriction != wantR {
				t.Fatalf("Flak Vest = %d/%d, want 3/%d", vest.Protection, vest.Restriction, wantR)
			}
			in := AttackInput{Edition: ed, Attacker: "Ajax", AttackerDX: 11, AttackerST: 12,
				Weapon: mustWeapon(t, ed, "handgun"), Target: "Hector", TargetST: 11, TargetArmor: []Armor{*vest}}
			out, err := ResolveAttack(in, NewGivenFaces([]int{1, 3, 6}), NewGivenFaces([]int{5, 2}))
			if err != nil {
				t.Fatal(err)
			}
			if !out.Hit.Pass || out.Damage == nil || out.Damage.Total != 6 || out.BeforeArmor != 6 ||
				out.ArmorStopped != 3 || out.Taken != 3 || out.Fatigue {
				t.Errorf("got %+v", out)
			}
			wantMods := []Modifier{{"damage: modifier", -1, AppliesTotal}, {"armour: Flak Vest", -3, AppliesTotal}}
			if !reflect.DeepEqual(out.Modifiers, wantMods) {
				t.Errorf("Modifiers = %+v, want %+v", out.Modifiers, wantMods)
			}
			want := "Ajax hits Hector with a Handgun (3/DX: total 10 against 11); 2d6-1 rolls 5,2 for 6, the Flak Vest stops 3, and Hector takes 3 damage."
			if out.Explanation != want {
				t.Errorf("Explanation = %q\n                   want %q", out.Explanation, want)
			}
		})
	}
}

func TestResolveAttack(t *testing.T) {
	type row struct {
		name     string
		editions []Edition
		in       AttackInput
		weapon   string
		armor    string
		hit, dmg []int
		pass     bool
		target   int // hit roll's target
		before   int
		stopped  int
		taken    int
		fatigue  bool
		scatters bool
		mods     []Modifier // nil: not checked
	}
	all := Editions()
	later := []Edition{Edition2020, Edition2021}
	ajax := AttackInput{Attacker: "Ajax", AttackerDX: 11, AttackerST: 12, Target: "Hector", TargetST: 11}
	with := func(f func(*AttackInput)) AttackInput { in := ajax; f(&in); return in }
	rows := []row{
		// (U): "Fatigue only, +1 if the attacker is stronger"; 2021 "Unarmed
		// attacks do d3 damage (no armor)".
		{name: "unarmed grappling, stronger, armour does not count", editions: all, in: with(func(in *AttackInput) { in.Grappling = true }), weapon: "unarmed", armor: "flak vest",
			hit: []int{2, 3, 4}, dmg: []int{2}, pass: true, target: 11, before: 3, stopped: 0, taken: 3, fatigue: true,
			mods: []Modifier{{"damage: stronger (ST 12 against 11)", 1, AppliesTotal}}},
		{name: "unarmed, stronger, no armour", editions: all, in: ajax, weapon: "unarmed",
			hit: []int{2, 3, 4}, dmg: []int{3}, pass: true, target: 11, before: 4, taken: 4, fatigue: true},
		{name: "unarmed, equal ST, no bonus", editions: all, in: with(func(in *AttackInput) { in.TargetST = 12 }), weapon: "unarmed",
			hit: []int{2, 3, 4}, dmg: []int{3}, pass: true, target: 11, before: 3, taken: 3, fatigue: true, mods: []Modifier{}},
		{name: "unarmed, target's ST unknown, no bonus", editions: all, in: with(func(in *AttackInput) { in.TargetST = 0 }), weapon: "unarmed",
			hit: []int{2, 3, 4}, dmg: []int{3}, pass: true, target: 11, before: 3, taken: 3, fatigue: true, mods: []Modifier{}},
		{name: "unarmed, weaker, no bonus", editions: all, in: with(func(in *AttackInput) { in.AttackerST = 9 }), weapon: "unarmed",
			hit: []int{2, 3, 4}, dmg: []int{1}, pass: true, target: 11, before: 1, taken: 1, fatigue: true},
		// A plain unarmed blow meets armour in every edition; grappling
		// unarmed does not: 2010 "an unarmed grappling attack negates
		// armor"; 2020, 2021 "Grappling Options": "(no armor)".
		{name: "unarmed strike against a flak vest", editions: all, in: ajax, weapon: "unarmed", armor: "flak vest",
			hit: []int{2, 3, 4}, dmg: []int{2}, pass: true, target: 11, before: 3, stopped: 3, taken: 0, fatigue: true},
		{name: "unarmed grappling negates armour", editions: all, in: with(func(in *AttackInput) { in.Grappling = true }),
			weapon: "unarmed", armor: "flak vest", hit: []int{2, 3, 4}, dmg: []int{2}, pass: true, target: 11, before: 3, taken: 3, fatigue: true},
		// "* Any roll deals a minimum 1 before armor": 1+1-2 = 0 → 1, and a
		// Flak Vest then stops it.
		{name: "cutlass minimum 1 before armour", editions: later, in: ajax, weapon: "cutlass", armor: "flak vest",
			hit: []int{2, 3, 4}, dmg: []int{1, 1}, pass: true, target: 11, before: 1, stopped: 1, taken: 0},
		{name: "cutlass without armour", editions: later, in: ajax, weapon: "cutlass",
			hit: []int{2, 3, 4}, dmg: []int{1, 1}, pass: true, target: 11, before: 1, taken: 1},
		// 2010 prints no "*" on its Cutlass and states no minimum.
		{name: "cutlass has no minimum", editions: []Edition{Edition2010}, in: ajax, weapon: "cutlass",
			hit: []int{2, 3, 4}, dmg: []int{1, 1}, pass: true, target: 11, before: 0, taken: 0,
			mods: []Modifier{{"damage: modifier", -2, AppliesTotal}}},
		// 2010 "Club (T) (min 1 damage) D6-1".
		{name: "light club minimum 1 damage", editions: []Edition{Edition2010}, in: ajax, weapon: "light club",
			hit: []int{2, 3, 4}, dmg: []int{1}, pass: true, target: 11, before: 1, taken: 1,
			mods: []Modifier{{"damage: modifier", -1, AppliesTotal}, {"damage: Club (T) (min 1 damage) minimum 1 before armour", 1, AppliesTotal}}},
		// 1+0 = 1: already the minimum, nothing is raised.
		{name: "light club rolls 1 before armour", editions: []Edition{Edition2010}, in: ajax, weapon: "light club",
			hit: []int{2, 3, 4}, dmg: []int{2}, pass: true, target: 11, before: 1, taken: 1,
			mods: []Modifier{{"damage: modifier", -1, AppliesTotal}}},
		{name: "light club minimum 1, then armour", editions: []Edition{Edition2010}, in: ajax, weapon: "light club", armor: "flak vest",
			hit: []int{2, 3, 4}, dmg: []int{1}, pass: true, target: 11, before: 1, stopped: 1, taken: 0},
		// "Curse": one per level on the hit total and against the damage;
		// 2020/2021 "minimum of one" comes after it.
		{name: "curse: minimum 1 after the curse", editions: later, in: with(func(in *AttackInput) { in.AttackerCurses = 1 }), weapon: "dagger",
			hit: []int{2, 2, 2}, dmg: []int{1}, pass: true, target: 11, before: 1, taken: 1,
			mods: []Modifier{{"hit: curse ×1", 1, AppliesTotal}, {"damage: curse ×1", -1, AppliesTotal}, {"damage: edition {ed} minimum of 1", 1, AppliesTotal}}},
		{name: "curse: no minimum", editions: []Edition{Edition2010}, in: with(func(in *AttackInput) { in.AttackerCurses = 1 }), weapon: "dagger",
			hit: []int{2, 2, 2}, dmg: []int{1}, pass: true, target: 11, before: 0, taken: 0},
		{name: "curse ×2: damage is never negative", editions: []Edition{Edition2010}, in: with(func(in *AttackInput) { in.AttackerCurses = 2 }), weapon: "dagger",
			hit: []int{2, 2, 2}, dmg: []int{1}, pass: true, target: 11, before: 0, taken: 0,
			mods: []Modifier{{"hit: curse ×2", 2, AppliesTotal}, {"damage: curse ×2", -2, AppliesTotal}, {"damage: never negative", 1, AppliesTotal}}},
		{name: "curse ×2 lowers damage by 2", editions: all, in: with(func(in *AttackInput) { in.AttackerCurses = 2 }), weapon: "fire axe",
			hit: []int{2, 2, 2}, dmg: []int{4}, pass: true, target: 11, before: 5, taken: 5},
		{name: "curse ×2 turns a hit into a miss", editions: all, in: with(func(in *AttackInput) { in.AttackerCurses = 2 }), weapon: "fire axe",
			hit: []int{3, 3, 4}, pass: false, target: 11},
		// "Each level is +1DX to hit OR +1 damage ... Multiple levels cannot
		// be split."
		{name: "skill to hit", editions: all, in: with(func(in *AttackInput) { in.SkillName, in.SkillLevel, in.Bonus = "Axe", 2, BonusHit }), weapon: "hatchet",
			hit: []int{6, 4, 3}, dmg: []int{3}, pass: true, target: 13, before: 4, taken: 4,
			mods: []Modifier{{"hit: skill Axe", 2, AppliesTarget}, {"damage: modifier", 1, AppliesTotal}}},
		{name: "skill to damage does not help the hit", editions: all, in: with(func(in *AttackInput) { in.SkillName, in.SkillLevel, in.Bonus = "Axe", 2, BonusDamage }), weapon: "hatchet",
			hit: []int{6, 4, 3}, pass: false, target: 11},
		{name: "skill to damage", editions: all, in: with(func(in *AttackInput) { in.SkillName, in.SkillLevel, in.Bonus = "axe", 2, BonusDamage }), weapon: "hatchet",
			hit: []int{3, 3, 3}, dmg: []int{3}, pass: true, target: 11, before: 6, taken: 6,
			mods: []Modifier{{"damage: modifier", 1, AppliesTotal}, {"damage: skill Axe", 2, AppliesTotal}}},
		{name: "skill unused", editions: all, in: with(func(in *AttackInput) { in.SkillName, in.SkillLevel = "Axe", 2 }), weapon: "hatchet",
			hit: []int{3, 3, 3}, dmg: []int{3}, pass: true, target: 11, before: 4, taken: 4},
		{name: "unarmed skill to damage, stronger", editions: all, in: with(func(in *AttackInput) { in.SkillName, in.SkillLevel, in.Bonus = "Unarmed", 1, BonusDamage }), weapon: "unarmed",
			hit: []int{3, 3, 3}, dmg: []int{3}, pass: true, target: 11, before: 5, taken: 5, fatigue: true},
		// Example 5's restriction applies to the hit roll.
		{name: "armour restriction lowers DX", editions: all, in: with(func(in *AttackInput) { in.AttackerDX, in.AttackerRestriction = 12, 2 }), weapon: "dagger",
			hit: []int{4, 4, 3}, pass: false, target: 10, mods: []Modifier{{"hit: armour restriction", -2, AppliesTarget}}},
		// "(B) Does not protect against bullets."
		{name: "space suit against bullets", editions: all, in: ajax, weapon: "handgun", armor: "space suit",
			hit: []int{2, 3, 4}, dmg: []int{3, 3}, pass: true, target: 11, before: 5, stopped: 0, taken: 5},
		{name: "space suit against a blaster", editions: all, in: ajax, weapon: "blaster", armor: "space suit",
			hit: []int{2, 3, 4}, dmg: []int{1, 1, 1}, pass: true, target: 11, before: 3, stopped: 1, taken: 2},
		{name: "battle armour stops everything", editions: all, in: ajax, weapon: "handgun", armor: "battle armour",
			hit: []int{2, 3, 4}, dmg: []int{3, 3}, pass: true, target: 11, before: 5, stopped: 5, taken: 0},
		// "(F) Can be set to damage or fatigue."
		{name: "phaser set to fatigue", editions: all, in: with(func(in *AttackInput) { in.FatigueSetting = true }), weapon: "hand phaser",
			hit: []int{2, 3, 4}, dmg: []int{2, 3, 4}, pass: true, target: 11, before: 9, taken: 9, fatigue: true},
		{name: "phaser set to damage", editions: all, in: ajax, weapon: "hand phaser",
			hit: []int{2, 3, 4}, dmg: []int{2, 3, 4}, pass: true, target: 11, before: 9, taken: 9},
		// "(X) ... If thrower misses, randomly place blast center adjacent
		// to original target hex."
		{name: "frag grenade misses and scatters", editions: all, in: ajax, weapon: "frag grenade",
			hit: []int{6, 6, 1}, pass: false, target: 11, scatters: true},
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
				var dmgRoller Roller = NewGivenFaces(r.dmg)
				refuse := &refuseRoller{}
				if !r.pass {
					dmgRoller = refuse
				}
				out, err := ResolveAttack(in, NewGivenFaces(r.hit), dmgRoller)
				if err != nil {
					t.Fatal(err)
				}
				if out.Hit.Pass != r.pass || out.Hit.Target != r.target {
					t.Errorf("hit: pass %v target %d, want %v %d", out.Hit.Pass, out.Hit.Target, r.pass, r.target)
				}
				if !r.pass {
					if out.Damage != nil || refuse.used || out.Taken != 0 {
						t.Errorf("a miss rolled damage: %+v (roller used %v)", out, refuse.used)
					}
				} else if out.Damage == nil {
					t.Fatal("a hit without a damage roll")
				}
				if out.BeforeArmor != r.before || out.ArmorStopped != r.stopped || out.Taken != r.taken ||
					out.Fatigue != r.fatigue || out.Scatters != r.scatters {
					t.Errorf("got before %d stopped %d taken %d fatigue %v scatters %v; want %d %d %d %v %v\n%s",
						out.BeforeArmor, out.ArmorStopped, out.Taken, out.Fatigue, out.Scatters,
						r.before, r.stopped, r.taken, r.fatigue, r.scatters, out.Explanation)
				}
				if r.mods != nil {
					want := make([]Modifier, len(r.mods))
					for i, m := range r.mods {
						m.Source = strings.ReplaceAll(m.Source, "{ed}", string(ed))
						want[i] = m
					}
					if len(out.Modifiers) != len(want) || (len(want) > 0 && !reflect.DeepEqual(out.Modifiers, want)) {
						t.Errorf("Modifiers = %+v\n     want %+v", out.Modifiers, want)
					}
				}
				if out.Explanation == "" {
					t.Error("no explanation")
				}
			})
		}
	}
}

func TestResolveAttackExplanations(t *testing.T) {
	ed := Edition2021
	in := AttackInput{Edition: ed, Attacker: "Ajax", AttackerDX: 11, AttackerST: 12, Target: "Hector", TargetST: 11,
		Weapon: mustWeapon(t, ed, "unarmed"), TargetArmor: []Armor{*mustArmor(t, ed, "flak vest")}, Grappling: true}
	out, err := ResolveAttack(in, NewGivenFaces([]int{2, 3, 4}), NewGivenFaces([]int{2}))
	if err != nil {
		t.Fatal(err)
	}
	want := "Ajax hits Hector unarmed (3/DX: total 9 against 11); d3 rolls 2 for 3, the Flak Vest does not count against an unarmed grappling attack, and Hector takes 3 fatigue."
	if out.Explanation != want {
		t.Errorf("Explanation = %q\n                   want %q", out.Explanation, want)
	}
	in.Weapon, in.Grappling = mustWeapon(t, ed, "frag grenade"), false
	out, err = ResolveAttack(in, NewGivenFaces([]int{6, 6, 1}), &refuseRoller{})
	if err != nil {
		t.Fatal(err)
	}
	want = "Ajax misses Hector with a Frag Grenade (3/DX: total 13 against 11). The blast centre lands on a random hex adjacent to the target; the blast fills a five-hex circle around it."
	if out.Explanation != want {
		t.Errorf("Explanation = %q\n                   want %q", out.Explanation, want)
	}
	in.Weapon, in.TargetArmor = mustWeapon(t, ed, "handgun"), []Armor{*mustArmor(t, ed, "space suit")}
	out, err = ResolveAttack(in, NewGivenFaces([]int{1, 1, 1}), NewGivenFaces([]int{6, 6}))
	if err != nil {
		t.Fatal(err)
	}
	want = "Ajax hits Hector with a Handgun (3/DX: total 3 against 11); 2d6-1 rolls 6,6 for 11, the Space Suit does not protect against bullets, and Hector takes 11 damage."
	if out.Explanation != want {
		t.Errorf("Explanation = %q\n                   want %q", out.Explanation, want)
	}
}

func TestResolveAttackErrors(t *testing.T) {
	ed := Edition2021
	base := func(weapon string) AttackInput {
		return AttackInput{Edition: ed, Attacker: "Ajax", AttackerDX: 11, AttackerST: 12, Target: "Hector", TargetST: 11, Weapon: mustWeapon(t, ed, weapon)}
	}
	rows := []struct {
		name string
		in   AttackInput
		code Code
		msg  string
	}{
		{"heft", func() AttackInput { in := base("fire axe"); in.AttackerST = 9; return in }(), CodeRule,
			"Ajax (ST 9) cannot wield a Fire Axe: its heft is 12"},
		{"flashbang", base("flashbang"), CodeRule, "a Flashbang deals no damage: when thrown, Ajax's side gets surprise"},
		{"fatigue setting", func() AttackInput { in := base("handgun"); in.FatigueSetting = true; return in }(), CodeRule,
			"a Handgun cannot be set to fatigue: only (F) weapons can"},
		{"bonus without a level", func() AttackInput { in := base("hatchet"); in.SkillName, in.Bonus = "Axe", BonusHit; return in }(), CodeRule,
			"Ajax has no Axe level to add to hit"},
		{"wrong skill", func() AttackInput {
			in := base("handgun")
			in.SkillName, in.SkillLevel, in.Bonus = "Axe", 1, BonusDamage
			return in
		}(), CodeRule, "Axe does not help with a Handgun: that takes Pistol"},
		{"no skill for a cutlass", func() AttackInput {
			in := base("cutlass")
			in.SkillName, in.SkillLevel, in.Bonus = "Knife", 1, BonusHit
			return in
		}(), CodeRule, "no combat skill adds to a Cutlass: Knife does not help with it"},
		{"unknown skill", func() AttackInput {
			in := base("dagger")
			in.SkillName, in.SkillLevel, in.Bonus = "Swordplay", 1, BonusHit
			return in
		}(), CodeInvalid, `unknown skill "Swordplay"`},
		{"unknown bonus", func() AttackInput { in := base("dagger"); in.Bonus = "both"; return in }(), CodeInvalid,
			`unknown skill bonus "both": a combat skill goes to hit or to damage`},
		{"no weapon", AttackInput{Edition: ed, Attacker: "Ajax", AttackerDX: 11}, CodeInvalid,
			`Ajax attacks with no weapon: look one up with LookupWeapon (unarmed is "unarmed")`},
		{"negative curse", func() AttackInput { in := base("dagger"); in.AttackerCurses = -1; return in }(), CodeInvalid, "curse level -1 is negative"},
		{"negative restriction", func() AttackInput { in := base("dagger"); in.AttackerRestriction = -1; return in }(), CodeInvalid, "armour restriction -1 is negative"},
		{"bad edition", func() AttackInput { in := base("dagger"); in.Edition = "2030"; return in }(), CodeInvalid, `unknown edition "2030": choose 2010, 2020 or 2021`},
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
	// Faces the hit roller lacks are the roller's CodeInvalid error.
	_, err := ResolveAttack(base("dagger"), NewGivenFaces([]int{1}), &refuseRoller{})
	wantError(t, err, CodeInvalid, "3d6 needs 3 faces, only 1 given")
}

func TestParseSkillBonus(t *testing.T) {
	for s, want := range map[string]SkillBonus{"": BonusNone, " none ": BonusNone, "HIT": BonusHit, "Damage": BonusDamage} {
		if got, err := ParseSkillBonus(s); err != nil || got != want {
			t.Errorf("ParseSkillBonus(%q) = %q, %v", s, got, err)
		}
	}
	_, err := ParseSkillBonus("split")
	wantError(t, err, CodeInvalid, `unknown skill bonus "split": a combat skill goes to hit or to damage`)
}

// Rules fix 4: armour is cumulative in every edition: "When a character is
// hit, reduce the damage he suffers by the cumulative rating of his armor"
// (2010, 2020, 2021 "Armor"). Example 4's 2d6-1 rolling 5,2 for 6 against a
// Flak Vest and a Landing Suit (3 + 3) leaves nothing; against a Space Suit
// (B) and a Flak Vest, the suit "does not protect against bullets" and the
// vest still stops 3.
func TestCumulativeArmour(t *testing.T) {
	for _, ed := range []Edition{Edition2020, Edition2021} {
		t.Run(string(ed), func(t *testing.T) {
			in := AttackInput{Edition: ed, Attacker: "Ajax", AttackerDX: 11, AttackerST: 12, Weapon: mustWeapon(t, ed, "handgun"), Target: "Hector", TargetST: 11,
				TargetArmor: []Armor{*mustArmor(t, ed, "flak vest"), *mustArmor(t, ed, "landing suit")}}
			out, err := ResolveAttack(in, NewGivenFaces([]int{1, 3, 6}), NewGivenFaces([]int{5, 2}))
			if err != nil {
				t.Fatal(err)
			}
			if out.BeforeArmor != 6 || out.ArmorStopped != 6 || out.Taken != 0 {
				t.Errorf("vest and landing suit: %d before armour, %d stopped, %d taken; want 6, 6, 0", out.BeforeArmor, out.ArmorStopped, out.Taken)
			}
			if !strings.Contains(out.Explanation, "the Flak Vest and Landing Suit stop 6") {
				t.Errorf("explanation %q", out.Explanation)
			}
			if p, r := WornArmor(in.TargetArmor); p != 6 || r != 2 {
				t.Errorf("WornArmor = %d/%d, want 6/2 (the books' R2 example: Hector's DX 12 adjusted to 10)", p, r)
			}
			in.TargetArmor = []Armor{*mustArmor(t, ed, "space suit"), *mustArmor(t, ed, "flak vest")}
			out, err = ResolveAttack(in, NewGivenFaces([]int{1, 3, 6}), NewGivenFaces([]int{5, 2}))
			if err != nil {
				t.Fatal(err)
			}
			if out.ArmorStopped != 3 || out.Taken != 3 {
				t.Errorf("space suit and vest against bullets: %d stopped, %d taken; want 3, 3", out.ArmorStopped, out.Taken)
			}
			want := "the Space Suit does not protect against bullets, the Flak Vest stops 3"
			if !strings.Contains(out.Explanation, want) {
				t.Errorf("explanation %q lacks %q", out.Explanation, want)
			}
			// A knife is no bullet: both count, 1 + 3.
			in.Weapon = mustWeapon(t, ed, "knife")
			out, err = ResolveAttack(in, NewGivenFaces([]int{1, 3, 6}), NewGivenFaces([]int{6}))
			if err != nil {
				t.Fatal(err)
			}
			if out.ArmorStopped != min(4, out.BeforeArmor) {
				t.Errorf("space suit and vest against a knife: %d stopped of %d; want 4", out.ArmorStopped, out.BeforeArmor)
			}
		})
	}
	// 2010's Flak Vest is 3/0: two layers of protection, no restriction.
	vest := *mustArmor(t, Edition2010, "flak vest")
	if p, r := WornArmor([]Armor{vest, *mustArmor(t, Edition2010, "landing suit")}); p != 6 || r != vest.Restriction+mustArmor(t, Edition2010, "landing suit").Restriction {
		t.Errorf("2010 WornArmor = %d/%d", p, r)
	}
}

// The hit alone, every edition: the books' dodge example, "Ajax (DX11)
// rolls 11, striking Hector. Hector (DX12) must dodge, or he will be hit."
// With no damage roller the hit is resolved and the damage waits: no dice
// are rolled for it and nothing is taken. A miss is a miss as before.
func TestResolveAttackHitAlone(t *testing.T) {
	for _, ed := range Editions() {
		t.Run(string(ed), func(t *testing.T) {
			in := AttackInput{Edition: ed, Attacker: "Ajax", AttackerDX: 11, AttackerST: 12,
				Weapon: mustWeapon(t, ed, "cutlass"), Target: "Hector", TargetST: 11}
			out, err := ResolveAttack(in, NewGivenFaces([]int{3, 4, 4}), nil)
			if err != nil {
				t.Fatal(err)
			}
			if !out.Hit.Pass || out.Hit.Total != 11 || out.Damage != nil || out.Taken != 0 || out.BeforeArmor != 0 {
				t.Errorf("got %+v", out)
			}
			want := "Ajax hits Hector with a Cutlass (3/DX: total 11 against 11); the damage is to come."
			if out.Explanation != want {
				t.Errorf("Explanation = %q, want %q", out.Explanation, want)
			}
			// Bare hands: the points to come are fatigue.
			in.Weapon = mustWeapon(t, ed, "unarmed")
			fist, err := ResolveAttack(in, NewGivenFaces([]int{3, 4, 4}), nil)
			if err != nil || !fist.Fatigue || fist.Damage != nil {
				t.Errorf("unarmed: %+v, %v", fist, err)
			}
			miss, err := ResolveAttack(in, NewGivenFaces([]int{6, 6, 1}), nil)
			if err != nil {
				t.Fatal(err)
			}
			if miss.Hit.Pass || miss.Damage != nil || !strings.Contains(miss.Explanation, "misses") {
				t.Errorf("miss: got %+v", miss)
			}
		})
	}
}
