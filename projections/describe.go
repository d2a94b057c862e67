package projections

import (
	"fmt"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
	"github.com/ltscamp/ltscamp/rules/interceptor"
)

// Describe returns a one-line, human summary of an event, for logs and
// audit trails. seqOf, when not nil, names the events it refers to (the roll
// a re-roll replaces) by seq instead of by ULID; undo and redo refer to
// commands, which seqOf names by the seq of their first event.
func Describe(e events.Event, seqOf func(id string) (int64, bool)) string {
	ref := func(id string) string {
		if seqOf != nil {
			if seq, ok := seqOf(id); ok {
				return fmt.Sprintf("seq %d", seq)
			}
		}
		return id
	}
	p, err := events.Decode(e)
	if err != nil {
		return fmt.Sprintf("(%v)", err)
	}
	switch p := p.(type) {
	case *events.CampaignCreated:
		return fmt.Sprintf("campaign %q created, edition %s", p.Name, p.Edition)
	case *events.CharacterCreated:
		return fmt.Sprintf("%s created: %s", p.Name, statLine(p.Attributes, p.Skills))
	case *events.FoeAdded:
		return fmt.Sprintf("foe %s added: %s", p.Name, statLine(p.Attributes, p.Skills))
	case *events.FoeRemoved:
		return "taken off the roster" + because(p.Reason)
	case *events.ShipHitWithdrawn:
		parts := make([]string, 0, len(p.Sections))
		for _, h := range p.Sections {
			parts = append(parts, fmt.Sprintf("%s %d", h.Section, h.Points))
		}
		return fmt.Sprintf("hit of shot %s taken back (%s): karma re-rolled it as %s", ref(p.FireID), strings.Join(parts, ", "), ref(p.RerollID))
	case *events.HealingWithdrawn:
		return fmt.Sprintf("%d healed by the medic's check %s taken back: karma re-rolled it as %s", p.Points, ref(p.RollID), ref(p.RerollID))
	case *events.DamageWithdrawn:
		return fmt.Sprintf("%d damage and %d fatigue of %s taken back: karma re-rolled it as %s", p.Damage, p.Fatigue, ref(p.AttackID), ref(p.RerollID))
	case *events.RollMade:
		who := p.Character
		if who == "" {
			who = "bare roll"
		}
		faces := make([]string, len(p.Faces))
		for i, f := range p.Faces {
			faces[i] = fmt.Sprint(f)
		}
		s := fmt.Sprintf("%s: %s [%s] = %d", who, p.Expr, strings.Join(faces, ","), p.Total)
		if p.Kind == "check" {
			s += fmt.Sprintf(" vs %d, %s", p.Target, p.Outcome)
		}
		if p.Rerolls != "" {
			s += ", re-roll of " + ref(p.Rerolls)
		}
		return s
	case *events.ContestResolved:
		if p.Tackle != nil {
			return describeTackle(p, ref)
		}
		a, b := p.Sides[0], p.Sides[1]
		s := fmt.Sprintf("contest: %s rolled %d on %s %d, %s rolled %d on %s %d: ", a.Name, a.Total, a.Attribute, a.Target, b.Name, b.Total, b.Attribute, b.Target)
		switch p.Outcome {
		case "win":
			s += p.Sides[p.Winner].Name + " wins"
		case "tie":
			s += "tie"
		default:
			s += "both fail"
		}
		if p.Rerolls != "" {
			s += ", re-roll of " + ref(p.Rerolls)
		}
		return s
	case *events.KarmaGranted:
		return fmt.Sprintf("+%d karma%s", p.Amount, because(p.Reason))
	case *events.KarmaSpent:
		if p.For == "xp" {
			return fmt.Sprintf("-%d karma, taken as XP", p.Amount)
		}
		if p.RollID == "" {
			return fmt.Sprintf("-%d karma for %s", p.Amount, p.For)
		}
		return fmt.Sprintf("-%d karma for a %s of %s", p.Amount, p.For, ref(p.RollID))
	case *events.WishGranted:
		return fmt.Sprintf("+%s%s", Count(p.Amount, "wish", "wishes"), because(p.Reason))
	case *events.WishSpent:
		if p.RollID == "" {
			return fmt.Sprintf("-1 wish, to %s", p.For)
		}
		return fmt.Sprintf("-1 wish for a %s of %s", p.For, ref(p.RollID))
	case *events.CurseAdded:
		return fmt.Sprintf("+%s%s", Count(p.Levels, "curse level", "curse levels"), because(p.Reason))
	case *events.XPAwarded:
		return fmt.Sprintf("+%d XP%s", p.Amount, because(p.Reason))
	case *events.XPSpent:
		what := p.Attribute
		if p.On == "skill" {
			what = p.SkillName
		}
		return fmt.Sprintf("-%d XP: %s %d→%d (%s, edition %s)", p.Price, what, p.From, p.To, p.Formula, p.Edition)
	case *events.PlotwordAcquired:
		return fmt.Sprintf("plotword %s acquired", p.Word)
	case *events.NoteRecorded:
		return "note: " + p.Text
	case *events.ShareGranted:
		who := "the GM"
		if p.Scope == events.ShareScopePlayer {
			who = p.Character
		}
		s := fmt.Sprintf("link %s granted to %s", p.ShareID, who)
		if p.Expires != "" {
			when := p.Expires
			if t, err := events.ParseTime(p.Expires); err == nil {
				when = t.UTC().Format("2006-01-02 15:04 UTC")
			}
			s += ", expires " + when
		}
		if p.Uses > 0 {
			s += fmt.Sprintf(", %s", Count(p.Uses, "use", "uses"))
		}
		return s
	case *events.ShareRevoked:
		return fmt.Sprintf("link %s revoked%s", p.ShareID, because(p.Reason))
	case *events.CommandReverted:
		s := "undo of " + ref(p.CommandID)
		if n := len(p.Cascade); n > 0 {
			s += fmt.Sprintf(" (+%d by cascade)", n)
		}
		return s + because(p.Reason)
	case *events.CommandRestored:
		if len(p.CommandIDs) == 0 {
			return "redo of nothing" + because(p.Reason)
		}
		s := "redo of " + ref(p.CommandIDs[0])
		if n := len(p.CommandIDs) - 1; n > 0 {
			s += fmt.Sprintf(" (+%d more)", n)
		}
		return s + because(p.Reason)
	}
	if d := describeLifecycle(p, ref); d != "" {
		return d
	}
	if d := describeTurns(p); d != "" {
		return d
	}
	return e.Type
}

