package rules

import (
	"reflect"
	"testing"
)

func TestDamageMinimum(t *testing.T) {
	// 2020/2021 "Damage (D)": "(minimum of one)"; 2010 states none.
	for ed, want := range map[Edition]int{Edition2010: 0, Edition2020: 1, Edition2021: 1, "": 1} {
		if got := DamageMinimum(ed); got != want {
			t.Errorf("DamageMinimum(%q) = %d, want %d", ed, got, want)
		}
	}
}

func TestResolveDamage(t *testing.T) {
	rows := []struct {
		name    string
		ed      Edition
		expr    string
		curses  int
		faces   []int
		raw     int
		total   int
		minimum bool
		mods    []Modifier
		note    string
	}{
		{"unarmed d3", Edition2021, "d3", 0, []int{2}, 2, 2, false, nil, ""},
		{"fire axe d6+3", Edition2020, "d6+3", 0, []int{4}, 7, 7, false, []Modifier{{"modifier", 3, AppliesTotal}}, ""},
		{"shotgun 3d6", Edition2010, "3d6", 0, []int{1, 2, 3}, 6, 6, false, nil, ""},
		{"curse ×1 on 2d6-1", Edition2021, "2d6-1", 1, []int{5, 2}, 5, 5, false,
			[]Modifier{{"modifier", -1, AppliesTotal}, {"curse ×1", -1, AppliesTotal}}, ""},
		{"cutlass 2d6-2 rolls 1,1 in 2021", Edition2021, "2d6-2", 0, []int{1, 1}, 0, 1, true,
			[]Modifier{{"modifier", -2, AppliesTotal}}, `0 raised to the minimum of 1 (edition 2021 "Damage (D)": minimum of one)`},
		{"cutlass 2d6-2 rolls 1,1 in 2020", Edition2020, "2d6-2", 0, []int{1, 1}, 0, 1, true,
			[]Modifier{{"modifier", -2, AppliesTotal}}, `0 raised to the minimum of 1 (edition 2020 "Damage (D)": minimum of one)`},
		{"cutlass 2D6-2 rolls 1,1 in 2010", Edition2010, "2D6-2", 0, []int{1, 1}, 0, 0, false,
			[]Modifier{{"modifier", -2, AppliesTotal}}, ""},
		{"curse ×3 on d3 in 2010 stops at 0", Edition2010, "d3", 3, []int{1}, -2, 0, true,
			[]Modifier{{"curse ×3", -3, AppliesTotal}}, "-2 raised to 0: damage cannot be negative (edition 2010 states no minimum)"},
		{"curse ×3 on d3 in 2021 deals 1", Edition2021, "d3", 3, []int{1}, -2, 1, true,
			[]Modifier{{"curse ×3", -3, AppliesTotal}}, `-2 raised to the minimum of 1 (edition 2021 "Damage (D)": minimum of one)`},
	}
	for _, r := range rows {
		t.Run(string(r.ed)+"/"+r.name, func(t *testing.T) {
			d, err := ParseDice(r.expr)
			if err != nil {
				t.Fatal(err)
			}
			out, err := ResolveDamage(r.ed, d, r.curses, NewGivenFaces(r.faces))
			if err != nil {
				t.Fatal(err)
			}
			if out.Raw != r.raw || out.Total != r.total || out.MinimumApplied != r.minimum || out.Note != r.note {
				t.Errorf("got %+v; want raw %d total %d minimum %v note %q", out, r.raw, r.total, r.minimum, r.note)
			}
			if !reflect.DeepEqual(out.Modifiers, r.mods) {
				t.Errorf("Modifiers = %+v, want %+v", out.Modifiers, r.mods)
			}
		})
	}
}

func TestResolveDamageErrors(t *testing.T) {
	_, err := ResolveDamage(Edition2021, DiceExpr{Count: 2, Sides: 7}, 0, NewGivenFaces([]int{1, 1}))
	wantError(t, err, CodeInvalid, `bad dice "2d7": only d3 and d6 are used in this game`)
	_, err = ResolveDamage(Edition2021, DiceExpr{Count: 1, Sides: 6}, -1, NewGivenFaces([]int{1}))
	wantError(t, err, CodeInvalid, "curse level -1 is negative")
	_, err = ResolveDamage("2030", DiceExpr{Count: 1, Sides: 6}, 0, NewGivenFaces([]int{1}))
	wantError(t, err, CodeInvalid, `unknown edition "2030": choose 2010, 2020 or 2021`)
	_, err = ResolveDamage(Edition2021, DiceExpr{Count: 2, Sides: 6}, 0, NewGivenFaces([]int{7, 1}))
	wantError(t, err, CodeInvalid, "face 7 is not on a d6 (1-6)")
}
