package rules

import (
	"fmt"
	"slices"
	"testing"
)

// TestWeaponTables checks rows of each edition's "WEAPONS" table against its
// own book.
func TestWeaponTables(t *testing.T) {
	type row struct {
		key, name, label, dmg string
		heft                  int
		flags                 []WeaponFlag
		minOne, missile       bool
	}
	common := []row{
		{"unarmed", "Unarmed", "Unarmed (U)", "d3", 0, []WeaponFlag{FlagUnarmed}, false, false},
		{"dagger", "Dagger", "Dagger (T)", "d6", 0, []WeaponFlag{FlagThrown}, false, false},
		{"club", "Club", "Club (T)", "d6", 9, []WeaponFlag{FlagThrown}, false, false},
		{"club_two_handed", "Club", "Club (2T)", "d6+1", 9, []WeaponFlag{FlagTwoHanded, FlagThrown}, false, false},
		{"hatchet", "Hatchet", "Hatchet (T)", "d6+1", 9, []WeaponFlag{FlagThrown}, false, false},
		{"fire_axe", "Fire Axe", "Fire Axe (2)", "d6+3", 12, []WeaponFlag{FlagTwoHanded}, false, false},
		{"submg", "SubMG", "SubMG (2A)", "2d6-1", 8, []WeaponFlag{FlagTwoHanded, FlagAutomatic}, false, true},
		{"assault_rifle", "Assault Rifle", "Assault Rifle (2A)", "2d6+1", 9, []WeaponFlag{FlagTwoHanded, FlagAutomatic}, false, true},
		{"shotgun", "Shotgun", "Shotgun (2)", "3d6", 10, []WeaponFlag{FlagTwoHanded}, false, true},
		{"hand_phaser", "Hand Phaser", "Hand Phaser (G)", "3d6", 6, []WeaponFlag{FlagGrappling, FlagFatigueSetting}, false, false},
		{"blaster", "Blaster", "Blaster (2)", "3d6", 9, []WeaponFlag{FlagTwoHanded}, false, false},
		{"frag_grenade", "Frag Grenade", "Frag Grenade (TX)", "3d6", 6, []WeaponFlag{FlagThrown, FlagExplosive}, false, false},
		{"flashbang", "Flashbang", "Flashbang (T)", "", 6, []WeaponFlag{FlagThrown, FlagSurprise}, false, false},
	}
	perEdition := map[Edition][]row{
		// 2010: "Dagger-used in grappling (G) | D6+2", "Club (T) (min 1
		// damage) D6-1 8", "Cutlass 2D6-2 |10", "Handgun (G) 2D6-1 8".
		Edition2010: {
			{"dagger_grappling", "Dagger-used in grappling", "Dagger-used in grappling (G)", "d6+2", 0, []WeaponFlag{FlagGrappling}, false, false},
			{"club_light", "Club", "Club (T) (min 1 damage)", "d6-1", 8, []WeaponFlag{FlagThrown}, true, false},
			{"cutlass", "Cutlass", "Cutlass", "2d6-2", 10, nil, false, false},
			{"handgun", "Handgun", "Handgun (G)", "2d6-1", 8, []WeaponFlag{FlagGrappling}, false, true},
		},
	}
	for _, ed := range []Edition{Edition2020, Edition2021} {
		// 2020/2021: "Cutlass 2d6-2* 10", "* Any roll deals a minimum 1
		// before armor", "Handgun 2d6-1 8".
		perEdition[ed] = []row{
			{"dagger_grappling", "Dagger used in grappling or counterattacking a tackle", "Dagger used in grappling or counterattacking a tackle (G)", "d6+2", 0, []WeaponFlag{FlagGrappling}, false, false},
			{"cutlass", "Cutlass", "Cutlass", "2d6-2", 10, nil, true, false},
			{"handgun", "Handgun", "Handgun", "2d6-1", 8, nil, false, true},
		}
	}
	wantCount := map[Edition]int{Edition2010: 17, Edition2020: 16, Edition2021: 16}
	for _, ed := range Editions() {
		ws := Weapons(ed)
		if len(ws) != wantCount[ed] {
			t.Errorf("%s: %d weapons, want %d", ed, len(ws), wantCount[ed])
		}
		for _, r := range append(slices.Clone(common), perEdition[ed]...) {
			t.Run(fmt.Sprintf("%s/%s", ed, r.key), func(t *testing.T) {
				i := slices.IndexFunc(ws, func(w Weapon) bool { return w.Key == r.key })
				if i < 0 {
					t.Fatalf("no weapon %q", r.key)
				}
				w := ws[i]
				dmg := ""
				if w.Damage != nil {
					dmg = w.Damage.String()
				}
				if w.Name != r.name || w.Label != r.label || dmg != r.dmg || w.Heft != r.heft ||
					!slices.Equal(w.Flags, r.flags) || w.MinOneBeforeArmor != r.minOne || w.Missile != r.missile {
					t.Errorf("got %+v (damage %q), want %+v", w, dmg, r)
				}
			})
		}
		if i := slices.IndexFunc(ws, func(w Weapon) bool { return w.Key == "club_light" }); (i >= 0) != (ed == Edition2010) {
			t.Errorf("%s: light club present = %v", ed, i >= 0)
		}
	}
}

