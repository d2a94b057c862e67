package rules

import (
	"strings"
	"testing"
)

func TestResolveContest(t *testing.T) {
	ajax := ContestSide{Name: "Ajax", Attribute: ST, AttributeValue: 12}
	hector := ContestSide{Name: "Hector", Attribute: ST, AttributeValue: 11}
	rows := []struct {
		name    string
		a, b    ContestSide
		fa, fb  []int
		winner  int
		outcome string
		totals  [2]int
		targets [2]int
		explain string
	}{
		{
			name: "both over: both fail", a: ajax, b: hector,
			fa: []int{6, 6, 1}, fb: []int{6, 6, 2}, winner: -1, outcome: ContestBothFail,
			totals: [2]int{13, 14}, targets: [2]int{12, 11},
			explain: "Ajax's 13 exceeds ST 12 and Hector's 14 exceeds ST 11; both fail.",
		},
		{
			name: "second over: first wins though lower", a: ajax, b: hector,
			fa: []int{1, 1, 1}, fb: []int{6, 6, 1}, winner: 0, outcome: ContestWin,
			totals: [2]int{3, 13}, targets: [2]int{12, 11},
			explain: "Hector's 13 exceeds ST 11; Ajax wins with 3 on ST 12.",
		},
		{
			name: "higher total wins", a: ajax, b: hector,
			fa: []int{4, 4, 4}, fb: []int{3, 3, 3}, winner: 0, outcome: ContestWin,
			totals: [2]int{12, 9}, targets: [2]int{12, 11},
			explain: "Ajax wins with 12 on ST 12 against Hector's 9 on ST 11.",
		},
		{
			// 2010 "Winning a Check": "On a tie, the higher attribute wins."
			name: "equal totals: higher attribute wins", a: hector, b: ajax,
			fa: []int{3, 3, 4}, fb: []int{4, 3, 3}, winner: 1, outcome: ContestWin,
			totals: [2]int{10, 10}, targets: [2]int{11, 12},
			explain: "Hector and Ajax both total 10; Ajax wins the tie with the higher ST 12 against ST 11{{note}}.",
		},
		{
			name: "equal totals and attributes: tie", a: ajax, b: ContestSide{Name: "Achilles", Attribute: ST, AttributeValue: 12},
			fa: []int{3, 3, 4}, fb: []int{4, 3, 3}, winner: -1, outcome: ContestTie,
			totals: [2]int{10, 10}, targets: [2]int{12, 12},
			explain: "Ajax and Achilles both total 10 against 12; it is a tie.",
		},
		{
			// A curse lowers the target by one per level: 11 passes ST 12
			// but not ST 12 cursed twice.
			name: "curse pushes a side over", a: ContestSide{Name: "Ajax", Attribute: ST, AttributeValue: 12, Curses: 2}, b: hector,
			fa: []int{4, 4, 3}, fb: []int{1, 1, 1}, winner: 1, outcome: ContestWin,
			totals: [2]int{11, 3}, targets: [2]int{10, 11},
			explain: "Ajax's 11 exceeds ST 10 (ST 12, curse ×2 -2); Hector wins with 3 on ST 11.",
		},
		{
			// A curse never helps: the cursed side's total is not raised, so
			// it cannot win on a higher total it did not roll.
			name: "curse never wins a close contest", a: ajax, b: ContestSide{Name: "Hector", Attribute: ST, AttributeValue: 11, Curses: 1},
			fa: []int{3, 3, 3}, fb: []int{3, 3, 3}, winner: 0, outcome: ContestWin,
			totals: [2]int{9, 9}, targets: [2]int{12, 10},
			explain: "Ajax and Hector both total 9; Ajax wins the tie with the higher ST 12 against ST 10 (ST 11, curse ×1 -1){{note}}.",
		},
		{
			// A tackle is won on DX; armour lowers it; a skill adds to it.
			name: "DX with restriction and skill, four dice",
			a:    ContestSide{Name: "Ajax", Attribute: DX, AttributeValue: 11, Restriction: 1, SkillName: "Unarmed", SkillLevel: 2, Dice: 4},
			b:    ContestSide{Name: "Hector", Attribute: DX, AttributeValue: 12, Dice: 2},
			fa:   []int{3, 3, 3, 3}, fb: []int{6, 5}, winner: 0, outcome: ContestWin,
			totals: [2]int{12, 11}, targets: [2]int{12, 12},
			explain: "Ajax wins with 12 on DX 12 (DX 11, armour restriction -1, skill Unarmed +2) against Hector's 11 on DX 12.",
		},
		{
			name: "unnamed sides",
			a:    ContestSide{Attribute: IQ, AttributeValue: 9}, b: ContestSide{Attribute: IQ, AttributeValue: 10},
			fa: []int{6, 6, 6}, fb: []int{1, 1, 1}, winner: 1, outcome: ContestWin,
			totals: [2]int{18, 3}, targets: [2]int{9, 10},
			explain: "The first side's 18 exceeds IQ 9; the second side wins with 3 on IQ 10.",
		},
	}
	for _, ed := range Editions() {
		for _, r := range rows {
			t.Run(string(ed)+"/"+r.name, func(t *testing.T) {
				out, err := ResolveContest(ed, r.a, r.b, NewGivenFaces(r.fa), NewGivenFaces(r.fb))
				if err != nil {
					t.Fatal(err)
				}
				if out.Winner != r.winner || out.Outcome != r.outcome {
					t.Errorf("got winner %d %s, want %d %s", out.Winner, out.Outcome, r.winner, r.outcome)
				}
				for i := range 2 {
					s := out.Sides[i]
					if s.Total != r.totals[i] || s.Target != r.targets[i] || s.Over != (r.totals[i] > r.targets[i]) || len(s.Faces) != len([][]int{r.fa, r.fb}[i]) {
						t.Errorf("side %d = %+v, want total %d target %d", i, s, r.totals[i], r.targets[i])
					}
				}
				explain := strings.ReplaceAll(r.explain, "{{note}}", map[Edition]string{
					Edition2010: "", Edition2020: " (the 2010 rule; edition 2020 does not say)",
					Edition2021: " (the 2010 rule; edition 2021 does not say)"}[ed])
				if out.Explanation != explain {
					t.Errorf("Explanation = %q\n                 want %q", out.Explanation, explain)
				}
			})
		}
	}
}