// statLine is "ST12 DX11 IQ9, Medic 2, Unarmed 2".
func statLine(a events.Attributes, skills []events.SkillLevel) string {
	s := fmt.Sprintf("ST%d DX%d IQ%d", a.ST, a.DX, a.IQ)
	for _, sk := range skills {
		s += fmt.Sprintf(", %s %d", sk.Name, sk.Level)
	}
	return s
}

// describeLifecycle summarises the game-time and lifecycle events.
func describeLifecycle(p events.Payload, ref func(id string) string) string {
	switch p := p.(type) {
	case *events.AdventureStarted:
		return fmt.Sprintf("adventure %d started: %s (day 1)", p.Number, p.Title)
	case *events.AdventureEnded:
		return fmt.Sprintf("adventure %d ended", p.Number)
	case *events.DayAdvanced:
		return fmt.Sprintf("day %d → day %d (%s)", p.From, p.To, p.Reason)
	case *events.EncounterStarted:
		return fmt.Sprintf("encounter %d started%s", p.Number, titledText(p.Title))
	case *events.EncounterEnded:
		return fmt.Sprintf("encounter %d ended: %s", p.Number, p.Outcome)
	case *events.PartySlept:
		return "the party slept a full night"
	case *events.ItemEquipped:
		if p.Slot == "armor" {
			return fmt.Sprintf("wears %s (%d/%d)", p.Name, p.Protection, p.Restriction)
		}
		return fmt.Sprintf("wields %s (%s)", p.Name, p.Damage)
	case *events.ItemUnequipped:
		return fmt.Sprintf("took off the %s (%s)", p.Slot, p.Item)
	case *events.AttackMade:
		s := fmt.Sprintf("%s attacks %s with %s: %s", p.Attacker, p.Target, p.WeaponName, AttackHitText(p))
		if p.Dodge != nil {
			s += fmt.Sprintf(", dodge %v = %d, %s", p.Dodge.Faces, p.Dodge.Total, p.Dodge.Outcome)
		}
		if p.Damage != nil {
			kind := "damage"
			if p.Fatigue {
				kind = "fatigue"
			}
			s += fmt.Sprintf("; %s %v → %d, armour stops %d, %d %s", p.Damage.Expr, p.Damage.Faces, p.BeforeArmor, p.ArmorStopped, p.Taken, kind)
		}
		if sk := AttackSkillText(p); sk != "" {
			s += "; " + sk
		}
		if p.DamageToCome() {
			s += "; damage to come: "
			if p.Dodge == nil {
				s += "dodge or "
			}
			s += "damage dice"
		}
		if p.Rerolls != "" {
			s += fmt.Sprintf(" (karma re-roll of the %s of %s)", p.Rerolled, ref(p.Rerolls))
		}
		if p.Completes != "" {
			s += fmt.Sprintf(" (completes %s)", ref(p.Completes))
		}
		if p.Counters != "" {
			s += fmt.Sprintf(" (counterattack on %s: %s loses his next turn)", ref(p.Counters), p.Attacker)
		}
		return s
	case *events.SkillBonusSet:
		return fmt.Sprintf("combat skill levels go to %s (were %s)", p.Bonus, p.Previous)
	case *events.DamageTaken:
		s := fmt.Sprintf("took %d damage", p.Damage)
		if p.Fatigue > 0 {
			s = fmt.Sprintf("took %d fatigue", p.Fatigue)
			if p.Damage > 0 {
				s += fmt.Sprintf(" and %d damage (fatigue on the incapacitated)", p.Damage)
			}
		}
		if p.ArmorStopped > 0 {
			s += fmt.Sprintf(", armour stopped %d", p.ArmorStopped)
		}
		return s + because(p.Source)
	case *events.DamageHealed:
		if p.Reason == "medic" {
			return fmt.Sprintf("healed %d damage by %s (medic)", p.Points, p.Medic)
		}
		return fmt.Sprintf("healed %d damage (%s)", p.Points, p.Reason) + because(p.Source)
	case *events.FatigueRecovered:
		return fmt.Sprintf("recovered %d fatigue (%s)", p.Points, p.Reason)
	case *events.CharacterRecovered:
		return fmt.Sprintf("recovered fully: %d damage, %d fatigue (%s)", p.Damage, p.Fatigue, p.Reason)
	case *events.RestTaken:
		s := fmt.Sprintf("rested %s, healed %d", Count(p.Days, "day", "days"), p.Healed)
		if p.Note != "" {
			s += " (" + p.Note + ")"
		}
		return s
	case *events.CharacterDied:
		return "died: " + p.Cause
	case *events.CharacterRevived:
		if p.Revived {
			return "revived by a wish (" + p.Rule + ")"
		}
		return "a wish negated all damage (" + p.Rule + ")"
	case *events.CurseLifted:
		return fmt.Sprintf("a curse lifted by %s (%s)", p.Method, p.Rule)
	case *events.KarmaExpired:
		return fmt.Sprintf("%s expired: %s", Count(p.Amount, "karma point", "karma points"), p.Reason)
	case *events.SuitFailed:
		return fmt.Sprintf("%s failed on all sixes: restriction %d", p.Armor, p.Restriction)
	case *events.ShipBuilt:
		return fmt.Sprintf("%s built: %s (%d build points)", p.Name, p.Record, p.Cost)
	case *events.ShipCrewed:
		return fmt.Sprintf("%s aboard, in %s", p.Character, p.Section)
	case *events.ShipUncrewed:
		return fmt.Sprintf("%s off the ship", p.Character)
	case *events.ShipHit:
		parts := make([]string, 0, len(p.Sections))
		for _, sec := range p.Sections {
			what := fmt.Sprintf("%s −%d", sec.Section, sec.Points)
			if sec.Destroyed {
				what += " (destroyed)"
			}
			parts = append(parts, what)
		}
		s := fmt.Sprintf("hit for %d, shields %d, %d inflicted", p.Rolled, p.Shields, p.Inflicted)
		if len(parts) > 0 {
			s += ": " + strings.Join(parts, ", ")
		}
		if p.DIW {
			s += "; the craft is dead in the water"
		}
		return s + because(p.Source)
	case *events.ShipRepaired:
		return fmt.Sprintf("%s repaired by %d", p.Section, p.Points)
	case *events.DetailedShipBuilt:
		return fmt.Sprintf("%s built from a detailed record", p.Name)
	case *events.ShipTemplatesAdded:
		names := make([]string, len(p.Templates))
		for i, t := range p.Templates {
			names[i] = t.Name
		}
		return fmt.Sprintf("damage templates added: %s", strings.Join(names, ", "))
	case *events.DetailedShipHit:
		return describeDetailedHit(p) + describeDetailedReroll(p.DetailedReroll, ref)
	case *events.DetailedShipRepaired:
		return describeDetailedRepair(p)
	case *events.DetailedTurnEnded:
		return describeTurnEnded(p) + describeDetailedReroll(p.DetailedReroll, ref)
	case *events.DogfightStarted:
		names := make([]string, len(p.Ships))
		for i, sh := range p.Ships {
			names[i] = sh.Name
		}
		return fmt.Sprintf("dogfight %d started: %s", p.Number, strings.Join(names, ", "))
	case *events.DogfightManeuvered:
		s := fmt.Sprintf("%s maneuvers against %s", p.Mover.Name, p.Target.Name)
		if len(p.Positions) >= 2 {
			s += fmt.Sprintf(": now %s / %s", p.Positions[0].Position, p.Positions[1].Position)
		}
		if p.Rerolls != "" {
			s += fmt.Sprintf(" (karma re-roll of %s's dice of %s)", p.RerolledBy, ref(p.Rerolls))
		}
		return s
	case *events.DogfightFired:
		s := fmt.Sprintf("%s fires on %s (%s, gunner %s): %s [%s] = %d vs %d, %s", p.Attacker.Name, p.Target.Name, p.Kind, p.Gunner, p.Check.Expr, joinInts(p.Check.Faces), p.Check.Total, p.Check.Target, p.Check.Outcome)
		if p.Damage != nil {
			s += fmt.Sprintf("; %s [%s] = %d", p.Damage.Expr, joinInts(p.Damage.Faces), p.Damage.Total)
		}
		if p.Rerolls != "" {
			s += fmt.Sprintf(" (karma re-roll of the %s of %s)", p.Rerolled, ref(p.Rerolls))
		}
		return s
	case *events.DogfightExited:
		return fmt.Sprintf("%s exited the dogfight", p.Ship.Name)
	case *events.DogfightEnded:
		return fmt.Sprintf("dogfight %d ended", p.Number)
	}
	return ""
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ",")
}

