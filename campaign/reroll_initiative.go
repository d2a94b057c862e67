package campaign

import (
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// rerollInitiative spends the karma point (or, in 2010, the wish) of
// req.Which, a party member, to re-roll his side's initiative die: "a set
// of dice" is the side's one die. The other side's die is kept; a tie
// rolls both again, as at first. It is allowed while the initiative is in
// effect and nobody has acted since (a Stalker's free action aside), nor
// a turn passed: then the first turn is decided again. A Tactician's
// contest belongs to the die it was rolled against: undo both instead.
func (s *Service) rerollInitiative(req RerollRequest, orig events.Event) (RerollResult, error) {
	out := RerollResult{Replaced: orig}
	name := strings.TrimSpace(req.Which)
	switch {
	case name == "":
		return out, rules.Errorf(rules.CodeInvalid, "seq %d is an initiative: name who spends his karma on his side's die with --which NAME", orig.Seq)
	case req.DamageFaces != nil || req.To != nil:
		return out, rules.Errorf(rules.CodeInvalid, "seq %d is an initiative: it takes --which NAME and --dice only", orig.Seq)
	}
	p, err := events.Decode(orig)
	if err != nil {
		return out, err
	}
	was := p.(*events.InitiativeRolled)
	res, err := s.execute(func(d *decision) error {
		c, t, err := d.turnsState()
		if err != nil {
			return err
		}
		if t.InitiativeID() != orig.ID {
			return rules.Errorf(rules.CodeRule, "seq %d is not the initiative in effect (re-rolled already, or of an encounter over): re-roll the one `ltscamp log --type initiative` shows last", orig.Seq)
		}
		if !t.InitiativeOpen() {
			return rules.Errorf(rules.CodeRule, "the initiative at seq %d can no longer be re-rolled: the battle has gone on since (an action or a turn); undo back to it instead", orig.Seq)
		}
		if was.Tactician != nil {
			return rules.Errorf(rules.CodeRule, "the initiative at seq %d carries %s's Tactician contest, decided against its die: undo it and roll again", orig.Seq, was.Tactician.Name)
		}
		who, err := d.combatant(name)
		if err != nil {
			return err
		}
		side := projections.SideOfStream(who.stream)
		if out.Spent, err = d.payReroll(c.Edition, who, req.UseWish, orig.ID, "initiative"); err != nil {
			return err
		}
		other := projections.OtherSide(side)
		kept := t.LastDie(other)
		roller, given := d.s.dice(req.Faces)
		f, err := roller.Roll(1, 6)
		if err != nil {
			return rules.Errorf(rules.CodeInvalid, "enter the %s new die with --dice N", projections.SidePossessive(side))
		}
		rolled := events.InitiativeRolled{Encounter: c.Encounter, Entered: given != nil, Edition: string(c.Edition), Rerolls: orig.ID,
			Karma: &events.InitiativeKarma{ID: who.member.ID, Name: who.sheet.Name, Side: side}}
		pair := func(mine, theirs int) {
			if side == events.SideParty {
				rolled.Party, rolled.Foes = append(rolled.Party, mine), append(rolled.Foes, theirs)
			} else {
				rolled.Party, rolled.Foes = append(rolled.Party, theirs), append(rolled.Foes, mine)
			}
		}
		pair(f[0], kept)
		for n := 0; rolled.Party[n] == rolled.Foes[n]; n++ {
			// A tie rolls both dice again, the party's first, as at first.
			g, err := roller.Roll(2, 6)
			if err != nil {
				if given != nil {
					return rules.Errorf(rules.CodeInvalid, "the new die ties %d against %d: roll both dice again and enter them after it, the party's first (--dice %d,P,F)", f[0], kept, f[0])
				}
				return err
			}
			rolled.Party, rolled.Foes = append(rolled.Party, g[0]), append(rolled.Foes, g[1])
		}
		if err := leftover(given, len(req.Faces), "the initiative re-roll"); err != nil {
			return err
		}
		n := len(rolled.Party) - 1
		rolled.First = events.SideParty
		if rolled.Foes[n] > rolled.Party[n] {
			rolled.First = events.SideFoes
		}
		out.Initiative = &rolled
		return d.emit(events.TurnsStream, rolled)
	})
	if err != nil {
		return out, err
	}
	out.Events = res.Events
	return out, nil
}
