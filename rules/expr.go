package rules

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxCheckDice is the most dice a check may roll.
const MaxCheckDice = 10

// CheckMode says how a skill takes part in a check.
type CheckMode string

// The check modes. Their string values are stored in events.
const (
	// CheckPlain is a bare attribute check such as 3/DX.
	CheckPlain CheckMode = "plain"
	// CheckAssisted is "3/ST+Climbing": the skill level is added when the
	// character has it, but anyone may try ("Assisted Skill Checks").
	CheckAssisted CheckMode = "assisted"
	// CheckRequired is "3/ST against Swimming": a character without the skill
	// fails outright ("Required Skill Checks").
	CheckRequired CheckMode = "required"
)

// CheckExpr is check notation: roll Dice d6 and pass on a total no higher
// than Attribute, with Skill added as Mode says. Skill is the name as typed
// (trimmed), resolved later with LookupSkill; it is "" for a plain check.
type CheckExpr struct {
	Dice      int
	Attribute Attribute
	Skill     string
	Mode      CheckMode
}

// String renders the check in the notation ParseExpr reads: "3/DX", "4/ST",
// "3/ST+Climbing", "3/ST against Swimming".
func (c CheckExpr) String() string {
	s := strconv.Itoa(c.Dice) + "/" + string(c.Attribute)
	switch c.Mode {
	case CheckAssisted:
		s += "+" + c.Skill
	case CheckRequired:
		s += " against " + c.Skill
	}
	return s
}

// Expr is a parsed roll: exactly one of Dice (damage notation) and Check
// (check notation) is set.
type Expr struct {
	Dice  *DiceExpr
	Check *CheckExpr
}

// String renders the expression in the notation ParseExpr reads, or "" for
// the zero Expr.
func (e Expr) String() string {
	switch {
	case e.Dice != nil:
		return e.Dice.String()
	case e.Check != nil:
		return e.Check.String()
	}
	return ""
}

// ParseExpr reads a roll: damage notation ("2d6-1", "d3", "2D6-1") or check
// notation ("3/DX", "4/st", "3/ST+Climbing", "3/ST + Climbing",
// "3/ST against Swimming", "3/IQ+Navigation, Stellar"). Checks roll 1 to
// MaxCheckDice dice. Errors are CodeInvalid and quote the input. For any
// string that parses, ParseExpr(e.String()) gives an equal Expr.
// All editions, "TERMINOLOGY" and "Required/Assisted Skill Checks".
func ParseExpr(s string) (Expr, error) {
	t := strings.TrimSpace(s)
	bad := func(reason string) (Expr, error) {
		return Expr{}, Errorf(CodeInvalid, "bad roll %q: %s", t, reason)
	}
	if t == "" {
		return bad("empty expression; try 3/DX or 2d6-1")
	}
	if !utf8.ValidString(t) {
		return bad("not valid UTF-8 text")
	}
	for _, r := range t {
		if unicode.IsControl(r) && r != '\t' {
			return bad(fmt.Sprintf("contains the control character %U", r))
		}
	}
	if !strings.Contains(t, "/") {
		if at, err := ParseAttribute(t); err == nil {
			return bad(fmt.Sprintf("a check needs its number of dice, as in 3/%s", at))
		}
		d, reason := parseDice(t)
		if reason != "" {
			return bad(reason)
		}
		return Expr{Dice: &d}, nil
	}
	c, reason := parseCheck(t)
	if reason != "" {
		return bad(reason)
	}
	return Expr{Check: &c}, nil
}

// parseCheck parses trimmed check notation and returns the reason it is
// bad, or "" on success.
func parseCheck(t string) (CheckExpr, string) {
	slash := strings.Index(t, "/")
	countText := strings.TrimSpace(t[:slash])
	if countText == "" {
		return CheckExpr{}, "missing the number of dice before \"/\", as in 3/DX"
	}
	n, ok := parseSmallUint(countText)
	if !ok {
		return CheckExpr{}, fmt.Sprintf("%q before \"/\" should be a number of dice, as in 3/DX", unexpected(countText))
	}
	if n < 1 || n > MaxCheckDice {
		return CheckExpr{}, fmt.Sprintf("a check rolls 1 to %d dice, not %s", MaxCheckDice, countText)
	}
	rest := strings.TrimLeft(t[slash+1:], " \t")
	end := 0
	for end < len(rest) && isASCIILetter(rest[end]) {
		end++
	}
	attrText := rest[:end]
	if attrText == "" {
		return CheckExpr{}, "missing attribute after \"/\": use ST, DX or IQ"
	}
	at, err := ParseAttribute(attrText)
	if err != nil {
		return CheckExpr{}, err.Error()
	}
	c := CheckExpr{Dice: n, Attribute: at, Mode: CheckPlain}
	tail := strings.TrimLeft(rest[end:], " \t")
	switch {
	case tail == "":
		return c, ""
	case tail[0] == '+':
		c.Mode, c.Skill = CheckAssisted, strings.TrimSpace(tail[1:])
		if c.Skill == "" {
			return CheckExpr{}, "missing skill name after \"+\", as in 3/ST+Climbing"
		}
		return c, ""
	case len(tail) >= len("against") && strings.EqualFold(tail[:len("against")], "against"):
		after := tail[len("against"):]
		if after != "" && after[0] != ' ' && after[0] != '\t' {
			break
		}
		c.Mode, c.Skill = CheckRequired, strings.TrimSpace(after)
		if c.Skill == "" {
			return CheckExpr{}, "missing skill name after \"against\", as in 3/ST against Swimming"
		}
		return c, ""
	}
	return CheckExpr{}, fmt.Sprintf("unexpected %q after %s; add a skill as 3/ST+Climbing or 3/ST against Swimming", unexpected(tail), at)
}

// isASCIILetter reports whether c is an ASCII letter.
func isASCIILetter(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}
