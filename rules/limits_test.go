package rules

import (
	"math"
	"strings"
	"testing"
)

func TestCheckQuantity(t *testing.T) {
	for _, r := range []struct {
		q   Quantity
		n   int
		msg string // "" when n is in range
	}{
		{QtyXPAward, 1, ""},
		{QtyXPAward, 10000, ""},
		{QtyXPAward, 10001, "cannot award 10001 XP: an award is 1 to 10,000 XP"},
		{QtyXPAward, math.MaxInt64, "cannot award 9223372036854775807 XP: an award is 1 to 10,000 XP"},
		{QtyXPAward, 0, "cannot award 0 XP: an award is 1 to 10,000 XP"},
		{QtyKarmaGrant, 100, ""},
		{QtyKarmaGrant, 0, "cannot grant 0 karma: a grant is 1 to 100 karma points"},
		{QtyKarmaGrant, math.MaxInt64, "cannot grant 9223372036854775807 karma: a grant is 1 to 100 karma points"},
		{QtyWishGrant, 11, "cannot grant 11 wishes: a grant is 1 to 10 wishes"},
		{QtyCurseAdd, 10, ""},
		{QtyCurseAdd, 11, "cannot lay 11 curse levels: a curse is 1 to 10 levels"},
		{QtyDamage, 198, ""},
		{QtyDamage, 199, "cannot deal 199 points: damage dealt at once is 1 to 198 points"},
		{QtyHeal, math.MinInt64, "cannot heal -9223372036854775808 points: healing is 1 to 198 points"},
		{QtyDayNext, 365, ""},
		{QtyDayNext, 366, "day next --days 366: a step of game time is 1 to 365 days"},
		{QtyRestDays, 1000, "rest --days 1000: a rest is 1 to 365 days"},
		{QtyRaiseLevels, 21, "xp spend --levels 21: a spend is 1 to 20 levels"},
		{QtyTargetST, 100, "attack --target-st 100: a target's ST is 1 to 99"},
		{QtyShipDamage, 594, ""},
		{QtyShipDamage, 595, "ship hit --damage 595: a hit is 1 to 594 points"},
		{QtyKarmaToXP, 101, "karma to-xp 101: karma taken as XP is 1 to 100 points at once"},
	} {
		err := CheckQuantity(r.q, r.n)
		if r.msg == "" {
			if err != nil {
				t.Errorf("CheckQuantity(%s, %d) = %v, want nil", r.q, r.n, err)
			}
			continue
		}
		wantError(t, err, CodeInvalid, r.msg)
	}
	wantError(t, CheckQuantity("gold", 1), CodeInternal, `no range for the quantity "gold"`)
}

// TestLimitsKeepSumsFar checks that the bounds leave room: a million of
// the largest awards does not come near an int's range.
func TestLimitsKeepSumsFar(t *testing.T) {
	if MaxXPAward*1_000_000 > math.MaxInt32*1000 {
		t.Errorf("MaxXPAward %d is too large", MaxXPAward)
	}
	if MaxCreationAttribute != 16 {
		t.Errorf("MaxCreationAttribute = %d, want 16 (32 points, two at 8)", MaxCreationAttribute)
	}
}

