package rules

import (
	"fmt"
	"testing"
)

// Example 8: Ajax (ST11) takes 6 then 5 damage: 11 ≥ ST11, incapacitated;
// unless healed to damage ≤ 10 when combat ends, he dies; 22 damage would
// be unrecoverable. Every edition ("INJURY & EXHAUSTION" is the same text in
// each; 2021's short "DEATH" paragraph is overridden by it).
func TestExample8Injury(t *testing.T) {
	for _, ed := range Editions() {
		t.Run(fmt.Sprintf("example8/%s", ed), func(t *testing.T) {
			ajax := Body{ST: 11}
			ajax = AddDamage(ajax, 6)
			if ajax.Incapacitated() || ajax.MortallyWounded() {
				t.Errorf("after 6 damage: %+v is %s", ajax, ajax.Condition())
			}
			ajax = AddDamage(ajax, 5)
			if ajax.Damage != 11 || !ajax.Incapacitated() || !ajax.MortallyWounded() || ajax.Unrecoverable() {
				t.Errorf("after 6 then 5: %+v is %s", ajax, ajax.Condition())
			}
			if dies, cause := EndOfCombat(ajax); !dies || cause != "not healed to a net ST of 1 when combat ended" {
				t.Errorf("EndOfCombat(11 damage) = %v, %q", dies, cause)
			}
			// Healed to 10, a net ST of 1: he lives.
			if dies, cause := EndOfCombat(Body{ST: 11, Damage: 10}); dies || cause != "" {
				t.Errorf("EndOfCombat(10 damage) = %v, %q", dies, cause)
			}
			if dies, _ := EndOfCombat(Body{ST: 11, Damage: 21}); !dies || (Body{ST: 11, Damage: 21}).Unrecoverable() {
				t.Error("21 damage: dies, but is not unrecoverable")
			}
			dead := AddDamage(ajax, 11)
			if !dead.Unrecoverable() || dead.Condition() != "unrecoverable" {
				t.Errorf("22 damage: %+v is %s", dead, dead.Condition())
			}
			if dies, cause := EndOfCombat(dead); !dies || cause != "unrecoverable" {
				t.Errorf("EndOfCombat(22 damage) = %v, %q", dies, cause)
			}
		})
	}
}

func TestBodyStates(t *testing.T) {
	rows := []struct {
		b                            Body
		incap, mortal, unrecoverable bool
		condition                    string
	}{
		{Body{ST: 10}, false, false, false, "unhurt"},
		{Body{ST: 10, Fatigue: 2}, false, false, false, "hurt"},
		{Body{ST: 10, Damage: 4, Fatigue: 6}, true, false, false, "incapacitated"},
		{Body{ST: 10, Fatigue: 10}, true, false, false, "incapacitated"},
		{Body{ST: 10, Damage: 10}, true, true, false, "mortally wounded"},
		{Body{ST: 10, Damage: 19, Fatigue: 1}, true, true, false, "mortally wounded"},
		{Body{ST: 10, Damage: 20}, true, true, true, "unrecoverable"},
	}
	for _, r := range rows {
		if r.b.Incapacitated() != r.incap || r.b.MortallyWounded() != r.mortal || r.b.Unrecoverable() != r.unrecoverable || r.b.Condition() != r.condition {
			t.Errorf("%+v: got %v %v %v %q", r.b, r.b.Incapacitated(), r.b.MortallyWounded(), r.b.Unrecoverable(), r.b.Condition())
		}
	}
}

// All editions, "Fatigue": "A fatigue point dealt to an incapacitated
// character is a damage point", point by point.
func TestAddFatigue(t *testing.T) {
	rows := []struct {
		name      string
		b         Body
		points    int
		want      Body
		converted int
	}{
		{"plain fatigue", Body{ST: 10, Damage: 2}, 3, Body{ST: 10, Damage: 2, Fatigue: 3}, 0},
		{"the point that incapacitates is fatigue", Body{ST: 10, Damage: 5, Fatigue: 4}, 1, Body{ST: 10, Damage: 5, Fatigue: 5}, 0},
		{"a batch crossing the threshold", Body{ST: 10, Fatigue: 8}, 4, Body{ST: 10, Damage: 2, Fatigue: 10}, 2},
		{"a batch crossing with damage", Body{ST: 10, Damage: 5, Fatigue: 4}, 3, Body{ST: 10, Damage: 7, Fatigue: 5}, 2},
		{"incapacitated by damage: all damage", Body{ST: 10, Damage: 10}, 3, Body{ST: 10, Damage: 13}, 3},
		{"incapacitated by fatigue: all damage", Body{ST: 11, Damage: 1, Fatigue: 10}, 2, Body{ST: 11, Damage: 3, Fatigue: 10}, 2},
		{"no points", Body{ST: 10, Fatigue: 8}, 0, Body{ST: 10, Fatigue: 8}, 0},
		{"negative points", Body{ST: 10, Fatigue: 8}, -3, Body{ST: 10, Fatigue: 8}, 0},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			got, converted := AddFatigue(r.b, r.points)
			if got != r.want || converted != r.converted {
				t.Errorf("AddFatigue(%+v, %d) = %+v, %d; want %+v, %d", r.b, r.points, got, converted, r.want, r.converted)
			}
		})
	}
	if got := AddDamage(Body{ST: 10, Damage: 2}, -1); got.Damage != 2 {
		t.Errorf("AddDamage with negative points = %+v", got)
	}
}

