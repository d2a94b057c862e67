package rules

import (
	"fmt"
	"reflect"
	"testing"
)

// FuzzParseExpr checks that ParseExpr never panics, that every error is a
// CodeInvalid *Error, that what parses stays within the notation's limits,
// and that String round-trips: ParseExpr(e.String()) gives an equal Expr.
func FuzzParseExpr(f *testing.F) {
	for _, s := range []string{
		"d3", "d6", "2d6-1", "3d6", "d6+2", "2D6-1", "2d6 - 1", " d6 +3 ", "30d6+99", "d3-99",
		"3/DX", "4/DX", "3/st", "4/IQ", "10/DX", "3/ST+Climbing", "3/ST + Climbing",
		"3/ST against Swimming", "3/ST AGAINST Swimming", "3/IQ+Navigation, Stellar",
		"4/DX+GUNNER", "3/DX+Rifle/SMG", "3/ST+against", "3/ST against +x",
		"", " ", "2d7", "d20", "0d6", "31d6", "d6+100", "d6+", "3/SX", "3/", "/DX", "11/DX",
		"3/ST+", "3/ST against", "3/STagainst x", "DX", "2d6/1", "d6++1", "3/ST+\x00",
		"3/ST+\xff", "99999999999999999999d6", "3/ST+Zoë", "3/ST\tagainst\tSwimming",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := ParseExpr(s)
		if err != nil {
			if CodeOf(err) != CodeInvalid {
				t.Fatalf("ParseExpr(%q) error %v has code %q", s, err, CodeOf(err))
			}
			return
		}
		if (e.Dice == nil) == (e.Check == nil) {
			t.Fatalf("ParseExpr(%q) = %+v: want exactly one of Dice and Check", s, e)
		}
		if d := e.Dice; d != nil && d.validate() != "" {
			t.Fatalf("ParseExpr(%q) gave out-of-range dice %+v", s, *d)
		}
		if c := e.Check; c != nil {
			if c.Dice < 1 || c.Dice > MaxCheckDice || !c.Attribute.Valid() || (c.Mode == CheckPlain) != (c.Skill == "") {
				t.Fatalf("ParseExpr(%q) gave a bad check %+v", s, *c)
			}
		}
		text := e.String()
		again, err := ParseExpr(text)
		if err != nil {
			t.Fatalf("ParseExpr(%q) = %q, which does not parse: %v", s, text, err)
		}
		if !reflect.DeepEqual(again, e) {
			t.Fatalf("round trip of %q: %q gives %q", s, text, again.String())
		}
		if again.String() != text {
			t.Fatalf("String is not stable: %q then %q", text, again.String())
		}
	})
}

// FuzzParseDice checks that ParseDice never panics, stays within its limits
// and round-trips through String.
func FuzzParseDice(f *testing.F) {
	for _, s := range []string{"d3", "d6", "2d6-1", "3d6", "d6+2", "2D6-1", "2d6 - 1", "2d7", "0d6", "d6+100", "d6+", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDice(s)
		if err != nil {
			if CodeOf(err) != CodeInvalid {
				t.Fatalf("ParseDice(%q) error %v has code %q", s, err, CodeOf(err))
			}
			return
		}
		if d.validate() != "" || d.Min() > d.Max() {
			t.Fatalf("ParseDice(%q) = %+v out of range", s, d)
		}
		again, err := ParseDice(d.String())
		if err != nil || again != d {
			t.Fatalf("round trip of %q via %q: %+v, %v", s, d.String(), again, err)
		}
	})
}

// FuzzParseFaces checks that ParseFaces never panics and that a GivenFaces
// built from its result hands back exactly those faces or a coded error.
func FuzzParseFaces(f *testing.F) {
	for _, s := range []string{"1,3,6", "1, 3, 6", "1 3 6", "1,x,6", "", ",,", "7", "-1", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		faces, err := ParseFaces(s)
		if err != nil {
			if CodeOf(err) != CodeInvalid {
				t.Fatalf("ParseFaces(%q) error %v has code %q", s, err, CodeOf(err))
			}
			return
		}
		if len(faces) == 0 {
			t.Fatalf("ParseFaces(%q) returned no faces and no error", s)
		}
		got, err := NewGivenFaces(faces).Roll(len(faces), 6)
		if err != nil {
			if CodeOf(err) != CodeInvalid {
				t.Fatalf("Roll error %v has code %q", err, CodeOf(err))
			}
			return
		}
		if !reflect.DeepEqual(got, faces) {
			t.Fatalf("Roll gave %v for faces %v", got, faces)
		}
	})
}

// FuzzParseSkillLevel checks that ParseSkillLevel never panics, returns
// skills of the edition at legal levels, and round-trips through String.
func FuzzParseSkillLevel(f *testing.F) {
	for _, s := range []string{"Unarmed:2", "Medic:2", "Navigation, Stellar:1", "Medic", "Spacecraft Pilot:3", "Storyteller:1", "Clmbing", "Medic:x", ":", "a:b:3"} {
		f.Add(s, 2021)
		f.Add(s, 2010)
	}
	f.Fuzz(func(t *testing.T, s string, year int) {
		ed := Edition(fmt.Sprint(year))
		sl, err := ParseSkillLevel(ed, s)
		if err != nil {
			if CodeOf(err) != CodeInvalid {
				t.Fatalf("ParseSkillLevel(%q) error %v has code %q", s, err, CodeOf(err))
			}
			return
		}
		if !sl.Skill.In(ed) || sl.Level < 1 || sl.Level > MaxSkillLevel {
			t.Fatalf("ParseSkillLevel(%s, %q) = %+v", ed, s, sl)
		}
		again, err := ParseSkillLevel(ed, sl.String())
		if err != nil || !reflect.DeepEqual(again, sl) {
			t.Fatalf("round trip of %q via %q: %+v, %v", s, sl.String(), again, err)
		}
	})
}
