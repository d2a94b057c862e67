package rules

import (
	"fmt"
	"strings"
)

// DaysForFullRecovery2010 is how many consecutive days of rest heal a
// character completely in edition 2010 ("Recovery": "a character fully
// recovers in a week").
const DaysForFullRecovery2010 = 7

// FatigueAfterEncounter returns the fatigue points b recovers when an
// encounter ends: 1, or 0 when he has none.
// All editions, "Fatigue": "A character recovers one fatigue point after
// each encounter".
func FatigueAfterEncounter(b Body) int { return min(1, max(b.Fatigue, 0)) }

// FatigueAfterSleep returns the fatigue points b recovers with a full night
// of sleep: all of them.
// All editions, "Fatigue": "and recovers all his fatigue with a full night
// of sleep".
func FatigueAfterSleep(b Body) int { return max(b.Fatigue, 0) }

// RestConditions are the four conditions a day of rest must meet to count.
// All editions, "Recovery": "(1) they remain in one location, (2) have
// adequate shelter, (3) are fully provisioned, and (4) they participate in
// no combat, or strenuous activity" (2010: "no combat or any other
// activity").
type RestConditions struct {
	StayedPut, Sheltered, Provisioned, NoStrenuous bool
}

// All reports whether every condition holds.
func (r RestConditions) All() bool {
	return r.StayedPut && r.Sheltered && r.Provisioned && r.NoStrenuous
}

// Missing returns the names of the conditions that do not hold, in the
// books' order, for messages; nil when all hold.
func (r RestConditions) Missing() []string {
	var out []string
	if !r.StayedPut {
		out = append(out, "remained in one location")
	}
	if !r.Sheltered {
		out = append(out, "adequate shelter")
	}
	if !r.Provisioned {
		out = append(out, "fully provisioned")
	}
	if !r.NoStrenuous {
		out = append(out, "no combat or strenuous activity")
	}
	return out
}

// CanRest checks that who may rest: the dead cannot (CodeRule).
func CanRest(who string, dead bool) error {
	if dead {
		return Errorf(CodeRule, "%s is dead and cannot rest", who)
	}
	return nil
}

// RestHealing returns the damage healed by days of rest during an
// adventure, the count of consecutive valid rest days after them, and a
// note with the numbers. restedDaysBefore is that count before these days
// (0 after anything but valid rest). The caller checks CanRest first.
//
// A rest that misses any condition heals nothing and resets the count to 0,
// in every edition.
//
// 2020/2021 "Recovery": "wounded characters recover one damage per day of
// rest": min(days, damage); the count grows by days.
//
// 2010 "Recovery": "a character fully recovers in a week": nothing heals
// until the count reaches DaysForFullRecovery2010; on that day all damage
// heals (healed is all of b.Damage) and the count restarts at 0. Fatigue is
// gone by then too, since each day of rest includes a night's sleep
// (FatigueAfterSleep). So 3 days then 4 days heal everything on the 7th.
func RestHealing(ed Edition, b Body, days int, restedDaysBefore int, cond RestConditions) (healed int, restedDaysAfter int, note string) {
	ed = ed.orDefault()
	before := max(restedDaysBefore, 0)
	if days < 1 {
		return 0, before, "no days of rest"
	}
	daysText := fmt.Sprintf("%d %s of rest", days, plural(days, "day", "days"))
	verb := func(one, many string) string { return plural(days, one, many) }
	if !cond.All() {
		return 0, 0, fmt.Sprintf("%s %s nothing: a day of rest counts only with all four conditions, and these were missing: %s (edition %s \"Recovery\")",
			daysText, verb("heals", "heal"), strings.Join(cond.Missing(), ", "), ed)
	}
	damage := max(b.Damage, 0)
	if ed == Edition2010 {
		total := before + days
		if total < DaysForFullRecovery2010 {
			return 0, total, fmt.Sprintf("%s %s %d of the %d in a row a full recovery needs: nothing heals yet (edition 2010 \"Recovery\": fully recovers in a week)",
				daysText, verb("makes", "make"), total, DaysForFullRecovery2010)
		}
		return damage, 0, fmt.Sprintf("%s %s %d in a row: a full recovery, %d damage healed and all fatigue gone (edition 2010 \"Recovery\": fully recovers in a week)",
			daysText, verb("completes", "complete"), DaysForFullRecovery2010, damage)
	}
	healed = min(days, damage)
	switch {
	case damage == 0:
		note = fmt.Sprintf("%s %s nothing: there is no damage to heal (edition %s \"Recovery\": one damage per day of rest)", daysText, verb("heals", "heal"), ed)
	case healed < days:
		note = fmt.Sprintf("%s %s %d damage, all there was (edition %s \"Recovery\": one damage per day of rest)", daysText, verb("heals", "heal"), healed, ed)
	default:
		note = fmt.Sprintf("%s %s %d damage (edition %s \"Recovery\": one damage per day of rest)", daysText, verb("heals", "heal"), healed, ed)
	}
	return healed, before + days, note
}

// FullRecovery returns b fully recovered: no damage and no fatigue.
// All editions, "Recovery": "Between adventures, characters recover
// fully."
func FullRecovery(b Body) Body {
	b.Damage, b.Fatigue = 0, 0
	return b
}