func TestGroup(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 10000: "10,000", 1234567: "1,234,567", -1000: "-1,000", math.MinInt64: "-9,223,372,036,854,775,808"} {
		if got := Group(n); got != want {
			t.Errorf("Group(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestCheckedArithmetic(t *testing.T) {
	for _, r := range []struct {
		a, b   int
		sum    bool
		diff   bool
		sumVal int
	}{
		{1, 2, true, true, 3},
		{5, 0, true, true, 5},
		{5, -3, true, true, 2},
		{-5, 3, true, true, -2},
		{math.MinInt64, 0, true, true, math.MinInt64},
		{math.MaxInt64, 1, false, true, math.MinInt64},
		{math.MaxInt64, 0, true, true, math.MaxInt64},
		{math.MinInt64, -1, false, true, math.MaxInt64},
		{math.MinInt64, 1, true, false, math.MinInt64 + 1},
		{-5, math.MinInt64, false, true, math.MaxInt64 - 4},
		{0, math.MinInt64, true, false, math.MinInt64},
	} {
		if got, ok := AddChecked(r.a, r.b); ok != r.sum || got != r.sumVal {
			t.Errorf("AddChecked(%d, %d) = %d, %v; want %d, %v", r.a, r.b, got, ok, r.sumVal, r.sum)
		}
		if _, ok := SubChecked(r.a, r.b); ok != r.diff {
			t.Errorf("SubChecked(%d, %d) ok = %v, want %v", r.a, r.b, ok, r.diff)
		}
	}
}

func TestCheckNameAndText(t *testing.T) {
	for _, ok := range []string{"Ajax", "Kit-Kat", "Hélène", "李小龍", strings.Repeat("a", 64), "O'Brien the 3rd"} {
		if err := CheckName("character name", ok); err != nil {
			t.Errorf("CheckName(%q) = %v", ok, err)
		}
	}
	for _, r := range []struct{ in, msg string }{
		{"A\x1b[2Jjax", `character name "A\x1b[2Jjax" holds the control character U+001B (escape): names are plain text on one line`},
		{"A\tjax", `character name "A\tjax" holds the control character U+0009 (tab): names are plain text on one line`},
		{"A\njax", `character name "A\njax" holds the control character U+000A (newline): names are plain text on one line`},
		{"Aj\x7fax", `character name "Aj\x7fax" holds the control character U+007F (delete): names are plain text on one line`},
		{"Aj\u009bax", `character name "Aj\u009bax" holds the control character U+009B: names are plain text on one line`},
		{"Aj\u202eax", `character name "Aj\u202eax" holds the control character U+202E: names are plain text on one line`},
		{"Aj\u2028ax", `character name "Aj\u2028ax" holds the control character U+2028: names are plain text on one line`},
		{"Aj\xffax", `character name "Aj\xffax" holds the byte 0xff, which is not UTF-8 text: names are plain text on one line`},
		{strings.Repeat("é", 65), `character name "` + strings.Repeat("é", 20) + `…" is 65 characters long; a name has at most 64`},
	} {
		wantError(t, CheckName("character name", r.in), CodeInvalid, r.msg)
	}
	if err := CheckReason("--reason", strings.Repeat("ü", 500)); err != nil {
		t.Errorf("a 500-character reason: %v", err)
	}
	wantError(t, CheckReason("--reason", strings.Repeat("ü", 501)), CodeInvalid, "--reason is 501 characters long; it holds at most 500")
	wantError(t, CheckReason("--reason", "line one\nline two"), CodeInvalid, "--reason holds the control character U+000A (newline): write it as plain text on one line")
	wantError(t, CheckReason("--source", "\r"), CodeInvalid, "--source holds the control character U+000D (carriage return): write it as plain text on one line")
	if err := CheckNote(strings.Repeat("x", 2000)); err != nil {
		t.Errorf("a 2000-character note: %v", err)
	}
	wantError(t, CheckNote(strings.Repeat("x", 2001)), CodeInvalid, "the note is 2001 characters long; it holds at most 2000")
	// The bidirectional embeddings and overrides U+202A to U+202E and
	// isolates U+2066 to U+2069, each end; the line and paragraph
	// separators.
	for _, r := range "\x00\x07\x08\x1b\x7f\u0085\u2028\u2029\u202a\u202e\u2066\u2069" {
		if !Unprintable(r) {
			t.Errorf("Unprintable(%U) = false", r)
		}
	}
	for _, r := range " aé€\u00a0\u200d\u2027\u202f\u2065\u206a" {
		if Unprintable(r) {
			t.Errorf("Unprintable(%U) = true", r)
		}
	}
}

// TestNewCharacterAttributesDoNotWrap: three attributes whose sum wraps
// round to 32 are refused, each named.
func TestNewCharacterAttributesDoNotWrap(t *testing.T) {
	a := Attributes{ST: math.MaxInt64, DX: math.MaxInt64, IQ: 34}
	if a.Total() != CreationPoints {
		t.Fatalf("the example no longer wraps: total %d", a.Total())
	}
	wantError(t, ValidateNewCharacter(Edition2021, "Zed", a, nil), CodeInvalid,
		"cannot create Zed: ST 9223372036854775807 is above the most a new character can have, 16 (32 points with the other two at 8); "+
			"DX 9223372036854775807 is above the most a new character can have, 16 (32 points with the other two at 8); "+
			"IQ 34 is above the most a new character can have, 16 (32 points with the other two at 8)")
	wantError(t, ValidateNewCharacter(Edition2021, "Zed", Attributes{ST: 17, DX: 8, IQ: 7}, nil), CodeInvalid,
		"cannot create Zed: ST 17 is above the most a new character can have, 16 (32 points with the other two at 8); IQ 7 is below the minimum of 8")
}

// TestNewCharacterAttributeRange: an attribute outside 8 to 16 is a
// number out of its range (docs/limits.md, "8 to 16 each"): CodeInvalid,
// exit 2, with every other problem still listed. It was CodeRule (exit 4).
// Attributes in range that break the creation rules (the total of 32, the
// skill budgets) stay CodeRule.
func TestNewCharacterAttributeRange(t *testing.T) {
	unarmed, err := LookupSkill(Edition2021, "Unarmed")
	if err != nil {
		t.Fatal(err)
	}
	medic, err := LookupSkill(Edition2021, "Medic")
	if err != nil {
		t.Fatal(err)
	}
	rows := []struct {
		a      Attributes
		skills []SkillLevel
		code   Code
		msg    string
	}{
		{Attributes{ST: 17, DX: 8, IQ: 8}, nil, CodeInvalid,
			"cannot create Zed: 33 attribute points, a new character has exactly 32 (ST8 DX8 IQ8 + 8 discretionary); ST 17 is above the most a new character can have, 16 (32 points with the other two at 8)"},
		{Attributes{ST: 14, DX: 11, IQ: 7}, nil, CodeInvalid,
			"cannot create Zed: IQ 7 is below the minimum of 8"},
		{Attributes{ST: 15, DX: 11, IQ: 7}, nil, CodeInvalid,
			"cannot create Zed: 33 attribute points, a new character has exactly 32 (ST8 DX8 IQ8 + 8 discretionary); IQ 7 is below the minimum of 8"},
		{Attributes{ST: 7, DX: 7, IQ: 7}, []SkillLevel{{Skill: unarmed, Level: 3}, {Skill: medic, Level: 2}}, CodeInvalid,
			"cannot create Zed: 21 attribute points, a new character has exactly 32 (ST8 DX8 IQ8 + 8 discretionary); " +
				"ST 7 is below the minimum of 8; DX 7 is below the minimum of 8; IQ 7 is below the minimum of 8; " +
				"5 skill points, at most 4; 3 combat skill points (Unarmed 3), at most 2"},
		{Attributes{ST: 16, DX: 8, IQ: 8}, nil, "", ""},
		{Attributes{ST: 8, DX: 8, IQ: 16}, nil, "", ""},
		{Attributes{ST: 16, DX: 9, IQ: 8}, nil, CodeRule,
			"cannot create Zed: 33 attribute points, a new character has exactly 32 (ST8 DX8 IQ8 + 8 discretionary)"},
		{Attributes{ST: 12, DX: 11, IQ: 9}, []SkillLevel{{Skill: unarmed, Level: 3}}, CodeRule,
			"cannot create Zed: 3 combat skill points (Unarmed 3), at most 2"},
	}
	for _, r := range rows {
		err := ValidateNewCharacter(Edition2021, "Zed", r.a, r.skills)
		if r.code == "" {
			if err != nil {
				t.Errorf("%+v: %v", r.a, err)
			}
			continue
		}
		wantError(t, err, r.code, r.msg)
	}
}

// TestCheckNameLooksAlike: a name that shows nothing more than another
// name is refused, so no second character looks like the first: an
// invisible character (zero-width space, joiners, word joiner, byte order
// mark, soft hyphen, direction marks, variation selectors, Hangul
// fillers) or a letter written decomposed ("e" + U+0301 for "é"). Each
// was accepted, and made a second "Kira" or "José". Names in scripts
// that combine marks (Devanagari, Thai, Vietnamese typed composed) pass.
// decomposed names the letter and the mark where the NFC form first
// differs, also when the two differ inside a rune (marks in the wrong
// order) and when the text starts with a mark.
func TestDecomposedNamesTheLetterAndTheMark(t *testing.T) {
	for _, r := range []struct{ in, want string }{
		{"José", `the letter 'e' and the combining mark U+0301 where one character belongs`},
		// Acute (above) before grave below: NFC puts the one below first.
		{"x̖́", `the letter 'x' and the combining mark U+0301 where one character belongs`},
		{"Kix̖́", `the letter 'x' and the combining mark U+0301 where one character belongs`},
		{"̖́", `the letter '́' and the combining mark U+0316 where one character belongs`},
		{"KiraÅ", `the character U+212B, which Unicode writes another way (NFC)`},
		{"Ångström", `the character U+212B, which Unicode writes another way (NFC)`},
	} {
		if got := decomposed(r.in); got != r.want {
			t.Errorf("decomposed(%q) = %q\nwant %q", r.in, got, r.want)
		}
	}
}

// A text quoted in a message keeps 20 characters, and is cut past that.
func TestShortenKeepsTwentyCharacters(t *testing.T) {
	twenty := strings.Repeat("é", 20)
	if got := shorten(twenty); got != twenty {
		t.Errorf("shorten of 20 characters = %q", got)
	}
	if got := shorten(twenty + "x"); got != twenty+"…" {
		t.Errorf("shorten of 21 characters = %q", got)
	}
}

func TestCheckNameLooksAlike(t *testing.T) {
	for _, c := range []struct{ name, words string }{
		{"Kira\u200b", "holds the invisible character U+200B (zero-width space)"},
		{"Ki\u200dra", "holds the invisible character U+200D (zero-width joiner)"},
		{"Ki\u200cra", "holds the invisible character U+200C (zero-width non-joiner)"},
		{"\u2060Kira", "holds the invisible character U+2060 (word joiner)"},
		{"\ufeffKira", "holds the invisible character U+FEFF (byte order mark)"},
		{"Ki\u00adra", "holds the invisible character U+00AD (soft hyphen)"},
		{"Kira\u200e", "holds the invisible character U+200E (a direction mark)"},
		{"Kira\u061c", "holds the invisible character U+061C (a direction mark)"},
		{"Kira\ufe0f", "holds the invisible character U+FE0F"},
		{"Ki\u034fra", "holds the invisible character U+034F"},
		{"Kira\u3164", "holds the invisible character U+3164"},
		{"Kira\U000e0041", "holds the invisible character U+E0041"},
		{"Kira\u2800Vex", "holds the invisible character U+2800"},
		{"Jose\u0301", `holds the letter 'e' and the combining mark U+0301 where one character belongs`},
		{"Ame\u0301lie", `holds the letter 'e' and the combining mark U+0301 where one character belongs`},
		{"\u212bngstr\u00f6m", `holds the character U+212B, which Unicode writes another way (NFC)`},
	} {
		err := CheckName("character name", c.name)
		if err == nil {
			t.Errorf("%q: accepted", c.name)
			continue
		}
		if CodeOf(err) != CodeInvalid || !strings.Contains(err.Error(), c.words) {
			t.Errorf("%q: %s %q, want invalid and %q", c.name, CodeOf(err), err, c.words)
		}
	}
	for _, name := range []string{"José", "Amélie", "Ångström", "Nguyễn Thị Minh", "देवनागरी", "ภาษาไทย", "Ελένη", "Ёжик", "محمد", "O'Brien-Smith", "Kira 2"} {
		if err := CheckName("character name", name); err != nil {
			t.Errorf("%q: %v", name, err)
		}
	}
}
