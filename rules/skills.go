package rules

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// SkillCategory is the heading a skill is listed under in the skill tables.
type SkillCategory string

// The skill categories, in the books' order (which is also alphabetical).
const (
	// CategoryAthletic is "ATHLETIC" (2010: "ATHLETICS").
	CategoryAthletic SkillCategory = "athletic"
	// CategoryCombat is "COMBAT": each level is +1DX to hit or +1 damage.
	CategoryCombat SkillCategory = "combat"
	// CategoryMilitary is "MILITARY".
	CategoryMilitary SkillCategory = "military"
	// CategorySocial is "SOCIAL".
	CategorySocial SkillCategory = "social"
	// CategorySurvival is "SURVIVAL".
	CategorySurvival SkillCategory = "survival"
	// CategoryThief is "THIEF".
	CategoryThief SkillCategory = "thief"
	// CategoryTrades is "TRADES".
	CategoryTrades SkillCategory = "trades"
)

// MaxSkillLevel is the highest skill level ltscamp records. The books set no
// limit; 20 is far beyond anything reachable and keeps notation sane.
const MaxSkillLevel = 20

// Skill is one entry of the skill catalogue.
type Skill struct {
	// Key is the stable lower-case key stored in events, such as "pilot".
	Key string
	// Name is the 2020/2021 display name, such as "Pilot".
	Name string
	// Name2010 is the 2010 display name when it differs, such as
	// "Spacecraft Pilot"; otherwise "".
	Name2010 string
	// Category is the skill table heading.
	Category SkillCategory
	// Attribute is the attribute its check uses per the skill tables.
	Attribute Attribute
	// Editions lists the editions whose book lists the skill.
	Editions []Edition
	// Aliases are further accepted names, such as "Unarmed Combat".
	Aliases []string
}

// Combat reports whether s is a combat skill; a new character may spend at
// most CreationCombatSkillPoints on those.
func (s Skill) Combat() bool { return s.Category == CategoryCombat }

// In reports whether the book of edition ed lists s.
func (s Skill) In(ed Edition) bool { return slices.Contains(s.Editions, ed) }

// NameIn returns the skill's display name in edition ed: Name2010 in 2010
// when set, otherwise Name.
func (s Skill) NameIn(ed Edition) string {
	if ed == Edition2010 && s.Name2010 != "" {
		return s.Name2010
	}
	return s.Name
}

// names returns every name s answers to: key, names and aliases.
func (s Skill) names() []string {
	n := []string{s.Key, s.Name}
	if s.Name2010 != "" {
		n = append(n, s.Name2010)
	}
	return append(n, s.Aliases...)
}