func titledText(t string) string {
	if t == "" {
		return ""
	}
	return ": " + t
}

func because(reason string) string {
	if reason == "" {
		return ""
	}
	return ": " + reason
}

// Count writes n with the singular or plural noun: "1 wish", "2 wishes".
func Count(n int, one, many string) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// describeDetailedRepair tells a repair of a detailed ship: the component,
// the boxes, the time and, on the clock, when it ran.
func describeDetailedRepair(p *events.DetailedShipRepaired) string {
	code := p.Code
	if p.Turret != 0 {
		code = fmt.Sprintf("T%d:%s", p.Turret, p.Code)
	}
	s := fmt.Sprintf("%s (%s) repaired: %d of %d lost boxes, %s", code, interceptor.ComponentType(p.Type).Name(), p.Boxes, p.LostBefore, DurationText(p.Minutes))
	if p.External {
		// An external system is one box (book l.343-345).
		s = fmt.Sprintf("external system %s (%s) repaired: 1 box, %s", p.Code, interceptor.ComponentType(p.Type).Name(), DurationText(p.Minutes))
	}
	if p.From != nil && p.Until != nil {
		s += fmt.Sprintf(" (%s → %s)", ClockText(*p.From), ClockText(*p.Until))
	}
	return s
}

// describeDetailedHit tells a hit on a detailed ship: each shot's weapon,
// where it landed and what it destroyed, then what they did together.
func describeDetailedHit(p *events.DetailedShipHit) string {
	shots := p.Shots()
	parts := make([]string, len(shots))
	for i, shot := range shots {
		parts[i] = ShotText(&shot)
		if len(shots) > 1 {
			parts[i] = fmt.Sprintf("shot %d: %s", i+1, parts[i])
		}
	}
	s := strings.Join(parts, "; ")
	if len(p.Widowed) > 0 {
		s += fmt.Sprintf("; %d widowed", len(p.Widowed))
	}
	if len(p.Disabled) > 0 {
		codes := make([]string, len(p.Disabled))
		for i, c := range p.Disabled {
			codes[i] = ComponentName(c)
		}
		s += "; disabled " + strings.Join(codes, ", ")
	}
	if len(p.Killed) > 0 {
		s += "; killed " + strings.Join(p.Killed, ", ")
	}
	if p.ShipExploded {
		s += "; the ship explodes"
	}
	for i, r := range EventRolls(p) {
		s += "; " + NumberedShipRoll(i+1, r)
	}
	return s + because(p.Source)
}