// TestWeaponTablesConsistent checks that keys and labels are unique within
// an edition, that every key, label and alias finds its own row, that
// damage notation is valid and that categories are known.
func TestWeaponTablesConsistent(t *testing.T) {
	for _, ed := range Editions() {
		keys, labels, names := map[string]bool{}, map[string]bool{}, map[string]int{}
		for _, w := range Weapons(ed) {
			names[w.Name]++
		}
		for _, w := range Weapons(ed) {
			if keys[w.Key] || labels[w.Label] {
				t.Errorf("%s: duplicate key %q or label %q", ed, w.Key, w.Label)
			}
			keys[w.Key], labels[w.Label] = true, true
			if w.Damage != nil && w.Damage.validate() != "" {
				t.Errorf("%s: %s has bad damage %+v", ed, w.Key, *w.Damage)
			}
			if !slices.Contains([]string{WeaponUnarmed, WeaponHand, WeaponMissile, WeaponGrenade}, w.Category) {
				t.Errorf("%s: %s has category %q", ed, w.Key, w.Category)
			}
			if w.Missile && w.Category != WeaponMissile {
				t.Errorf("%s: %s fires bullets but is not a missile weapon", ed, w.Key)
			}
			for _, n := range w.names() {
				if n == w.Name && names[n] > 1 {
					// "Club" names several rows; it finds the key "club".
					if got, _ := LookupWeapon(ed, n); got.Key != "club" {
						t.Errorf("%s: LookupWeapon(%q) = %s, want club", ed, n, got.Key)
					}
					continue
				}
				got, err := LookupWeapon(ed, n)
				if err != nil || got.Key != w.Key {
					t.Errorf("%s: LookupWeapon(%q) = %s, %v; want %s", ed, n, got.Key, err, w.Key)
				}
			}
		}
	}
	// Weapons is built afresh: changing one result does not change the next.
	ws := Weapons(Edition2021)
	ws[0].Flags[0] = FlagExplosive
	ws[0].Damage.Sides = 6
	if again := Weapons(Edition2021); again[0].Flags[0] != FlagUnarmed || again[0].Damage.Sides != 3 {
		t.Errorf("Weapons shares state between calls: %+v", again[0])
	}
}

