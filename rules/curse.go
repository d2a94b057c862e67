package rules

import (
	"fmt"
	"slices"
	"strings"
)

// LiftMethod is how a character lifts a curse. Its string value is stored
// in events.
type LiftMethod string

// The ways to lift a curse. 2010 "Curse": "He can lift the curse by
// expending one wish, three karma points, or 10 XP"; 2020/2021 "Curse": "He
// can lift the curse by expending one wish, or by reducing his highest
// attribute by one."
const (
	// LiftWish spends one wish (all editions).
	LiftWish LiftMethod = "wish"
	// LiftAttribute lowers the highest attribute by one (2020, 2021).
	LiftAttribute LiftMethod = "attribute"
	// LiftKarma spends three karma points (2010).
	LiftKarma LiftMethod = "karma"
	// LiftXP spends 10 unspent XP (2010).
	LiftXP LiftMethod = "xp"
)

// The prices of lifting one curse level in edition 2010.
const (
	// CurseLiftKarma2010 is the karma that lifts a curse in edition 2010.
	CurseLiftKarma2010 = 3
	// CurseLiftXP2010 is the XP that lifts a curse in edition 2010.
	CurseLiftXP2010 = 10
)

// LiftMethods returns the ways edition ed lifts a curse, in the book's
// order (an unknown edition is DefaultEdition).
func LiftMethods(ed Edition) []LiftMethod {
	if ed.orDefault() == Edition2010 {
		return []LiftMethod{LiftWish, LiftKarma, LiftXP}
	}
	return []LiftMethod{LiftWish, LiftAttribute}
}

// ParseLiftMethod reads "wish", "attribute", "karma" or "xp",
// case-insensitively and ignoring surrounding space; anything else is a
// CodeInvalid error, with a did-you-mean when one is close.
func ParseLiftMethod(s string) (LiftMethod, error) {
	t := strings.TrimSpace(s)
	all := []string{string(LiftWish), string(LiftAttribute), string(LiftKarma), string(LiftXP)}
	for _, m := range all {
		if strings.EqualFold(t, m) {
			return LiftMethod(m), nil
		}
	}
	if hint, ok := Suggest(t, all); ok {
		return "", Errorf(CodeInvalid, "unknown way to lift a curse %q; did you mean %q?", t, hint)
	}
	return "", Errorf(CodeInvalid, "unknown way to lift a curse %q: use wish, attribute, karma or xp", t)
}

// CurseLift is the price of lifting one curse level.
type CurseLift struct {
	// Method is how the curse is lifted.
	Method LiftMethod
	// Wishes, Karma and XP are what is spent (one of them, or none for
	// LiftAttribute).
	Wishes, Karma, XP int
	// Attribute is the attribute lowered by LiftAttribute, from
	// AttributeFrom to AttributeTo.
	Attribute                  Attribute
	AttributeFrom, AttributeTo int
	// Rule cites the edition's rule.
	Rule string
}

// curseRule is the citation for edition ed's curse rule.
func curseRule(ed Edition) string {
	if ed == Edition2010 {
		return `edition 2010 "Curse": "He can lift the curse by expending one wish, three karma points, or 10 XP"`
	}
	return fmt.Sprintf(`edition %s "Curse": "He can lift the curse by expending one wish, or by reducing his highest attribute by one"`, ed)
}

// HighestAttributes returns the attributes tied for a's highest value, in
// the order ST, DX, IQ.
func HighestAttributes(a Attributes) []Attribute {
	top := max(a.ST, a.DX, a.IQ)
	var out []Attribute
	for _, at := range AttributeNames() {
		if a.Get(at) == top {
			out = append(out, at)
		}
	}
	return out
}

