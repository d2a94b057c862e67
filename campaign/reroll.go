package campaign

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// RerollRequest is what `reroll` asks for.
type RerollRequest struct {
	// Roll is the roll's event ID (ULID) or its seq.
	Roll string
	// Faces are the new dice entered by hand; nil means the program rolls.
	Faces []int
	// UseWish spends a wish as the karma point (edition 2010 only).
	UseWish bool
}

// RerollResult reports a karma re-roll.
type RerollResult struct {
	Replaced events.Event
	// Spent is "karma" or "wish".
	Spent   string
	Roll    *events.RollMade
	Contest *events.ContestResolved
	Events  []events.Event
	Warning string
}

// FindEvent returns the event with the given ULID or seq.
func (s *Service) FindEvent(ref string) (events.Event, error) {
	ref = strings.TrimSpace(ref)
	if n, err := strconv.ParseInt(ref, 10, 64); err == nil {
		if n >= 1 {
			evs, err := s.store.Read(events.Query{AfterSeq: n - 1, UpToSeq: n})
			if err != nil {
				return events.Event{}, err
			}
			if len(evs) == 1 {
				return evs[0], nil
			}
		}
		return events.Event{}, rules.Errorf(rules.CodeNotFound, "no event at seq %s; `ltscamp log` lists them", ref)
	}
	e, err := s.store.EventByID(strings.ToUpper(ref))
	if errors.Is(err, events.ErrNotFound) {
		return events.Event{}, rules.Errorf(rules.CodeNotFound, "no event with id %q; `ltscamp log` lists them", ref)
	}
	return e, err
}

// Reroll spends one karma point to re-roll a character's roll or his side of
// a contest. The new roll points at the old one; both stay in the log.
func (s *Service) Reroll(req RerollRequest) (RerollResult, error) {
	var out RerollResult
	orig, err := s.FindEvent(req.Roll)
	if err != nil {
		return out, err
	}
	if orig.Type != events.TypeRollMade && orig.Type != events.TypeContestResolved {
		return out, rules.Errorf(rules.CodeInvalid, "seq %d is a %s event, not a roll; `ltscamp log --type roll` lists the rolls", orig.Seq, orig.Type)
	}
	if !strings.HasPrefix(orig.Stream, events.CharacterStreamPrefix) {
		return out, rules.Errorf(rules.CodeRule, "seq %d is a roll for nobody in the party; karma re-rolls a character's own dice", orig.Seq)
	}
	charID := strings.TrimPrefix(orig.Stream, events.CharacterStreamPrefix)
	res, err := s.execute(func(d *decision) error {
		out = RerollResult{Replaced: orig}
		camp, err := d.campaignState()
		if err != nil {
			return err
		}
		ed := camp.Edition
		c, err := d.memberByID(charID)
		if err != nil {
			return err
		}
		if by, ok := c.rolls.RerolledBy[orig.ID]; ok {
			ref := by
			if e, err := s.FindEvent(by); err == nil {
				ref = fmt.Sprintf("seq %d", e.Seq)
			}
			return rules.Errorf(rules.CodeRule, "the roll at seq %d was already re-rolled by %s; re-roll that one instead", orig.Seq, ref)
		}
		// 2021 "Karma/Wish": a karma point re-rolls one set of dice.
		switch {
		case req.UseWish && ed != rules.Edition2010:
			return rules.Errorf(rules.CodeRule, "a wish stands in for a karma point only in edition 2010; this campaign is %s", ed)
		case req.UseWish && c.sheet.Wishes < 1:
			return rules.Errorf(rules.CodeRule, "%s has no wish to spend as karma", c.sheet.Name)
		case req.UseWish:
			// 2010 "Karma/Wish": a character can use a wish as a karma point.
			out.Spent = "wish"
			if err := d.emit(c.stream, events.WishSpent{For: "reroll", RollID: orig.ID}); err != nil {
				return err
			}
		case c.sheet.Karma < 1:
			hint := ""
			if ed == rules.Edition2010 && c.sheet.Wishes > 0 {
				hint = "; in edition 2010 a wish may stand in: add --wish"
			}
			return rules.Errorf(rules.CodeRule, "%s has no karma to re-roll with%s", c.sheet.Name, hint)
		default:
			out.Spent = "karma"
			if err := d.emit(c.stream, events.KarmaSpent{Amount: 1, For: "reroll", RollID: orig.ID}); err != nil {
				return err
			}
		}
		p, err := events.Decode(orig)
		if err != nil {
			return err
		}
		switch p := p.(type) {
		case *events.RollMade:
			expr, err := rules.ParseExpr(p.Expr)
			if err != nil {
				return err
			}
			rm, stream, warning, err := d.roll(ed, expr, c.sheet.Name, req.Faces, &reroll{id: orig.ID, roll: *p})
			if err != nil {
				return err
			}
			rm.Reason = p.Reason
			out.Roll, out.Warning = &rm, warning
			if err := d.emit(stream, rm); err != nil {
				return err
			}
			return d.suitOnCheck(rm, d.pending[len(d.pending)-1].ID)
		case *events.ContestResolved:
			return d.rerollContest(ed, orig, p, c, req.Faces, &out)
		}
		return nil
	})
	if err != nil {
		return out, err
	}
	out.Events = res.Events
	return out, nil
}

// reroll names the roll a re-roll replaces, with its recorded conditions.
type reroll struct {
	id   string
	roll events.RollMade
}

// memberByID loads a party member's stream by character ID.
func (d *decision) memberByID(id string) (*character, error) {
	r, err := d.rosterState()
	if err != nil {
		return nil, err
	}
	for _, m := range r.Members {
		if m.ID == id {
			return d.characterByMember(m)
		}
	}
	return nil, rules.Errorf(rules.CodeNotFound, "no character with id %s", id)
}

// rerollContest re-rolls c's side of a contest and decides it again,
// keeping the other side's dice.
func (d *decision) rerollContest(ed rules.Edition, orig events.Event, p *events.ContestResolved, c *character, faces []int, out *RerollResult) error {
	// The contest's events in each participant's stream, to point at.
	sameCommand, err := d.s.store.Read(events.Query{CommandIDs: []string{orig.CommandID}, TypePrefix: events.TypeContestResolved})
	if err != nil {
		return err
	}
	var sides [2]parsedSide
	var roll [2]bool
	var facesBySide [2][]int
	var rerolls [2]string
	for i, cs := range p.Sides {
		sides[i].side = rules.ContestSide{Name: cs.Name, Attribute: rules.Attribute(cs.Attribute), AttributeValue: cs.Value, Restriction: cs.Restriction, SkillName: cs.Skill, SkillLevel: cs.SkillLevel, Curses: cs.Curses, Dice: cs.Dice}
		if cs.CharacterID == "" {
			continue
		}
		pc, err := d.memberByID(cs.CharacterID)
		if err != nil {
			return err
		}
		sides[i].char = pc
		for _, e := range sameCommand {
			if e.Stream == pc.stream {
				rerolls[i] = e.ID
			}
		}
		if cs.CharacterID == c.member.ID {
			roll[i], facesBySide[i] = true, faces
		}
	}
	cr, err := d.resolveContest(ed, sides, facesBySide, roll, p.Sides)
	if err != nil {
		return err
	}
	cr.Reason = p.Reason
	out.Contest = &cr
	return d.emitContest(sides, cr, rerolls)
}
