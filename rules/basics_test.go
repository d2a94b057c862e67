package rules

import (
	"errors"
	"fmt"
	"testing"
)

func TestParseEdition(t *testing.T) {
	for _, r := range []struct {
		in   string
		want Edition
	}{{"2010", Edition2010}, {" 2020 ", Edition2020}, {"2021", Edition2021}} {
		got, err := ParseEdition(r.in)
		if err != nil || got != r.want {
			t.Errorf("ParseEdition(%q) = %q, %v; want %q", r.in, got, err, r.want)
		}
	}
	for _, r := range []struct{ in, msg string }{
		{"2019", `unknown edition "2019": choose 2010, 2020 or 2021`},
		{"", `unknown edition "": choose 2010, 2020 or 2021`},
		{" 2022\t", `unknown edition "2022": choose 2010, 2020 or 2021`},
	} {
		_, err := ParseEdition(r.in)
		wantError(t, err, CodeInvalid, r.msg)
	}
}

func TestCodeOf(t *testing.T) {
	rule := Errorf(CodeRule, "no %d", 3)
	for _, r := range []struct {
		err  error
		want Code
	}{
		{nil, ""},
		{rule, CodeRule},
		{fmt.Errorf("wrapped: %w", Errorf(CodeNotFound, "x")), CodeNotFound},
		{errors.New("plain"), CodeInternal},
	} {
		if got := CodeOf(r.err); got != r.want {
			t.Errorf("CodeOf(%v) = %q, want %q", r.err, got, r.want)
		}
	}
	if rule.Error() != "no 3" {
		t.Errorf("Error() = %q", rule.Error())
	}
}

// A name cut short, of three letters or more, finds the one name it
// begins: "Nav" finds "Navigation, Stellar".
func TestSuggestPrefix(t *testing.T) {
	names := []string{"Navigation, Stellar", "Medic", "Mechanic", "Climbing"}
	for _, r := range []struct {
		in, want string
	}{
		{"Nav", "Navigation, Stellar"},
		{" nav ", "Navigation, Stellar"},
		{"Na", ""},          // too short to guess
		{"Me", ""},          // too short, and two names
		{"Mec", "Mechanic"}, // one name only
		{"Med", "Medic"},
		{"Medic", ""}, // the whole name: nothing to suggest
		{"Xyz", ""},
	} {
		got, ok := SuggestPrefix(r.in, names)
		if got != r.want || ok != (r.want != "") {
			t.Errorf("SuggestPrefix(%q) = %q, %v; want %q", r.in, got, ok, r.want)
		}
	}
	if got, ok := SuggestPrefix("Me", []string{"Medic"}); ok {
		t.Errorf("SuggestPrefix of two letters = %q", got)
	}
	if got, ok := SuggestPrefix("Med", []string{"Medic", "Medicine"}); ok {
		t.Errorf("SuggestPrefix of a start two names share = %q", got)
	}
}

func TestSuggest(t *testing.T) {
	names := []string{"Climbing", "Swimming", "Medic", "Mechanic", "Ajax", "Hector", "Zoë", "Ängel"}
	for _, r := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"Clmbing", "Climbing", true},
		{"climbing", "Climbing", true}, // case differs
		{"Climbing", "", false},        // exact: nothing to suggest
		{"Swiming", "Swimming", true},
		{"Medik", "Medic", true},
		{"Hectr", "Hector", true},
		{"ajx", "Ajax", true},
		{"Zoe", "Zoë", true}, // one rune, not two bytes
		{"angel", "Ängel", true},
		{"Xylophone", "", false},
		{"", "", false},
		{"  ", "", false},
		{"Mdic", "Medic", true},
		// At most max(2, runes/3) edits: 2 for six letters, not 3.
		{"Clmbng", "Climbing", true},
		{"Clmbn", "", false},
	} {
		got, ok := Suggest(r.in, names)
		if got != r.want || ok != r.ok {
			t.Errorf("Suggest(%q) = %q, %v; want %q, %v", r.in, got, ok, r.want, r.ok)
		}
	}
	// Ties go to the first candidate.
	if got, _ := Suggest("Bx", []string{"Ax", "Cx"}); got != "Ax" {
		t.Errorf("tie went to %q, want Ax", got)
	}
	if _, ok := Suggest("abc", nil); ok {
		t.Error("suggested from no candidates")
	}
	// The limit grows with the input: max(2, runes/3).
	if got, ok := Suggest("Navigatoin Stelar", []string{"Navigation Stellar"}); !ok || got != "Navigation Stellar" {
		t.Errorf("long-name suggestion = %q, %v", got, ok)
	}
}

func TestLevenshtein(t *testing.T) {
	for _, r := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"flaw", "lawn", 2}, {"zoë", "zoe", 1}} {
		if d := levenshtein([]rune(r.a), []rune(r.b)); d != r.d {
			t.Errorf("levenshtein(%q, %q) = %d, want %d", r.a, r.b, d, r.d)
		}
	}
}

func TestParseAttribute(t *testing.T) {
	for _, r := range []struct {
		in   string
		want Attribute
	}{{"ST", ST}, {"st", ST}, {"Dx", DX}, {" iq ", IQ}} {
		got, err := ParseAttribute(r.in)
		if err != nil || got != r.want {
			t.Errorf("ParseAttribute(%q) = %q, %v", r.in, got, err)
		}
	}
	_, err := ParseAttribute("SX")
	wantError(t, err, CodeInvalid, `unknown attribute "SX": use ST, DX or IQ`)
	_, err = ParseAttribute("")
	wantError(t, err, CodeInvalid, `unknown attribute "": use ST, DX or IQ`)
}

func TestAttributes(t *testing.T) {
	a := Attributes{ST: 12, DX: 11, IQ: 9}
	if a.Get(ST) != 12 || a.Get(DX) != 11 || a.Get(IQ) != 9 || a.Get("XX") != 0 {
		t.Errorf("Get: %+v", a)
	}
	b := a.With(IQ, 10)
	if b.IQ != 10 || a.IQ != 9 || b.Total() != 33 || a.Total() != 32 {
		t.Errorf("With: %+v from %+v", b, a)
	}
	if a.With("XX", 99) != a {
		t.Error("With an unknown attribute changed the copy")
	}
	if got := AttributeNames(); len(got) != 3 || got[0] != ST || got[1] != DX || got[2] != IQ {
		t.Errorf("AttributeNames() = %v", got)
	}
	for _, r := range []struct{ dx, r, adj, ma int }{
		{12, 2, 10, 5}, {11, 0, 11, 5}, {11, 1, 10, 5}, {8, 3, 5, 2}, {2, 3, 0, 0}, {12, -1, 12, 6},
	} {
		if got := AdjustedDX(r.dx, r.r); got != r.adj {
			t.Errorf("AdjustedDX(%d, %d) = %d, want %d", r.dx, r.r, got, r.adj)
		}
		if got := MovementAllowance(r.adj); got != r.ma {
			t.Errorf("MovementAllowance(%d) = %d, want %d", r.adj, got, r.ma)
		}
	}
	if MovementAllowance(-3) != 0 {
		t.Error("negative adjusted DX gave a movement allowance")
	}
}