// ShotText tells one shot of a hit: its weapon, facing and column, the
// boxes it destroyed, its turret roll and a turret it destroyed.
func ShotText(p *events.DetailedShot) string {
	weapon := fmt.Sprintf("laser %d", p.Points)
	if p.Template != nil {
		weapon = p.Template.Name
	}
	how := "rolled"
	if p.Entered {
		how = "entered"
	}
	armour, internal := 0, 0
	for _, b := range p.Destroyed {
		if b.Block == "internal" {
			internal++
		} else {
			armour++
		}
	}
	s := fmt.Sprintf("%s on the %s facing, column %d (%s): %d armour, %d internal boxes destroyed", weapon, p.Facing, p.Column, how, armour, internal)
	if t := TurretRollText(p); t != "" {
		s += "; " + t
	}
	if p.TurretDestroyed != 0 {
		s += fmt.Sprintf("; turret %d destroyed", p.TurretDestroyed)
		if p.Residual > 0 {
			s += fmt.Sprintf(", %d residual into the hull", p.Residual)
		}
	}
	return s
}

// ComponentName names a component as ship repair takes it: its code for
// the hull's (E1), T<n>:CODE for turret n's (T1:W).
func ComponentName(c events.ShipComponentRef) string {
	if c.Turret > 0 {
		return fmt.Sprintf("T%d:%s", c.Turret, c.Code)
	}
	return c.Code
}

