package projections

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules/interceptor"
)

// ShipDice gives the d10 faces of the rolls a detailed ship makes, one at a
// time, and whether each was entered (true) or rolled.
type ShipDice func() (face int, entered bool, err error)

// RollOf returns the rules' Roll whose terms a stored roll records.
func RollOf(r events.DetailedShipRoll) interceptor.Roll {
	return interceptor.Roll{Kind: interceptor.RollKind(r.Kind), Crew: r.Crew, Station: r.Station, Turret: r.Turret, Column: r.Column, Number: r.Number, Percent: r.Percent}
}

func storedRoll(r interceptor.Roll) events.DetailedShipRoll {
	return events.DetailedShipRoll{Kind: string(r.Kind), Crew: r.Crew, Station: r.Station, Turret: r.Turret, Column: r.Column, Number: r.Number, Percent: r.Percent}
}

// HitRolls are the rolls a hit's report calls for, made in the hit's
// command: the consciousness rolls of cockpit hits (book l.357) and the
// jam rolls of Turret Structures it disabled (l.409).
type HitRolls struct {
	Crew, Jam []interceptor.Roll
}

// HitRollsOf sorts a hit's rolls into crew and jam rolls.
func HitRollsOf(rep interceptor.Report) HitRolls {
	var out HitRolls
	for _, r := range rep.Rolls {
		switch r.Kind {
		case interceptor.RollConsciousness:
			out.Crew = append(out.Crew, r)
		case interceptor.RollTurretJam:
			out.Jam = append(out.Jam, r)
		}
	}
	return out
}

// MakeShipRolls makes rolls in order on ship, taking faces from dice as
// each roll needs them (none for a moot roll, a second for a wound that
// knocks a conscious crewman about or a failed collapse roll), and returns
// the ship after them and the rolls made.
func MakeShipRolls(ship interceptor.Ship, calls []interceptor.Roll, dice ShipDice) (interceptor.Ship, []events.DetailedShipRoll, error) {
	out := make([]events.DetailedShipRoll, 0, len(calls))
	for _, r := range calls {
		var faces []int
		entered := false
		for {
			n, o, err := ship.Resolve(r, faces...)
			if err == nil {
				ship = n
				st := storedRoll(r)
				st.Faces, st.Entered, st.Moot, st.Wounded = faces, entered && len(faces) > 0, o.Moot, o.Wounded
				st.Status, st.Breakup = string(o.Status), string(o.Breakup)
				if r.Kind == interceptor.RollTurretJam && !o.Moot {
					st.JamFacing, st.Abandoned = o.JamFacing, o.JamFacing == 0
				}
				out = append(out, st)
				break
			}
			if len(faces) == 2 {
				return ship, out, err
			}
			f, e, derr := dice()
			if derr != nil {
				return ship, out, derr
			}
			if f < 1 || f > 10 {
				return ship, out, fmt.Errorf("a %s roll's die of %d: the rolls are d10, 1 to 10", r.Kind, f)
			}
			faces, entered = append(faces, f), e
		}
	}
	return ship, out, nil
}

// ReplayShipRolls makes the rolls calls on ship again from the faces
// recorded, roll for roll, and returns the ship after them and the rolls
// as the rules resolve them (with recorded's Entered flags). It fails when
// recorded is not one roll per call or a roll recorded more or fewer faces
// than it takes.
func ReplayShipRolls(ship interceptor.Ship, calls []interceptor.Roll, recorded []events.DetailedShipRoll) (interceptor.Ship, []events.DetailedShipRoll, error) {
	if len(recorded) != len(calls) {
		return ship, nil, fmt.Errorf("recorded %d rolls; the rules call for %d (%s)", len(recorded), len(calls), rollList(calls))
	}
	out := make([]events.DetailedShipRoll, 0, len(calls))
	for i, r := range calls {
		faces := recorded[i].Faces
		used := 0
		n, made, err := MakeShipRolls(ship, []interceptor.Roll{r}, func() (int, bool, error) {
			if used == len(faces) {
				return 0, false, fmt.Errorf("the %s roll recorded %d dice; it takes more", describeRoll(r), len(faces))
			}
			used++
			return faces[used-1], recorded[i].Entered, nil
		})
		if err != nil {
			return ship, nil, err
		}
		if used != len(faces) {
			return ship, nil, fmt.Errorf("the %s roll recorded %d dice; it takes %d", describeRoll(r), len(faces), used)
		}
		ship = n
		made[0].Entered = recorded[i].Entered
		out = append(out, made[0])
	}
	return ship, out, nil
}

func rollList(rs []interceptor.Roll) string {
	if len(rs) == 0 {
		return "none"
	}
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = describeRoll(r)
	}
	return strings.Join(parts, "; ")
}