// medicRoll rolls the edition's medic check for a medic with IQ 9 and the
// given Medic level.
func medicRoll(t *testing.T, ed Edition, level int, faces ...int) CheckOutcome {
	t.Helper()
	out, err := ResolveCheck(CheckInput{Edition: ed, Expr: MedicCheck(ed), AttributeValue: 9, SkillName: "Medic", SkillLevel: level}, NewGivenFaces(faces))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestMedicCheck(t *testing.T) {
	if got := MedicCheck(Edition2010).String(); got != "3/IQ+Medic" {
		t.Errorf("MedicCheck(2010) = %s", got)
	}
	for _, ed := range []Edition{Edition2020, Edition2021} {
		if got := MedicCheck(ed).String(); got != "3/IQ" {
			t.Errorf("MedicCheck(%s) = %s", ed, got)
		}
	}
	// Ajax IQ9 Medic 2 rolls 10: a pass in 2010 (target 11), a failure in
	// 2020/2021 (target 9).
	if !medicRoll(t, Edition2010, 2, 3, 3, 4).Pass || medicRoll(t, Edition2021, 2, 3, 3, 4).Pass {
		t.Error("medic check targets are wrong")
	}
}

// All editions, Medic: "heal one damage point per medic level for damage
// sustained in current combat on 3/IQ. Used after combat is over. Can be
// used across multiple characters."
func TestMedicHeal(t *testing.T) {
	for _, ed := range Editions() {
		pass := medicRoll(t, ed, 2, 3, 3, 3)
		fail := medicRoll(t, ed, 2, 6, 6, 5)
		rows := []struct {
			name          string
			check         CheckOutcome
			patient       string
			level         int
			taken, healed int
			points        int
			note          string
		}{
			{"pass heals the level", pass, "Hector", 2, 3, 0, 2, ""},
			{"pass heals no more than this combat's damage", pass, "Hector", 2, 1, 0, 1, ""},
			{"a second medic heals what is left", pass, "Hector", 2, 3, 2, 1, ""},
			{"across patients: the same medic treats Ajax", pass, "Ajax", 2, 4, 0, 2, ""},
			{"failure heals nothing", fail, "Hector", 2, 3, 0, 0,
				fmt.Sprintf("Medea fails the medic check (total 17 against %d): Hector heals nothing", fail.Target)},
		}
		for _, r := range rows {
			t.Run(fmt.Sprintf("%s/%s", ed, r.name), func(t *testing.T) {
				h, err := MedicHeal(ed, "Medea", r.level, r.check, r.patient, r.taken, r.healed)
				if err != nil {
					t.Fatal(err)
				}
				if h.Points != r.points || h.Note == "" || (r.note != "" && h.Note != r.note) {
					t.Errorf("MedicHeal = %+v; want %d points, note %q", h, r.points, r.note)
				}
			})
		}
		t.Run(fmt.Sprintf("%s/note", ed), func(t *testing.T) {
			h, _ := MedicHeal(ed, "Medea", 2, pass, "Hector", 3, 0)
			want := fmt.Sprintf("Medea (Medic 2) passes the medic check (total 9 against %d) and heals 2 of Hector's 3 damage from this combat", pass.Target)
			if h.Note != want {
				t.Errorf("Note = %q\n        want %q", h.Note, want)
			}
			h, _ = MedicHeal(ed, "Medea", 2, pass, "Hector", 3, 2)
			want = fmt.Sprintf("Medea (Medic 2) passes the medic check (total 9 against %d) and heals 1 of Hector's 1 damage from this combat still unhealed", pass.Target)
			if h.Note != want {
				t.Errorf("Note = %q\n        want %q", h.Note, want)
			}
		})
		t.Run(fmt.Sprintf("%s/refusals", ed), func(t *testing.T) {
			_, err := MedicHeal(ed, "Medea", 2, pass, "Hector", 3, 3)
			wantError(t, err, CodeRule, "Hector has no damage from this combat left for a medic to heal (damage from earlier combats cannot be)")
			_, err = MedicHeal(ed, "Medea", 2, pass, "Hector", 0, 0)
			wantError(t, err, CodeRule, "Hector has no damage from this combat left for a medic to heal (damage from earlier combats cannot be)")
			_, err = MedicHeal(ed, "Ajax", 0, pass, "Hector", 3, 0)
			wantError(t, err, CodeRule, "Ajax has no Medic skill: a medic heals one damage point per Medic level")
			_, err = MedicHeal(ed, "Medea", 2, pass, "Hector", 3, 4)
			wantError(t, err, CodeInvalid, "Hector had 4 damage healed of the 3 taken this combat: more than he took")
			_, err = MedicHeal(ed, "Medea", -1, pass, "Hector", 3, 0)
			wantError(t, err, CodeInvalid, "Medea's Medic level -1 is negative")
			_, err = MedicHeal(ed, "Medea", 2, pass, "Hector", -3, 0)
			wantError(t, err, CodeInvalid, "Hector's damage this combat -3 is negative")
		})
	}
	_, err := MedicHeal("1999", "Medea", 2, CheckOutcome{Pass: true}, "Hector", 3, 0)
	wantError(t, err, CodeInvalid, `unknown edition "1999": choose 2010, 2020 or 2021`)
}

// The books are silent on repeat treatments; ltscamp allows one per medic
// per patient per combat, after a pass or a failure.
func TestMedicMayTreat(t *testing.T) {
	if err := MedicMayTreat("Medea", "Hector", false); err != nil {
		t.Errorf("first treatment: %v", err)
	}
	wantError(t, MedicMayTreat("Medea", "Hector", true), CodeRule,
		"Medea has already treated Hector after this combat: a medic treats each patient once per combat (he heals one point per Medic level, on one 3/IQ)")
	if left, err := MedicRemaining("Hector", 5, 2); err != nil || left != 3 {
		t.Errorf("MedicRemaining = %d, %v", left, err)
	}
}
