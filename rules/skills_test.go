package rules

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestSkillCatalogueShape(t *testing.T) {
	seen := map[string]string{}
	for _, s := range allSkills() {
		if s.Key != strings.ToLower(s.Key) || strings.ContainsAny(s.Key, " ,") {
			t.Errorf("key %q is not a lower-case key", s.Key)
		}
		if !s.Attribute.Valid() || len(s.Editions) == 0 || s.Name == "" {
			t.Errorf("incomplete skill %+v", s)
		}
		if s.Combat() && s.Attribute != DX {
			t.Errorf("combat skill %s uses %s, want DX", s.Name, s.Attribute)
		}
		// No name may lead to two skills.
		for _, n := range s.names() {
			k := normalizeSkillName(n)
			if other, dup := seen[k]; dup && other != s.Key {
				t.Errorf("name %q belongs to %s and %s", n, other, s.Key)
			}
			seen[k] = s.Key
		}
	}
	// 4 athletic, 5 combat, 6 military, 5 social, 8 survival, 4 thief, 11
	// trades; 2010 lacks Alertness, Naturalist and Storyteller.
	counts := map[Edition]int{Edition2010: 40, Edition2020: 43, Edition2021: 43}
	for _, ed := range Editions() {
		cat := SkillCatalogue(ed)
		if len(cat) != counts[ed] {
			t.Errorf("%s has %d skills, want %d", ed, len(cat), counts[ed])
		}
		sorted := slices.IsSortedFunc(cat, func(a, b Skill) int {
			if c := strings.Compare(string(a.Category), string(b.Category)); c != 0 {
				return c
			}
			return strings.Compare(a.NameIn(ed), b.NameIn(ed))
		})
		if !sorted {
			t.Errorf("%s catalogue is not sorted by category then name", ed)
		}
	}
	// The catalogue is built afresh: changing one copy changes no other.
	a := SkillCatalogue(Edition2021)
	a[0].Editions[0] = "1999"
	a[0].Name = "Changed"
	if b := SkillCatalogue(Edition2021); b[0].Name == "Changed" || b[0].Editions[0] == "1999" {
		t.Error("the catalogue is shared between callers")
	}
}

func TestSkillAttributes(t *testing.T) {
	// The skill tables' checks: "Scale obstacles on 3/ST", "Swim on 3/ST",
	// "Operate spacecraft on 3/DX", Medic "on 3/IQ".
	for _, r := range []struct {
		name string
		at   Attribute
		cat  SkillCategory
	}{
		{"Climbing", ST, CategoryAthletic}, {"Swimming", ST, CategoryAthletic}, {"Acrobat", DX, CategoryAthletic},
		{"Pilot", DX, CategoryMilitary}, {"Gunner", DX, CategoryMilitary}, {"Navigation, Stellar", IQ, CategoryMilitary},
		{"Medic", IQ, CategoryTrades}, {"Equipment Operator", DX, CategoryTrades}, {"Knife", DX, CategoryCombat},
		{"Unarmed", DX, CategoryCombat}, {"Stealth", DX, CategorySurvival}, {"Locks", DX, CategoryThief},
		{"Streetwise", IQ, CategoryThief}, {"Charisma", IQ, CategorySocial},
	} {
		s, err := LookupSkill(Edition2021, r.name)
		if err != nil {
			t.Errorf("%s: %v", r.name, err)
			continue
		}
		if s.Attribute != r.at || s.Category != r.cat {
			t.Errorf("%s: %s/%s, want %s/%s", r.name, s.Attribute, s.Category, r.at, r.cat)
		}
	}
}

