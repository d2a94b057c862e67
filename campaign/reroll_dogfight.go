package campaign

import (
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// rerollDogfight spends a party member's karma point to roll his dice in
// the dogfight's latest action again — his side of a maneuver's pilot
// contest, or his shot as gunner (the check, "hit", or the weapon dice,
// "damage") — and decides the action again from the dogfight as it was
// before it: positions, the shot's hit.
func (s *Service) rerollDogfight(req RerollRequest, orig events.Event) (RerollResult, error) {
	out := RerollResult{Replaced: orig}
	p, err := events.Decode(orig)
	if err != nil {
		return out, err
	}
	if len(req.To) > 0 {
		return out, rules.Errorf(rules.CodeInvalid, "--to names a story's recipients; seq %d is a %s", orig.Seq, orig.Type)
	}
	res, err := s.execute(func(d *decision) error {
		out = RerollResult{Replaced: orig}
		if err := d.inEffect(orig); err != nil {
			return err
		}
		camp, err := d.campaignState()
		if err != nil {
			return err
		}
		df, err := d.dogfightBefore(orig)
		if err != nil {
			return err
		}
		switch p := p.(type) {
		case *events.DogfightManeuvered:
			return d.rerollManeuver(camp.Edition, orig, p, req, &out)
		case *events.DogfightFired:
			return d.refire(camp.Edition, df, orig, p, req, &out)
		}
		return nil
	})
	if err != nil {
		return out, err
	}
	out.Events = res.Events
	return out, nil
}

// rerollManeuver re-rolls a party pilot's side of a maneuver's contest.
func (d *decision) rerollManeuver(ed rules.Edition, orig events.Event, p *events.DogfightManeuvered, req RerollRequest, out *RerollResult) error {
	if p.Contest == nil {
		return rules.Errorf(rules.CodeRule, "the maneuver at seq %d was unopposed: no dice were rolled", orig.Seq)
	}
	if req.DamageFaces != nil {
		return rules.Errorf(rules.CodeInvalid, "--damage-dice: a maneuver rolls no damage")
	}
	r, err := d.rosterState()
	if err != nil {
		return err
	}
	which := strings.TrimSpace(req.Which)
	side := -1
	for i, cs := range p.Contest.Sides {
		if _, ok := r.Find(cs.Name); !ok {
			continue
		}
		switch {
		case which != "" && strings.EqualFold(which, cs.Name):
			side = i
		case which == "" && side >= 0:
			return rules.Errorf(rules.CodeInvalid, "both pilots of the maneuver at seq %d are party members: name whose dice with --which NAME", orig.Seq)
		case which == "":
			side = i
		}
	}
	if side < 0 {
		if which != "" {
			return rules.Errorf(rules.CodeInvalid, "--which %q: name a party member who flew in the maneuver at seq %d (%s or %s)", which, orig.Seq, p.Contest.Sides[0].Name, p.Contest.Sides[1].Name)
		}
		return rules.Errorf(rules.CodeRule, "no party member flew in the maneuver at seq %d; foes and other pilots have no karma", orig.Seq)
	}
	pilot, err := d.character(p.Contest.Sides[side].Name)
	if err != nil {
		return err
	}
	if out.Spent, err = d.payReroll(ed, pilot, req.UseWish, orig.ID, ""); err != nil {
		return err
	}
	faces := [2][]int{p.Contest.Sides[0].Faces, p.Contest.Sides[1].Faces}
	faces[side] = req.Faces
	m, err := d.maneuver(ManeuverRequest{Ship: p.Mover.Name, Against: p.Target.Name, Pilot: p.Pilot, OpponentPilot: p.TargetPilot, Faces: faces, Choice: p.Chosen},
		&redo{id: orig.ID, by: pilot.sheet.Name, side: side, entered: req.Faces != nil, kept: p.Contest.Sides[1-side].Entered})
	if err != nil {
		return err
	}
	out.Maneuver = &m
	return nil
}

// refire re-rolls a party gunner's shot: his check ("hit", the default) or
// the weapon dice of a hit ("damage"). A hit the first shot scored is
// taken off the craft first; one that killed the crew of a section it
// destroyed is not, and is refused.
func (d *decision) refire(ed rules.Edition, df *projections.Dogfight, orig events.Event, p *events.DogfightFired, req RerollRequest, out *RerollResult) error {
	if p.Check.Outcome == "no shot" {
		return rules.Errorf(rules.CodeRule, "no shot was fired at seq %d (the firing run's pilot check was lost)", orig.Seq)
	}
	which := strings.ToLower(strings.TrimSpace(req.Which))
	switch which {
	case "", "hit":
		which = "hit"
	case "damage":
		if p.Damage == nil {
			return rules.Errorf(rules.CodeRule, "the shot at seq %d missed and rolled no weapon dice; re-roll its check (--which hit)", orig.Seq)
		}
	default:
		return rules.Errorf(rules.CodeInvalid, "--which %q: a shot's dice are the gunner's check (hit) or the weapon dice (damage)", req.Which)
	}
	gunner, err := d.combatant(p.Gunner)
	if err != nil {
		return err
	}
	att, err := d.inDogfight(df, p.Attacker.Name)
	if err != nil {
		return err
	}
	tgt, err := d.inDogfight(df, p.Target.Name)
	if err != nil {
		return err
	}
	re := &refire{redo: redo{id: orig.ID, by: gunner.sheet.Name, entered: req.Faces != nil}, which: which, first: p}
	if p.Hit {
		evs, err := d.s.store.Read(events.Query{CommandIDs: []string{orig.CommandID}, Streams: []string{tgt.stream}})
		if err != nil {
			return err
		}
		for _, e := range evs {
			if e.Type != events.TypeShipHit {
				continue
			}
			hp, err := events.Decode(e)
			if err != nil {
				return err
			}
			if h := hp.(*events.ShipHit); h.FireID == orig.ID {
				re.hit, re.hitID = h, e.ID
			}
		}
		if re.hit != nil {
			for _, sec := range re.hit.Sections {
				if len(sec.Killed) > 0 {
					return rules.Errorf(rules.CodeRule, "the shot at seq %d destroyed %s's %s with %s aboard, who died: a re-roll does not bring the dead back (undo the shot instead)", orig.Seq, tgt.rec.Name, sec.Section, projections.Count(len(sec.Killed), "character", "characters"))
				}
			}
		}
	}
	if out.Spent, err = d.payReroll(ed, gunner, req.UseWish, orig.ID, which); err != nil {
		return err
	}
	sh := shot{kind: rules.FireKind(p.Kind), att: att, tgt: tgt, gunner: gunner.sheet.Name, pc: p.PilotContest, re: re}
	if pc := p.PilotContest; pc != nil {
		sh.contest = &rules.ContestOutcome{Winner: pc.Winner, Outcome: pc.Outcome}
	}
	// All the points, unless the first shot chose to inflict fewer.
	sh.inflict = -1
	if h := re.hit; h != nil && h.Inflicted < max(0, h.Rolled-h.Shields) {
		sh.inflict = h.Inflicted
	}
	if which == "hit" {
		// A shot that now hits rolls the weapon dice given, or the first
		// shot's, or the program's.
		sh.faces, sh.dmgFaces = req.Faces, req.DamageFaces
		if sh.dmgFaces == nil && p.Damage != nil {
			sh.dmgFaces = p.Damage.Faces
		}
	} else {
		if req.DamageFaces != nil {
			return rules.Errorf(rules.CodeInvalid, "--which damage: give the new weapon dice with --dice")
		}
		sh.faces, sh.dmgFaces = p.Check.Faces, req.Faces
	}
	var fr FireResult
	if err := d.fire(ed, df, sh, &fr); err != nil {
		return err
	}
	out.Fire = &fr
	return nil
}