// LiftCurse prices lifting one level of who's curse (curses are cumulative;
// each lift removes one level) by method m, given what he has: attributes
// a, wishes, karma and unspent XP. With LiftAttribute it lowers the first
// of ST, DX, IQ among his highest; when two or more tie for highest, each
// of them is "his highest attribute", and a player who wants another one
// uses LiftCurseAttribute.
//
// Errors are CodeRule: no curse; a method edition ed lacks ("edition 2021
// lifts a curse by wish or attribute, not karma"); not enough wishes, karma
// or XP (with the numbers); an attribute that would fall below 1. An
// unknown method is CodeInvalid.
func LiftCurse(ed Edition, who string, curses int, a Attributes, wishes, karma, unspentXP int, m LiftMethod) (CurseLift, error) {
	ed, err := resolveEdition(ed)
	if err != nil {
		return CurseLift{}, err
	}
	if err := checkLiftable(ed, who, curses, m); err != nil {
		return CurseLift{}, err
	}
	lift := CurseLift{Method: m, Rule: curseRule(ed)}
	switch m {
	case LiftWish:
		if wishes < 1 {
			return CurseLift{}, Errorf(CodeRule, "%s has no wish to spend: lifting a curse costs one wish (%s)", who, lift.Rule)
		}
		lift.Wishes = 1
	case LiftKarma:
		if karma < CurseLiftKarma2010 {
			return CurseLift{}, Errorf(CodeRule, "cannot lift %s's curse with karma: it costs %d karma, %s has %d (%s)", who, CurseLiftKarma2010, who, max(karma, 0), lift.Rule)
		}
		lift.Karma = CurseLiftKarma2010
	case LiftXP:
		if unspentXP < CurseLiftXP2010 {
			return CurseLift{}, Errorf(CodeRule, "cannot lift %s's curse with XP: it costs %d XP, %s has %d unspent (%s)", who, CurseLiftXP2010, who, max(unspentXP, 0), lift.Rule)
		}
		lift.XP = CurseLiftXP2010
	case LiftAttribute:
		return liftByAttribute(ed, who, a, HighestAttributes(a)[0])
	}
	return lift, nil
}

// LiftCurseAttribute prices lifting one level of who's curse by lowering
// attribute at by one, which must be one of his highest (edition 2020 or
// 2021). Errors are those of LiftCurse, plus CodeRule when at is not one of
// the highest and CodeInvalid for an unknown attribute.
func LiftCurseAttribute(ed Edition, who string, curses int, a Attributes, at Attribute) (CurseLift, error) {
	ed, err := resolveEdition(ed)
	if err != nil {
		return CurseLift{}, err
	}
	if err := checkLiftable(ed, who, curses, LiftAttribute); err != nil {
		return CurseLift{}, err
	}
	if !at.Valid() {
		return CurseLift{}, Errorf(CodeInvalid, "unknown attribute %q: use ST, DX or IQ", string(at))
	}
	highest := HighestAttributes(a)
	if !slices.Contains(highest, at) {
		top := highest[0]
		return CurseLift{}, Errorf(CodeRule, "cannot lift %s's curse by lowering %s %d: the curse takes his highest attribute, %s %d (%s)",
			who, at, a.Get(at), top, a.Get(top), curseRule(ed))
	}
	return liftByAttribute(ed, who, a, at)
}

// checkLiftable rejects a lift when who has no curse or edition ed lacks
// method m.
func checkLiftable(ed Edition, who string, curses int, m LiftMethod) error {
	switch m {
	case LiftWish, LiftAttribute, LiftKarma, LiftXP:
	default:
		return Errorf(CodeInvalid, "unknown way to lift a curse %q: use wish, attribute, karma or xp", string(m))
	}
	if curses <= 0 {
		return Errorf(CodeRule, "%s is not cursed: there is no curse to lift", who)
	}
	if slices.Contains(LiftMethods(ed), m) {
		return nil
	}
	if ed == Edition2010 {
		return Errorf(CodeRule, "edition 2010 lifts a curse by wish, karma or xp, not %s", m)
	}
	return Errorf(CodeRule, "edition %s lifts a curse by wish or attribute, not %s", ed, m)
}

// liftByAttribute lowers at by one, refusing to go below 1.
func liftByAttribute(ed Edition, who string, a Attributes, at Attribute) (CurseLift, error) {
	from := a.Get(at)
	if from-1 < 1 {
		return CurseLift{}, Errorf(CodeRule, "cannot lift %s's curse by lowering %s %d: it would fall below 1", who, at, from)
	}
	return CurseLift{Method: LiftAttribute, Attribute: at, AttributeFrom: from, AttributeTo: from - 1, Rule: curseRule(ed)}, nil
}
