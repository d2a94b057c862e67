package rules

import (
	"strings"
	"testing"
)

// The tests in this file hold the rules at their edges, where a < made
// <= (or the like) would change an answer: each limit is tried on both
// sides, at the value itself and one past it.

// TestNewCharacterAttributeBounds: an attribute up to MaxFoeAttribute
// either way is summed into the points a new character has; one past it
// is only named, since three huge values could wrap round to 32.
func TestNewCharacterAttributeBounds(t *testing.T) {
	for _, r := range []struct {
		st   int
		want string
	}{
		{99, "cannot create A: 115 attribute points, a new character has exactly 32 (ST8 DX8 IQ8 + 8 discretionary); ST 99 is above the most a new character can have, 16 (32 points with the other two at 8)"},
		{100, "cannot create A: ST 100 is above the most a new character can have, 16 (32 points with the other two at 8)"},
		{-99, "cannot create A: -83 attribute points, a new character has exactly 32 (ST8 DX8 IQ8 + 8 discretionary); ST -99 is below the minimum of 8"},
		{-100, "cannot create A: ST -100 is below the minimum of 8"},
	} {
		err := ValidateNewCharacter(Edition2021, "A", Attributes{ST: r.st, DX: 8, IQ: 8}, nil)
		if err == nil || err.Error() != r.want {
			t.Errorf("ST %d: %v\nwant %s", r.st, err, r.want)
		}
	}
}

// TestCheckDiceBounds: a check rolls 1 to MaxCheckDice dice.
func TestCheckDiceBounds(t *testing.T) {
	for _, r := range []struct {
		dice int
		ok   bool
	}{{0, false}, {1, true}, {MaxCheckDice, true}, {MaxCheckDice + 1, false}} {
		faces := make([]int, max(r.dice, 0))
		for i := range faces {
			faces[i] = 1
		}
		out, err := ResolveCheck(CheckInput{Edition: Edition2021, Expr: CheckExpr{Dice: r.dice, Attribute: DX}, AttributeValue: 11}, NewGivenFaces(faces))
		if r.ok && (err != nil || out.Total != r.dice || !out.Pass) {
			t.Errorf("%d dice: %+v, %v; want a pass of %d", r.dice, out, err, r.dice)
		}
		if !r.ok && (err == nil || !strings.Contains(err.Error(), "a check rolls 1 to 10 dice")) {
			t.Errorf("%d dice: %v; want refused", r.dice, err)
		}
	}
}

// TestAllSixesNeedsADie: no faces are not all sixes.
func TestAllSixesNeedsADie(t *testing.T) {
	for _, r := range []struct {
		faces []int
		want  bool
	}{{nil, false}, {[]int{6}, true}, {[]int{6, 6, 6}, true}, {[]int{6, 5, 6}, false}} {
		if got := allSixes(r.faces); got != r.want {
			t.Errorf("allSixes(%v) = %t", r.faces, got)
		}
	}
}

// TestContestSkillWithoutName: a side's skill level adds to its target
// ("Assisted Skill Checks") whether or not the skill is named.
func TestContestSkillWithoutName(t *testing.T) {
	for _, name := range []string{"", "Climbing"} {
		a := ContestSide{Name: "Ajax", Attribute: ST, AttributeValue: 12, SkillName: name, SkillLevel: 2}
		b := ContestSide{Name: "Hector", Attribute: ST, AttributeValue: 11}
		out, err := ResolveContest(Edition2021, a, b, NewGivenFaces([]int{1, 1, 1}), NewGivenFaces([]int{1, 1, 1}))
		if err != nil || out.Sides[0].Target != 14 || out.Sides[1].Target != 11 {
			t.Errorf("skill %q level 2: %+v, %v; want targets 14 and 11", name, out.Sides, err)
		}
	}
	a := ContestSide{Name: "Ajax", Attribute: ST, AttributeValue: 12, SkillName: "Climbing"}
	out, err := ResolveContest(Edition2021, a, a, NewGivenFaces([]int{1, 1, 1}), NewGivenFaces([]int{1, 1, 1}))
	if err != nil || out.Sides[0].Target != 12 {
		t.Errorf("skill named at level 0: %+v, %v; want target 12", out.Sides, err)
	}
}

