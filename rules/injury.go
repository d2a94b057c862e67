package rules

import "fmt"

// Body is a character's injury state: his ST and the damage and fatigue
// points he carries.
// All editions, "INJURY & EXHAUSTION": "Injury is measured in damage
// points; exhaustion is measured in fatigue points. Both are cumulative."
type Body struct {
	ST, Damage, Fatigue int
}

// Incapacitated reports Damage + Fatigue >= ST.
// All editions: "When a character accumulates a combination of damage and
// fatigue equal to his ST or more, he is immediately incapacitated."
func (b Body) Incapacitated() bool { return b.Damage+b.Fatigue >= b.ST }

// MortallyWounded reports Damage >= ST: he dies when combat ends unless
// healed to Damage <= ST-1 (see EndOfCombat).
// All editions, "Damage": "When all combat is over, characters suffering
// damage equal to their ST or more must be healed to a net ST of at least
// one. If not, they die." (2021's short "DEATH" paragraph, "A fighter
// accumulating damage equal to or exceeding his ST dies", is overridden by
// its own full INJURY section, which matches the other editions.)
func (b Body) MortallyWounded() bool { return b.Damage >= b.ST }

// Unrecoverable reports Damage >= 2*ST: dead whatever the healing.
// All editions, "Damage": "Characters sustaining twice their ST or more in
// damage are unrecoverable."
func (b Body) Unrecoverable() bool { return b.Damage >= 2*b.ST }

// Condition names the worst of b's states, for sheets and messages:
// "unrecoverable", "mortally wounded", "incapacitated", "hurt" or "unhurt".
func (b Body) Condition() string {
	switch {
	case b.Unrecoverable():
		return "unrecoverable"
	case b.MortallyWounded():
		return "mortally wounded"
	case b.Incapacitated():
		return "incapacitated"
	case b.Damage > 0 || b.Fatigue > 0:
		return "hurt"
	}
	return "unhurt"
}

// AddFatigue deals points of fatigue to b, one point at a time, and returns
// the new body and how many of the points became damage: a point dealt
// while the character is already incapacitated (before that point) is a
// damage point. So ST10 with 0 damage and 8 fatigue taking 4 fatigue ends
// with 10 fatigue and 2 damage. Non-positive points change nothing.
// All editions, "Fatigue": "A fatigue point dealt to an incapacitated
// character is a damage point" (2010: "Each fatigue point delivered to an
// incapacitated character is a damage point").
func AddFatigue(b Body, points int) (Body, int) {
	converted := 0
	for range max(points, 0) {
		if b.Incapacitated() {
			b.Damage++
			converted++
		} else {
			b.Fatigue++
		}
	}
	return b, converted
}

// AddDamage deals points of damage to b; non-positive points change nothing.
func AddDamage(b Body, points int) Body {
	b.Damage += max(points, 0)
	return b
}

// EndOfCombat decides, when all combat is over, whether a character with
// body b dies: Damage >= 2*ST dies as "unrecoverable"; Damage >= ST dies as
// "not healed to a net ST of 1 when combat ended"; anyone else lives. Call
// it after the medics have healed (MedicHeal).
// All editions, "Damage" (see MortallyWounded and Unrecoverable). Worked
// example: Ajax (ST11) with 11 damage dies unless healed to 10 or less.
func EndOfCombat(b Body) (dies bool, cause string) {
	switch {
	case b.Unrecoverable():
		return true, "unrecoverable"
	case b.MortallyWounded():
		return true, "not healed to a net ST of 1 when combat ended"
	}
	return false, ""
}

// Heal is what one medic's treatment heals.
type Heal struct {
	// Points is the damage points healed (0 on a failed check).
	Points int
	// Note explains the result with its numbers.
	Note string
}

// MedicCheck returns the check a medic rolls in edition ed: 3/IQ in
// 2020/2021 (Medic: "on 3/IQ"; "SKILLS": "pass a three-die check against
// his applicable attribute"), 3/IQ+Medic in 2010, whose "SKILLS" adds the
// level to every skill check ("a character must roll his attribute
// (+skill) or less").
func MedicCheck(ed Edition) CheckExpr {
	if ed.orDefault() == Edition2010 {
		return CheckExpr{Dice: 3, Attribute: IQ, Skill: "Medic", Mode: CheckAssisted}
	}
	return CheckExpr{Dice: 3, Attribute: IQ, Mode: CheckPlain}
}

