package projections

import (
	"fmt"

	"github.com/ltscamp/ltscamp/events"
)

// AttackSkillText says where an attack put its attacker's combat skill
// level, and who chose: "Pistol 1 on hit (standing choice)". It is "" when
// the attacker had no level in the weapon's skill, and for attacks
// recorded before the standing choice that used none.
func AttackSkillText(p *events.AttackMade) string {
	if p.Skill == "" || p.SkillLevel == 0 {
		return ""
	}
	level := fmt.Sprintf("%s %d", p.Skill, p.SkillLevel)
	why := "--skill-bonus"
	if p.BonusFrom == "standing" {
		why = "standing choice"
	}
	switch {
	case p.Bonus == "" && p.BonusNote != "":
		return p.BonusNote
	case p.Bonus == "":
		return fmt.Sprintf("%s on nothing (%s none)", level, why)
	case p.BonusNote != "":
		return fmt.Sprintf("%s on %s (%s: %s)", level, p.Bonus, why, p.BonusNote)
	}
	return fmt.Sprintf("%s on %s (%s)", level, p.Bonus, why)
}

// AttackHitText tells an attack's hit: its roll ("3/DX [3 4 5] = 12 vs 11,
// hit"), or why it hit without one.
func AttackHitText(p *events.AttackMade) string {
	switch p.AutoHit {
	case "grapple":
		return "no hit roll (he won the ST check), hit"
	case "outside":
		return "no hit roll (an attack into a grappling space), hit"
	}
	return fmt.Sprintf("%s %v = %d vs %d, %s", p.Hit.Expr, p.Hit.Faces, p.Hit.Total, p.Hit.Target, p.Hit.Outcome)
}