func TestLookupWeapon(t *testing.T) {
	rows := []struct {
		ed   Edition
		name string
		key  string
	}{
		{Edition2021, "fire axe", "fire_axe"},
		{Edition2021, "Fire Axe", "fire_axe"},
		{Edition2021, "  FIRE_AXE ", "fire_axe"},
		{Edition2021, "fire-axe", "fire_axe"},
		{Edition2021, "axe", "fire_axe"},
		{Edition2021, "Fire Axe (2)", "fire_axe"},
		{Edition2021, "club", "club"},
		{Edition2021, "Club (2T)", "club_two_handed"},
		{Edition2010, "Club", "club"},
		{Edition2010, "light club", "club_light"},
		{Edition2010, "Club (T) (min 1 damage)", "club_light"},
		{Edition2021, "knife", "dagger"},
		{Edition2020, "Dagger used in grappling", "dagger_grappling"},
		{Edition2010, "Dagger-used in grappling", "dagger_grappling"},
		{Edition2021, "SMG", "submg"},
		{Edition2021, "Assault Rifle", "assault_rifle"},
		{Edition2010, "Handgun (G)", "handgun"},
		{"", "unarmed", "unarmed"},
	}
	for _, r := range rows {
		t.Run(fmt.Sprintf("%s/%s", r.ed, r.name), func(t *testing.T) {
			w, err := LookupWeapon(r.ed, r.name)
			if err != nil || w.Key != r.key {
				t.Errorf("LookupWeapon = %q, %v; want %q", w.Key, err, r.key)
			}
		})
	}
	errs := []struct {
		ed   Edition
		name string
		msg  string
	}{
		{Edition2021, "fire ax", `unknown weapon "fire ax" in edition 2021; did you mean "Fire Axe (2)"?`},
		// A skill where a weapon goes: name the weapons it adds to.
		{Edition2021, "Rifle/SMG", `unknown weapon "Rifle/SMG": Rifle/SMG is a skill; the weapons it adds to are SubMG, Assault Rifle, Shotgun, Blaster`},
		{Edition2021, "Medic", `unknown weapon "Medic": Medic is a skill, not a weapon`},
		// A name cut short finds the one weapon it begins.
		{Edition2021, "Assau", `unknown weapon "Assau" in edition 2021; did you mean "Assault Rifle (2A)"?`},
		// The table's first row too, where no spelling is near enough.
		{Edition2021, "unar", `unknown weapon "unar" in edition 2021; did you mean "Unarmed (U)"?`},
		{Edition2021, "club_light", `the Club (T) (min 1 damage) is not a weapon of edition 2021 (its book lists it in edition 2010)`},
		{Edition2021, "", "missing weapon name; name a weapon such as Dagger or Handgun"},
		{"1999", "dagger", `unknown edition "1999": choose 2010, 2020 or 2021`},
	}
	for _, r := range errs {
		_, err := LookupWeapon(r.ed, r.name)
		wantError(t, err, CodeInvalid, r.msg)
	}
	_, err := LookupWeapon(Edition2021, "lightsaber")
	wantError(t, err, CodeInvalid, "")
}

func TestArmorTables(t *testing.T) {
	for _, ed := range Editions() {
		as := Armors(ed)
		// 2010 "Flak Vest 3/0"; 2020/2021 "Flak Vest 3 1".
		flakR := 1
		if ed == Edition2010 {
			flakR = 0
		}
		want := []Armor{
			{Key: "flak_vest", Name: "Flak Vest", Label: "Flak Vest", Protection: 3, Restriction: flakR},
			{Key: "space_suit", Name: "Space Suit", Label: "Space Suit (B, SS)", Protection: 1, Restriction: 1, NoBullets: true, SpaceSuit: true},
			{Key: "landing_suit", Name: "Landing Suit", Label: "Landing Suit (SS)", Protection: 3, Restriction: 1, SpaceSuit: true},
			{Key: "battle_armor", Name: "Battle Armor", Label: "Battle Armor (SS)", Protection: 8, Restriction: 1, SpaceSuit: true},
		}
		if !slices.Equal(as, want) {
			t.Errorf("%s: Armors = %+v", ed, as)
		}
		for _, a := range as {
			for _, n := range a.names() {
				if got, err := LookupArmor(ed, n); err != nil || got != a {
					t.Errorf("%s: LookupArmor(%q) = %+v, %v", ed, n, got, err)
				}
			}
		}
	}
	if a, err := LookupArmor(Edition2021, "battle armour"); err != nil || a.Key != "battle_armor" {
		t.Errorf("LookupArmor(battle armour) = %+v, %v", a, err)
	}
	_, err := LookupArmor(Edition2021, "flack vest")
	wantError(t, err, CodeInvalid, `unknown armour "flack vest" in edition 2021; did you mean "Flak Vest"?`)
	_, err = LookupArmor(Edition2021, " ")
	wantError(t, err, CodeInvalid, "missing armour name; name armour such as Flak Vest")
	_, err = LookupArmor(Edition2021, "chain mail")
	wantError(t, err, CodeInvalid, `unknown armour "chain mail" in edition 2021; the armours are Flak Vest, Space Suit, Landing Suit and Battle Armor`)
}

