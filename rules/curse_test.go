package rules

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Every way to lift a curse in every edition, and every refusal.
// 2010 "Curse": "He can lift the curse by expending one wish, three karma
// points, or 10 XP"; 2020/2021 "Curse": "He can lift the curse by expending
// one wish, or by reducing his highest attribute by one."
func TestLiftCurse(t *testing.T) {
	ajax := Attributes{ST: 12, DX: 11, IQ: 9}
	type have struct{ wishes, karma, xp int }
	rows := []struct {
		name     string
		editions []Edition
		curses   int
		a        Attributes
		have     have
		m        LiftMethod
		want     CurseLift // Rule is checked separately
		code     Code
		msg      string
	}{
		{name: "wish", editions: Editions(), curses: 1, a: ajax, have: have{1, 0, 0}, m: LiftWish,
			want: CurseLift{Method: LiftWish, Wishes: 1}},
		{name: "wish, cursed twice", editions: Editions(), curses: 2, a: ajax, have: have{3, 5, 20}, m: LiftWish,
			want: CurseLift{Method: LiftWish, Wishes: 1}},
		{name: "no wish", editions: Editions(), curses: 1, a: ajax, have: have{0, 5, 20}, m: LiftWish, code: CodeRule,
			msg: "Ajax has no wish to spend: lifting a curse costs one wish ({rule})"},
		{name: "not cursed", editions: Editions(), curses: 0, a: ajax, have: have{1, 5, 20}, m: LiftWish, code: CodeRule,
			msg: "Ajax is not cursed: there is no curse to lift"},
		{name: "unknown method", editions: Editions(), curses: 1, a: ajax, have: have{1, 5, 20}, m: "prayer", code: CodeInvalid,
			msg: `unknown way to lift a curse "prayer": use wish, attribute, karma or xp`},
		// 2010 only.
		{name: "three karma", editions: []Edition{Edition2010}, curses: 1, a: ajax, have: have{0, 4, 0}, m: LiftKarma,
			want: CurseLift{Method: LiftKarma, Karma: 3}},
		{name: "two karma is not enough", editions: []Edition{Edition2010}, curses: 1, a: ajax, have: have{0, 2, 0}, m: LiftKarma, code: CodeRule,
			msg: "cannot lift Ajax's curse with karma: it costs 3 karma, Ajax has 2 ({rule})"},
		{name: "10 XP", editions: []Edition{Edition2010}, curses: 1, a: ajax, have: have{0, 0, 12}, m: LiftXP,
			want: CurseLift{Method: LiftXP, XP: 10}},
		{name: "9 XP is not enough", editions: []Edition{Edition2010}, curses: 1, a: ajax, have: have{0, 0, 9}, m: LiftXP, code: CodeRule,
			msg: "cannot lift Ajax's curse with XP: it costs 10 XP, Ajax has 9 unspent ({rule})"},
		{name: "no attribute in 2010", editions: []Edition{Edition2010}, curses: 1, a: ajax, have: have{1, 5, 20}, m: LiftAttribute, code: CodeRule,
			msg: "edition 2010 lifts a curse by wish, karma or xp, not attribute"},
		// 2020/2021 only.
		{name: "highest attribute", editions: []Edition{Edition2020, Edition2021}, curses: 1, a: ajax, m: LiftAttribute,
			want: CurseLift{Method: LiftAttribute, Attribute: ST, AttributeFrom: 12, AttributeTo: 11}},
		{name: "highest attribute is IQ", editions: []Edition{Edition2020, Edition2021}, curses: 1, a: Attributes{ST: 8, DX: 9, IQ: 15}, m: LiftAttribute,
			want: CurseLift{Method: LiftAttribute, Attribute: IQ, AttributeFrom: 15, AttributeTo: 14}},
		{name: "a tie takes the first of ST, DX, IQ", editions: []Edition{Edition2020, Edition2021}, curses: 1, a: Attributes{ST: 10, DX: 11, IQ: 11}, m: LiftAttribute,
			want: CurseLift{Method: LiftAttribute, Attribute: DX, AttributeFrom: 11, AttributeTo: 10}},
		{name: "an attribute of 1 cannot fall", editions: []Edition{Edition2020, Edition2021}, curses: 1, a: Attributes{ST: 1, DX: 1, IQ: 1}, m: LiftAttribute, code: CodeRule,
			msg: "cannot lift Ajax's curse by lowering ST 1: it would fall below 1"},
		{name: "no karma", editions: []Edition{Edition2020, Edition2021}, curses: 1, a: ajax, have: have{1, 5, 20}, m: LiftKarma, code: CodeRule,
			msg: "edition {ed} lifts a curse by wish or attribute, not karma"},
		{name: "no XP", editions: []Edition{Edition2020, Edition2021}, curses: 1, a: ajax, have: have{1, 5, 20}, m: LiftXP, code: CodeRule,
			msg: "edition {ed} lifts a curse by wish or attribute, not xp"},
	}
	for _, r := range rows {
		for _, ed := range r.editions {
			t.Run(fmt.Sprintf("%s/%s", ed, r.name), func(t *testing.T) {
				got, err := LiftCurse(ed, "Ajax", r.curses, r.a, r.have.wishes, r.have.karma, r.have.xp, r.m)
				if r.code != "" {
					msg := strings.NewReplacer("{ed}", string(ed), "{rule}", curseRule(ed)).Replace(r.msg)
					wantError(t, err, r.code, msg)
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				want := r.want
				want.Rule = curseRule(ed)
				if got != want {
					t.Errorf("LiftCurse = %+v\n      want %+v", got, want)
				}
			})
		}
	}
}

func TestCurseRule(t *testing.T) {
	if got := curseRule(Edition2010); got != `edition 2010 "Curse": "He can lift the curse by expending one wish, three karma points, or 10 XP"` {
		t.Errorf("2010 rule = %s", got)
	}
	if got := curseRule(Edition2021); got != `edition 2021 "Curse": "He can lift the curse by expending one wish, or by reducing his highest attribute by one"` {
		t.Errorf("2021 rule = %s", got)
	}
}

func TestLiftCurseAttribute(t *testing.T) {
	tie := Attributes{ST: 11, DX: 11, IQ: 10}
	for _, ed := range []Edition{Edition2020, Edition2021} {
		t.Run(string(ed), func(t *testing.T) {
			// Either tied attribute is "his highest attribute".
			for _, at := range []Attribute{ST, DX} {
				got, err := LiftCurseAttribute(ed, "Hector", 1, tie, at)
				want := CurseLift{Method: LiftAttribute, Attribute: at, AttributeFrom: 11, AttributeTo: 10, Rule: curseRule(ed)}
				if err != nil || got != want {
					t.Errorf("LiftCurseAttribute(%s) = %+v, %v", at, got, err)
				}
			}
			_, err := LiftCurseAttribute(ed, "Hector", 1, tie, IQ)
			wantError(t, err, CodeRule, "cannot lift Hector's curse by lowering IQ 10: the curse takes his highest attribute, ST 11 ("+curseRule(ed)+")")
			_, err = LiftCurseAttribute(ed, "Hector", 1, tie, "LK")
			wantError(t, err, CodeInvalid, `unknown attribute "LK": use ST, DX or IQ`)
			_, err = LiftCurseAttribute(ed, "Hector", 0, tie, ST)
			wantError(t, err, CodeRule, "Hector is not cursed: there is no curse to lift")
		})
	}
	_, err := LiftCurseAttribute(Edition2010, "Hector", 1, tie, ST)
	wantError(t, err, CodeRule, "edition 2010 lifts a curse by wish, karma or xp, not attribute")
	if got := HighestAttributes(tie); !slices.Equal(got, []Attribute{ST, DX}) {
		t.Errorf("HighestAttributes = %v", got)
	}
}

func TestLiftMethods(t *testing.T) {
	if got := LiftMethods(Edition2010); !slices.Equal(got, []LiftMethod{LiftWish, LiftKarma, LiftXP}) {
		t.Errorf("2010: %v", got)
	}
	for _, ed := range []Edition{Edition2020, Edition2021, ""} {
		if got := LiftMethods(ed); !slices.Equal(got, []LiftMethod{LiftWish, LiftAttribute}) {
			t.Errorf("%s: %v", ed, got)
		}
	}
}

func TestParseLiftMethod(t *testing.T) {
	for s, want := range map[string]LiftMethod{"wish": LiftWish, " Wish ": LiftWish, "ATTRIBUTE": LiftAttribute, "karma": LiftKarma, "XP": LiftXP} {
		if got, err := ParseLiftMethod(s); err != nil || got != want {
			t.Errorf("ParseLiftMethod(%q) = %q, %v", s, got, err)
		}
	}
	_, err := ParseLiftMethod("wsh")
	wantError(t, err, CodeInvalid, `unknown way to lift a curse "wsh"; did you mean "wish"?`)
	_, err = ParseLiftMethod("")
	wantError(t, err, CodeInvalid, `unknown way to lift a curse "": use wish, attribute, karma or xp`)
}

// FuzzParseLiftMethod checks that ParseLiftMethod never panics, fails only
// with CodeInvalid and returns only the four methods.
func FuzzParseLiftMethod(f *testing.F) {
	for _, s := range []string{"wish", "XP", "karma", "attribute", "wsh", "", "\xff", "x p"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseLiftMethod(s)
		if err != nil {
			if CodeOf(err) != CodeInvalid {
				t.Fatalf("ParseLiftMethod(%q) error %v has code %q", s, err, CodeOf(err))
			}
			return
		}
		if !slices.Contains([]LiftMethod{LiftWish, LiftAttribute, LiftKarma, LiftXP}, m) {
			t.Fatalf("ParseLiftMethod(%q) = %q", s, m)
		}
	})
}