// SameShipRolls compares recorded rolls with the rules' (want, from
// ReplayShipRolls) and returns the first difference, or "".
func SameShipRolls(got, want []events.DetailedShipRoll) string {
	if len(got) != len(want) {
		return fmt.Sprintf("recorded %d rolls; the rules make %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		switch {
		case g.Kind != w.Kind || g.Crew != w.Crew || g.Station != w.Station || g.Turret != w.Turret || g.Column != w.Column || g.Number != w.Number || g.Percent != w.Percent:
			return fmt.Sprintf("recorded a roll as %s; the rules call for %s", ShipRollText(g), ShipRollText(w))
		case !slices.Equal(g.Faces, w.Faces) || g.Moot != w.Moot || g.Wounded != w.Wounded || g.Status != w.Status || g.Breakup != w.Breakup ||
			g.JamFacing != w.JamFacing || g.Abandoned != w.Abandoned:
			return fmt.Sprintf("recorded %s; the rules give %s", ShipRollText(g), ShipRollText(w))
		}
	}
	return ""
}

// NumberedShipRoll tells a roll made with its number n among its
// event's rolls (EventRolls), as `reroll --which` names it: "[2] wound
// by Vess ...".
func NumberedShipRoll(n int, r events.DetailedShipRoll) string {
	return fmt.Sprintf("[%d] %s", n, ShipRollText(r))
}

// ShipRollText tells a roll made, as "consciousness by Mara at C
// (column 1, number 7): 4, conscious".
func ShipRollText(r events.DetailedShipRoll) string {
	var b strings.Builder
	b.WriteString(r.Kind)
	if r.Crew != "" {
		fmt.Fprintf(&b, " by %s", r.Crew)
	}
	if r.Station != "" && interceptor.RollKind(r.Kind) != interceptor.RollTurretJam {
		fmt.Fprintf(&b, " at %s", r.Station)
	}
	switch interceptor.RollKind(r.Kind) {
	case interceptor.RollWound:
		fmt.Fprintf(&b, " (%d%%, column %d)", r.Percent, r.Column)
	case interceptor.RollCollapse:
		fmt.Fprintf(&b, " (above %d)", r.Number)
	case interceptor.RollTurretJam:
		fmt.Fprintf(&b, " of turret %d", r.Turret)
	default:
		fmt.Fprintf(&b, " (column %d, number %d)", r.Column, r.Number)
	}
	if r.Moot && interceptor.RollKind(r.Kind) == interceptor.RollTurretJam {
		return b.String() + ": moot, the turret is destroyed"
	}
	if r.Moot {
		return b.String() + ": moot, " + r.Status
	}
	faces := make([]string, len(r.Faces))
	for i, f := range r.Faces {
		faces[i] = fmt.Sprint(f)
	}
	fmt.Fprintf(&b, ": %s", strings.Join(faces, ","))
	if r.Entered {
		b.WriteString(" (entered)")
	}
	switch {
	case r.Abandoned:
		b.WriteString(", weapons abandoned")
	case r.JamFacing != 0:
		fmt.Fprintf(&b, ", jammed facing %s", interceptor.JamFacingName(r.JamFacing))
	case r.Breakup != "":
		b.WriteString(", " + r.Breakup)
	case r.Wounded:
		b.WriteString(", wounded, " + r.Status)
	case interceptor.RollKind(r.Kind) == interceptor.RollWound:
		b.WriteString(", unhurt, " + r.Status)
	default:
		b.WriteString(", " + r.Status)
	}
	return b.String()
}

// shipRolls makes a turn end's rolls on ship: its end-of-turn rolls
// (wake false) or its wake rolls (wake true).
type shipRolls func(ship interceptor.Ship, calls []interceptor.Roll, wake bool) (interceptor.Ship, []events.DetailedShipRoll, error)

