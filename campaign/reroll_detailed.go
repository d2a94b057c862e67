package campaign

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
	"github.com/ltscamp/ltscamp/rules/interceptor"
)

// rerollDetailed spends a party crewman's karma point to make one of his
// rolls in a detailed ship's latest hit or turn end again: a
// consciousness, wound or wake roll of his, or the structural collapse
// roll he made as the pilot. The hit or turn end is made again in its
// place from the ship as it was before it: the same damage, the rolls
// before his as they were, his with the new die, and the rolls after it
// with their dice as far as they are still called for (a crewman who now
// stays awake makes no wake roll; one who now falls makes one, rolled or
// from --dice). A turret jam roll is nobody's and is not re-rolled.
func (s *Service) rerollDetailed(req RerollRequest, orig events.Event) (RerollResult, error) {
	out := RerollResult{Replaced: orig}
	switch {
	case req.DamageFaces != nil:
		return out, rules.Errorf(rules.CodeInvalid, "--damage-dice: seq %d is a detailed ship's %s; its rolls are d10s, given with --dice", orig.Seq, orig.Type)
	case len(req.To) > 0:
		return out, rules.Errorf(rules.CodeInvalid, "--to names a story's recipients; seq %d is a %s", orig.Seq, orig.Type)
	}
	var name string
	res, err := s.execute(func(d *decision) error {
		out = RerollResult{Replaced: orig}
		if err := d.inEffect(orig); err != nil {
			return err
		}
		sh, err := d.detailedShipOf(orig.Stream)
		if err != nil {
			return err
		}
		name = sh.rec.Name
		latestID, latest := sh.rec.Latest()
		if latestID != orig.ID {
			return rules.Errorf(rules.CodeRule, "seq %d is no longer %s's latest event (seq %d is): a roll is re-rolled before the ship's next hit, turn end or repair (undo those to re-roll it)", orig.Seq, name, sh.rec.Seq)
		}
		rolls := projections.EventRolls(latest)
		idx, die, err := pickShipRoll(d, rolls, req.Which, orig.Seq)
		if err != nil {
			return err
		}
		roll := rolls[idx]
		r, err := d.rosterState()
		if err != nil {
			return err
		}
		if _, ok := r.Find(roll.Crew); !ok {
			why := "is not in the party"
			if _, foe := r.FindFoe(roll.Crew); foe {
				why = "is a foe, and foes have no karma"
			}
			return rules.Errorf(rules.CodeRule, "roll %d of seq %d is %s's, who %s: karma re-rolls a character's own dice", idx+1, orig.Seq, roll.Crew, why)
		}
		roller, err := d.character(roll.Crew)
		if err != nil {
			return err
		}
		camp, err := d.campaignState()
		if err != nil {
			return err
		}
		which := fmt.Sprintf("roll %d", idx+1)
		if die == 1 {
			which += ".2"
		}
		if out.Spent, err = d.payReroll(camp.Edition, roller, req.UseWish, orig.ID, which); err != nil {
			return err
		}
		before, ok := sh.rec.Before()
		if !ok {
			return fmt.Errorf("campaign: %s has no state before seq %d", name, orig.Seq)
		}
		dice, done := d.shipDice(req.Faces, "--dice", "roll")
		redo := projections.RollRedo{Roll: idx, Die: die, Dice: dice}
		mark := events.DetailedReroll{Rerolls: orig.ID, RerolledBy: roll.Crew, RerolledRoll: idx + 1, RerolledDie: 2 * die}
		var p events.Payload
		switch first := latest.(type) {
		case *events.DetailedShipHit:
			h, err := before.RedoHit(first, redo)
			if err != nil {
				return rules.Errorf(rules.CodeOf(err), "%s: %v", name, err)
			}
			h.DetailedReroll = mark
			out.DetailedHit, p = &h, &h
		case *events.DetailedTurnEnded:
			t, err := before.RedoTurnEnd(first, redo)
			if err != nil {
				return rules.Errorf(rules.CodeOf(err), "%s: %v", name, err)
			}
			t.DetailedReroll = mark
			out.DetailedTurn, p = &t, &t
		default:
			return fmt.Errorf("campaign: seq %d is a %s, which makes no rolls", orig.Seq, orig.Type)
		}
		if err := done(len(projections.EventRolls(p))); err != nil {
			return err
		}
		if err := d.keepDeaths(latest, p, orig.Seq); err != nil {
			return err
		}
		if err := d.emit(sh.stream, p); err != nil {
			return err
		}
		_, err = d.crewDeaths(name, killedBy(p), "killed aboard %s (a karma re-roll)")
		return err
	})
	if err != nil {
		return out, err
	}
	out.Events = res.Events
	after, err := s.DetailedShip(name, "")
	if err != nil {
		return out, err
	}
	out.DetailedShip = &after
	return out, nil
}

// killedBy names the crewmen a hit or a turn end killed.
func killedBy(p events.Payload) []string {
	switch p := p.(type) {
	case *events.DetailedShipHit:
		return p.Killed
	case *events.DetailedTurnEnded:
		return p.Killed
	}
	return nil
}

