package rules

import (
	"math"
	"reflect"
	"slices"
	"testing"
)

func TestResolveCheck(t *testing.T) {
	plain := func(n int, at Attribute) CheckExpr { return CheckExpr{Dice: n, Attribute: at, Mode: CheckPlain} }
	assisted := func(at Attribute, skill string) CheckExpr {
		return CheckExpr{Dice: 3, Attribute: at, Skill: skill, Mode: CheckAssisted}
	}
	required := func(at Attribute, skill string) CheckExpr {
		return CheckExpr{Dice: 3, Attribute: at, Skill: skill, Mode: CheckRequired}
	}
	rows := []struct {
		name   string
		in     CheckInput
		faces  []int
		total  int
		target int
		pass   bool
		mods   []Modifier
		sixes  bool
		prob   float64
		unused int // faces left in the roller afterwards
	}{
		{
			name: "plain 3/ST pass on the target", in: CheckInput{Expr: plain(3, ST), AttributeValue: 12},
			faces: []int{6, 4, 2}, total: 12, target: 12, pass: true, prob: 160.0 / 216,
		},
		{
			name: "plain 3/IQ fail by one", in: CheckInput{Expr: plain(3, IQ), AttributeValue: 9},
			faces: []int{4, 4, 2}, total: 10, target: 9, pass: false, prob: 81.0 / 216,
		},
		{
			name: "4/DX rolls four dice", in: CheckInput{Expr: plain(4, DX), AttributeValue: 11},
			faces: []int{1, 2, 3, 4}, total: 10, target: 11, pass: true, prob: 310.0 / 1296,
		},
		{
			// "if he has Climbing 3, he adds 3 to his ST for this roll"
			name:  "assisted 3/ST+Climbing with Climbing 3",
			in:    CheckInput{Expr: assisted(ST, "Climbing"), AttributeValue: 12, SkillName: "Climbing", SkillLevel: 3},
			faces: []int{6, 5, 4}, total: 15, target: 15, pass: true,
			mods: []Modifier{{"skill Climbing", 3, AppliesTarget}}, prob: 206.0 / 216,
		},
		{
			// "He can attempt the climb even if he lacks the CLIMBING skill"
			name:  "assisted 3/ST+Climbing without the skill",
			in:    CheckInput{Expr: assisted(ST, "Climbing"), AttributeValue: 12, SkillName: "Climbing"},
			faces: []int{6, 5, 4}, total: 15, target: 12, pass: false, prob: 160.0 / 216,
		},
		{
			// 2010 "SKILLS": "Ajax (ST12 Swimming+1) must roll 13 or less"
			name:  "2010 required 3/ST against Swimming, Ajax ST12 Swimming+1",
			in:    CheckInput{Edition: Edition2010, Expr: required(ST, "Swimming"), AttributeValue: 12, SkillName: "Swimming", SkillLevel: 1},
			faces: []int{6, 6, 1}, total: 13, target: 13, pass: true,
			mods: []Modifier{{"skill Swimming", 1, AppliesTarget}}, prob: 181.0 / 216,
		},
		{
			// 2021 "SKILLS": "pass a three-die check against his applicable
			// attribute"; "if he fails 3/ST against SWIMMING, he drowns".
			name:  "2021 required 3/ST against Swimming: the attribute alone",
			in:    CheckInput{Edition: Edition2021, Expr: required(ST, "Swimming"), AttributeValue: 12, SkillName: "Swimming", SkillLevel: 1},
			faces: []int{6, 6, 1}, total: 13, target: 12, pass: false, prob: 160.0 / 216,
		},
		{
			// 2020 "SKILLS": the same words as 2021.
			name:  "2020 required 3/ST against Swimming: the attribute alone",
			in:    CheckInput{Edition: Edition2020, Expr: required(ST, "Swimming"), AttributeValue: 12, SkillName: "Swimming", SkillLevel: 3},
			faces: []int{4, 4, 4}, total: 12, target: 12, pass: true, prob: 160.0 / 216,
		},
		{
			name:  "skill name falls back to the name typed",
			in:    CheckInput{Expr: assisted(IQ, "medic"), AttributeValue: 9, SkillLevel: 2},
			faces: []int{3, 3, 3}, total: 9, target: 11, pass: true,
			mods: []Modifier{{"skill medic", 2, AppliesTarget}}, prob: 135.0 / 216,
		},
		{
			// "Curse": each level worsens every check by one, cumulative.
			name:  "curse ×2 makes the total worse",
			in:    CheckInput{Expr: plain(3, DX), AttributeValue: 11, Curses: 2},
			faces: []int{3, 3, 4}, total: 12, target: 11, pass: false,
			mods: []Modifier{{"curse ×2", 2, AppliesTotal}}, prob: 81.0 / 216,
		},
		{
			name:  "curse ×1 still passes",
			in:    CheckInput{Expr: plain(3, DX), AttributeValue: 11, Curses: 1},
			faces: []int{3, 3, 4}, total: 11, target: 11, pass: true,
			mods: []Modifier{{"curse ×1", 1, AppliesTotal}}, prob: 0.5,
		},
		{
			// "Restriction (R)": armour lowers DX.
			name:  "DX restriction lowers the target",
			in:    CheckInput{Expr: plain(3, DX), AttributeValue: 12, Restriction: 2},
			faces: []int{5, 5, 1}, total: 11, target: 10, pass: false,
			mods: []Modifier{{"armour restriction", -2, AppliesTarget}}, prob: 0.5,
		},
		{
			name:  "restriction does not touch ST",
			in:    CheckInput{Expr: plain(3, ST), AttributeValue: 12, Restriction: 2},
			faces: []int{5, 5, 1}, total: 11, target: 12, pass: true, prob: 160.0 / 216,
		},
		{
			name: "restriction and Pilot together",
			in: CheckInput{Expr: CheckExpr{Dice: 3, Attribute: DX, Skill: "Pilot", Mode: CheckAssisted},
				AttributeValue: 11, Restriction: 1, SkillName: "Pilot", SkillLevel: 1},
			faces: []int{1, 1, 1}, total: 3, target: 11, pass: true,
			mods: []Modifier{{"armour restriction", -1, AppliesTarget}, {"skill Pilot", 1, AppliesTarget}}, prob: 135.0 / 216,
		},
		{
			// "(SS) Space suit: if the character rolls all sixes on any check"
			name: "all sixes are flagged", in: CheckInput{Expr: plain(3, ST), AttributeValue: 20},
			faces: []int{6, 6, 6}, total: 18, target: 20, pass: true, sixes: true, prob: 1,
		},
		{
			name: "all sixes on 4/DX", in: CheckInput{Expr: plain(4, DX), AttributeValue: 11},
			faces: []int{6, 6, 6, 6, 2}, total: 24, target: 11, pass: false, sixes: true, prob: 310.0 / 1296, unused: 1,
		},
	}
	for _, ed := range Editions() {
		for _, r := range rows {
			if r.in.Edition != "" && r.in.Edition != ed {
				continue // a row of one edition's own rule
			}
			t.Run(string(ed)+"/"+r.name, func(t *testing.T) {
				in := r.in
				in.Edition = ed
				g := NewGivenFaces(r.faces)
				out, err := ResolveCheck(in, g)
				if err != nil {
					t.Fatal(err)
				}
				n := len(r.faces) - r.unused
				if !slices.Equal(out.Faces, r.faces[:n]) || out.Total != r.total || out.Target != r.target ||
					out.Pass != r.pass || out.Margin != r.target-r.total || out.AllSixes != r.sixes || out.Lacking {
					t.Errorf("got %+v; want total %d target %d pass %v sixes %v", out, r.total, r.target, r.pass, r.sixes)
				}
				if !reflect.DeepEqual(out.Modifiers, r.mods) {
					t.Errorf("Modifiers = %+v, want %+v", out.Modifiers, r.mods)
				}
				if math.Abs(out.Probability-r.prob) > 1e-12 {
					t.Errorf("Probability = %v, want %v", out.Probability, r.prob)
				}
				if g.Remaining() != r.unused {
					t.Errorf("%d faces left, want %d", g.Remaining(), r.unused)
				}
			})
		}
	}
}

