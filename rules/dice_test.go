package rules

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseDice(t *testing.T) {
	for _, r := range []struct {
		in       string
		want     DiceExpr
		str      string
		min, max int
	}{
		{"d3", DiceExpr{1, 3, 0}, "d3", 1, 3},
		{"d6", DiceExpr{1, 6, 0}, "d6", 1, 6},
		{"2d6-1", DiceExpr{2, 6, -1}, "2d6-1", 1, 11},
		{"3d6", DiceExpr{3, 6, 0}, "3d6", 3, 18},
		{"d6+2", DiceExpr{1, 6, 2}, "d6+2", 3, 8},
		{"2D6-1", DiceExpr{2, 6, -1}, "2d6-1", 1, 11}, // 2010 capitals
		{"D3", DiceExpr{1, 3, 0}, "d3", 1, 3},
		{"2d6 - 1", DiceExpr{2, 6, -1}, "2d6-1", 1, 11},
		{" d6 +3 ", DiceExpr{1, 6, 3}, "d6+3", 4, 9},
		{"1d6", DiceExpr{1, 6, 0}, "d6", 1, 6},
		{"2d6-2", DiceExpr{2, 6, -2}, "2d6-2", 0, 10}, // cutlass
		{"d6+0", DiceExpr{1, 6, 0}, "d6", 1, 6},
		{"30d6+99", DiceExpr{30, 6, 99}, "30d6+99", 129, 279},
		{"d3-99", DiceExpr{1, 3, -99}, "d3-99", -98, -96},
	} {
		got, err := ParseDice(r.in)
		if err != nil {
			t.Errorf("ParseDice(%q): %v", r.in, err)
			continue
		}
		if got != r.want || got.String() != r.str || got.Min() != r.min || got.Max() != r.max {
			t.Errorf("ParseDice(%q) = %+v %q min %d max %d; want %+v %q %d %d",
				r.in, got, got.String(), got.Min(), got.Max(), r.want, r.str, r.min, r.max)
		}
	}
}

func TestParseDiceErrors(t *testing.T) {
	for _, r := range []struct{ in, msg string }{
		{"2d7", `bad dice "2d7": only d3 and d6 are used in this game`},
		{"d20", `bad dice "d20": only d3 and d6 are used in this game`},
		{"2d", `bad dice "2d": missing the die size after "d": only d3 and d6 are used in this game`},
		{"0d6", `bad dice "0d6": roll 1 to 30 dice, not 0`},
		{"31d6", `bad dice "31d6": roll 1 to 30 dice, not 31`},
		{"99999999999d6", `bad dice "99999999999d6": roll 1 to 30 dice, not 99999999999`},
		{"d6+100", `bad dice "d6+100": modifier +100 is out of range (-99 to +99)`},
		{"d6-100", `bad dice "d6-100": modifier -100 is out of range (-99 to +99)`},
		{"d6+", `bad dice "d6+": missing number after "+"`},
		{"d6+x", `bad dice "d6+x": unexpected "x" after "+"; the modifier must be a whole number`},
		{"d6+1x", `bad dice "d6+1x": unexpected "x" after the modifier; write dice like d6, 2d6-1 or 3d6`},
		{"d6 2", `bad dice "d6 2": unexpected "2" after d6; write dice like d6, 2d6-1 or 3d6`},
		{"2x6", `bad dice "2x6": unexpected "x6" where "d" should be; write dice like d6, 2d6-1 or 3d6`},
		{"2 d6", `bad dice "2 d6": unexpected " d6" where "d" should be; write dice like d6, 2d6-1 or 3d6`},
		{"12", `bad dice "12": missing "d" and the die size after "12"; write dice like d6, 2d6-1 or 3d6`},
		{"", `bad dice "": empty expression; write dice like d6, 2d6-1 or 3d6`},
		{"-d6", `bad dice "-d6": unexpected "-d6" where "d" should be; write dice like d6, 2d6-1 or 3d6`},
		{"d6++1", `bad dice "d6++1": unexpected "+1" after "+"; the modifier must be a whole number`},
	} {
		_, err := ParseDice(r.in)
		wantError(t, err, CodeInvalid, r.msg)
	}
}

func TestParseExpr(t *testing.T) {
	check := func(n int, at Attribute, skill string, mode CheckMode) Expr {
		return Expr{Check: &CheckExpr{Dice: n, Attribute: at, Skill: skill, Mode: mode}}
	}
	dice := func(c, s, m int) Expr { return Expr{Dice: &DiceExpr{c, s, m}} }
	for _, r := range []struct {
		in   string
		want Expr
		str  string
	}{
		{"3/DX", check(3, DX, "", CheckPlain), "3/DX"},
		{"4/DX", check(4, DX, "", CheckPlain), "4/DX"},
		{"3/st", check(3, ST, "", CheckPlain), "3/ST"},
		{" 4 / iq ", check(4, IQ, "", CheckPlain), "4/IQ"},
		{"3/ST+Climbing", check(3, ST, "Climbing", CheckAssisted), "3/ST+Climbing"},
		{"3/ST+CLIMBING", check(3, ST, "CLIMBING", CheckAssisted), "3/ST+CLIMBING"},
		{"3/ST + Climbing", check(3, ST, "Climbing", CheckAssisted), "3/ST+Climbing"},
		{"3/ST against Swimming", check(3, ST, "Swimming", CheckRequired), "3/ST against Swimming"},
		{"3/st AGAINST   swimming ", check(3, ST, "swimming", CheckRequired), "3/ST against swimming"},
		{"3/IQ+Navigation, Stellar", check(3, IQ, "Navigation, Stellar", CheckAssisted), "3/IQ+Navigation, Stellar"},
		{"4/DX+GUNNER", check(4, DX, "GUNNER", CheckAssisted), "4/DX+GUNNER"},
		{"3/DX+Rifle/SMG", check(3, DX, "Rifle/SMG", CheckAssisted), "3/DX+Rifle/SMG"},
		{"10/DX", check(10, DX, "", CheckPlain), "10/DX"},
		{"1/DX", check(1, DX, "", CheckPlain), "1/DX"},
		{"d3", dice(1, 3, 0), "d3"},
		{"2d6-1", dice(2, 6, -1), "2d6-1"},
		{"2D6-1", dice(2, 6, -1), "2d6-1"},
		{"d6 + 2", dice(1, 6, 2), "d6+2"},
		{"3d6", dice(3, 6, 0), "3d6"},
	} {
		got, err := ParseExpr(r.in)
		if err != nil {
			t.Errorf("ParseExpr(%q): %v", r.in, err)
			continue
		}
		if !reflect.DeepEqual(got, r.want) || got.String() != r.str {
			t.Errorf("ParseExpr(%q) = %s %+v %+v, want %s", r.in, got, got.Dice, got.Check, r.str)
		}
		again, err := ParseExpr(got.String())
		if err != nil || !reflect.DeepEqual(again, got) {
			t.Errorf("round trip of %q via %q: %v", r.in, got.String(), err)
		}
	}
	if (Expr{}).String() != "" {
		t.Error("zero Expr renders as text")
	}
}

