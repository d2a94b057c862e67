package rules

import (
	"fmt"
	"testing"
)

func TestValidateNewCharacterProblems(t *testing.T) {
	sk := func(ed Edition, name string, level int) SkillLevel {
		s, err := LookupSkill(ed, name)
		if err != nil {
			// Skills absent from ed are looked up in the default edition.
			s, err = LookupSkill(DefaultEdition, name)
			if err != nil {
				t.Fatal(err)
			}
		}
		return SkillLevel{Skill: s, Level: level}
	}
	ajax := Attributes{ST: 12, DX: 11, IQ: 9}
	for _, ed := range Editions() {
		rows := []struct {
			name   string
			a      Attributes
			skills []SkillLevel
			msg    string
		}{
			{"Ajax", Attributes{ST: 12, DX: 11, IQ: 10}, nil,
				"cannot create Ajax: 33 attribute points, a new character has exactly 32 (ST8 DX8 IQ8 + 8 discretionary)"},
			{"Ajax", Attributes{ST: 12, DX: 10, IQ: 9}, nil,
				"cannot create Ajax: 31 attribute points, a new character has exactly 32 (ST8 DX8 IQ8 + 8 discretionary)"},
			{"Ajax", ajax, []SkillLevel{sk(ed, "Unarmed", 2), sk(ed, "Knife", 1)},
				"cannot create Ajax: 3 combat skill points (Unarmed 2, " + sk(ed, "Knife", 1).Skill.NameIn(ed) + " 1), at most 2"},
			{"Ajax", ajax, []SkillLevel{sk(ed, "Medic", 2), sk(ed, "Climbing", 2), sk(ed, "Swimming", 1)},
				"cannot create Ajax: 5 skill points, at most 4"},
			{"Ajax", ajax, []SkillLevel{sk(ed, "Medic", 1), sk(ed, "medic", 1)},
				"cannot create Ajax: Medic is listed twice"},
			{"Ajax", ajax, []SkillLevel{sk(ed, "Medic", 0)},
				"cannot create Ajax: Medic 0 is not a skill level (1 or more)"},
			{"Ajax", ajax, []SkillLevel{{Skill: Skill{Key: "basket_weaving", Name: "Basket Weaving"}, Level: 1}},
				`cannot create Ajax: "Basket Weaving" is not a known skill`},
		}
		for i, r := range rows {
			t.Run(fmt.Sprintf("%s/%d", ed, i), func(t *testing.T) {
				wantError(t, ValidateNewCharacter(ed, r.name, r.a, r.skills), CodeRule, r.msg)
			})
		}
	}
	// 2010 has no Storyteller.
	story := sk(Edition2021, "Storyteller", 1)
	wantError(t, ValidateNewCharacter(Edition2010, "Ajax", ajax, []SkillLevel{story}), CodeRule,
		"cannot create Ajax: Storyteller is not a skill in edition 2010")
	if err := ValidateNewCharacter(Edition2021, "Ajax", ajax, []SkillLevel{story}); err != nil {
		t.Errorf("Storyteller in 2021: %v", err)
	}
	// Exactly four points, two of them combat, is fine.
	full := []SkillLevel{sk(Edition2021, "Unarmed", 1), sk(Edition2021, "Knife", 1), sk(Edition2021, "Medic", 2)}
	if err := ValidateNewCharacter(Edition2021, "Ajax", ajax, full); err != nil {
		t.Errorf("four points, two combat: %v", err)
	}
	wantError(t, ValidateNewCharacter(Edition2021, "  ", ajax, nil), CodeInvalid, "a character needs a name")
	wantError(t, ValidateNewCharacter("1999", "Ajax", ajax, nil), CodeInvalid, `unknown edition "1999": choose 2010, 2020 or 2021`)
}

func TestParseAttributeValue(t *testing.T) {
	for _, r := range []struct {
		in   string
		want int
	}{{"8", 8}, {" 12 ", 12}, {"16", 16}, {"42", 42}} {
		got, err := ParseAttributeValue(r.in)
		if err != nil || got != r.want {
			t.Errorf("ParseAttributeValue(%q) = %d, %v", r.in, got, err)
		}
	}
	for _, r := range []struct{ in, msg string }{
		{"7", "7 is below the minimum of 8"},
		{"-3", "-3 is below the minimum of 8"},
		{"x", `"x" is not a whole number; attributes are whole numbers of 8 or more`},
		{"", `"" is not a whole number; attributes are whole numbers of 8 or more`},
		{"12.5", `"12.5" is not a whole number; attributes are whole numbers of 8 or more`},
		{"99999999999999999999", `"99999999999999999999" is far too large for an attribute`},
	} {
		_, err := ParseAttributeValue(r.in)
		wantError(t, err, CodeInvalid, r.msg)
	}
}

func TestCreationPointsLeft(t *testing.T) {
	for _, r := range []struct {
		a    Attributes
		want int
	}{{Attributes{8, 8, 8}, 8}, {Attributes{12, 11, 9}, 0}, {Attributes{12, 11, 10}, -1}} {
		if got := CreationPointsLeft(r.a); got != r.want {
			t.Errorf("CreationPointsLeft(%+v) = %d, want %d", r.a, got, r.want)
		}
	}
}