func TestResolveCheckLackingRequiredSkill(t *testing.T) {
	// "If Ajax lacks SWIMMING, or if he fails 3/ST against SWIMMING, he drowns."
	for _, ed := range Editions() {
		g := NewGivenFaces([]int{1, 1, 1})
		in := CheckInput{Edition: ed, Expr: CheckExpr{Dice: 3, Attribute: ST, Skill: "Swimming", Mode: CheckRequired},
			AttributeValue: 12, SkillName: "Swimming"}
		out, err := ResolveCheck(in, g)
		if err != nil {
			t.Fatal(err)
		}
		if !out.Lacking || out.Pass || out.Faces != nil || out.Probability != 0 || out.Target != 12 || out.Margin != 0 {
			t.Errorf("%s: %+v, want a lacking failure with no dice", ed, out)
		}
		if g.Remaining() != 3 {
			t.Errorf("%s: a lacking check used %d faces", ed, 3-g.Remaining())
		}
	}
}

func TestResolveCheckErrors(t *testing.T) {
	ok := CheckInput{Expr: CheckExpr{Dice: 3, Attribute: DX, Mode: CheckPlain}, AttributeValue: 11}
	for _, r := range []struct {
		name string
		edit func(*CheckInput)
		code Code
		msg  string
	}{
		{"bad edition", func(in *CheckInput) { in.Edition = "1999" }, CodeInvalid, `unknown edition "1999": choose 2010, 2020 or 2021`},
		{"no dice", func(in *CheckInput) { in.Expr.Dice = 0 }, CodeInvalid, "a check rolls 1 to 10 dice, not 0"},
		{"bad attribute", func(in *CheckInput) { in.Expr.Attribute = "SX" }, CodeInvalid, `unknown attribute "SX": use ST, DX or IQ`},
		{"bad mode", func(in *CheckInput) { in.Expr.Mode = "odd" }, CodeInvalid, `unknown check mode "odd": use plain, assisted or required`},
		{"no skill", func(in *CheckInput) { in.Expr.Mode = CheckAssisted }, CodeInvalid, "the assisted check 3/DX+ names no skill"},
		{"negative curse", func(in *CheckInput) { in.Curses = -1 }, CodeInvalid, "curse level -1 is negative"},
		{"negative restriction", func(in *CheckInput) { in.Restriction = -1 }, CodeInvalid, "armour restriction -1 is negative"},
		{"not enough faces", func(in *CheckInput) {}, CodeInvalid, "3d6 needs 3 faces, only 2 given"},
	} {
		in := ok
		r.edit(&in)
		_, err := ResolveCheck(in, NewGivenFaces([]int{1, 2}))
		wantError(t, err, r.code, r.msg)
	}
}