// A name cut short is a guess only when the names it begins are one item's,
// wherever that item sits in the table; otherwise the nearest spelling is.
func TestSuggestItemGuessesOneItemFromItsStart(t *testing.T) {
	names := func(s []string) []string { return s }
	label := func(s []string) string { return s[0] }
	rows := []struct {
		typed string
		items [][]string
		want  string
	}{
		{"alph", [][]string{{"Alphabetical", "alphabetical order"}, {"Zulu"}}, "Alphabetical"},
		{"alph", [][]string{{"Zulu"}, {"Alphabetical", "alphabetical order"}}, "Alphabetical"},
		// Two items begin so, and no name is spelt near it: no guess.
		{"alp", [][]string{{"Alphabetical"}, {"Alpinestrasse"}}, ""},
		{"alp", [][]string{{"Zulu"}, {"Alphabetical"}, {"Alpinestrasse"}}, ""},
		// Two items begin so, and one is spelt near it.
		{"alpa", [][]string{{"Alpha"}, {"Alphabetical"}}, "Alpha"},
	}
	for _, r := range rows {
		got, ok := suggestItem(r.typed, r.items, names, label)
		if got != r.want || ok != (r.want != "") {
			t.Errorf("suggestItem(%q, %q) = %q, %v; want %q", r.typed, r.items, got, ok, r.want)
		}
	}
}

func TestCheckHeft(t *testing.T) {
	rows := []struct {
		ed   Edition
		st   int
		name string
		msg  string
	}{
		{Edition2021, 9, "fire axe", "Ajax (ST 9) cannot wield a Fire Axe: its heft is 12"},
		{Edition2010, 11, "fire axe", "Ajax (ST 11) cannot wield a Fire Axe: its heft is 12"},
		{Edition2021, 12, "fire axe", ""},
		{Edition2020, 8, "assault rifle", "Ajax (ST 8) cannot wield an Assault Rifle: its heft is 9"},
		{Edition2020, 8, "club", "Ajax (ST 8) cannot wield a Club: its heft is 9"},
		{Edition2010, 8, "light club", ""},
		{Edition2021, 9, "shotgun", "Ajax (ST 9) cannot wield a Shotgun: its heft is 10"},
		{Edition2021, 1, "dagger", ""},
		{Edition2010, 1, "unarmed", ""},
	}
	for _, r := range rows {
		t.Run(fmt.Sprintf("%s/%s/ST%d", r.ed, r.name, r.st), func(t *testing.T) {
			w, err := LookupWeapon(r.ed, r.name)
			if err != nil {
				t.Fatal(err)
			}
			err = CheckHeft(r.ed, "Ajax", r.st, w)
			if r.msg == "" {
				if err != nil {
					t.Errorf("CheckHeft: %v", err)
				}
				return
			}
			wantError(t, err, CodeRule, r.msg)
		})
	}
}

func TestSuitFailure(t *testing.T) {
	if SuitFailureRestriction() != 3 {
		t.Errorf("SuitFailureRestriction = %d, want 3", SuitFailureRestriction())
	}
	for _, ed := range Editions() {
		suit, _ := LookupArmor(ed, "space suit")
		vest, _ := LookupArmor(ed, "flak vest")
		sixes, err := ResolveCheck(CheckInput{Edition: ed, Expr: CheckExpr{Dice: 3, Attribute: DX, Mode: CheckPlain}, AttributeValue: 11}, NewGivenFaces([]int{6, 6, 6}))
		if err != nil {
			t.Fatal(err)
		}
		if !SuitFails(suit, sixes) || SuitFails(vest, sixes) || SuitFails(suit, CheckOutcome{Faces: []int{6, 5, 6}}) {
			t.Errorf("%s: SuitFails wrong", ed)
		}
	}
}

func TestWeaponSkill(t *testing.T) {
	rows := []struct {
		ed     Edition
		weapon string
		skill  string // display name in ed, "" for none
	}{
		{Edition2021, "dagger", "Knife"},
		{Edition2010, "dagger", "Dagger"},
		{Edition2021, "dagger_grappling", "Knife"},
		{Edition2021, "hatchet", "Axe"},
		{Edition2010, "light club", "Axe"},
		{Edition2021, "fire axe", "Axe"},
		{Edition2021, "handgun", "Pistol"},
		{Edition2021, "hand phaser", "Pistol"},
		{Edition2021, "shotgun", "Rifle/SMG"},
		{Edition2010, "submg", "Rifle/SubMG"},
		{Edition2021, "blaster", "Rifle/SMG"},
		{Edition2021, "unarmed", "Unarmed"},
		{Edition2021, "cutlass", ""},
		{Edition2021, "frag grenade", ""},
		{Edition2021, "flashbang", ""},
	}
	for _, r := range rows {
		w, err := LookupWeapon(r.ed, r.weapon)
		if err != nil {
			t.Fatal(err)
		}
		s, ok := WeaponSkill(r.ed, w)
		if got := s.NameIn(r.ed); ok != (r.skill != "") || (ok && got != r.skill) {
			t.Errorf("%s: WeaponSkill(%s) = %q, %v; want %q", r.ed, r.weapon, got, ok, r.skill)
		}
	}
}

