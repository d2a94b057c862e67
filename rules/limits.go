package rules

import (
	"strconv"
	"strings"
)

// The bounds on the numbers a player or a GM types. The books set none of
// these: they are the game's sane range, far beyond anything play reaches,
// so that a slip of the keyboard (or 9223372036854775807) is refused with
// the range named instead of wrapping a ledger round to a negative number.
// Each is justified from the rule books (RULES.md, seeds/).
const (
	// MaxXPAward is the most XP one award gives. 2021 "Experience
	// Points": a victory is worth 1 XP to each character, a plotword 1 XP;
	// a GM's award for a whole adventure is tens. 10,000 XP would raise a
	// human from ST8 to beyond ST90 (each level costs its level + 6), so
	// no award of play comes near it.
	MaxXPAward = 10000
	// MaxRaiseLevels is the most levels one XP spend raises: skills stop
	// at MaxSkillLevel (20), and 20 attribute levels at once is already
	// past edition 2020's cap of 42 attribute points for a human.
	MaxRaiseLevels = MaxSkillLevel
	// MaxKarmaGrant is the most karma one grant gives. A karma point buys
	// one re-roll ("Karma/Wish"); a Storyteller gives one per level
	// (at most MaxSkillLevel); 100 is more re-rolls than an adventure has
	// rolls that matter.
	MaxKarmaGrant = 100
	// MaxWishGrant is the most wishes one grant gives. A wish revives the
	// dead (2020/2021) or negates all damage (2010): the rarest reward of
	// the books, given one at a time.
	MaxWishGrant = 10
	// MaxCurseLevels is the most curse levels one curse lays. Each level
	// worsens every check by one ("Curse"): at 10 a 3/attribute check of a
	// starting character (attributes 8 to 16) passes only on a roll of 3
	// to 6, and more would make every roll of the character fail.
	MaxCurseLevels = 10
	// MaxPoints is the most damage, fatigue or healing one command deals:
	// damage of twice ST is unrecoverable ("Injury") and no combatant has
	// an ST above MaxFoeAttribute (99), so 2 × 99 points finish anyone.
	MaxPoints = 2 * MaxFoeAttribute
	// MaxDays is the most game days one `day next` or `rest` moves on.
	// The books count time in days and weeks (2010: "fully recovered after
	// a week of rest"; 2020/2021: one damage point per day of rest, and
	// 2 × 99 damage heals in 198 days); a year covers any of it.
	MaxDays = 365
	// MaxShipDamage is the most points one ship hit deals: the largest
	// weapon a record may carry is MaxShipRating d6 ("Every six build
	// points spent on weapons enable the craft to deal one die of
	// damage"), and that many dice roll at most six each.
	MaxShipDamage = 6 * MaxShipRating
	// MaxCreationAttribute is the highest attribute a new character may
	// have: 32 points with the other two at the minimum of 8 ("New
	// Characters": "ST8, DX8, IQ8, and eight discretionary points").
	MaxCreationAttribute = CreationPoints - 2*MinAttribute
)

// Quantity names a number the user types, for CheckQuantity: the command
// and flag it comes from, its bounds and how the range is said.
type Quantity string

// The quantities bounded.
const (
	QtyXPAward     Quantity = "xp award"
	QtyRaiseLevels Quantity = "xp spend --levels"
	QtyKarmaGrant  Quantity = "karma grant"
	QtyKarmaToXP   Quantity = "karma to-xp"
	QtyWishGrant   Quantity = "wish grant"
	QtyCurseAdd    Quantity = "curse add"
	QtyDamage      Quantity = "damage"
	QtyHeal        Quantity = "heal"
	QtyDayNext     Quantity = "day next --days"
	QtyRestDays    Quantity = "rest --days"
	QtyTargetST    Quantity = "attack --target-st"
	QtyShipDamage  Quantity = "ship hit --damage"
)

// Range is the inclusive range of a quantity and the words that say it:
// "an award is 1 to 10,000 XP".
type Range struct {
	Min, Max int
	// Subject and Unit complete "SUBJECT is MIN to MAX UNIT".
	Subject, Unit string
	// Refusal, when set, is the format (of the number typed) that opens
	// the message refusing it, "cannot award %d XP"; otherwise the message
	// opens with the quantity and the number, "day next --days 400".
	Refusal string
}

// Range returns q's range; ok is false for an unknown quantity.
func (q Quantity) Range() (r Range, ok bool) {
	switch q {
	case QtyXPAward:
		return Range{1, MaxXPAward, "an award", "XP", "cannot award %d XP"}, true
	case QtyRaiseLevels:
		return Range{1, MaxRaiseLevels, "a spend", "levels", ""}, true
	case QtyKarmaGrant:
		return Range{1, MaxKarmaGrant, "a grant", "karma points", "cannot grant %d karma"}, true
	case QtyKarmaToXP:
		return Range{1, MaxKarmaGrant, "karma taken as XP", "points at once", ""}, true
	case QtyWishGrant:
		return Range{1, MaxWishGrant, "a grant", "wishes", "cannot grant %d wishes"}, true
	case QtyCurseAdd:
		return Range{1, MaxCurseLevels, "a curse", "levels", "cannot lay %d curse levels"}, true
	case QtyDamage:
		return Range{1, MaxPoints, "damage dealt at once", "points", "cannot deal %d points"}, true
	case QtyHeal:
		return Range{1, MaxPoints, "healing", "points", "cannot heal %d points"}, true
	case QtyDayNext:
		return Range{1, MaxDays, "a step of game time", "days", ""}, true
	case QtyRestDays:
		return Range{1, MaxDays, "a rest", "days", ""}, true
	case QtyTargetST:
		return Range{1, MaxFoeAttribute, "a target's ST", "", ""}, true
	case QtyShipDamage:
		return Range{1, MaxShipDamage, "a hit", "points", ""}, true
	}
	return Range{}, false
}

// String says the range: "an award is 1 to 10,000 XP".
func (r Range) String() string {
	s := r.Subject + " is " + Group(r.Min) + " to " + Group(r.Max)
	if r.Unit != "" {
		s += " " + r.Unit
	}
	return s
}

// CheckQuantity refuses n outside q's range with a CodeInvalid error that
// quotes the input and names the range: "cannot award
// 9223372036854775807 XP: an award is 1 to 10,000 XP", "day next --days
// 400: a step of game time is 1 to 365 days".
func CheckQuantity(q Quantity, n int) error {
	r, ok := q.Range()
	if !ok {
		return Errorf(CodeInternal, "no range for the quantity %q", string(q))
	}
	if n < r.Min || n > r.Max {
		if r.Refusal != "" {
			return Errorf(CodeInvalid, r.Refusal+": %s", n, r)
		}
		return Errorf(CodeInvalid, "%s %d: %s", q, n, r)
	}
	return nil
}

// Group writes n with commas between groups of three digits: 10,000.
func Group(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// AddChecked returns a + b, and false when the sum overflows an int: a
// ledger or a sheet that would wrap round is a broken log, not a number.
func AddChecked(a, b int) (int, bool) {
	c := a + b
	// Adding more than 0 raises a; anything else does not. A sum that
	// wrapped round moved the other way.
	return c, (c > a) == (b > 0)
}

// SubChecked returns a - b, and false when the difference overflows.
func SubChecked(a, b int) (int, bool) {
	c := a - b
	// Taking more than 0 lowers a; anything else does not.
	return c, (c < a) == (b > 0)
}
