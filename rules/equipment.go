package rules

import (
	"slices"
	"strings"
)

// WeaponFlag is one of the letters the weapon tables print in parentheses.
// Its string value is the book's letter and is stored in events.
type WeaponFlag string

// The weapon flags, as the weapon tables' legends define them (all
// editions, "WEAPONS").
const (
	// FlagTwoHanded is "(2) Two-handed weapon."
	FlagTwoHanded WeaponFlag = "2"
	// FlagThrown is "(T) This weapon can be thrown."
	FlagThrown WeaponFlag = "T"
	// FlagAutomatic is "(A) Automatic weapons hit two adjacent hexes or one
	// hex twice. Shooter must pass 3/DX per shot to hit; roll damage per
	// hit." Each shot is its own ResolveAttack.
	FlagAutomatic WeaponFlag = "A"
	// FlagFatigueSetting is "(F) Can be set to damage or fatigue."
	FlagFatigueSetting WeaponFlag = "F"
	// FlagGrappling is "(G) Only G weapons can be used grappling."
	FlagGrappling WeaponFlag = "G"
	// FlagUnarmed is "(U) Fatigue only, +1 if the attacker is stronger"
	// (2010: "D3 fatigue, (+1 if the attacker is stronger)").
	FlagUnarmed WeaponFlag = "U"
	// FlagExplosive is "(X) Explosive affects five-hex diameter circle. If
	// thrower misses, randomly place blast center adjacent to original
	// target hex."
	FlagExplosive WeaponFlag = "X"
	// FlagSurprise is "(S) When thrown, your side gets surprise."
	FlagSurprise WeaponFlag = "S"
)

// Weapon categories: the headings of the weapon tables.
const (
	// WeaponUnarmed is the "UNARMED" heading.
	WeaponUnarmed = "unarmed"
	// WeaponHand is the "HAND WEAPONS" heading.
	WeaponHand = "hand"
	// WeaponMissile is the "MISSILES" heading. A defender cannot dodge these
	// ("A defender cannot dodge a missile weapon").
	WeaponMissile = "missile"
	// WeaponGrenade is the "GRENADES" heading.
	WeaponGrenade = "grenade"
)

// Weapon is one row of an edition's weapon table.
type Weapon struct {
	// Key is the stable key stored in events, such as "fire_axe". The same
	// key names the same row in every edition that has it.
	Key string
	// Name is the weapon's name as the edition's book writes it, without
	// the flags: "Fire Axe". Three 2010 rows are all "Club"; Label tells
	// them apart.
	Name string
	// Label is the row's name as printed, flags included, unique within an
	// edition: "Club (2T)", "Club (T) (min 1 damage)", "Hand Phaser (G)".
	Label string
	// Category is WeaponUnarmed, WeaponHand, WeaponMissile or WeaponGrenade.
	Category string
	// Damage is the damage rating; nil for the Flashbang, which deals none.
	Damage *DiceExpr
	// Heft is the minimum ST to use the weapon; 0 where the book prints "-".
	Heft int
	// Flags are the row's flags in the book's order.
	Flags []WeaponFlag
	// MinOneBeforeArmor marks a roll that deals at least 1 before armour:
	// the 2020/2021 Cutlass ("* Any roll deals a minimum 1 before armor")
	// and the 2010 light club ("Club (T) (min 1 damage) D6-1").
	MinOneBeforeArmor bool
	// Missile marks a gun that fires bullets (Handgun, SubMG, Assault Rifle,
	// Shotgun), against which armour flagged (B) does not protect. The
	// phaser and blaster are energy weapons and fire no bullets. For "a
	// defender cannot dodge a missile weapon" use Category == WeaponMissile.
	Missile bool
	// SkillKey is the combat skill whose levels add to this weapon ("" for
	// none): see WeaponSkill.
	SkillKey string
	// Aliases are further accepted names, such as "axe" for the Fire Axe.
	Aliases []string
}

// Has reports whether the weapon carries flag f.
func (w Weapon) Has(f WeaponFlag) bool { return slices.Contains(w.Flags, f) }

// String returns the weapon's Label.
func (w Weapon) String() string { return w.Label }

// names returns every name w answers to.
func (w Weapon) names() []string {
	return append([]string{w.Key, w.Label, w.Name}, w.Aliases...)
}