// allSkills builds the full catalogue afresh on every call, so that no
// caller can change what another sees.
//
// Sources: the "SKILLS" tables of 2010 (seed 003), 2020 (seed 002) and 2021
// (seed 001). 2020 and 2021 list the same skills; 2010 lacks Alertness,
// Naturalist and Storyteller and names five skills differently. The
// attribute is the one the table's description checks ("Scale obstacles on
// 3/ST", "by winning IQ"); combat skills add to DX to hit ("Each level is
// +1DX to hit OR +1 damage"), and Leadership, which only lends its rating to
// another character, is filed under IQ.
func allSkills() []Skill {
	all := []Edition{Edition2010, Edition2020, Edition2021}
	since2020 := []Edition{Edition2020, Edition2021}
	sk := func(key, name, name2010 string, cat SkillCategory, at Attribute, eds []Edition, aliases ...string) Skill {
		return Skill{Key: key, Name: name, Name2010: name2010, Category: cat, Attribute: at,
			Editions: slices.Clone(eds), Aliases: aliases}
	}
	return []Skill{
		// ATHLETIC
		sk("acrobat", "Acrobat", "", CategoryAthletic, DX, all, "Acrobatics"),
		sk("climbing", "Climbing", "", CategoryAthletic, ST, all),
		sk("riding", "Riding", "", CategoryAthletic, DX, all),
		sk("swimming", "Swimming", "", CategoryAthletic, ST, all),
		// COMBAT
		sk("axe", "Axe", "", CategoryCombat, DX, all),
		// 2021 "SKILLS" example: "Ajax spends 10XP for knife fighting".
		sk("knife", "Knife", "Dagger", CategoryCombat, DX, all, "Knife Fighting"),
		sk("pistol", "Pistol", "", CategoryCombat, DX, all),
		sk("rifle_smg", "Rifle/SMG", "Rifle/SubMG", CategoryCombat, DX, all),
		// 2021 "New Characters" example: "Unarmed Combat +2".
		sk("unarmed", "Unarmed", "", CategoryCombat, DX, all, "Unarmed Combat"),
		// MILITARY
		sk("interrogator", "Interrogator", "", CategoryMilitary, IQ, all, "Interrogation"),
		sk("gunner", "Gunner", "", CategoryMilitary, DX, all, "Gunnery"),
		sk("navigation_nautical", "Navigation, Nautical", "", CategoryMilitary, IQ, all, "Nautical Navigation"),
		sk("navigation_stellar", "Navigation, Stellar", "", CategoryMilitary, IQ, all, "Stellar Navigation"),
		sk("pilot", "Pilot", "Spacecraft Pilot", CategoryMilitary, DX, all),
		sk("weightless_movement", "Weightless Movement", "Weightlessness", CategoryMilitary, DX, all),
		// SOCIAL
		sk("charisma", "Charisma", "", CategorySocial, IQ, all),
		sk("diplomacy", "Diplomacy", "", CategorySocial, IQ, all),
		sk("language", "Language", "", CategorySocial, IQ, all),
		sk("leadership", "Leadership", "", CategorySocial, IQ, all),
		sk("literacy", "Literacy", "", CategorySocial, IQ, all),
		// SURVIVAL
		sk("alertness", "Alertness", "", CategorySurvival, IQ, since2020),
		sk("naturalist", "Naturalist", "", CategorySurvival, IQ, since2020),
		sk("navigation", "Navigation", "Land Navigation", CategorySurvival, IQ, all),
		sk("stalker", "Stalker", "", CategorySurvival, DX, all),
		sk("stealth", "Stealth", "", CategorySurvival, DX, all),
		sk("survival", "Survival", "", CategorySurvival, IQ, all),
		sk("tactician", "Tactician", "", CategorySurvival, IQ, all),
		sk("tracker", "Tracker", "", CategorySurvival, IQ, all, "Tracking"),
		// THIEF
		sk("locks", "Locks", "", CategoryThief, DX, all),
		sk("streetwise", "Streetwise", "", CategoryThief, IQ, all),
		sk("thief", "Thief", "", CategoryThief, DX, all),
		sk("traps", "Traps", "", CategoryThief, IQ, all),
		// TRADES
		// 2020/2021 Botanist: "ST healed per potion = herb doses * Herbalist level".
		sk("botanist", "Botanist", "", CategoryTrades, IQ, all, "Herbalist"),
		sk("electrician", "Electrician", "", CategoryTrades, IQ, all),
		sk("equipment_operator", "Equipment Operator", "", CategoryTrades, DX, all),
		sk("investigator", "Investigator", "", CategoryTrades, IQ, all),
		sk("mechanic", "Mechanic", "", CategoryTrades, IQ, all),
		sk("medic", "Medic", "", CategoryTrades, IQ, all),
		sk("merchant", "Merchant", "", CategoryTrades, IQ, all),
		sk("scholar", "Scholar", "", CategoryTrades, IQ, all),
		// 2020/2021 Storyteller: "a 3/IQ + Storytelling".
		sk("storyteller", "Storyteller", "", CategoryTrades, IQ, since2020, "Storytelling"),
		sk("systems_tech", "Systems Tech", "", CategoryTrades, IQ, all),
		sk("zoologist", "Zoologist", "", CategoryTrades, IQ, all),
	}
}

// SkillCatalogue returns the skills listed in edition ed's book, sorted by
// category and then by their name in that edition. An unknown edition is
// treated as DefaultEdition. The slice is freshly built on each call.
func SkillCatalogue(ed Edition) []Skill {
	ed = ed.orDefault()
	var out []Skill
	for _, s := range allSkills() {
		if s.In(ed) {
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b Skill) int {
		return cmp.Or(cmp.Compare(a.Category, b.Category), cmp.Compare(a.NameIn(ed), b.NameIn(ed)))
	})
	return out
}