func TestLookupSkill(t *testing.T) {
	rows := []struct {
		ed       Edition
		in       string
		key      string
		name2010 string
		nameInEd string
		isCombat bool
	}{
		{Edition2010, "Spacecraft Pilot", "pilot", "Spacecraft Pilot", "Spacecraft Pilot", false},
		{Edition2021, "Spacecraft Pilot", "pilot", "Spacecraft Pilot", "Pilot", false},
		{Edition2010, "Pilot", "pilot", "Spacecraft Pilot", "Spacecraft Pilot", false},
		{Edition2020, "pilot", "pilot", "Spacecraft Pilot", "Pilot", false},
		{Edition2010, "Dagger", "knife", "Dagger", "Dagger", true},
		{Edition2021, "dagger", "knife", "Dagger", "Knife", true},
		{Edition2021, "Knife Fighting", "knife", "Dagger", "Knife", true},
		{Edition2010, "Rifle/SubMG", "rifle_smg", "Rifle/SubMG", "Rifle/SubMG", true},
		{Edition2021, "rifle/smg", "rifle_smg", "Rifle/SubMG", "Rifle/SMG", true},
		{Edition2010, "Weightlessness", "weightless_movement", "Weightlessness", "Weightlessness", false},
		{Edition2020, "Weightless  Movement", "weightless_movement", "Weightlessness", "Weightless Movement", false},
		{Edition2010, "Land Navigation", "navigation", "Land Navigation", "Land Navigation", false},
		{Edition2021, "Navigation", "navigation", "Land Navigation", "Navigation", false},
		{Edition2021, "Navigation, Stellar", "navigation_stellar", "", "Navigation, Stellar", false},
		{Edition2021, "navigation_stellar", "navigation_stellar", "", "Navigation, Stellar", false},
		{Edition2021, " NAVIGATION,STELLAR ", "navigation_stellar", "", "Navigation, Stellar", false},
		{Edition2010, "Navigation, Nautical", "navigation_nautical", "", "Navigation, Nautical", false},
		{Edition2021, "Unarmed Combat", "unarmed", "", "Unarmed", true},
		{Edition2021, "Herbalist", "botanist", "", "Botanist", false},
		{Edition2021, "Storytelling", "storyteller", "", "Storyteller", false},
		{Edition2020, "CLIMBING", "climbing", "", "Climbing", false},
		{"", "Medic", "medic", "", "Medic", false},
	}
	for _, r := range rows {
		t.Run(fmt.Sprintf("%s/%s", r.ed, r.in), func(t *testing.T) {
			s, err := LookupSkill(r.ed, r.in)
			if err != nil {
				t.Fatal(err)
			}
			ed := r.ed
			if ed == "" {
				ed = DefaultEdition
			}
			if s.Key != r.key || s.Name2010 != r.name2010 || s.NameIn(ed) != r.nameInEd || s.Combat() != r.isCombat {
				t.Errorf("got %+v (NameIn %q), want key %s, 2010 name %q, name %q, combat %v",
					s, s.NameIn(ed), r.key, r.name2010, r.nameInEd, r.isCombat)
			}
			if !s.In(ed) {
				t.Errorf("In(%s) = false", ed)
			}
		})
	}
}

func TestLookupSkillErrors(t *testing.T) {
	for _, r := range []struct {
		ed      Edition
		in, msg string
	}{
		{Edition2021, "Clmbing", `unknown skill "Clmbing"; did you mean "Climbing"?`},
		{Edition2021, " swiming ", `unknown skill "swiming"; did you mean "Swimming"?`},
		{Edition2010, "Spacecraft Pilto", `unknown skill "Spacecraft Pilto"; did you mean "Spacecraft Pilot"?`},
		{Edition2021, "Spacecraft Pilto", `unknown skill "Spacecraft Pilto"; did you mean "Pilot"?`},
		{Edition2021, "Knife Fightin", `unknown skill "Knife Fightin"; did you mean "Knife"?`},
		{Edition2021, "Basket Weaving", `unknown skill "Basket Weaving"`},
		// 2010 lacks Alertness, Naturalist and Storyteller.
		{Edition2010, "Storyteller", `Storyteller is not a skill in edition 2010`},
		{Edition2010, "Alertness", `Alertness is not a skill in edition 2010`},
		{Edition2010, "naturalist", `Naturalist is not a skill in edition 2010`},
		{Edition2010, "Storytellr", `unknown skill "Storytellr"`},
		{Edition2021, "", `missing skill name; name a skill such as Climbing or Medic`},
		// A weapon or armour where a skill goes: say what it is.
		{Edition2021, "Handgun", `unknown skill "Handgun": the Handgun is a weapon; did you mean the Pistol skill, which adds to it?`},
		{Edition2010, "fire axe", `unknown skill "fire axe": the Fire Axe is a weapon; did you mean the Axe skill, which adds to it?`},
		{Edition2021, "Cutlass", `unknown skill "Cutlass": the Cutlass is a weapon, and no skill adds to it`},
		{Edition2021, "Flak Vest", `unknown skill "Flak Vest": the Flak Vest is armour, not a skill`},
		// A name cut short finds the one skill it begins.
		{Edition2021, "Zoolo", `unknown skill "Zoolo"; did you mean "Zoologist"?`},
		// Several skills begin "Navig": no guess.
		{Edition2021, "Navig", `unknown skill "Navig"`},
		{"2019", "Medic", `unknown edition "2019": choose 2010, 2020 or 2021`},
	} {
		_, err := LookupSkill(r.ed, r.in)
		wantError(t, err, CodeInvalid, r.msg)
	}
	for _, ed := range []Edition{Edition2020, Edition2021} {
		for _, n := range []string{"Storyteller", "Alertness", "Naturalist"} {
			if _, err := LookupSkill(ed, n); err != nil {
				t.Errorf("%s in %s: %v", n, ed, err)
			}
		}
	}
}