// TestCurseLiftPricesExactly: 2010 lifts a curse for exactly 3 karma or
// exactly 10 XP, and by attribute an attribute of 2 may fall to 1.
func TestCurseLiftPricesExactly(t *testing.T) {
	ajax := Attributes{ST: 12, DX: 11, IQ: 9}
	if got, err := LiftCurse(Edition2010, "Ajax", 1, ajax, 0, CurseLiftKarma2010, 0, LiftKarma); err != nil || got.Karma != 3 {
		t.Errorf("3 karma: %+v, %v", got, err)
	}
	if got, err := LiftCurse(Edition2010, "Ajax", 1, ajax, 0, 0, CurseLiftXP2010, LiftXP); err != nil || got.XP != 10 {
		t.Errorf("10 XP: %+v, %v", got, err)
	}
	low := Attributes{ST: 2, DX: 1, IQ: 1}
	if got, err := LiftCurse(Edition2021, "Ajax", 1, low, 0, 0, 0, LiftAttribute); err != nil || got.Attribute != ST || got.AttributeTo != 1 {
		t.Errorf("ST 2: %+v, %v", got, err)
	}
}

// TestValidateFoeBounds: a foe needs a name, and each attribute from 1 to
// MaxFoeAttribute; every attribute out of it is named.
func TestValidateFoeBounds(t *testing.T) {
	for _, r := range []struct {
		name string
		a    Attributes
		want string // "" for accepted
	}{
		{"Ork", Attributes{ST: 1, DX: 1, IQ: 1}, ""},
		{"Ork", Attributes{ST: 99, DX: 99, IQ: 99}, ""},
		{" Ork ", Attributes{ST: 12, DX: 11, IQ: 9}, ""},
		{"", Attributes{ST: 12, DX: 11, IQ: 9}, "a foe needs a name"},
		{" \t", Attributes{ST: 12, DX: 11, IQ: 9}, "a foe needs a name"},
		{" Ork ", Attributes{ST: 0, DX: 100, IQ: 9}, "foe Ork: ST 0 (give 1 to 99); DX 100 (give 1 to 99)"},
		{"Ork", Attributes{ST: 12, DX: 11, IQ: -1}, "foe Ork: IQ -1 (give 1 to 99)"},
	} {
		err := ValidateFoe(r.name, r.a)
		if r.want == "" && err != nil || r.want != "" && (err == nil || err.Error() != r.want || CodeOf(err) != CodeInvalid) {
			t.Errorf("ValidateFoe(%q, %+v) = %v; want %q", r.name, r.a, err, r.want)
		}
	}
}

// TestZeroAttributesAreValues: an attribute of 0 (a foe's, say, brought
// to 0) is a value a check, a contest and an attack still take; below 0
// is not.
func TestZeroAttributesAreValues(t *testing.T) {
	for _, v := range []int{0, -1} {
		_, err := ResolveCheck(CheckInput{Edition: Edition2021, Expr: CheckExpr{Dice: 3, Attribute: DX}, AttributeValue: v}, NewGivenFaces([]int{1, 1, 1}))
		if (err == nil) != (v == 0) {
			t.Errorf("check against DX %d: %v", v, err)
		}
		side := ContestSide{Name: "Ajax", Attribute: ST, AttributeValue: v}
		_, err = ResolveContest(Edition2021, side, side, NewGivenFaces([]int{1, 1, 1}), NewGivenFaces([]int{1, 1, 1}))
		if (err == nil) != (v == 0) {
			t.Errorf("contest at ST %d: %v", v, err)
		}
		w, err := LookupWeapon(Edition2021, "dagger")
		if err != nil {
			t.Fatal(err)
		}
		_, err = ResolveAttack(AttackInput{Edition: Edition2021, Attacker: "Ajax", AttackerDX: v, AttackerST: 12, Weapon: w, Target: "Hector", TargetST: 11},
			NewGivenFaces([]int{1, 1, 1}), NewGivenFaces([]int{1}))
		if (err == nil) != (v == 0) {
			t.Errorf("attack at DX %d: %v", v, err)
		}
	}
}

// TestContestDiceBounds: a contest side rolls 1 to MaxDice dice (0 means
// the default three).
func TestContestDiceBounds(t *testing.T) {
	for _, r := range []struct {
		dice int
		ok   bool
	}{{1, true}, {MaxDice, true}, {MaxDice + 1, false}, {-1, false}} {
		faces := make([]int, max(r.dice, 0))
		for i := range faces {
			faces[i] = 1
		}
		side := ContestSide{Name: "Ajax", Attribute: ST, AttributeValue: 12, Dice: r.dice}
		_, err := ResolveContest(Edition2021, side, side, NewGivenFaces(faces), NewGivenFaces(faces))
		if r.ok && err != nil || !r.ok && (err == nil || !strings.Contains(err.Error(), "must roll 1 to 30 dice")) {
			t.Errorf("%d dice: %v", r.dice, err)
		}
	}
}
