package campaign

import (
	"fmt"
	"slices"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// dealt is what an attack the replay decided again dealt its target: the
// points the damage.taken that follows it in its command must carry.
type dealt struct {
	target  string
	taken   int
	stopped int
	fatigue bool
	// told is set once the damage.taken came.
	told bool
}

// simpleAttack reports whether the replay decides an attack again: one
// made with its own hit roll and damage, not a re-roll, a completion, a
// dodge, a grapple or a throw (those are carried and checked).
func simpleAttack(p *events.AttackMade) bool {
	return p.Dodge == nil && p.AutoHit == "" && !p.HitOnly && p.Completes == "" && p.Rerolls == "" &&
		!p.Grappling && !p.Thrown && p.Counters == "" && len(p.Hit.Faces) > 0
}

// redecideAttack decides an attack again under the edition from the
// would-be sheets of attacker and target, with its own hit and damage
// dice (the damage dice entered with a miss, when it would now hit).
func (r *replay) redecideAttack(a *projections.Sheet, p *events.AttackMade) (events.AttackMade, string, string) {
	n := *p
	n.Edition = string(r.under)
	if !a.Alive() || a.Body().Incapacitated() {
		return n, "", fmt.Sprintf("%s would be %s and could not attack", a.Name, a.Status)
	}
	if t := r.world.Sheets[p.TargetID]; t != nil && !t.Alive() {
		return n, "", fmt.Sprintf("%s would already be dead", t.Name)
	}
	wp, err := rules.LookupWeapon(r.under, p.Weapon)
	if err != nil {
		return n, "", fmt.Sprintf("%s: edition %s has no such weapon", p.WeaponName, r.under)
	}
	in := rules.AttackInput{Edition: r.under, Attacker: a.Name, AttackerDX: a.Attributes.DX, AttackerRestriction: a.Restriction(),
		AttackerST: a.Attributes.ST, AttackerCurses: a.Curses, Weapon: wp, Bonus: rules.SkillBonus(p.Bonus), Target: p.Target,
		TargetST: p.TargetST, FatigueSetting: p.Fatigue && wp.Has(rules.FlagFatigueSetting)}
	if p.Bonus != "" {
		if sk, ok := rules.WeaponSkill(r.under, wp); ok {
			in.SkillName, in.SkillLevel = sk.NameIn(r.under), a.SkillLevel(sk.Key)
		}
		if in.SkillLevel == 0 {
			in.Bonus, in.SkillName = rules.BonusNone, ""
		}
	}
	t := r.world.Sheets[p.TargetID]
	if t != nil {
		in.TargetST, in.TargetArmor = t.Attributes.ST, t.RulesArmor()
	}
	damage := p.SpareDamage
	if p.Damage != nil {
		damage = p.Damage.Faces
	}
	o, err := rules.ResolveAttack(in, rules.NewGivenFaces(p.Hit.Faces), rules.NewGivenFaces(damage))
	if err != nil {
		if o.Hit.Pass && p.Damage == nil {
			return n, "", fmt.Sprintf("%s's %s would hit %s under %s, and the log has no damage dice for it", a.Name, p.WeaponName, p.Target, r.under)
		}
		return n, "", err.Error()
	}
	outcome := "miss"
	if o.Hit.Pass {
		outcome = "hit"
	}
	n.DX, n.Restriction, n.Curses, n.Skill, n.SkillLevel, n.Bonus = in.AttackerDX, in.AttackerRestriction, in.AttackerCurses, in.SkillName, in.SkillLevel, string(in.Bonus)
	n.TargetST, n.WeaponName = in.TargetST, wp.Name
	n.Hit = attackRoll(p.Hit.Expr, o.Hit.Faces, p.Hit.Entered, o.Hit.Sum, o.Hit.Total, o.Hit.Target, outcome, o.Hit.Modifiers)
	n.BeforeArmor, n.ArmorStopped, n.Taken, n.Fatigue, n.Explanation = o.BeforeArmor, o.ArmorStopped, o.Taken, o.Fatigue, o.Explanation
	n.Damage, n.SpareDamage = nil, nil
	switch {
	case o.Damage != nil:
		entered := len(damage) > 0 && (p.Damage == nil || p.Damage.Entered)
		dr := attackRoll(wp.Damage.String(), o.Damage.Faces, entered, o.Damage.Sum, o.Damage.Total, 0, "", o.Damage.Modifiers)
		n.Damage = &dr
	case len(damage) > 0:
		n.SpareDamage = slices.Clone(damage) // kept for a re-roll of the hit
	}
	n.Armor = ""
	if len(in.TargetArmor) > 0 {
		n.Armor = rules.ArmorNames(in.TargetArmor)
	}
	what := ""
	if p.Hit.Outcome != n.Hit.Outcome || p.Taken != n.Taken {
		what = fmt.Sprintf("%s's %s at %s %v: %s, %d taken under %s; %s, %d taken under %s", a.Name, p.WeaponName, p.Target, p.Hit.Faces,
			p.Hit.Outcome, p.Taken, r.own, n.Hit.Outcome, n.Taken, r.under)
	}
	return n, what, ""
}

// redealt makes the damage.taken an attack decided again deals, from the
// target's would-be sheet, as campaign's applyPoints makes it.
func redealt(t *projections.Sheet, d dealt, p events.DamageTaken) events.DamageTaken {
	n := p
	n.Dealt, n.ArmorStopped = d.taken, d.stopped
	if d.fatigue {
		after, asDamage := rules.AddFatigue(t.Body(), d.taken)
		n.Damage, n.Fatigue = asDamage, after.Fatigue-t.Fatigue
	} else {
		n.Damage, n.Fatigue = d.taken, 0
	}
	return n
}

// redecideContest decides a contest again under the edition, each party
// member's side at his would-be standing, with the same dice. A re-roll
// of a contest and a tackle are carried.
func (r *replay) redecideContest(p *events.ContestResolved) (events.ContestResolved, string, string) {
	n := *p
	n.Edition = string(r.under)
	var sides [2]rules.ContestSide
	var rollers [2]rules.Roller
	for i, cs := range p.Sides {
		side := rules.ContestSide{Name: cs.Name, Attribute: rules.Attribute(cs.Attribute), AttributeValue: cs.Value, Restriction: cs.Restriction,
			SkillName: cs.Skill, SkillLevel: cs.SkillLevel, Curses: cs.Curses, Dice: cs.Dice}
		if sh := r.world.Sheets[cs.CharacterID]; sh != nil && cs.CharacterID != "" {
			side.AttributeValue, side.Restriction, side.Curses = sh.Attributes.Get(side.Attribute), sh.Restriction(), sh.Curses
			if cs.Skill != "" {
				sk, err := rules.LookupSkill(r.under, cs.Skill)
				if err != nil {
					return n, "", fmt.Sprintf("%s: edition %s has no such skill", cs.Skill, r.under)
				}
				side.SkillName, side.SkillLevel = sk.NameIn(r.under), sh.SkillLevel(sk.Key)
			}
		}
		sides[i], rollers[i] = side, rules.NewGivenFaces(cs.Faces)
	}
	o, err := rules.ResolveContest(r.under, sides[0], sides[1], rollers[0], rollers[1])
	if err != nil {
		return n, "", err.Error()
	}
	n.Winner, n.Outcome, n.Explanation = o.Winner, o.Outcome, o.Explanation
	for i := range n.Sides {
		so, side := o.Sides[i], sides[i]
		cs := &n.Sides[i]
		cs.Value, cs.Restriction, cs.Curses, cs.Skill, cs.SkillLevel = side.AttributeValue, side.Restriction, side.Curses, side.SkillName, side.SkillLevel
		cs.Modifiers, cs.Target, cs.Faces, cs.Total, cs.Over = modifiers(so.Modifiers), so.Target, so.Faces, so.Total, so.Over
	}
	what := ""
	if n.Winner != p.Winner || n.Outcome != p.Outcome {
		what = fmt.Sprintf("contest %s vs %s: %s under %s; %s under %s", p.Sides[0].Name, p.Sides[1].Name, contestResult(p), r.own, contestResult(&n), r.under)
	}
	return n, what, ""
}

// contestResult says who won a contest: "Ajax wins", "a tie".
func contestResult(p *events.ContestResolved) string {
	if p.Winner == 0 || p.Winner == 1 {
		return p.Sides[p.Winner].Name + " wins"
	}
	if p.Outcome == rules.ContestBothFail {
		return "both fail"
	}
	return "a tie"
}