// turnEnd ends a turn on ship with the rules of the turn end's payload
// version, making its rolls with roll, and returns the ship after it and
// the turn end as the rules give it. Version 2 (issue 21): the crewmen in
// abandon leave the ship; a ship broken up before runs one turn off its
// crew's time to abandon ship (those left aboard when it runs out die);
// the wound and collapse rolls; what a collapse roll's chart result does
// (AfterCollapse: broken up, or the unconscious lost in a delayed blast);
// then the wake rolls, on the column of each crewman's total hits. Version
// 1 made only the rolls, and the wake rolls on the column of each
// crewman's last roll: older logs replay so.
func turnEnd(ship interceptor.Ship, version int, abandon []string, roll shipRolls) (interceptor.Ship, events.DetailedTurnEnded, error) {
	var out events.DetailedTurnEnded
	if version < 2 {
		if len(abandon) > 0 {
			return ship, out, fmt.Errorf("a turn end of payload version %d abandons ship (%s): version 2 does", version, strings.Join(abandon, ", "))
		}
		n, calls := ship.EndTurn()
		n, rolls, err := roll(n, calls, false)
		if err != nil {
			return ship, out, fmt.Errorf("end of turn: %w", err)
		}
		n, wake, err := roll(n, n.DecisionPhaseRollsLastColumn(), true)
		if err != nil {
			return ship, out, fmt.Errorf("wake rolls: %w", err)
		}
		return n, events.DetailedTurnEnded{Rolls: rolls, Wake: wake}, nil
	}
	n := ship
	for _, name := range abandon {
		var err error
		if n, err = n.Abandon(name); err != nil {
			return ship, out, err
		}
	}
	out.Abandoned = slices.Clone(abandon)
	n, _ = n.PassAbandonTurn()
	n, calls := n.EndTurn()
	n, rolls, err := roll(n, calls, false)
	if err != nil {
		return ship, out, fmt.Errorf("end of turn: %w", err)
	}
	out.Rolls = rolls
	for _, r := range rolls {
		if r.Breakup != "" {
			n, _, out.Ejected = n.AfterCollapse(interceptor.Breakup(r.Breakup))
		}
	}
	if n, out.Wake, err = roll(n, n.DecisionPhaseRolls(), true); err != nil {
		return ship, out, fmt.Errorf("wake rolls: %w", err)
	}
	out.Killed = NewlyDead(ship, n)
	if broken, left := n.BrokenUp(); broken {
		out.AbandonTurns = &left
	}
	return n, out, nil
}

// NewlyDead names the crewmen dead on after who were not on before, in
// record order.
func NewlyDead(before, after interceptor.Ship) []string {
	was := before.Crew()
	var out []string
	for i, c := range after.Crew() {
		if c.Status == interceptor.Dead && i < len(was) && was[i].Status != interceptor.Dead {
			out = append(out, c.Name)
		}
	}
	return out
}

// ApplyTurnEnd ends a turn as recorded, with the rules of its payload
// version (see turnEnd): the crewmen it recorded abandon ship, and the
// end-of-turn rolls and the wake rolls are made again from their recorded
// faces. It returns the event as the rules give it.
func (d *DetailedShip) ApplyTurnEnd(p *events.DetailedTurnEnded, version int) (events.DetailedTurnEnded, error) {
	n, out, err := turnEnd(d.ship, version, p.Abandoned, func(ship interceptor.Ship, calls []interceptor.Roll, wake bool) (interceptor.Ship, []events.DetailedShipRoll, error) {
		if wake {
			return ReplayShipRolls(ship, calls, p.Wake)
		}
		return ReplayShipRolls(ship, calls, p.Rolls)
	})
	if err != nil {
		return events.DetailedTurnEnded{}, err
	}
	d.ship = n
	return out, nil
}

// EndTurn ends a turn, making its rolls with dice: the crewmen in abandon
// abandon ship, then the wound and collapse rolls of the turn's end, then
// the wake rolls of the crewmen unconscious after them (turnEnd).
func (d *DetailedShip) EndTurn(dice ShipDice, abandon []string) (events.DetailedTurnEnded, error) {
	n, out, err := turnEnd(d.ship, events.DetailedTurnEnded{}.PayloadVersion(), abandon, func(ship interceptor.Ship, calls []interceptor.Roll, _ bool) (interceptor.Ship, []events.DetailedShipRoll, error) {
		return MakeShipRolls(ship, calls, dice)
	})
	if err != nil {
		return events.DetailedTurnEnded{}, err
	}
	d.ship = n
	return out, nil
}

// SameTurnEnd compares what a turn end recorded with what the rules give
// (want, from ApplyTurnEnd) and returns the first difference, or "".
func SameTurnEnd(got *events.DetailedTurnEnded, want events.DetailedTurnEnded) string {
	if d := SameShipRolls(got.Rolls, want.Rolls); d != "" {
		return "end of turn " + d
	}
	if d := SameShipRolls(got.Wake, want.Wake); d != "" {
		return "wake rolls " + d
	}
	switch {
	case !slices.Equal(got.Ejected, want.Ejected):
		return fmt.Sprintf("end of turn recorded %v ejected; the rules eject %v", got.Ejected, want.Ejected)
	case !slices.Equal(got.Killed, want.Killed):
		return fmt.Sprintf("end of turn recorded %v killed; the rules kill %v", got.Killed, want.Killed)
	case (got.AbandonTurns == nil) != (want.AbandonTurns == nil) || (got.AbandonTurns != nil && *got.AbandonTurns != *want.AbandonTurns):
		return fmt.Sprintf("end of turn recorded %s to abandon ship; the rules give %s", turnsText(got.AbandonTurns), turnsText(want.AbandonTurns))
	}
	return ""
}

func turnsText(n *int) string {
	if n == nil {
		return "no turns (the ship has not broken up)"
	}
	return Count(*n, "turn", "turns")
}
