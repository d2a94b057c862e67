package rules

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Contest outcomes, stored in events.
const (
	// ContestWin means one side won; ContestOutcome.Winner says which.
	ContestWin = "win"
	// ContestTie means equal totals and equal targets: nobody wins.
	ContestTie = "tie"
	// ContestBothFail means both totals exceeded their targets.
	ContestBothFail = "both_fail"
)

// DefaultContestDice is the number of dice a side rolls when it does not
// choose.
const DefaultContestDice = 3

// ContestSide is one side of a contest ("winning a check"): who rolls, on
// which attribute and skill, and how many dice (0 means DefaultContestDice).
type ContestSide struct {
	Name           string
	Attribute      Attribute
	AttributeValue int
	Restriction    int
	SkillName      string
	SkillLevel     int
	Curses         int
	Dice           int
}

// ContestSideOutcome is one side's roll in a contest.
type ContestSideOutcome struct {
	// Faces are the dice rolled.
	Faces []int
	// Sum is the faces added up.
	Sum int
	// Total is Sum: in a contest a curse lowers the target instead.
	Total int
	// Target is the attribute (less restriction for DX) plus skill level,
	// less one per curse level.
	Target int
	// Over reports Total > Target: this side fails.
	Over bool
	// Modifiers lists the target and total modifiers.
	Modifiers []Modifier
}

// ContestOutcome is a resolved contest.
type ContestOutcome struct {
	// Sides are the two sides' rolls, in the order given.
	Sides [2]ContestSideOutcome
	// Winner is 0 or 1, or -1 on a tie or when both fail.
	Winner int
	// Outcome is ContestWin, ContestTie or ContestBothFail.
	Outcome string
	// Explanation is a sentence saying why, with the numbers.
	Explanation string
}

// ResolveContest resolves a contest between a and b, rolling a's dice with
// ra and b's with rb (rb may be nil to roll both with ra, a's dice first).
//
// 2010 "Winning a Check": "The character with the higher total wins, unless
// his total exceeds his attribute (+skills). On a tie, the higher attribute
// wins. If both totals go over, both characters fail." 2020 "Winning a Check"
// and 2021 "Winning a Roll" say the same but are silent on ties and on both
// going over, so the 2010 rule is used for every edition. Equal totals and
// equal targets are a tie that nobody wins. "The higher attribute" is read
// as the side's target (attribute + skill − restriction), the number its
// roll is measured against.
func ResolveContest(ed Edition, a, b ContestSide, ra, rb Roller) (ContestOutcome, error) {
	ed, err := resolveEdition(ed)
	if err != nil {
		return ContestOutcome{}, err
	}
	if rb == nil {
		rb = ra
	}
	a.Name = sideName(a.Name, "the first side")
	b.Name = sideName(b.Name, "the second side")
	var out ContestOutcome
	for i, side := range []struct {
		s ContestSide
		r Roller
	}{{a, ra}, {b, rb}} {
		so, err := rollContestSide(side.s, side.r)
		if err != nil {
			return ContestOutcome{}, err
		}
		out.Sides[i] = so
	}
	sa, sb := out.Sides[0], out.Sides[1]
	switch {
	case sa.Over && sb.Over:
		out.Winner, out.Outcome = -1, ContestBothFail
		out.Explanation = fmt.Sprintf("%s's %s exceeds %s and %s's %s exceeds %s; both fail.",
			a.Name, totalText(sa), targetText(a, sa), b.Name, totalText(sb), targetText(b, sb))
	case sa.Over:
		out.Winner, out.Outcome = 1, ContestWin
		out.Explanation = fmt.Sprintf("%s's %s exceeds %s; %s wins with %s on %s.",
			a.Name, totalText(sa), targetText(a, sa), b.Name, totalText(sb), targetText(b, sb))
	case sb.Over:
		out.Winner, out.Outcome = 0, ContestWin
		out.Explanation = fmt.Sprintf("%s's %s exceeds %s; %s wins with %s on %s.",
			b.Name, totalText(sb), targetText(b, sb), a.Name, totalText(sa), targetText(a, sa))
	case sa.Total != sb.Total:
		w, l := 0, 1
		if sb.Total > sa.Total {
			w, l = 1, 0
		}
		sides := [2]ContestSide{a, b}
		out.Winner, out.Outcome = w, ContestWin
		out.Explanation = fmt.Sprintf("%s wins with %s on %s against %s's %s on %s.",
			sides[w].Name, totalText(out.Sides[w]), targetText(sides[w], out.Sides[w]),
			sides[l].Name, totalText(out.Sides[l]), targetText(sides[l], out.Sides[l]))
	case sa.Target != sb.Target:
		w, l := 0, 1
		if sb.Target > sa.Target {
			w, l = 1, 0
		}
		sides := [2]ContestSide{a, b}
		out.Winner, out.Outcome = w, ContestWin
		out.Explanation = fmt.Sprintf("%s and %s both total %d; %s wins the tie with the higher %s against %s%s.",
			a.Name, b.Name, sa.Total, sides[w].Name, targetText(sides[w], out.Sides[w]), targetText(sides[l], out.Sides[l]), tieRuleNote(ed))
	default:
		out.Winner, out.Outcome = -1, ContestTie
		out.Explanation = fmt.Sprintf("%s and %s both total %d against %d; it is a tie.",
			a.Name, b.Name, sa.Total, sa.Target)
	}
	if strings.HasPrefix(out.Explanation, "the ") {
		// Only the fallback names are lower case; players' names are kept as typed.
		out.Explanation = capitalize(out.Explanation)
	}
	return out, nil
}

