package campaign

import (
	"fmt"
	"slices"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// dogfightLine is the replay's name for the line of the dogfight under
// way: a maneuver or a shot the other edition cannot replay stops it
// until the dogfight ends (the next dogfight starts afresh).
const dogfightLine = "\x00dogfight"

// redecideManeuver decides a maneuver again under the edition, from the
// positions the replay's dogfight stands at, with the pilots as recorded
// and their dice: the contest, then the positions it leaves. A re-roll of
// a maneuver is carried.
func (r *replay) redecideManeuver(p *events.DogfightManeuvered) (events.DogfightManeuvered, string, string) {
	n := *p
	n.Edition = string(r.under)
	df := &r.world.Dogfight
	mv, tg := r.world.Ships[p.Mover.ShipID], r.world.Ships[p.Target.ShipID]
	if mv == nil || tg == nil || len(p.Positions) < 2 {
		return n, "", "" // carried: the replay's check names what is wrong
	}
	in := rules.ManeuverInput{Edition: r.under, Mover: mv.Name, Target: tg.Name, MoverPos: df.Position(p.Mover.ShipID, p.Target.ShipID),
		MoverM: mv.Maneuver, TargetM: tg.Maneuver, Choice: rules.Choice(p.Chosen), MoverDIW: mv.DIW, TargetDIW: tg.DIW,
		TargetEngagedElsewhere: df.EngagedElsewhere(p.Target.ShipID, p.Mover.ShipID)}
	var contest *rules.ContestOutcome
	if p.Contest != nil {
		var sides [2]rules.ContestSide
		var dice [2]rules.Roller
		for i, cs := range p.Contest.Sides {
			sides[i] = rules.ContestSide{Name: cs.Name, Attribute: rules.DX, AttributeValue: cs.Value, Restriction: cs.Restriction,
				SkillName: cs.Skill, SkillLevel: cs.SkillLevel, Curses: cs.Curses, Dice: cs.Dice}
			dice[i] = rules.NewGivenFaces(cs.Faces)
		}
		in.MoverPilot, in.TargetPilot = sides[0], sides[1]
		c, err := rules.ResolvePilotContest(r.under, sides[0], sides[1], in.MoverM, in.TargetM, dice[0], dice[1])
		if err != nil {
			return n, "", fmt.Sprintf("%s's maneuver against %s: %v", mv.Name, tg.Name, err)
		}
		contest = &c
		nc := *p.Contest
		nc.Winner, nc.Outcome, nc.Explanation, nc.Edition = c.Winner, c.Outcome, c.Explanation, string(r.under)
		for i := range nc.Sides {
			so := c.Sides[i]
			nc.Sides[i].Modifiers, nc.Sides[i].Target, nc.Sides[i].Total, nc.Sides[i].Over = modifiers(so.Modifiers), so.Target, so.Total, so.Over
		}
		n.Contest = &nc
	}
	o, err := rules.ApplyManeuver(in, contest)
	if err != nil {
		return n, "", fmt.Sprintf("%s's maneuver against %s: %v", mv.Name, tg.Name, err)
	}
	if df.SecondPursuer(p.Mover.ShipID, p.Target.ShipID, o.MoverPos, o.TargetPos) != "" {
		// "Only one craft can pursue a fleeing foe": the positions stay.
		o.MoverPos, o.TargetPos = in.MoverPos, in.MoverPos.Mirror()
	}
	n.Positions = slices.Clone(p.Positions)
	n.Positions[0].Position, n.Positions[1].Position = string(o.MoverPos), string(o.TargetPos)
	n.Winner, n.Unopposed = o.Winner, o.Unopposed
	what := ""
	if p.Positions[0].Position != n.Positions[0].Position {
		what = fmt.Sprintf("%s's maneuver against %s: %s %s under %s; %s under %s", mv.Name, tg.Name, mv.Name,
			p.Positions[0].Position, r.own, n.Positions[0].Position, r.under)
	}
	if !slices.Equal(p.Positions, n.Positions) || !equalContest(p.Contest, n.Contest) || p.Winner != n.Winner {
		n.Explanation = o.Explanation
	}
	return n, what, ""
}

// equalContest reports whether two pilots' contests came out the same.
func equalContest(a, b *events.ContestResolved) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Winner == b.Winner && a.Outcome == b.Outcome
}

// fireAllowed asks whether the edition lets a craft fire as the shot was
// fired, from where the replay's dogfight stands: a facing run (2020 and
// 2021 only), a firing run (in 2010 after a won PILOT check, which the log
// must hold), a shot from pursuit. It returns why not, or "".
func (r *replay) fireAllowed(p *events.DogfightFired) string {
	df := &r.world.Dogfight
	sh := r.world.Ships[p.Attacker.ShipID]
	if sh == nil {
		return "" // carried: the replay's check names what is wrong
	}
	in := rules.FireInput{Edition: r.under, Kind: rules.FireKind(p.Kind), Gunner: p.Gunner, AttackerPos: df.Position(p.Attacker.ShipID, p.Target.ShipID),
		DIW: sh.DIW, FirstRound: df.FirstRound(func(id string) bool {
			s, ok := r.world.Ships[id]
			return !ok || !s.DIW
		})}
	if c := p.PilotContest; c != nil {
		in.PilotContest = &rules.ContestOutcome{Winner: c.Winner, Outcome: c.Outcome}
	}
	if _, err := rules.FireCheck(in); err != nil {
		return fmt.Sprintf("%s's %s fire on %s: %v", p.Attacker.Name, p.Kind, p.Target.Name, err)
	}
	if p.Check.Outcome == "no shot" && (r.under != rules.Edition2010 || p.Kind != string(rules.FireRun)) {
		return fmt.Sprintf("%s would fire on %s under %s, and the log has no dice for the shot", p.Attacker.Name, p.Target.Name, r.under)
	}
	return ""
}