// FuzzLookupWeapon checks that LookupWeapon never panics, fails only with
// CodeInvalid, and that what it finds is found again by its key and label.
func FuzzLookupWeapon(f *testing.F) {
	for _, s := range []string{"fire axe", "Fire Axe (2)", "axe", "club_light", "Club (2T)", "fire ax", "", " ", "-", "_", "\xff", "dagger-used in grappling", "ARMOUR"} {
		f.Add(s, 2021)
		f.Add(s, 2010)
	}
	f.Fuzz(func(t *testing.T, s string, year int) {
		ed := Edition(fmt.Sprint(year))
		w, err := LookupWeapon(ed, s)
		if err != nil {
			if CodeOf(err) != CodeInvalid {
				t.Fatalf("LookupWeapon(%q) error %v has code %q", s, err, CodeOf(err))
			}
			return
		}
		for _, n := range []string{w.Key, w.Label} {
			again, err := LookupWeapon(ed, n)
			if err != nil || again.Key != w.Key {
				t.Fatalf("LookupWeapon(%q) = %s, but %q gives %s, %v", s, w.Key, n, again.Key, err)
			}
		}
		if _, err := LookupArmor(ed, s); err != nil && CodeOf(err) != CodeInvalid {
			t.Fatalf("LookupArmor(%q) error %v has code %q", s, err, CodeOf(err))
		}
	})
}

// TestThrownAndDodge: what can be thrown, and what can be dodged.
// All editions, "(T) Can be thrown"; "Dodge": "A defender cannot dodge a
// missile weapon"; 2010 "Dodge": "A defender cannot dodge a missile or
// thrown weapon."
func TestThrownAndDodge(t *testing.T) {
	weapon := func(ed Edition, name string) Weapon {
		w, err := LookupWeapon(ed, name)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	for _, r := range []struct {
		ed      Edition
		weapon  string
		asThrow bool
		thrown  bool
		throwOK bool
		dodge   string // "" when the dodge is allowed
	}{
		{Edition2010, "dagger", true, true, true, "Ajax cannot dodge a thrown weapon in edition 2010 (Dagger)"},
		{Edition2010, "dagger", false, false, true, ""},
		{Edition2010, "frag grenade", false, true, true, "Ajax cannot dodge a thrown weapon in edition 2010 (Frag Grenade)"},
		{Edition2021, "dagger", true, true, true, ""},
		{Edition2020, "frag grenade", false, true, true, ""},
		{Edition2021, "handgun", false, false, true, "Ajax cannot dodge a missile weapon (Handgun)"},
		{Edition2021, "handgun", true, false, false, ""},
		{Edition2010, "fire axe", true, false, false, ""},
	} {
		w := weapon(r.ed, r.weapon)
		thrown, err := Thrown(w, r.asThrow)
		if (err == nil) != r.throwOK {
			t.Errorf("%s %s thrown=%v: %v", r.ed, r.weapon, r.asThrow, err)
			continue
		}
		if err != nil {
			wantError(t, err, CodeInvalid, "the "+w.Name+" cannot be thrown (only weapons marked (T) can)")
			continue
		}
		if thrown != r.thrown {
			t.Errorf("%s %s asThrow=%v: thrown %v, want %v", r.ed, r.weapon, r.asThrow, thrown, r.thrown)
		}
		err = CanDodge(r.ed, "Ajax", w, thrown)
		if r.dodge == "" {
			if err != nil {
				t.Errorf("%s %s thrown=%v: %v, want a dodge allowed", r.ed, r.weapon, thrown, err)
			}
			continue
		}
		wantError(t, err, CodeRule, r.dodge)
	}
}