// Weapons returns edition ed's weapon table in the book's order (an unknown
// edition is DefaultEdition). The slice is built afresh on every call.
//
// Sources: the "WEAPONS" tables of 2010 (seed 003), 2020 (seed 002) and
// 2021 (seed 001). 2010 differs from the later books: it has an extra
// "Club (T) (min 1 damage) D6-1 8", writes the unarmed row "D3F (U)" (the F
// is the (U) legend's "D3 fatigue", not the (F) setting), flags the Handgun
// (G), names the grappling dagger "Dagger-used in grappling", and has no
// "*" on the Cutlass.
func Weapons(ed Edition) []Weapon {
	ed = ed.orDefault()
	d := func(count, sides, mod int) *DiceExpr { return &DiceExpr{Count: count, Sides: sides, Modifier: mod} }
	w := func(key, name, label, cat string, dmg *DiceExpr, heft int, skill string, flags ...WeaponFlag) Weapon {
		return Weapon{Key: key, Name: name, Label: label, Category: cat, Damage: dmg, Heft: heft, Flags: flags, SkillKey: skill}
	}
	gun := func(x Weapon) Weapon { x.Missile = true; return x }
	alias := func(x Weapon, a ...string) Weapon { x.Aliases = a; return x }

	grapplingDagger := "Dagger used in grappling or counterattacking a tackle"
	handgun := w("handgun", "Handgun", "Handgun", WeaponMissile, d(2, 6, -1), 8, "pistol")
	cutlass := w("cutlass", "Cutlass", "Cutlass", WeaponHand, d(2, 6, -2), 10, "")
	if ed == Edition2010 {
		grapplingDagger = "Dagger-used in grappling"
		handgun.Flags, handgun.Label = []WeaponFlag{FlagGrappling}, "Handgun (G)"
	} else {
		// 2020/2021 "Cutlass 2d6-2*": "* Any roll deals a minimum 1 before
		// armor."
		cutlass.MinOneBeforeArmor = true
	}
	out := []Weapon{
		alias(w("unarmed", "Unarmed", "Unarmed (U)", WeaponUnarmed, d(1, 3, 0), 0, "unarmed", FlagUnarmed), "fists", "punch"),
		alias(w("dagger", "Dagger", "Dagger (T)", WeaponHand, d(1, 6, 0), 0, "knife", FlagThrown), "knife"),
		alias(w("dagger_grappling", grapplingDagger, grapplingDagger+" (G)", WeaponHand, d(1, 6, 2), 0, "knife", FlagGrappling),
			"grappling dagger", "dagger used in grappling", "dagger (G)"),
	}
	if ed == Edition2010 {
		// 2010 only: "Club (T) (min 1 damage) D6-1 8".
		light := alias(w("club_light", "Club", "Club (T) (min 1 damage)", WeaponHand, d(1, 6, -1), 8, "axe", FlagThrown), "light club")
		light.MinOneBeforeArmor = true
		out = append(out, light)
	}
	out = append(out,
		w("club", "Club", "Club (T)", WeaponHand, d(1, 6, 0), 9, "axe", FlagThrown),
		alias(w("club_two_handed", "Club", "Club (2T)", WeaponHand, d(1, 6, 1), 9, "axe", FlagTwoHanded, FlagThrown),
			"two-handed club", "club 2T"),
		w("hatchet", "Hatchet", "Hatchet (T)", WeaponHand, d(1, 6, 1), 9, "axe", FlagThrown),
		alias(cutlass, "sword"),
		alias(w("fire_axe", "Fire Axe", "Fire Axe (2)", WeaponHand, d(1, 6, 3), 12, "axe", FlagTwoHanded), "axe"),
		alias(gun(handgun), "pistol"),
		alias(gun(w("submg", "SubMG", "SubMG (2A)", WeaponMissile, d(2, 6, -1), 8, "rifle_smg", FlagTwoHanded, FlagAutomatic)),
			"SMG", "sub mg", "submachine gun"),
		alias(gun(w("assault_rifle", "Assault Rifle", "Assault Rifle (2A)", WeaponMissile, d(2, 6, 1), 9, "rifle_smg", FlagTwoHanded, FlagAutomatic)),
			"rifle"),
		gun(w("shotgun", "Shotgun", "Shotgun (2)", WeaponMissile, d(3, 6, 0), 10, "rifle_smg", FlagTwoHanded)),
		// "Hand Phaser (G) 3d6(F) 6": the F sits in the damage column.
		alias(w("hand_phaser", "Hand Phaser", "Hand Phaser (G)", WeaponMissile, d(3, 6, 0), 6, "pistol", FlagGrappling, FlagFatigueSetting),
			"phaser"),
		w("blaster", "Blaster", "Blaster (2)", WeaponMissile, d(3, 6, 0), 9, "rifle_smg", FlagTwoHanded),
		alias(w("frag_grenade", "Frag Grenade", "Frag Grenade (TX)", WeaponGrenade, d(3, 6, 0), 6, "", FlagThrown, FlagExplosive),
			"frag", "grenade"),
		// "Flashbang (T) (S) 6": no damage, the S sits in the damage column.
		w("flashbang", "Flashbang", "Flashbang (T)", WeaponGrenade, nil, 6, "", FlagThrown, FlagSurprise),
	)
	return out
}

