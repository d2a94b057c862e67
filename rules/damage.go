package rules

import "fmt"

// DamageOutcome is a resolved damage roll, before armour.
type DamageOutcome struct {
	// Faces are the dice rolled.
	Faces []int
	// Sum is the faces added up.
	Sum int
	// Modifiers are the expression's modifier and the curse, both on the
	// total.
	Modifiers []Modifier
	// Raw is Sum plus the modifiers.
	Raw int
	// Total is the damage dealt: Raw raised to the edition's minimum.
	Total int
	// MinimumApplied reports that Raw was below the minimum.
	MinimumApplied bool
	// Note explains the minimum when it was applied, citing the edition.
	Note string
}

// DamageMinimum returns the least damage a hit deals in edition ed: 1 in
// 2020 and 2021, 0 in 2010 (no general minimum is stated; only the d6-1
// club says "min 1 damage"). An unknown edition is DefaultEdition.
// 2020/2021 "Damage (D)": "the number of damage points he delivers (minimum
// of one)"; 2021 "Damage": "(min=1)".
func DamageMinimum(ed Edition) int {
	if ed.orDefault() == Edition2010 {
		return 0
	}
	return 1
}

// ResolveDamage rolls a damage expression with r. Raw is the dice sum plus
// the expression's modifier minus one per curse level; Total is Raw raised
// to DamageMinimum(ed). Armour is applied later by the caller.
// All editions, "Damage (D)": "He then adds or subtracts any modifiers";
// "Curse": "adds or subtracts one against all his checks and damage rolls,
// worsening the result". Worked example: 2d6-1 rolling 5 and 2 deals 6.
func ResolveDamage(ed Edition, expr DiceExpr, curses int, r Roller) (DamageOutcome, error) {
	return resolveDamage(ed, expr, nil, curses, r)
}

// resolveDamage is ResolveDamage with extra total modifiers (a combat
// skill's +1 damage, the stronger attacker's +1) added after the
// expression's modifier and before the curse, so that the edition's minimum
// applies to the final sum.
func resolveDamage(ed Edition, expr DiceExpr, extra []Modifier, curses int, r Roller) (DamageOutcome, error) {
	ed, err := resolveEdition(ed)
	if err != nil {
		return DamageOutcome{}, err
	}
	if reason := expr.validate(); reason != "" {
		return DamageOutcome{}, Errorf(CodeInvalid, "bad dice %q: %s", expr.String(), reason)
	}
	if curses < 0 {
		return DamageOutcome{}, Errorf(CodeInvalid, "curse level %d is negative", curses)
	}
	faces, err := rollChecked(r, expr.Count, expr.Sides)
	if err != nil {
		return DamageOutcome{}, err
	}
	out := DamageOutcome{Faces: faces, Sum: sum(faces)}
	if expr.Modifier != 0 {
		out.Modifiers = append(out.Modifiers, Modifier{Source: "modifier", Value: expr.Modifier, Applies: AppliesTotal})
	}
	bonus := 0
	for _, m := range extra {
		out.Modifiers = append(out.Modifiers, m)
		bonus += m.Value
	}
	curse, cursed := curseModifier(curses, -1)
	if cursed {
		out.Modifiers = append(out.Modifiers, curse)
	}
	out.Raw = out.Sum + expr.Modifier + bonus + curse.Value
	out.Total = out.Raw
	if minimum := DamageMinimum(ed); out.Raw < minimum {
		out.Total = minimum
		out.MinimumApplied = true
		if ed == Edition2010 {
			out.Note = fmt.Sprintf("%d raised to 0: damage cannot be negative (edition 2010 states no minimum)", out.Raw)
		} else {
			out.Note = fmt.Sprintf("%d raised to the minimum of 1 (edition %s \"Damage (D)\": minimum of one)", out.Raw, ed)
		}
	}
	return out, nil
}