func TestParseExprErrors(t *testing.T) {
	for _, r := range []struct{ in, msg string }{
		{"", `bad roll "": empty expression; try 3/DX or 2d6-1`},
		{"   ", `bad roll "": empty expression; try 3/DX or 2d6-1`},
		{"3/SX", `bad roll "3/SX": unknown attribute "SX": use ST, DX or IQ`},
		{"3/STR", `bad roll "3/STR": unknown attribute "STR": use ST, DX or IQ`},
		// The attribute is the letters after "/", a to z and A to Z.
		{"3/Za", `bad roll "3/Za": unknown attribute "Za": use ST, DX or IQ`},
		{"3/zA", `bad roll "3/zA": unknown attribute "zA": use ST, DX or IQ`},
		{"3/", `bad roll "3/": missing attribute after "/": use ST, DX or IQ`},
		{"3/+Climbing", `bad roll "3/+Climbing": missing attribute after "/": use ST, DX or IQ`},
		{"/DX", `bad roll "/DX": missing the number of dice before "/", as in 3/DX`},
		{"0/DX", `bad roll "0/DX": a check rolls 1 to 10 dice, not 0`},
		{"11/DX", `bad roll "11/DX": a check rolls 1 to 10 dice, not 11`},
		{"x/DX", `bad roll "x/DX": "x" before "/" should be a number of dice, as in 3/DX`},
		{"2d6/1", `bad roll "2d6/1": "2d6" before "/" should be a number of dice, as in 3/DX`},
		{"3/ST+", `bad roll "3/ST+": missing skill name after "+", as in 3/ST+Climbing`},
		{"3/ST + ", `bad roll "3/ST +": missing skill name after "+", as in 3/ST+Climbing`},
		{"3/ST against", `bad roll "3/ST against": missing skill name after "against", as in 3/ST against Swimming`},
		{"3/ST againstSwimming", `bad roll "3/ST againstSwimming": unexpected "againstSwimm…" after ST; add a skill as 3/ST+Climbing or 3/ST against Swimming`},
		{"3/ST-1", `bad roll "3/ST-1": unexpected "-1" after ST; add a skill as 3/ST+Climbing or 3/ST against Swimming`},
		{"3/ST1", `bad roll "3/ST1": unexpected "1" after ST; add a skill as 3/ST+Climbing or 3/ST against Swimming`},
		{"2d7", `bad roll "2d7": only d3 and d6 are used in this game`},
		{"DX", `bad roll "DX": a check needs its number of dice, as in 3/DX`},
		{"st", `bad roll "st": a check needs its number of dice, as in 3/ST`},
		{"dx+2", `bad roll "dx+2": missing the die size after "d": only d3 and d6 are used in this game`},
		{"3/ST+Clim\x00bing", `bad roll "3/ST+Clim\x00bing": contains the control character U+0000`},
		{"3/ST+\xff", `bad roll "3/ST+\xff": not valid UTF-8 text`},
	} {
		_, err := ParseExpr(r.in)
		wantError(t, err, CodeInvalid, r.msg)
	}
}

// An error message quotes the first word of what it could not read, cut
// after 12 bytes on a rune boundary.
func TestUnexpectedQuotesTheStartOfAWord(t *testing.T) {
	for _, r := range []struct{ in, want string }{
		{"abc def", "abc"},
		{"abcdefghijkl", "abcdefghijkl"},
		{"abcdefghijklm", "abcdefghijkl…"},
		{"abcdefghijké", "abcdefghijk…"},
		{"abcdefghijk€", "abcdefghijk…"},
		{"abcdefghij€", "abcdefghij…"},
		// Not text at all (bytes that only continue a rune): nothing is kept.
		{strings.Repeat("\x80", 13), "…"},
	} {
		if got := unexpected(r.in); got != r.want {
			t.Errorf("unexpected(%q) = %q, want %q", r.in, got, r.want)
		}
	}
	_, err := ParseDice("d6 abcdefghijkl")
	wantError(t, err, CodeInvalid, `bad dice "d6 abcdefghijkl": unexpected "abcdefghijkl" after d6; write dice like d6, 2d6-1 or 3d6`)
	_, err = ParseDice("d6 abcdefghijké")
	wantError(t, err, CodeInvalid, `bad dice "d6 abcdefghijké": unexpected "abcdefghijk…" after d6; write dice like d6, 2d6-1 or 3d6`)
}