// normalizeItemName folds a weapon or armour name for matching: lower case,
// "_", "-" and "," read as spaces, "armour" as "armor", runs of space
// collapsed. So "fire_axe", "Fire-Axe" and "fire  axe" all match.
func normalizeItemName(s string) string {
	s = strings.ToLower(s)
	s = strings.NewReplacer("_", " ", "-", " ", ",", " ", "armour", "armor").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// findItem returns the index of the first item answering to want, or -1.
// names(i) lists key, label, name, then aliases; whole passes go in that
// order, so that "club" is the one-handed Club (T) even though three 2010
// rows are named "Club".
func findItem(want string, n int, names func(i int) []string) int {
	for pass := range 4 {
		for i := range n {
			ns := names(i)
			cands := ns[pass:] // every item has a key, a label and a name
			if pass < 3 {
				cands = cands[:1]
			}
			for _, c := range cands {
				if normalizeItemName(c) == want {
					return i
				}
			}
		}
	}
	return -1
}

// LookupWeapon finds a weapon of edition ed's table by key, label, name or
// alias, ignoring case, spacing, "_" and "-": "fire_axe", "Fire Axe", "axe"
// and "Fire Axe (2)" all find the Fire Axe. An unknown name is a
// CodeInvalid error with a did-you-mean when one is close; a weapon only
// another edition's book lists is a CodeInvalid error that says so.
func LookupWeapon(ed Edition, name string) (Weapon, error) {
	ed, err := resolveEdition(ed)
	if err != nil {
		return Weapon{}, err
	}
	typed := strings.TrimSpace(name)
	want := normalizeItemName(typed)
	if want == "" {
		return Weapon{}, Errorf(CodeInvalid, "missing weapon name; name a weapon such as Dagger or Handgun")
	}
	ws := Weapons(ed)
	if i := findItem(want, len(ws), func(i int) []string { return ws[i].names() }); i >= 0 {
		return ws[i], nil
	}
	for _, other := range Editions() {
		os := Weapons(other)
		if i := findItem(want, len(os), func(i int) []string { return os[i].names() }); i >= 0 {
			return Weapon{}, Errorf(CodeInvalid, "the %s is not a weapon of edition %s (its book lists it in edition %s)", os[i].Label, ed, other)
		}
	}
	var labels []string
	for _, w := range ws {
		labels = append(labels, w.Label)
	}
	// A skill typed where a weapon goes: name the weapons it adds to.
	if sk, err := lookupSkillExact(ed, typed); err == nil {
		var served []string
		for _, w := range ws {
			if w.SkillKey == sk.Key {
				served = append(served, w.Name)
			}
		}
		if len(served) > 0 {
			return Weapon{}, Errorf(CodeInvalid, "unknown weapon %q: %s is a skill; the weapons it adds to are %s", typed, sk.NameIn(ed), strings.Join(served, ", "))
		}
		return Weapon{}, Errorf(CodeInvalid, "unknown weapon %q: %s is a skill, not a weapon", typed, sk.NameIn(ed))
	}
	if hint, ok := suggestItem(typed, ws, func(w Weapon) []string { return w.names() }, func(w Weapon) string { return w.Label }); ok {
		return Weapon{}, Errorf(CodeInvalid, "unknown weapon %q in edition %s; did you mean %q?", typed, ed, hint)
	}
	return Weapon{}, Errorf(CodeInvalid, "unknown weapon %q in edition %s; the weapons are %s", typed, ed, strings.Join(labels, ", "))
}

// suggestItem proposes the display label nearest to typed among every name
// the items answer to.
func suggestItem[T any](typed string, items []T, names func(T) []string, label func(T) string) (string, bool) {
	var all []string
	var owner []int
	for i, it := range items {
		for _, n := range names(it) {
			all = append(all, n)
			owner = append(owner, i)
		}
	}
	// A name cut short: the one item one of whose names it begins.
	prefixed := -1
	for i, n := range all {
		if _, ok := SuggestPrefix(typed, []string{n}); !ok {
			continue
		}
		if prefixed >= 0 && owner[prefixed] != owner[i] {
			prefixed = -2 // names of two items begin so: no guess
			break
		}
		if prefixed == -1 {
			prefixed = i
		}
	}
	if prefixed >= 0 {
		return label(items[owner[prefixed]]), true
	}
	hint, ok := Suggest(typed, all)
	if !ok {
		return "", false
	}
	return label(items[owner[slices.Index(all, hint)]]), true
}

// Armor is one row of an edition's armour table.
type Armor struct {
	// Key is the stable key stored in events, such as "flak_vest".
	Key string
	// Name is the armour's name as the book writes it: "Space Suit".
	Name string
	// Label is the row as printed, flags included: "Space Suit (B, SS)".
	Label string
	// Protection is A, the damage points the armour stops per hit.
	Protection int
	// Restriction is R, the DX (and so MA) the armour costs.
	Restriction int
	// NoBullets is "(B) Does not protect against bullets."
	NoBullets bool
	// SpaceSuit is "(SS) Space suit": all sixes on any check fail the suit
	// (see SuitFailureRestriction).
	SpaceSuit bool
}

// ArmorNames names the armour worn, in the order put on: "Flak Vest", or
// "Flak Vest and Space Suit".
func ArmorNames(worn []Armor) string {
	names := make([]string, len(worn))
	for i, a := range worn {
		names[i] = a.Name
	}
	return joinAnd(names)
}

// WornArmor totals the armour worn: "reduce the damage he suffers by the
// cumulative rating of his armor"; "adjust a character's DX down by the
// cumulative restriction of his armor". Protection counts every item (an
// attack with bullets skips the (B) items: see ResolveAttack).
func WornArmor(worn []Armor) (protection, restriction int) {
	for _, a := range worn {
		protection += a.Protection
		restriction += a.Restriction
	}
	return protection, restriction
}

// joinAnd writes "a", "a and b", "a, b and c".
func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// agree picks the verb for one thing or many.
func agree(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// String returns the armour's Label.
func (a Armor) String() string { return a.Label }

// names returns every name a answers to.
func (a Armor) names() []string { return []string{a.Key, a.Label, a.Name} }

// Armors returns edition ed's armour table in the book's order (an unknown
// edition is DefaultEdition), built afresh on every call.
// Sources: "ARMOR" tables: 2010 "Flak Vest 3/0"; 2020/2021 "Flak Vest 3 1";
// the suits are the same in every edition.
func Armors(ed Edition) []Armor {
	flakR := 1
	if ed.orDefault() == Edition2010 {
		flakR = 0
	}
	return []Armor{
		{Key: "flak_vest", Name: "Flak Vest", Label: "Flak Vest", Protection: 3, Restriction: flakR},
		{Key: "space_suit", Name: "Space Suit", Label: "Space Suit (B, SS)", Protection: 1, Restriction: 1, NoBullets: true, SpaceSuit: true},
		{Key: "landing_suit", Name: "Landing Suit", Label: "Landing Suit (SS)", Protection: 3, Restriction: 1, SpaceSuit: true},
		{Key: "battle_armor", Name: "Battle Armor", Label: "Battle Armor (SS)", Protection: 8, Restriction: 1, SpaceSuit: true},
	}
}

// LookupArmor finds armour of edition ed's table by key, label or name,
// ignoring case and spacing ("Battle Armour" works too). An unknown name is
// a CodeInvalid error with a did-you-mean when one is close.
func LookupArmor(ed Edition, name string) (Armor, error) {
	ed, err := resolveEdition(ed)
	if err != nil {
		return Armor{}, err
	}
	typed := strings.TrimSpace(name)
	want := normalizeItemName(typed)
	if want == "" {
		return Armor{}, Errorf(CodeInvalid, "missing armour name; name armour such as Flak Vest")
	}
	as := Armors(ed)
	if i := findItem(want, len(as), func(i int) []string { return as[i].names() }); i >= 0 {
		return as[i], nil
	}
	if hint, ok := suggestItem(typed, as, func(a Armor) []string { return a.names() }, func(a Armor) string { return a.Name }); ok {
		return Armor{}, Errorf(CodeInvalid, "unknown armour %q in edition %s; did you mean %q?", typed, ed, hint)
	}
	return Armor{}, Errorf(CodeInvalid, "unknown armour %q in edition %s; the armours are Flak Vest, Space Suit, Landing Suit and Battle Armor", typed, ed)
}

// Thrown reports whether an attack with w is a throw: a grenade always is;
// a weapon flagged (T) is when the attacker says so (asThrow); nothing else
// can be thrown, a CodeInvalid error.
// All editions, "(T) Can be thrown"; the grenades are thrown weapons.
func Thrown(w Weapon, asThrow bool) (bool, error) {
	switch {
	case w.Category == WeaponGrenade:
		return true, nil
	case asThrow && !w.Has(FlagThrown):
		return false, Errorf(CodeInvalid, "the %s cannot be thrown (only weapons marked (T) can)", w.Name)
	}
	return asThrow, nil
}

// CanDodge says whether a defender may dodge an attack with w, thrown or
// not: a CodeRule error naming the reason when he may not.
// All editions, "Dodge": "A defender cannot dodge a missile weapon"; 2010
// "Dodge": "A defender cannot dodge a missile or thrown weapon." (2020 and
// 2021 say nothing of thrown weapons: a throw can be dodged there.)
func CanDodge(ed Edition, who string, w Weapon, thrown bool) error {
	switch {
	case w.Category == WeaponMissile:
		return Errorf(CodeRule, "%s cannot dodge a missile weapon (%s)", who, w.Name)
	case thrown && ed.orDefault() == Edition2010:
		return Errorf(CodeRule, "%s cannot dodge a thrown weapon in edition 2010 (%s)", who, w.Name)
	}
	return nil
}

// CheckHeft checks that who, with strength st, can use weapon w: a CodeRule
// error such as "Ajax (ST 9) cannot wield a Fire Axe: its heft is 12" when
// st is below the heft. The heft is the same in every edition that lists
// the weapon; ed is checked for validity only.
// All editions, "Heft (H)": "A weapon's heft is the minimum ST required to
// use the weapon."
func CheckHeft(ed Edition, who string, st int, w Weapon) error {
	if _, err := resolveEdition(ed); err != nil {
		return err
	}
	if st < w.Heft { // a heft of 0, the book's "-", refuses no ST of 0 or more
		return Errorf(CodeRule, "%s (ST %d) cannot wield %s: its heft is %d", who, st, withArticle(w.Name), w.Heft)
	}
	return nil
}

// withArticle puts "a" or "an" before name.
func withArticle(name string) string {
	if name != "" && strings.ContainsRune("AEIOUaeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

// SuitFailureRestriction returns the restriction of a space suit whose
// power has failed: 3.
// 2020/2021 "(SS) Space suit: if the character rolls all sixes on any
// check, the assist fails and the suit is R=3"; 2010 "the power fails and
// the suit is */3" (protection unchanged, restriction 3).
func SuitFailureRestriction() int { return 3 }

// SuitFails reports whether check breaks armour a: a space suit (SS) and a
// check whose faces are all sixes. The armour's restriction then becomes
// SuitFailureRestriction.
func SuitFails(a Armor, check CheckOutcome) bool { return a.SpaceSuit && check.AllSixes }

// WeaponSkill returns the combat skill whose levels add to weapon w in
// edition ed, or false when none does (the Cutlass and the grenades: no
// skill in any book names swords or grenades).
// All editions, "COMBAT" skills: "Axe: +1 with an axe, mace or club" (the
// clubs, Hatchet, Fire Axe); "Knife"/2010 "Dagger: +1 with a dagger";
// "Pistol: +1 with hand-fired weapon" (Handgun, Hand Phaser); "Rifle/SMG:
// +1 with shoulder-fired weapon" (SubMG, Assault Rifle, Shotgun, Blaster);
// "Unarmed".
func WeaponSkill(ed Edition, w Weapon) (Skill, bool) {
	if w.SkillKey == "" {
		return Skill{}, false
	}
	s, ok := skillByKey(w.SkillKey)
	if !ok || !s.In(ed.orDefault()) {
		return Skill{}, false
	}
	return s, true
}
