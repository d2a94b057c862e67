package rules

import (
	"slices"
	"testing"
)

func TestGivenFaces(t *testing.T) {
	g := NewGivenFaces([]int{1, 3, 6, 2, 3})
	got, err := g.Roll(3, 6)
	if err != nil || !slices.Equal(got, []int{1, 3, 6}) {
		t.Fatalf("Roll(3, 6) = %v, %v", got, err)
	}
	if g.Remaining() != 2 {
		t.Errorf("Remaining() = %d, want 2", g.Remaining())
	}
	_, err = g.Roll(3, 6)
	wantError(t, err, CodeInvalid, "3d6 needs 3 faces, only 2 left")
	if g.Remaining() != 2 {
		t.Errorf("a failed roll used faces: %d left", g.Remaining())
	}
	got, err = g.Roll(2, 3)
	if err != nil || !slices.Equal(got, []int{2, 3}) || g.Remaining() != 0 {
		t.Errorf("Roll(2, 3) = %v, %v, %d left", got, err, g.Remaining())
	}

	_, err = NewGivenFaces([]int{1, 2}).Roll(3, 6)
	wantError(t, err, CodeInvalid, "3d6 needs 3 faces, only 2 given")
	_, err = NewGivenFaces(nil).Roll(1, 6)
	wantError(t, err, CodeInvalid, "d6 needs 1 face, only 0 given")

	bad := NewGivenFaces([]int{1, 7, 2})
	_, err = bad.Roll(3, 6)
	wantError(t, err, CodeInvalid, "face 7 is not on a d6 (1-6)")
	if bad.Remaining() != 3 {
		t.Errorf("a rejected roll used faces: %d left", bad.Remaining())
	}
	_, err = NewGivenFaces([]int{4}).Roll(1, 3)
	wantError(t, err, CodeInvalid, "face 4 is not on a d3 (1-3)")
	_, err = NewGivenFaces([]int{0}).Roll(1, 6)
	wantError(t, err, CodeInvalid, "face 0 is not on a d6 (1-6)")
	_, err = NewGivenFaces([]int{1}).Roll(0, 6)
	wantError(t, err, CodeInvalid, "")

	// The roller keeps its own copy of the faces.
	faces := []int{1, 2}
	own := NewGivenFaces(faces)
	faces[0] = 6
	if got, _ := own.Roll(1, 6); got[0] != 1 {
		t.Error("NewGivenFaces shares the caller's slice")
	}
}

// Both rollers take 1 to 1000 dice of 2 to 1000 sides, and refuse the
// rest before they use a face.
func TestRollersTakeOnlyPossibleRolls(t *testing.T) {
	rows := []struct {
		count, sides int
		msg          string
	}{
		{1, 2, ""},
		{1000, 1000, ""},
		{0, 6, "cannot roll 0 dice: roll 1 to 1000"},
		{1001, 6, "cannot roll 1001 dice: roll 1 to 1000"},
		{3, 1, "cannot roll a die with 1 sides: give 2 to 1000"},
		{3, 1001, "cannot roll a die with 1001 sides: give 2 to 1000"},
	}
	for _, r := range rows {
		ones := slices.Repeat([]int{1}, max(r.count, 1))
		given := NewGivenFaces(ones)
		for name, roller := range map[string]Roller{"crypto": CryptoRoller{}, "given": given} {
			faces, err := roller.Roll(r.count, r.sides)
			if r.msg != "" {
				wantError(t, err, CodeInvalid, r.msg)
				continue
			}
			if err != nil || len(faces) != r.count {
				t.Errorf("%s: Roll(%d, %d) = %d faces, %v", name, r.count, r.sides, len(faces), err)
			}
		}
		if r.msg != "" && given.Remaining() != len(ones) {
			t.Errorf("Roll(%d, %d) refused, but used faces: %d of %d left", r.count, r.sides, given.Remaining(), len(ones))
		}
	}
}

func TestCryptoRoller(t *testing.T) {
	var r CryptoRoller
	seen := map[int]bool{}
	for range 200 {
		faces, err := r.Roll(3, 6)
		if err != nil || len(faces) != 3 {
			t.Fatalf("Roll(3, 6) = %v, %v", faces, err)
		}
		for _, f := range faces {
			if f < 1 || f > 6 {
				t.Fatalf("face %d is off a d6", f)
			}
			seen[f] = true
		}
	}
	// 600 rolls miss a face with probability about 6·(5/6)^600, never in practice.
	if len(seen) != 6 {
		t.Errorf("saw only faces %v", seen)
	}
	faces, err := r.Roll(5, 3)
	if err != nil || slices.Max(faces) > 3 || slices.Min(faces) < 1 {
		t.Errorf("Roll(5, 3) = %v, %v", faces, err)
	}
	_, err = r.Roll(0, 6)
	wantError(t, err, CodeInvalid, "")
}

func TestParseFaces(t *testing.T) {
	for _, r := range []struct {
		in   string
		want []int
	}{
		{"1,3,6", []int{1, 3, 6}},
		{"1, 3, 6", []int{1, 3, 6}},
		{"1 3 6", []int{1, 3, 6}},
		{" 5,2 ", []int{5, 2}},
		{"7", []int{7}}, // the roller, which knows the die, rejects it
	} {
		got, err := ParseFaces(r.in)
		if err != nil || !slices.Equal(got, r.want) {
			t.Errorf("ParseFaces(%q) = %v, %v", r.in, got, err)
		}
	}
	for _, r := range []struct{ in, msg string }{
		{"1,x,6", `bad dice faces "1,x,6": "x" is not a number`},
		{"1,3.5", `bad dice faces "1,3.5": "3.5" is not a number`},
		{"", `bad dice faces "": no faces given; write them like 1,3,6`},
		{" , ", `bad dice faces ",": no faces given; write them like 1,3,6`},
		{"99999999999999999999", `bad dice faces "99999999999999999999": "99999999999999999999" is too large`},
	} {
		_, err := ParseFaces(r.in)
		wantError(t, err, CodeInvalid, r.msg)
	}
}

// fixedRoller is a Roller that returns whatever it is told, to test the
// guards against broken rollers.
type fixedRoller struct{ faces []int }

func (f fixedRoller) Roll(count, sides int) ([]int, error) { return f.faces, nil }

func TestBrokenRoller(t *testing.T) {
	in := CheckInput{Expr: CheckExpr{Dice: 3, Attribute: DX, Mode: CheckPlain}, AttributeValue: 11}
	_, err := ResolveCheck(in, fixedRoller{[]int{1, 2}})
	wantError(t, err, CodeInternal, "the dice roller returned 2 faces for 3d6")
	_, err = ResolveCheck(in, fixedRoller{[]int{1, 2, 9}})
	wantError(t, err, CodeInternal, "the dice roller returned face 9 for a d6")
	_, err = ResolveCheck(in, nil)
	wantError(t, err, CodeInternal, "no dice roller was given")
}