// rollContestSide validates one side and rolls its dice.
func rollContestSide(s ContestSide, r Roller) (ContestSideOutcome, error) {
	dice := s.Dice
	if dice == 0 {
		dice = DefaultContestDice
	}
	switch {
	case !s.Attribute.Valid():
		return ContestSideOutcome{}, Errorf(CodeInvalid, "unknown attribute %q for %s: use ST, DX or IQ", string(s.Attribute), s.Name)
	case dice < 1 || dice > MaxDice:
		return ContestSideOutcome{}, Errorf(CodeInvalid, "%s must roll 1 to %d dice, not %d", s.Name, MaxDice, dice)
	case s.AttributeValue < 0:
		return ContestSideOutcome{}, Errorf(CodeInvalid, "%s's %s %d is not an attribute value", s.Name, s.Attribute, s.AttributeValue)
	case s.Restriction < 0:
		return ContestSideOutcome{}, Errorf(CodeInvalid, "%s's armour restriction %d is negative", s.Name, s.Restriction)
	case s.SkillLevel < 0:
		return ContestSideOutcome{}, Errorf(CodeInvalid, "%s's skill level %d is negative", s.Name, s.SkillLevel)
	case s.Curses < 0:
		return ContestSideOutcome{}, Errorf(CodeInvalid, "%s's curse level %d is negative", s.Name, s.Curses)
	}
	// A side's skill assists it: its level, if any, adds to the target.
	target, mods := CheckTarget(CheckInput{
		Expr:           CheckExpr{Dice: dice, Attribute: s.Attribute, Skill: s.SkillName, Mode: CheckAssisted},
		AttributeValue: s.AttributeValue,
		Restriction:    s.Restriction,
		SkillName:      s.SkillName,
		SkillLevel:     s.SkillLevel,
	})
	// A curse must only ever worsen the result ("worsening the result"). In
	// a contest a higher total is better when comparing but worse against
	// the target, so adding to the total could win a contest; lowering the
	// target instead makes going over likelier and a tie on targets lost,
	// and never helps.
	if s.Curses > 0 {
		target -= s.Curses
		mods = append(mods, Modifier{Source: fmt.Sprintf("curse ×%d", s.Curses), Value: -s.Curses, Applies: AppliesTarget})
	}
	faces, err := rollChecked(r, dice, 6)
	if err != nil {
		return ContestSideOutcome{}, err
	}
	so := ContestSideOutcome{Faces: faces, Sum: sum(faces), Target: target, Modifiers: mods}
	so.Total = so.Sum
	so.Over = so.Total > target
	return so, nil
}

// tieRuleNote says where the tie rule comes from when the edition's own
// book is silent.
func tieRuleNote(ed Edition) string {
	if ed == Edition2010 {
		return ""
	}
	return fmt.Sprintf(" (the 2010 rule; edition %s does not say)", ed)
}

// sideName trims name and falls back to a description of the side.
func sideName(name, fallback string) string {
	if n := strings.TrimSpace(name); n != "" {
		return n
	}
	return fallback
}

// totalText is the total, "13": a curse lowers the target, not the total
// (see rollContestSide), so the total is the dice rolled.
func totalText(so ContestSideOutcome) string { return fmt.Sprint(so.Total) }

// targetText is "ST 12", or "DX 11 (DX 12, armour restriction -2, skill
// Pilot +1)" when the target is modified.
func targetText(s ContestSide, so ContestSideOutcome) string {
	var parts []string
	for _, m := range so.Modifiers {
		if m.Applies == AppliesTarget {
			parts = append(parts, fmt.Sprintf("%s %+d", m.Source, m.Value))
		}
	}
	if len(parts) == 0 {
		return fmt.Sprintf("%s %d", s.Attribute, so.Target)
	}
	return fmt.Sprintf("%s %d (%s %d, %s)", s.Attribute, so.Target, s.Attribute, s.AttributeValue, strings.Join(parts, ", "))
}

// capitalize upper-cases the first letter of a sentence.
func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