// describeDetailedReroll tells what a re-rolling hit or turn end
// replaces, or "".
func describeDetailedReroll(r events.DetailedReroll, ref func(id string) string) string {
	if r.Rerolls == "" {
		return ""
	}
	die := ""
	if r.RerolledDie == 2 {
		die = "'s second die"
	}
	return fmt.Sprintf(" (karma re-roll of %s's roll %d%s of %s)", r.RerolledBy, r.RerolledRoll, die, ref(r.Rerolls))
}

// describeTurnEnded tells the end of a detailed ship's turn and its rolls.
func describeTurnEnded(p *events.DetailedTurnEnded) string {
	s := "end of turn"
	for i, r := range EventRolls(p) {
		s += "; " + NumberedShipRoll(i+1, r)
	}
	if len(p.Rolls)+len(p.Wake) == 0 {
		s += ": no rolls"
	}
	return s + TurnEndFates(p)
}

// TurnEndFates tells what a turn end did to the crew and the ship beyond
// its rolls ("" when nothing): who abandoned ship or ejected, who died,
// and the turns left to abandon a broken-up ship.
func TurnEndFates(p *events.DetailedTurnEnded) string {
	s := ""
	if len(p.Abandoned) > 0 {
		s += "; abandoned ship: " + strings.Join(p.Abandoned, ", ")
	}
	if len(p.Ejected) > 0 {
		s += "; ejected before the blast: " + strings.Join(p.Ejected, ", ")
	}
	if len(p.Killed) > 0 {
		s += "; killed: " + strings.Join(p.Killed, ", ")
	}
	if p.AbandonTurns != nil {
		s += fmt.Sprintf("; broken up: %s", AbandonText(*p.AbandonTurns))
	}
	return s
}

// AbandonText tells the time a broken-up ship's crew has left to abandon
// ship (STRUCTURAL COLLAPSE, book l.467).
func AbandonText(turns int) string {
	if turns == 0 {
		return "no turn left to abandon ship; those aboard are dead"
	}
	return Count(turns, "turn", "turns") + " left to abandon ship"
}

// TurretRollText tells a hit's turret roll (TURRETS, book l.341), as
// "turret roll 1 (rolled) against 1: turret 1" or "... : the hull", or ""
// when the hit made none.
func TurretRollText(p *events.DetailedShot) string {
	if p.TurretRoll == 0 {
		return ""
	}
	how := "rolled"
	if p.TurretEntered {
		how = "entered"
	}
	where := "the hull"
	if p.Turret > 0 {
		where = fmt.Sprintf("turret %d", p.Turret)
	}
	return fmt.Sprintf("turret roll %d (%s) against %d%s: %s", p.TurretRoll, how, p.TurretChance, picksText(p.TurretPicks), where)
}

// describeTackle tells a tackle, e.g. "Ajax tackles Pirate 1: DX 11 vs 12,
// 11 vs 8: Ajax wins: they are grappling".
func describeTackle(p *events.ContestResolved, ref func(string) string) string {
	t, a, b := p.Tackle, p.Sides[0], p.Sides[1]
	s := fmt.Sprintf("%s tackles %s: DX %d vs %d, %d vs %d: ", t.Tackler, t.Foe, a.Target, b.Target, a.Total, b.Total)
	switch t.Outcome {
	case rules.TackleGrappling:
		s += t.Tackler + " wins: they are grappling"
	case rules.TackleFoeRetreats:
		s += t.Tackler + " fails, stronger: " + t.Foe + " retreats"
	default:
		s += t.Tackler + " fails, not stronger: he goes back"
	}
	if t.Reacts != "" {
		s += " (reaction to " + ref(t.Reacts) + ": " + t.Tackler + " loses his next turn)"
	}
	if p.Rerolls != "" {
		s += ", re-roll of " + ref(p.Rerolls)
	}
	return s
}
