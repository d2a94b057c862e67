package rules

import (
	"fmt"
	"testing"
)

// 2020/2021 "Karma/Wish": "A character expends a wish to fully revive, even
// if he was just killed"; 2010: "to negate all damage, even if he was just
// killed".
func TestUseWish(t *testing.T) {
	later := []Edition{Edition2020, Edition2021}
	rows := []struct {
		name     string
		editions []Edition
		b        Body
		dead     bool
		want     WishEffect // Rule is checked separately
		msg      string     // a CodeRule refusal
	}{
		{"hurt: fully revived", later, Body{ST: 11, Damage: 5, Fatigue: 2}, false, WishEffect{DamageTo: 0, FatigueTo: 0}, ""},
		{"just killed: revived", later, Body{ST: 11, Damage: 11, Fatigue: 3}, true, WishEffect{Revives: true}, ""},
		{"unrecoverable: revived", later, Body{ST: 11, Damage: 25}, true, WishEffect{Revives: true}, ""},
		{"fatigue only: refreshed", later, Body{ST: 11, Fatigue: 4}, false, WishEffect{}, ""},
		{"unhurt: refused", later, Body{ST: 11}, false, WishEffect{}, "Ajax is unhurt: a wish would do nothing"},
		{"hurt: damage negated, fatigue stays", []Edition{Edition2010}, Body{ST: 11, Damage: 5, Fatigue: 2}, false, WishEffect{FatigueTo: 2}, ""},
		{"just killed: revived", []Edition{Edition2010}, Body{ST: 11, Damage: 12, Fatigue: 1}, true, WishEffect{Revives: true, FatigueTo: 1}, ""},
		{"fatigue only: refused", []Edition{Edition2010}, Body{ST: 11, Fatigue: 4}, false, WishEffect{},
			"Ajax has no damage: a wish would do nothing (edition 2010: a wish negates damage, not fatigue)"},
		{"unhurt: refused", []Edition{Edition2010}, Body{ST: 11}, false, WishEffect{}, "Ajax is unhurt: a wish would do nothing"},
	}
	for _, r := range rows {
		for _, ed := range r.editions {
			t.Run(fmt.Sprintf("%s/%s", ed, r.name), func(t *testing.T) {
				got, err := UseWish(ed, "Ajax", r.b, r.dead)
				if r.msg != "" {
					wantError(t, err, CodeRule, r.msg)
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				want := r.want
				want.Rule = fmt.Sprintf(`edition %s "Karma/Wish": "A character expends a wish to fully revive, even if he was just killed"`, ed)
				if ed == Edition2010 {
					want.Rule = `edition 2010 "Karma/Wish": "A character expends a wish to negate all damage, even if he was just killed"`
				}
				if got != want {
					t.Errorf("UseWish = %+v\n    want %+v", got, want)
				}
			})
		}
	}
	_, err := UseWish(Edition2021, "Ajax", Body{ST: 11, Damage: -1}, false)
	wantError(t, err, CodeInvalid, "Ajax's damage -1 and fatigue 0 cannot be negative")
	_, err = UseWish("2030", "Ajax", Body{ST: 11, Damage: 1}, false)
	wantError(t, err, CodeInvalid, `unknown edition "2030": choose 2010, 2020 or 2021`)
}
