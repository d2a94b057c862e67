package rules

import (
	"fmt"
	"testing"
)

func TestAttributePricePerEdition(t *testing.T) {
	for _, r := range []struct {
		ed      Edition
		current int
		xp      int
		formula string
	}{
		{Edition2010, 8, 9, "next level = 9"},
		{Edition2010, 13, 14, "next level = 14"},
		{Edition2020, 8, 14, "next level + 5 = 9 + 5"},
		{Edition2020, 12, 18, "next level + 5 = 13 + 5"},
		{Edition2021, 8, 14, "current level + 6 = 8 + 6"},
		{Edition2021, 12, 18, "current level + 6 = 12 + 6"},
		{"", 12, 18, "current level + 6 = 12 + 6"},
	} {
		p := AttributePrice(r.ed, r.current)
		if p.XP != r.xp || p.Formula != r.formula || !p.Edition.Valid() {
			t.Errorf("AttributePrice(%q, %d) = %+v, want %d %q", r.ed, r.current, p, r.xp, r.formula)
		}
	}
	// 2020 ("next level + 5") and 2021 ("current level + 6") always agree in
	// price; 2010 is five cheaper.
	for cur := 8; cur <= 20; cur++ {
		a, b, c := AttributePrice(Edition2010, cur), AttributePrice(Edition2020, cur), AttributePrice(Edition2021, cur)
		if b.XP != c.XP || a.XP != b.XP-5 {
			t.Errorf("level %d: 2010 %d, 2020 %d, 2021 %d", cur, a.XP, b.XP, c.XP)
		}
	}
}

func TestAfford(t *testing.T) {
	_, err := Afford("Ajax", "raise ST to 13", 12, AttributePrice(Edition2021, 12))
	wantError(t, err, CodeRule, "cannot raise ST to 13: costs 18 XP, Ajax has 12 (edition 2021: current level + 6 = 12 + 6)")
	left, err := Afford("Ajax", "raise ST to 13", 18, AttributePrice(Edition2021, 12))
	if err != nil || left != 0 {
		t.Errorf("Afford exact = %d, %v", left, err)
	}
}

func TestCheckAttributeRaise(t *testing.T) {
	at42 := Attributes{ST: 14, DX: 14, IQ: 14}
	at41 := Attributes{ST: 13, DX: 14, IQ: 14}
	// 2020 "Increasing Attributes": "Human characters max out at 42 attribute points."
	wantError(t, CheckAttributeRaise(Edition2020, "Ajax", Attributes{ST: 12, DX: 15, IQ: 15}, ST), CodeRule,
		"cannot raise Ajax's ST to 13: 43 attribute points would pass the human maximum of 42 (edition 2020)")
	wantError(t, CheckAttributeRaise(Edition2020, "Ajax", at42, IQ), CodeRule,
		"cannot raise Ajax's IQ to 15: 43 attribute points would pass the human maximum of 42 (edition 2020)")
	if err := CheckAttributeRaise(Edition2020, "Ajax", at41, ST); err != nil {
		t.Errorf("41 → 42 in 2020: %v", err)
	}
	for _, ed := range []Edition{Edition2010, Edition2021} {
		if err := CheckAttributeRaise(ed, "Ajax", at42, ST); err != nil {
			t.Errorf("%s has no cap: %v", ed, err)
		}
	}
	wantError(t, CheckAttributeRaise(Edition2021, "Ajax", at42, "SX"), CodeInvalid, `unknown attribute "SX": use ST, DX or IQ`)
}

func TestCheckSkillPurchase(t *testing.T) {
	rows := []struct {
		ed      Edition
		skill   string
		current int
		between bool
		code    Code
		msg     string
	}{
		// New skills: only between adventures, in every edition.
		{Edition2010, "Dagger", 0, true, "", ""},
		{Edition2010, "Dagger", 0, false, CodeRule, "Ajax cannot learn Dagger during an adventure: new skills are learned only between adventures"},
		{Edition2020, "Knife", 0, false, CodeRule, "Ajax cannot learn Knife during an adventure: new skills are learned only between adventures"},
		{Edition2021, "Knife", 0, false, CodeRule, "Ajax cannot learn Knife during an adventure: new skills are learned only between adventures"},
		{Edition2021, "Knife", 0, true, "", ""},
		// Raising a known skill: 2010 only between adventures; 2020/2021 any time.
		{Edition2010, "Knife", 1, false, CodeRule, "Ajax cannot raise Dagger during an adventure: in edition 2010 skills are bought only between adventures"},
		{Edition2010, "Knife", 1, true, "", ""},
		{Edition2020, "Knife", 1, false, "", ""},
		{Edition2021, "Medic", 2, false, "", ""},
		// Limits.
		{Edition2021, "Medic", 20, true, CodeRule, "Ajax's Medic is already 20, the highest level ltscamp records"},
		{Edition2021, "Medic", -1, true, CodeInvalid, "Ajax's Medic level -1 is negative"},
		{Edition2010, "Storyteller", 0, true, CodeInvalid, "Storyteller is not a skill in edition 2010"},
	}
	for _, r := range rows {
		t.Run(fmt.Sprintf("%s/%s/%d/%v", r.ed, r.skill, r.current, r.between), func(t *testing.T) {
			s, err := LookupSkill(DefaultEdition, r.skill)
			if err != nil {
				t.Fatal(err)
			}
			err = CheckSkillPurchase(r.ed, "Ajax", s, r.current, r.between)
			if r.code == "" {
				if err != nil {
					t.Errorf("got %v, want nil", err)
				}
				return
			}
			wantError(t, err, r.code, r.msg)
		})
	}
}