// keepDeaths refuses a re-roll whose event (now) would leave alive a
// crewman whom the event it replaces (first) killed and whose sheet shows
// him dead: a karma re-roll does not bring the dead back, as a section
// ship's hit that killed its crew is not withdrawn. Undo takes back the
// command and the death with it.
func (d *decision) keepDeaths(first, now events.Payload, seq int64) error {
	r, err := d.rosterState()
	if err != nil {
		return err
	}
	for _, name := range killedBy(first) {
		if slices.Contains(killedBy(now), name) {
			continue
		}
		m, ok := r.FindAny(name)
		if !ok {
			continue
		}
		c, err := d.characterByMember(m)
		if err != nil {
			return err
		}
		if !c.sheet.Alive() {
			return rules.Errorf(rules.CodeRule, "%s was killed in seq %d and is dead on his sheet: a karma re-roll that leaves him alive cannot bring him back; undo seq %d instead", c.sheet.Name, seq, seq)
		}
	}
	return nil
}

// detailedShipOf loads the detailed ship whose stream is stream for a
// decision and records its version.
func (d *decision) detailedShipOf(stream string) (*detailedShip, error) {
	rv, err := d.revertsState()
	if err != nil {
		return nil, err
	}
	df, err := d.s.detailedFleet(rv, 0)
	if err != nil {
		return nil, err
	}
	for _, m := range df.Ships {
		if events.ShipStream(m.ID) == stream {
			return d.detailedShip(m.Name, "a re-roll")
		}
	}
	return nil, rules.Errorf(rules.CodeNotFound, "no detailed ship has the stream %s", stream)
}

// pickShipRoll finds the roll of an event's rolls that --which names: its
// number (from 1, as ship hit, ship turn-end and log list them), or the
// name of the crewman who made it; a trailing ".2" picks its second die
// (die 1). Without --which it is the one roll a party character made
// that karma can re-roll.
func pickShipRoll(d *decision, rolls []events.DetailedShipRoll, which string, seq int64) (idx, die int, err error) {
	which = strings.TrimSpace(which)
	if head, ok := strings.CutSuffix(which, ".2"); ok && head != "" {
		which, die = head, 1
	} else if head, ok := strings.CutSuffix(which, ".1"); ok && head != "" {
		which = head
	}
	idx = -1
	if n, err := strconv.Atoi(which); err == nil {
		if n < 1 || n > len(rolls) {
			return 0, 0, rules.Errorf(rules.CodeInvalid, "--which %d: seq %d made %s:\n%s", n, seq, projections.Count(len(rolls), "roll", "rolls"), shipRollList(rolls, nil))
		}
		idx = n - 1
	} else {
		r, err := d.rosterState()
		if err != nil {
			return 0, 0, err
		}
		var mine []int
		for i, roll := range rolls {
			if roll.Moot || interceptor.RollKind(roll.Kind) == interceptor.RollTurretJam || roll.Crew == "" {
				continue
			}
			if which != "" && strings.EqualFold(roll.Crew, which) {
				mine = append(mine, i)
			}
			if _, party := r.Find(roll.Crew); which == "" && party {
				mine = append(mine, i)
			}
		}
		switch {
		case len(mine) == 1:
			idx = mine[0]
		case len(mine) > 1:
			return 0, 0, rules.Errorf(rules.CodeInvalid, "seq %d has %d rolls that karma can re-roll: name one with --which N\n%s", seq, len(mine), shipRollList(rolls, mine))
		case which != "":
			return 0, 0, rules.Errorf(rules.CodeInvalid, "--which %q: %s made no roll in seq %d that karma can re-roll; its rolls:\n%s", which, which, seq, shipRollList(rolls, nil))
		default:
			return 0, 0, rules.Errorf(rules.CodeRule, "no party character made a roll in seq %d that karma can re-roll; its rolls:\n%s", seq, shipRollList(rolls, nil))
		}
	}
	roll := rolls[idx]
	switch {
	case roll.Moot:
		return 0, 0, rules.Errorf(rules.CodeRule, "roll %d of seq %d was moot: no die was rolled", idx+1, seq)
	case interceptor.RollKind(roll.Kind) == interceptor.RollTurretJam:
		return 0, 0, rules.Errorf(rules.CodeRule, "roll %d of seq %d is a turret jam roll, which is nobody's: karma re-rolls a character's own dice", idx+1, seq)
	case roll.Crew == "":
		return 0, 0, rules.Errorf(rules.CodeRule, "roll %d of seq %d had no pilot to make it (nobody conscious at a cockpit or the bridge): karma re-rolls a character's own dice", idx+1, seq)
	case die == 1 && len(roll.Faces) < 2:
		return 0, 0, rules.Errorf(rules.CodeInvalid, "--which %d.2: roll %d of seq %d rolled one die; re-roll it with --which %d", idx+1, idx+1, seq, idx+1)
	}
	return idx, die, nil
}

// shipRollList lists rolls (only those at the indexes given, when some
// are) numbered as --which names them.
func shipRollList(rolls []events.DetailedShipRoll, only []int) string {
	var lines []string
	for i, r := range rolls {
		if only != nil && !slices.Contains(only, i) {
			continue
		}
		lines = append(lines, "  "+projections.NumberedShipRoll(i+1, r))
	}
	return strings.Join(lines, "\n")
}