func TestParseSkillLevel(t *testing.T) {
	for _, r := range []struct {
		in    string
		key   string
		level int
	}{
		{"Unarmed:2", "unarmed", 2},
		{"Medic:2", "medic", 2},
		{"Medic", "medic", 1},
		{"Navigation, Stellar:1", "navigation_stellar", 1},
		{" Knife : 1 ", "knife", 1},
		{"Unarmed Combat:2", "unarmed", 2},
		{"Climbing:20", "climbing", 20},
	} {
		sl, err := ParseSkillLevel(Edition2021, r.in)
		if err != nil {
			t.Errorf("ParseSkillLevel(%q): %v", r.in, err)
			continue
		}
		if sl.Skill.Key != r.key || sl.Level != r.level {
			t.Errorf("ParseSkillLevel(%q) = %s %d", r.in, sl.Skill.Key, sl.Level)
		}
	}
	for _, r := range []struct{ in, msg string }{
		{"Medic:0", `bad skill "Medic:0": level "0" is not a whole number from 1 to 20`},
		{"Medic:21", `bad skill "Medic:21": level "21" is not a whole number from 1 to 20`},
		{"Medic:x", `bad skill "Medic:x": level "x" is not a whole number from 1 to 20`},
		{"Medic:-1", `bad skill "Medic:-1": level "-1" is not a whole number from 1 to 20`},
		{"Medic:", `bad skill "Medic:": missing level after ':'; write it as Medic:2`},
		{":2", `bad skill ":2": missing skill name; write it as Medic:2`},
		{"", `bad skill "": missing skill name; write it as Medic:2`},
		{"Medik:2", `unknown skill "Medik"; did you mean "Medic"?`},
	} {
		_, err := ParseSkillLevel(Edition2021, r.in)
		wantError(t, err, CodeInvalid, r.msg)
	}
	_, err := ParseSkillLevel(Edition2010, "Storyteller:1")
	wantError(t, err, CodeInvalid, "Storyteller is not a skill in edition 2010")
	if s := (SkillLevel{Skill: mustSkill(t, "Medic"), Level: 2}).String(); s != "Medic:2" {
		t.Errorf("String() = %q", s)
	}
}

func mustSkill(t *testing.T, name string) Skill {
	t.Helper()
	s, err := LookupSkill(Edition2021, name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// parseSmallUint reads plain digits up to 1,000,000, where every count and
// level the rules take is far smaller; past that is no number.
func TestParseSmallUint(t *testing.T) {
	for _, r := range []struct {
		in   string
		n    int
		isOK bool
	}{
		{"0", 0, true}, {"09", 9, true}, {"1000000", 1_000_000, true},
		{"1000001", 0, false}, {"99999999999999999999", 0, false},
		{"", 0, false}, {"+1", 0, false}, {"-1", 0, false}, {" 1", 0, false}, {"1a", 0, false}, {"/", 0, false}, {":", 0, false},
	} {
		if n, ok := parseSmallUint(r.in); n != r.n || ok != r.isOK {
			t.Errorf("parseSmallUint(%q) = %d, %v; want %d, %v", r.in, n, ok, r.n, r.isOK)
		}
	}
}