// normalizeSkillName folds a skill name for matching: lower case, "_" and
// "," read as spaces, runs of space collapsed. So "navigation_stellar",
// "Navigation, Stellar" and "navigation  stellar" all match.
func normalizeSkillName(s string) string {
	s = strings.ToLower(s)
	s = strings.NewReplacer("_", " ", ",", " ").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// LookupSkill finds a skill by key, name, 2010 name or alias, ignoring case
// and spacing; 2010 names work in every edition and vice versa. An unknown
// name is a CodeInvalid error with a suggestion when one is close; a skill
// the edition's book does not list is a CodeInvalid error too.
func LookupSkill(ed Edition, name string) (Skill, error) {
	ed, err := resolveEdition(ed)
	if err != nil {
		return Skill{}, err
	}
	typed := strings.TrimSpace(name)
	want := normalizeSkillName(typed)
	if want == "" {
		return Skill{}, Errorf(CodeInvalid, "missing skill name; name a skill such as Climbing or Medic")
	}
	all := allSkills()
	if s, found, err := findSkill(ed, want, all); found {
		return s, err
	}
	// A weapon or an armour typed where a skill goes: say what it is, and
	// name the skill that goes with the weapon.
	if w, err := LookupWeapon(ed, typed); err == nil {
		if sk, ok := WeaponSkill(ed, w); ok {
			return Skill{}, Errorf(CodeInvalid, "unknown skill %q: the %s is a weapon; did you mean the %s skill, which adds to it?", typed, w.Name, sk.NameIn(ed))
		}
		return Skill{}, Errorf(CodeInvalid, "unknown skill %q: the %s is a weapon, and no skill adds to it", typed, w.Name)
	}
	if a, err := LookupArmor(ed, typed); err == nil {
		return Skill{}, Errorf(CodeInvalid, "unknown skill %q: the %s is armour, not a skill", typed, a.Name)
	}
	if hint, ok := suggestSkill(ed, typed, all); ok {
		return Skill{}, Errorf(CodeInvalid, "unknown skill %q; did you mean %q?", typed, hint)
	}
	return Skill{}, Errorf(CodeInvalid, "unknown skill %q", typed)
}

// findSkill finds the skill one of whose names normalises to want; found
// is false when none does. A skill the edition's book does not list is
// found, with an error.
func findSkill(ed Edition, want string, all []Skill) (s Skill, found bool, err error) {
	for _, s := range all {
		for _, n := range s.names() {
			if normalizeSkillName(n) == want {
				if !s.In(ed) {
					return Skill{}, true, Errorf(CodeInvalid, "%s is not a skill in edition %s", s.NameIn(ed), ed)
				}
				return s, true, nil
			}
		}
	}
	return Skill{}, false, nil
}

// lookupSkillExact finds a skill by one of its names, with no suggestion:
// for the messages of the other catalogues.
func lookupSkillExact(ed Edition, name string) (Skill, error) {
	s, found, err := findSkill(ed, normalizeSkillName(strings.TrimSpace(name)), allSkills())
	if !found {
		return Skill{}, Errorf(CodeInvalid, "unknown skill %q", name)
	}
	return s, err
}

// suggestSkill proposes the edition's display name nearest to typed: first
// among display names, then among every other name a skill answers to.
func suggestSkill(ed Edition, typed string, all []Skill) (string, bool) {
	var display, other []string
	var otherSkill []Skill
	for _, s := range all {
		if !s.In(ed) {
			continue
		}
		display = append(display, s.NameIn(ed))
		for _, n := range s.names() {
			other = append(other, n)
			otherSkill = append(otherSkill, s)
		}
	}
	if hint, ok := SuggestPrefix(typed, display); ok {
		return hint, true
	}
	if hint, ok := Suggest(typed, display); ok {
		return hint, true
	}
	if hint, ok := Suggest(typed, other); ok {
		return otherSkill[slices.Index(other, hint)].NameIn(ed), true
	}
	return "", false
}

// skillByKey returns the catalogue entry with the given key.
func skillByKey(key string) (Skill, bool) {
	for _, s := range allSkills() {
		if s.Key == key {
			return s, true
		}
	}
	return Skill{}, false
}

// SkillLevel is a skill and the level a character has in it.
type SkillLevel struct {
	Skill Skill
	Level int
}

// String renders the skill level in the notation ParseSkillLevel reads, with
// the default edition's name, such as "Medic:2".
func (sl SkillLevel) String() string {
	return sl.Skill.Name + ":" + strconv.Itoa(sl.Level)
}

// ParseSkillLevel reads "Name:level" ("Unarmed:2", "Navigation, Stellar:1"),
// or a bare name for level 1. It splits at the last ':' and needs a whole
// level from 1 to MaxSkillLevel; errors are CodeInvalid.
func ParseSkillLevel(ed Edition, s string) (SkillLevel, error) {
	t := strings.TrimSpace(s)
	name, levelText := t, ""
	if i := strings.LastIndex(t, ":"); i >= 0 {
		name, levelText = strings.TrimSpace(t[:i]), strings.TrimSpace(t[i+1:])
		if levelText == "" {
			return SkillLevel{}, Errorf(CodeInvalid, "bad skill %q: missing level after ':'; write it as Medic:2", t)
		}
	}
	if name == "" {
		return SkillLevel{}, Errorf(CodeInvalid, "bad skill %q: missing skill name; write it as Medic:2", t)
	}
	level := 1
	if levelText != "" {
		n, ok := parseSmallUint(levelText)
		if !ok || n < 1 || n > MaxSkillLevel {
			return SkillLevel{}, Errorf(CodeInvalid, "bad skill %q: level %q is not a whole number from 1 to %d", t, levelText, MaxSkillLevel)
		}
		level = n
	}
	sk, err := LookupSkill(ed, name)
	if err != nil {
		return SkillLevel{}, err
	}
	return SkillLevel{Skill: sk, Level: level}, nil
}

// parseSmallUint reads a string of ASCII digits as a number up to
// 1,000,000; signs, spaces and anything larger are rejected.
func parseSmallUint(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
		if n > 1_000_000 {
			return 0, false
		}
	}
	return n, true
}