// MedicRemaining returns how many points of patient's damage from the
// combat just over a medic may still heal: damageThisCombat less what any
// medic has already healed of it. None left is a CodeRule error; call it
// before rolling the medic's check. Negative numbers, or more healed than
// taken, are CodeInvalid.
// All editions, Medic: "for damage sustained in current combat".
func MedicRemaining(patient string, damageThisCombat, alreadyHealedThisCombat int) (int, error) {
	switch {
	case damageThisCombat < 0:
		return 0, Errorf(CodeInvalid, "%s's damage this combat %d is negative", patient, damageThisCombat)
	case alreadyHealedThisCombat < 0:
		return 0, Errorf(CodeInvalid, "%s's damage healed this combat %d is negative", patient, alreadyHealedThisCombat)
	case alreadyHealedThisCombat > damageThisCombat:
		return 0, Errorf(CodeInvalid, "%s had %d damage healed of the %d taken this combat: more than he took", patient, alreadyHealedThisCombat, damageThisCombat)
	case alreadyHealedThisCombat == damageThisCombat:
		return 0, Errorf(CodeRule, "%s has no damage from this combat left for a medic to heal (damage from earlier combats cannot be)", patient)
	}
	return damageThisCombat - alreadyHealedThisCombat, nil
}

// MedicHeal resolves one medic's treatment of one patient after a combat:
// on a passed check (see MedicCheck), one damage point per Medic level, but
// no more than the patient's damage from this combat that no medic has yet
// healed; on a failed check, nothing. A medic without the skill, or a
// patient with nothing of this combat's damage left to heal, is a CodeRule
// error.
//
// Several medics may treat the same patient, each once, and one medic may
// treat several patients ("Can be used across multiple characters"). A
// medic treats each patient once per combat; check that with
// MedicMayTreat before rolling.
// All editions, Medic: "heal one damage point per medic level for damage
// sustained in current combat on 3/IQ. Used after combat is over. Can be
// used across multiple characters."
func MedicHeal(ed Edition, medic string, level int, check CheckOutcome, patient string, damageThisCombat, alreadyHealedThisCombat int) (Heal, error) {
	if _, err := resolveEdition(ed); err != nil {
		return Heal{}, err
	}
	if level < 0 {
		return Heal{}, Errorf(CodeInvalid, "%s's Medic level %d is negative", medic, level)
	}
	if level == 0 {
		return Heal{}, Errorf(CodeRule, "%s has no Medic skill: a medic heals one damage point per Medic level", medic)
	}
	left, err := MedicRemaining(patient, damageThisCombat, alreadyHealedThisCombat)
	if err != nil {
		return Heal{}, err
	}
	if !check.Pass {
		return Heal{Note: fmt.Sprintf("%s fails the medic check (total %d against %d): %s heals nothing", medic, check.Total, check.Target, patient)}, nil
	}
	points := min(level, left)
	still := ""
	if alreadyHealedThisCombat > 0 {
		still = " still unhealed"
	}
	note := fmt.Sprintf("%s (Medic %d) passes the medic check (total %d against %d) and heals %d of %s's %d damage from this combat%s",
		medic, level, check.Total, check.Target, points, patient, left, still)
	return Heal{Points: points, Note: note}, nil
}

// MedicMayTreat checks that medic has not already treated patient after
// this combat: a second treatment, after a pass or a failure, is a CodeRule
// error.
//
// The books are silent on repeats. ltscamp allows one treatment per medic
// per patient per combat because the Medic skill heals "one damage point
// per medic level": the amount is tied to the level, and if a medic could
// roll again and again every medic would heal all of a combat's damage,
// whatever his level, and a failed 3/IQ would cost nothing.
func MedicMayTreat(medic, patient string, treatedBefore bool) error {
	if treatedBefore {
		return Errorf(CodeRule, "%s has already treated %s after this combat: a medic treats each patient once per combat (he heals one point per Medic level, on one 3/IQ)", medic, patient)
	}
	return nil
}
