package rules

import "fmt"

// WishEffect is what spending a wish does to a character.
type WishEffect struct {
	// Revives reports that a character just killed lives again.
	Revives bool
	// DamageTo and FatigueTo are his damage and fatigue afterwards.
	DamageTo, FatigueTo int
	// Rule cites the edition's rule.
	Rule string
}

// UseWish returns the effect of who spending a wish on himself, with body b
// and dead reporting that he was just killed (the caller decides what
// "just" means: the wish is for the character killed in the encounter that
// is happening, not one long buried).
//
// 2020/2021 "Karma/Wish": "A character expends a wish to fully revive, even
// if he was just killed": alive, no damage, no fatigue.
// 2010 "Karma/Wish": "A character expends a wish to negate all damage, even
// if he was just killed": alive, no damage, fatigue unchanged.
//
// A wish that would change nothing (a living character with no damage, and
// in 2020/2021 no fatigue) is a CodeRule error such as "Ajax is unhurt: a
// wish would do nothing". A wish works even on an unrecoverable character
// (damage >= 2×ST): it negates all damage, which is beyond any healing.
func UseWish(ed Edition, who string, b Body, dead bool) (WishEffect, error) {
	ed, err := resolveEdition(ed)
	if err != nil {
		return WishEffect{}, err
	}
	if b.Damage < 0 || b.Fatigue < 0 {
		return WishEffect{}, Errorf(CodeInvalid, "%s's damage %d and fatigue %d cannot be negative", who, b.Damage, b.Fatigue)
	}
	if ed == Edition2010 {
		if !dead && b.Damage == 0 {
			if b.Fatigue > 0 {
				return WishEffect{}, Errorf(CodeRule, "%s has no damage: a wish would do nothing (edition 2010: a wish negates damage, not fatigue)", who)
			}
			return WishEffect{}, Errorf(CodeRule, "%s is unhurt: a wish would do nothing", who)
		}
		return WishEffect{Revives: dead, DamageTo: 0, FatigueTo: b.Fatigue,
			Rule: `edition 2010 "Karma/Wish": "A character expends a wish to negate all damage, even if he was just killed"`}, nil
	}
	if !dead && b.Damage == 0 && b.Fatigue == 0 {
		return WishEffect{}, Errorf(CodeRule, "%s is unhurt: a wish would do nothing", who)
	}
	return WishEffect{Revives: dead, DamageTo: 0, FatigueTo: 0,
		Rule: fmt.Sprintf(`edition %s "Karma/Wish": "A character expends a wish to fully revive, even if he was just killed"`, ed)}, nil
}
