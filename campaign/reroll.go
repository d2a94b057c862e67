package campaign

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
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
	// Which names the set of dice to re-roll: an attack's "hit" (the
	// default), "damage" or "dodge". A roll or a contest side is one set.
	Which string
	// DamageFaces are the damage dice of a re-rolled hit or dodge that
	// now lands (nil: the attack's unused damage dice, else rolled).
	DamageFaces []int
	// To names the recipients of a re-rolled failed story's karma, should
	// the new roll tell it (one name a point, as karma storytell --to).
	To []string
}

// RerollResult reports a karma re-roll.
type RerollResult struct {
	Replaced events.Event
	// Spent is "karma" or "wish".
	Spent   string
	Roll    *events.RollMade
	Contest *events.ContestResolved
	// Attack is the attack decided again from the new dice, and Target
	// its target's sheet after it.
	Attack *events.AttackMade
	Target *projections.Sheet
	// Healed is what a re-rolled medic's check healed now; Told and
	// Amounts who a re-rolled story gave karma to, and how much.
	Healed  *int
	Told    []string
	Amounts []int
	// Maneuver and Fire are a dogfight action decided again.
	Maneuver *events.DogfightManeuvered
	Fire     *FireResult
	// DetailedHit or DetailedTurn is a detailed ship's hit or turn end
	// made again with a crewman's roll re-rolled, and DetailedShip the
	// ship after it.
	DetailedHit  *events.DetailedShipHit
	DetailedTurn *events.DetailedTurnEnded
	DetailedShip *projections.DetailedShip
	// Initiative is the initiative decided again by a side's die.
	Initiative *events.InitiativeRolled
	Events     []events.Event
	Warning    string
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
	which := strings.ToLower(strings.TrimSpace(req.Which))
	switch orig.Type {
	case events.TypeAttackMade:
		return s.rerollAttack(req, orig)
	case events.TypeDogfightManeuvered, events.TypeDogfightFired:
		return s.rerollDogfight(req, orig)
	case events.TypeDetailedShipHit, events.TypeDetailedTurnEnded:
		return s.rerollDetailed(req, orig)
	case events.TypeInitiativeRolled:
		return s.rerollInitiative(req, orig)
	case events.TypeRollMade, events.TypeContestResolved:
		if which != "" {
			return out, rules.Errorf(rules.CodeInvalid, "--which %s: seq %d is a %s, one set of dice; leave out --which (it names an attack's hit, damage or dodge)", which, orig.Seq, orig.Type)
		}
		if req.DamageFaces != nil {
			return out, rules.Errorf(rules.CodeInvalid, "--damage-dice: seq %d is a %s, not an attack", orig.Seq, orig.Type)
		}
	default:
		return out, rules.Errorf(rules.CodeInvalid, "seq %d is a %s event, not a roll; `ltscamp log --type roll` lists the rolls, `ltscamp log --type attack` the attacks", orig.Seq, orig.Type)
	}
	if strings.HasPrefix(orig.Stream, events.FoeStreamPrefix) && orig.Type == events.TypeContestResolved {
		// A contest is on each side's stream: the party member's copy is
		// the one his karma re-rolls.
		if mine, ok, err := s.partyCopy(orig); err != nil {
			return out, err
		} else if ok {
			orig, out.Replaced = mine, mine
		}
	}
	if strings.HasPrefix(orig.Stream, events.FoeStreamPrefix) {
		return out, rules.Errorf(rules.CodeRule, "seq %d is a foe's roll; foes have no karma to re-roll with", orig.Seq)
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
		if err := d.notRerolled(c, orig); err != nil {
			return err
		}
		if out.Spent, err = d.payReroll(ed, c, req.UseWish, orig.ID, ""); err != nil {
			return err
		}
		p, err := events.Decode(orig)
		if err != nil {
			return err
		}
		switch p := p.(type) {
		case *events.RollMade:
			after, err := d.followers(camp, orig, p, c, req.To)
			if err != nil {
				return err
			}
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
			rollID := d.pending[len(d.pending)-1].ID
			if err := d.suitOnCheck(rm, rollID); err != nil {
				return err
			}
			return d.decideAgain(camp, c, after, orig.ID, rm, rollID, &out)
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

// partyCopy returns a contest's copy on the stream of its one party
// member, when it has exactly one.
func (s *Service) partyCopy(contest events.Event) (events.Event, bool, error) {
	evs, err := s.store.Read(events.Query{CommandIDs: []string{contest.CommandID}, TypePrefix: events.TypeContestResolved, StreamPrefix: events.CharacterStreamPrefix})
	if err != nil || len(evs) != 1 {
		return events.Event{}, false, err
	}
	return evs[0], true, nil
}

// notRerolled refuses a re-roll of a roll undone, and a second re-roll of
// the same roll: the re-roll is the roll now, and it may be re-rolled in
// its turn.
func (d *decision) notRerolled(c *character, orig events.Event) error {
	if err := d.inEffect(orig); err != nil {
		return err
	}
	by, ok := c.rolls.RerolledBy[orig.ID]
	if !ok {
		return nil
	}
	ref := by
	if e, err := d.s.FindEvent(by); err == nil {
		ref = fmt.Sprintf("seq %d", e.Seq)
	}
	return rules.Errorf(rules.CodeRule, "the roll at seq %d was already re-rolled by %s; re-roll that one instead", orig.Seq, ref)
}

// inEffect refuses to re-roll a roll whose command was undone.
func (d *decision) inEffect(orig events.Event) error {
	rv, err := d.revertsState()
	if err != nil {
		return err
	}
	if !rv.InEffect(orig) {
		return rules.Errorf(rules.CodeRule, "seq %d was undone: there is nothing to re-roll (redo it first)", orig.Seq)
	}
	return nil
}

// payReroll spends c's karma point (or, in 2010, a wish) on re-rolling
// rollID, and says which was spent. which names an attack's set of dice.
func (d *decision) payReroll(ed rules.Edition, c *character, useWish bool, rollID, which string) (string, error) {
	// 2021 "Karma/Wish": a karma point re-rolls one set of dice.
	switch {
	case c.member.Foe:
		return "", rules.Errorf(rules.CodeRule, "%s is a foe; foes have no karma to re-roll with", c.sheet.Name)
	case useWish && ed != rules.Edition2010:
		return "", rules.Errorf(rules.CodeRule, "a wish stands in for a karma point only in edition 2010; this campaign is %s", ed)
	case useWish && c.sheet.Wishes < 1:
		return "", rules.Errorf(rules.CodeRule, "%s has no wish to spend as karma", c.sheet.Name)
	case useWish:
		// 2010 "Karma/Wish": a character can use a wish as a karma point.
		return "wish", d.emitApplied(c.stream, events.WishSpent{For: "reroll", RollID: rollID, Which: which}, c.sheet.Apply)
	case c.sheet.Karma < 1:
		hint := ""
		if ed == rules.Edition2010 && c.sheet.Wishes > 0 {
			hint = "; in edition 2010 a wish may stand in: add --wish"
		}
		return "", rules.Errorf(rules.CodeRule, "%s has no karma to re-roll with%s", c.sheet.Name, hint)
	}
	return "karma", d.emitApplied(c.stream, events.KarmaSpent{Amount: 1, For: "reroll", RollID: rollID, Which: which}, c.sheet.Apply)
}

// rerollAttack spends a karma point to roll one set of an attack's dice
// again — the attacker's hit or damage, or the target's dodge — and
// decides the attack again from the new dice: the points the first attack
// dealt are withdrawn and the new ones dealt. Both attacks stay in the log.
func (s *Service) rerollAttack(req RerollRequest, orig events.Event) (RerollResult, error) {
	out := RerollResult{Replaced: orig}
	p, err := events.Decode(orig)
	if err != nil {
		return out, err
	}
	first := p.(*events.AttackMade)
	which := strings.ToLower(strings.TrimSpace(req.Which))
	if which == "" {
		which = "hit"
	}
	res, err := s.execute(func(d *decision) error {
		out = RerollResult{Replaced: orig}
		camp, err := d.campaignState()
		if err != nil {
			return err
		}
		ed := camp.Edition
		if g, ok := first.GameTimeOf(); ok && (!camp.InEncounter || g.Adventure != camp.Adventure || g.Encounter != camp.Encounter) {
			return rules.Errorf(rules.CodeRule, "the attack at seq %d was made in an encounter that has ended; karma re-rolls an attack during its encounter", orig.Seq)
		}
		a, err := d.memberByID(first.AttackerID)
		if err != nil {
			return err
		}
		var t *character
		if first.TargetID != "" {
			if t, err = d.memberByID(first.TargetID); err != nil {
				return err
			}
		}
		if err := d.notRerolled(a, orig); err != nil {
			return err
		}
		if by, ok, err := d.completedBy(orig.ID); err != nil {
			return err
		} else if ok {
			return rules.Errorf(rules.CodeRule, "the hit at seq %d was completed at seq %d (its dodge or damage); re-roll that one instead", orig.Seq, by.Seq)
		}
		// The attack as first made, with the re-rolled set's dice new.
		ar := AttackRequest{Attacker: a.sheet.Name, Target: first.Target, Weapon: first.Weapon, Bonus: first.Bonus, TargetST: first.TargetST,
			Fatigue: first.Fatigue, Thrown: first.Thrown, Grappling: first.Grappling, HitFaces: first.Hit.Faces, DamageFaces: req.DamageFaces,
			Outside: first.AutoHit == string(rules.AutoHitOutside), legacyGrapple: first.Grappling && first.AutoHit == "",
			placement: &rules.SkillPlacement{Bonus: rules.SkillBonus(first.Bonus), Source: rules.BonusSource(first.BonusFrom), Note: first.BonusNote}}
		if first.AutoHit != "" {
			ar.HitFaces = nil
		}
		if ar.DamageFaces == nil {
			switch {
			case first.Damage != nil && which != "damage":
				ar.DamageFaces = first.Damage.Faces
			case first.SpareDamage != nil:
				ar.DamageFaces = first.SpareDamage
			}
		}
		if first.Dodge != nil {
			ar.Dodge, ar.DodgeFaces = true, first.Dodge.Faces
		}
		// A hit entered alone stays so: a re-rolled hit that lands waits
		// for its dodge or damage, unless damage dice come with it.
		ar.HitOnly = first.HitOnly && ar.DamageFaces == nil && req.DamageFaces == nil
		payer := a
		switch which {
		case "hit":
			if first.AutoHit != "" {
				return rules.Errorf(rules.CodeRule, "the attack at seq %d made no hit roll (it hit without one); re-roll its damage instead (--which damage)", orig.Seq)
			}
			ar.HitFaces = req.Faces
		case "damage":
			if first.Damage == nil {
				return rules.Errorf(rules.CodeRule, "the attack at seq %d rolled no damage (%s); re-roll its hit instead (--which hit)", orig.Seq, first.Hit.Outcome)
			}
			if req.DamageFaces != nil {
				return rules.Errorf(rules.CodeInvalid, "--which damage: give the new damage dice with --dice")
			}
			ar.DamageFaces = req.Faces
		case "dodge":
			if first.Dodge == nil {
				return rules.Errorf(rules.CodeRule, "nobody dodged the attack at seq %d; there is no dodge to re-roll", orig.Seq)
			}
			payer, ar.DodgeFaces = t, req.Faces
			if first.Dodge.Outcome == "fail" && req.DamageFaces == nil && first.Damage != nil {
				ar.DamageFaces = first.Damage.Faces
			}
		default:
			return rules.Errorf(rules.CodeInvalid, "--which %q: choose hit, damage or dodge", req.Which)
		}
		if out.Spent, err = d.payReroll(ed, payer, req.UseWish, orig.ID, which); err != nil {
			return err
		}
		am, err := d.attack(ed, a, t, ar, &replaced{attack: first, id: orig.ID, command: orig.CommandID, which: which})
		if err != nil {
			return err
		}
		out.Attack = &am
		return nil
	})
	if err != nil {
		return out, err
	}
	out.Events = res.Events
	out.Target = s.attackTarget(*out.Attack)
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
	for _, m := range append(slices.Clip(r.Members), r.Foes...) {
		if m.ID == id {
			return d.characterByMember(m)
		}
	}
	return nil, rules.Errorf(rules.CodeNotFound, "no character or foe on the roster with id %s", id)
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
	if p.Tackle != nil {
		// A tackle keeps its sides and what it answers; its outcome is
		// decided again from the new contest.
		t := *p.Tackle
		t.Outcome = rules.TackleOutcome(cr.Winner == 0, t.TacklerST, t.FoeST)
		cr.Tackle = &t
	}
	out.Contest = &cr
	return d.emitContest(sides, cr, rerolls)
}

// following is what a roll's command decided from it: a medic's healing
// of his patient, or a story's karma.
type following struct {
	healed  *events.DamageHealed
	patient *character
	// story is set for a storytelling roll: its recipients, should the
	// re-roll tell it.
	story *story
}

// followers finds what followed from a roll about to be re-rolled, and
// refuses a re-roll whose consequences cannot be decided again.
func (d *decision) followers(camp *projections.Campaign, orig events.Event, first *events.RollMade, c *character, to []string) (following, error) {
	var f following
	evs, err := d.s.store.Read(events.Query{CommandIDs: []string{orig.CommandID}})
	if err != nil {
		return f, err
	}
	told := false
	for _, e := range evs {
		if e.Type != events.TypeDamageHealed && e.Type != events.TypeKarmaGranted {
			continue
		}
		p, err := events.Decode(e)
		if err != nil {
			return f, err
		}
		switch p := p.(type) {
		case *events.DamageHealed:
			if p.RollID != orig.ID {
				continue
			}
			if g, ok := p.GameTimeOf(); ok && (!camp.InEncounter || g.Adventure != camp.Adventure || g.Encounter != camp.Encounter) {
				return f, rules.Errorf(rules.CodeRule, "the medic's check at seq %d treated damage of an encounter that has ended; karma re-rolls it during that combat", orig.Seq)
			}
			id := strings.TrimPrefix(strings.TrimPrefix(e.Stream, events.CharacterStreamPrefix), events.FoeStreamPrefix)
			if f.patient, err = d.memberByID(id); err != nil {
				return f, err
			}
			f.healed = p
		case *events.KarmaGranted:
			told = told || p.RollID == orig.ID
		}
	}
	if first.Reason == "storytelling" {
		if told {
			return f, rules.Errorf(rules.CodeRule, "the story at seq %d was told and its karma given; a re-roll would take it back (undo the story instead)", orig.Seq)
		}
		st, err := d.storyRecipients(c.sheet.Name, first.SkillLevel, to)
		if err != nil {
			return f, rules.Errorf(rules.CodeInvalid, "a re-rolled story that is told gives its karma: %v", err)
		}
		f.story = &st
	} else if len(to) > 0 {
		return f, rules.Errorf(rules.CodeInvalid, "--to names a story's recipients; seq %d is not a storytelling roll", orig.Seq)
	}
	return f, nil
}

// decideAgain decides again, from the new roll rm (event rollID), what
// followed from the roll it replaced: the medic's first treatment is taken
// back and the new check's given; a story the new roll tells gives its
// karma.
func (d *decision) decideAgain(camp *projections.Campaign, c *character, f following, origID string, rm events.RollMade, rollID string, out *RerollResult) error {
	if f.healed != nil {
		w := events.HealingWithdrawn{RollID: origID, RerollID: rollID, MedicID: c.member.ID, Points: f.healed.Points}
		if err := d.emitApplied(f.patient.stream, w, f.patient.sheet.Apply); err != nil {
			return err
		}
		points, _, err := d.treat(camp, c, f.patient, rm, rollID, 0)
		if err != nil {
			return err
		}
		out.Healed = &points
	}
	if f.story != nil && rm.Outcome == "pass" {
		var err error
		out.Told, out.Amounts, err = d.tell(c, *f.story, rollID)
		return err
	}
	return nil
}
