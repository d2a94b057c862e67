package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// Limits of the dice notation.
const (
	// MaxDice is the most dice one damage expression may roll.
	MaxDice = 30
	// MaxModifier bounds a damage expression's modifier in both directions.
	MaxModifier = 99
)

// DiceExpr is damage notation such as "2d6-1": roll Count dice of Sides
// faces and add Modifier.
type DiceExpr struct {
	Count, Sides, Modifier int
}

// String renders the expression canonically in lower case: "d6", "2d6-1",
// "d6+2", "3d6". A count of 1 is left out and a zero modifier omitted.
func (d DiceExpr) String() string {
	var b strings.Builder
	if d.Count != 1 {
		b.WriteString(strconv.Itoa(d.Count))
	}
	b.WriteString("d")
	b.WriteString(strconv.Itoa(d.Sides))
	if d.Modifier > 0 {
		b.WriteString("+")
	}
	if d.Modifier != 0 {
		b.WriteString(strconv.Itoa(d.Modifier))
	}
	return b.String()
}

// Min returns the lowest total the expression can give (every die a 1),
// before any edition minimum.
func (d DiceExpr) Min() int { return d.Count + d.Modifier }

// Max returns the highest total the expression can give (every die its top
// face).
func (d DiceExpr) Max() int { return d.Count*d.Sides + d.Modifier }

// validate checks the limits of a hand-built expression and returns the
// reason it is bad, or "".
func (d DiceExpr) validate() string {
	switch {
	case d.Count < 1 || d.Count > MaxDice:
		return fmt.Sprintf("roll 1 to %d dice, not %d", MaxDice, d.Count)
	case d.Sides != 3 && d.Sides != 6:
		return "only d3 and d6 are used in this game"
	case d.Modifier < -MaxModifier || d.Modifier > MaxModifier:
		return fmt.Sprintf("modifier %+d is out of range (-%d to +%d)", d.Modifier, MaxModifier, MaxModifier)
	}
	return ""
}

// ParseDice reads damage notation: "d3", "d6", "2d6-1", "3d6", "d6+2",
// "2D6-1" (the 2010 book's capitals), with optional spaces around the sign.
// Count is 1 to MaxDice (omitted means 1), sides are 3 or 6, the modifier is
// -99 to +99. Errors are CodeInvalid and name the bad part.
// All editions, "TERMINOLOGY"/"Damage (D)"; 2010 writes "2D6-1".
func ParseDice(s string) (DiceExpr, error) {
	t := strings.TrimSpace(s)
	d, reason := parseDice(t)
	if reason != "" {
		return DiceExpr{}, Errorf(CodeInvalid, "bad dice %q: %s", t, reason)
	}
	return d, nil
}

// parseDice parses trimmed dice notation and returns the reason it is bad,
// or "" on success.
func parseDice(t string) (DiceExpr, string) {
	const hint = "write dice like d6, 2d6-1 or 3d6"
	if t == "" {
		return DiceExpr{}, "empty expression; " + hint
	}
	i := 0
	digits := func() string {
		start := i
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		return t[start:i]
	}
	var d DiceExpr
	countText := digits()
	d.Count = 1
	if countText != "" {
		n, ok := parseSmallUint(countText)
		if !ok || n < 1 || n > MaxDice {
			return DiceExpr{}, fmt.Sprintf("roll 1 to %d dice, not %s", MaxDice, countText)
		}
		d.Count = n
	}
	if i >= len(t) || (t[i] != 'd' && t[i] != 'D') {
		if i >= len(t) {
			return DiceExpr{}, fmt.Sprintf("missing \"d\" and the die size after %q; %s", countText, hint)
		}
		return DiceExpr{}, fmt.Sprintf("unexpected %q where \"d\" should be; %s", unexpected(t[i:]), hint)
	}
	i++
	sidesText := digits()
	if sidesText == "" {
		return DiceExpr{}, "missing the die size after \"d\": only d3 and d6 are used in this game"
	}
	if sidesText != "3" && sidesText != "6" {
		return DiceExpr{}, "only d3 and d6 are used in this game"
	}
	d.Sides = int(sidesText[0] - '0')
	rest := strings.TrimLeft(t[i:], " \t")
	if rest == "" {
		return d, ""
	}
	sign := rest[0]
	if sign != '+' && sign != '-' {
		return DiceExpr{}, fmt.Sprintf("unexpected %q after d%s; %s", unexpected(rest), sidesText, hint)
	}
	modText := strings.TrimLeft(rest[1:], " \t")
	if modText == "" {
		return DiceExpr{}, fmt.Sprintf("missing number after %q", string(sign))
	}
	t, i = modText, 0
	numText := digits()
	if numText == "" {
		return DiceExpr{}, fmt.Sprintf("unexpected %q after %q; the modifier must be a whole number", unexpected(modText), string(sign))
	}
	if i < len(t) {
		return DiceExpr{}, fmt.Sprintf("unexpected %q after the modifier; %s", unexpected(t[i:]), hint)
	}
	n, ok := parseSmallUint(numText)
	if !ok || n > MaxModifier {
		return DiceExpr{}, fmt.Sprintf("modifier %c%s is out of range (-%d to +%d)", sign, numText, MaxModifier, MaxModifier)
	}
	if sign == '-' {
		n = -n
	}
	d.Modifier = n
	return d, ""
}

// unexpected returns the start of s for an error message: the first word,
// at most 12 bytes of it, cut on a UTF-8 boundary.
func unexpected(s string) string {
	if j := strings.IndexAny(s, " \t"); j > 0 {
		s = s[:j]
	}
	if len(s) > 12 {
		cut := 12
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