func TestResolveContestOneRoller(t *testing.T) {
	// rb nil: both sides roll from ra, the first side's dice first.
	g := NewGivenFaces([]int{6, 4, 3, 2, 3, 4})
	out, err := ResolveContest(Edition2010,
		ContestSide{Name: "Ajax", Attribute: ST, AttributeValue: 12},
		ContestSide{Name: "Hector", Attribute: ST, AttributeValue: 11}, g, nil)
	if err != nil || out.Winner != 1 || g.Remaining() != 0 {
		t.Errorf("got %+v, %v, %d faces left", out, err, g.Remaining())
	}
}

func TestResolveContestErrors(t *testing.T) {
	ok := ContestSide{Name: "Ajax", Attribute: ST, AttributeValue: 12}
	for _, r := range []struct {
		ed  Edition
		a   ContestSide
		msg string
	}{
		{"1999", ok, `unknown edition "1999": choose 2010, 2020 or 2021`},
		{Edition2021, ContestSide{Name: "Ajax", Attribute: "SX", AttributeValue: 12}, `unknown attribute "SX" for Ajax: use ST, DX or IQ`},
		{Edition2021, ContestSide{Name: "Ajax", Attribute: ST, AttributeValue: 12, Dice: 31}, "Ajax must roll 1 to 30 dice, not 31"},
		{Edition2021, ContestSide{Name: "Ajax", Attribute: ST, AttributeValue: 12, Curses: -1}, "Ajax's curse level -1 is negative"},
	} {
		_, err := ResolveContest(r.ed, r.a, ok, NewGivenFaces([]int{1, 1, 1}), NewGivenFaces([]int{1, 1, 1}))
		wantError(t, err, CodeInvalid, r.msg)
	}
	_, err := ResolveContest(Edition2021, ok, ok, NewGivenFaces([]int{1, 1, 1}), NewGivenFaces([]int{1}))
	wantError(t, err, CodeInvalid, "3d6 needs 3 faces, only 1 given")
}
