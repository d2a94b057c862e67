package rules

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// All editions, "Fatigue": "A character recovers one fatigue point after
// each encounter, and all his fatigue with a full night of sleep."
func TestFatigueRecovery(t *testing.T) {
	rows := []struct {
		b                Body
		encounter, sleep int
	}{
		{Body{ST: 10}, 0, 0},
		{Body{ST: 10, Fatigue: 1}, 1, 1},
		{Body{ST: 10, Fatigue: 7, Damage: 2}, 1, 7},
	}
	for _, r := range rows {
		if got := FatigueAfterEncounter(r.b); got != r.encounter {
			t.Errorf("FatigueAfterEncounter(%+v) = %d, want %d", r.b, got, r.encounter)
		}
		if got := FatigueAfterSleep(r.b); got != r.sleep {
			t.Errorf("FatigueAfterSleep(%+v) = %d, want %d", r.b, got, r.sleep)
		}
	}
}

func TestRestConditionsMissing(t *testing.T) {
	all := RestConditions{StayedPut: true, Sheltered: true, Provisioned: true, NoStrenuous: true}
	if !all.All() || all.Missing() != nil {
		t.Errorf("all conditions: All %v, Missing %v", all.All(), all.Missing())
	}
	want := []string{"remained in one location", "adequate shelter", "fully provisioned", "no combat or strenuous activity"}
	if got := (RestConditions{}).Missing(); !slices.Equal(got, want) {
		t.Errorf("Missing = %v", got)
	}
}

func TestRestHealing(t *testing.T) {
	ok := RestConditions{StayedPut: true, Sheltered: true, Provisioned: true, NoStrenuous: true}
	noShelter := ok
	noShelter.Sheltered = false
	rows := []struct {
		name     string
		editions []Edition
		b        Body
		days     int
		before   int
		cond     RestConditions
		healed   int
		after    int
		note     string
	}{
		// 2020/2021 "Recovery": "one damage per day of rest".
		{"3 valid days heal 3", []Edition{Edition2020, Edition2021}, Body{ST: 11, Damage: 5}, 3, 0, ok, 3, 3,
			`3 days of rest heal 3 damage (edition {ed} "Recovery": one damage per day of rest)`},
		{"no more than the damage", []Edition{Edition2020, Edition2021}, Body{ST: 11, Damage: 2}, 3, 4, ok, 2, 7,
			`3 days of rest heal 2 damage, all there was (edition {ed} "Recovery": one damage per day of rest)`},
		{"nothing to heal", []Edition{Edition2021}, Body{ST: 11}, 1, 0, ok, 0, 1,
			`1 day of rest heals nothing: there is no damage to heal (edition 2021 "Recovery": one damage per day of rest)`},
		{"a missing condition heals nothing and resets", []Edition{Edition2010, Edition2020, Edition2021}, Body{ST: 11, Damage: 5}, 3, 5, noShelter, 0, 0,
			`3 days of rest heal nothing: a day of rest counts only with all four conditions, and these were missing: adequate shelter (edition {ed} "Recovery")`},
		// 2010 "Recovery": "a character fully recovers in a week".
		{"2010: 3 days heal nothing", []Edition{Edition2010}, Body{ST: 11, Damage: 5, Fatigue: 2}, 3, 0, ok, 0, 3,
			`3 days of rest make 3 of the 7 in a row a full recovery needs: nothing heals yet (edition 2010 "Recovery": fully recovers in a week)`},
		{"2010: 3 more days still nothing", []Edition{Edition2010}, Body{ST: 11, Damage: 5, Fatigue: 2}, 3, 3, ok, 0, 6,
			`3 days of rest make 6 of the 7 in a row a full recovery needs: nothing heals yet (edition 2010 "Recovery": fully recovers in a week)`},
		{"2010: the 7th day heals everything", []Edition{Edition2010}, Body{ST: 11, Damage: 5, Fatigue: 2}, 1, 6, ok, 5, 0,
			`1 day of rest completes 7 in a row: a full recovery, 5 damage healed and all fatigue gone (edition 2010 "Recovery": fully recovers in a week)`},
		{"2010: 3 then 4 days", []Edition{Edition2010}, Body{ST: 11, Damage: 9}, 4, 3, ok, 9, 0,
			`4 days of rest complete 7 in a row: a full recovery, 9 damage healed and all fatigue gone (edition 2010 "Recovery": fully recovers in a week)`},
		{"2010: a whole week at once", []Edition{Edition2010}, Body{ST: 11, Damage: 9}, 7, 0, ok, 9, 0, ""},
		{"no days", []Edition{Edition2010, Edition2021}, Body{ST: 11, Damage: 9}, 0, 2, ok, 0, 2, "no days of rest"},
	}
	for _, r := range rows {
		for _, ed := range r.editions {
			t.Run(fmt.Sprintf("%s/%s", ed, r.name), func(t *testing.T) {
				healed, after, note := RestHealing(ed, r.b, r.days, r.before, r.cond)
				want := strings.ReplaceAll(r.note, "{ed}", string(ed))
				if healed != r.healed || after != r.after || (r.note != "" && note != want) {
					t.Errorf("RestHealing = %d, %d, %q\n                 want %d, %d, %q", healed, after, note, r.healed, r.after, want)
				}
			})
		}
	}
}

func TestCanRestAndFullRecovery(t *testing.T) {
	if err := CanRest("Hector", false); err != nil {
		t.Errorf("CanRest: %v", err)
	}
	wantError(t, CanRest("Hector", true), CodeRule, "Hector is dead and cannot rest")
	// All editions, "Recovery": "Between adventures, characters recover
	// fully."
	if got := FullRecovery(Body{ST: 11, Damage: 9, Fatigue: 2}); got != (Body{ST: 11}) {
		t.Errorf("FullRecovery = %+v", got)
	}
}
