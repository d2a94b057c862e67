package campaign

import (
	"fmt"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// ship is a ship's folded stream.
type ship struct {
	member projections.ShipMember
	stream string
	rec    projections.Ship
}

// fleet lists the ships whose building is in effect, up to seq (0: all).
func (s *Service) fleet(rv *projections.Reverts, upTo int64) (projections.Fleet, error) {
	var f projections.Fleet
	err := s.foldInEffect(events.Query{StreamPrefix: events.ShipStreamPrefix, TypePrefix: events.TypeShipBuilt, UpToSeq: upTo}, rv, f.Apply)
	return f, err
}

func findShip(f *projections.Fleet, name string) (projections.ShipMember, error) {
	if m, ok := f.Find(name); ok {
		return m, nil
	}
	name = projections.NormalizeName(name)
	if len(f.Ships) == 0 {
		return projections.ShipMember{}, rules.Errorf(rules.CodeNotFound, "no ship %q: none has been built; build one with `ltscamp ship new`", name)
	}
	if near, ok := rules.Suggest(name, f.Names()); ok {
		return projections.ShipMember{}, rules.Errorf(rules.CodeNotFound, "no ship %q; did you mean %q?", name, near)
	}
	return projections.ShipMember{}, rules.Errorf(rules.CodeNotFound, "no ship %q; the ships are %s", name, strings.Join(quoteAll(f.Names()), ", "))
}

// loadShip folds a ship's stream (events in effect, up to seq; 0: all) and
// returns the stream version read.
func (s *Service) loadShip(m projections.ShipMember, rv *projections.Reverts, upTo int64) (*ship, int64, error) {
	sh := &ship{member: m, stream: events.ShipStream(m.ID)}
	version, err := s.foldStream(sh.stream, rv, upTo, sh.rec.Apply)
	if err != nil {
		return nil, 0, err
	}
	return sh, version, nil
}

// fleetState lists the ships (once per decision).
func (d *decision) fleetState() (*projections.Fleet, error) {
	if d.fleet == nil {
		rv, err := d.revertsState()
		if err != nil {
			return nil, err
		}
		f, err := d.s.fleet(rv, 0)
		if err != nil {
			return nil, err
		}
		d.fleet = &f
	}
	return d.fleet, nil
}

// ship loads a ship for a decision (once) and records its version.
func (d *decision) ship(name string) (*ship, error) {
	f, err := d.fleetState()
	if err != nil {
		return nil, err
	}
	m, err := findShip(f, name)
	if err != nil {
		if derr := d.refuseDetailed(name, "this command works on section ships only"); derr != nil {
			return nil, derr
		}
		return nil, err
	}
	return d.shipByMember(m)
}

func (d *decision) shipByMember(m projections.ShipMember) (*ship, error) {
	if sh, ok := d.ships[m.ID]; ok {
		return sh, nil
	}
	rv, err := d.revertsState()
	if err != nil {
		return nil, err
	}
	sh, version, err := d.s.loadShip(m, rv, 0)
	if err != nil {
		return nil, err
	}
	d.expect(sh.stream, version)
	if d.ships == nil {
		d.ships = map[string]*ship{}
	}
	d.ships[m.ID] = sh
	return sh, nil
}

// ShipNew builds a ship from its record, priced by the rules.
func (s *Service) ShipNew(name, record, owner string) (projections.Ship, error) {
	var built string
	_, err := s.execute(func(d *decision) error {
		sh, err := d.buildShip(name, record, owner)
		if err == nil {
			built = sh.rec.Name
		}
		return err
	})
	if err != nil {
		return projections.Ship{}, err
	}
	return s.Ship(built, "")
}

// buildShip decides ship.built for a new ship and adds it to the
// decision's fleet, so the rest of the command can crew it.
func (d *decision) buildShip(raw, record, owner string) (*ship, error) {
	name := projections.NormalizeName(raw)
	camp, err := d.campaignState()
	if err != nil {
		return nil, err
	}
	if name == "" {
		return nil, rules.Errorf(rules.CodeInvalid, "a ship needs a name")
	}
	if err := rules.CheckName("ship name", strings.TrimSpace(raw)); err != nil {
		return nil, err
	}
	f, err := d.fleetState()
	if err != nil {
		return nil, err
	}
	if m, ok := f.Find(name); ok {
		if m.Seq == 0 {
			return nil, rules.Errorf(rules.CodeConflict, "a ship named %q is built twice", m.Name)
		}
		return nil, rules.Errorf(rules.CodeConflict, "a ship named %q already exists (built at seq %d); choose another name", m.Name, m.Seq)
	}
	if err := d.checkShipNameFree(name); err != nil {
		return nil, err
	}
	r, err := rules.ParseShipRecord(camp.Edition, record)
	if err != nil {
		return nil, err
	}
	cost := rules.ShipCost(r)
	id := d.s.newID()
	sh := &ship{member: projections.ShipMember{ID: id, Name: name}, stream: events.ShipStream(id)}
	d.expect(sh.stream, 0)
	b := events.ShipBuilt{ShipID: id, Name: name, Record: r.String(), Cost: cost.Total, CostFormula: cost.Formula, Edition: string(camp.Edition)}
	if strings.TrimSpace(owner) != "" {
		c, err := d.character(owner)
		if err != nil {
			return nil, err
		}
		b.OwnerID, b.Owner = c.member.ID, c.sheet.Name
	}
	if err := d.emitApplied(sh.stream, b, f.Apply, sh.rec.Apply); err != nil {
		return nil, err
	}
	if d.ships == nil {
		d.ships = map[string]*ship{}
	}
	d.ships[id] = sh
	return sh, nil
}

// Ship returns a ship's record as of a point of the log ("" for now; see
// ResolveAsOf).
func (s *Service) Ship(name, asOf string) (projections.Ship, error) {
	v, err := s.view(asOf)
	if err != nil {
		return projections.Ship{}, err
	}
	f, err := s.fleet(&v.rv, v.upTo)
	if err != nil {
		return projections.Ship{}, err
	}
	m, err := findShip(&f, name)
	if err != nil {
		return projections.Ship{}, err
	}
	sh, _, err := s.loadShip(m, &v.rv, v.upTo)
	if err != nil {
		return projections.Ship{}, err
	}
	return sh.rec, nil
}

// Ships returns every ship's record, in the order they were built.
func (s *Service) Ships() ([]projections.Ship, error) {
	v, err := s.view("")
	if err != nil {
		return nil, err
	}
	f, err := s.fleet(&v.rv, 0)
	if err != nil {
		return nil, err
	}
	return s.foldShips(f.Ships, &v.rv, 0)
}

// ShipCrew puts characters aboard a ship's section, or (section "") takes
// them off the ship.
func (s *Service) ShipCrew(shipName, section string, names []string) (projections.Ship, error) {
	var shipNow string
	_, err := s.execute(func(d *decision) error {
		if len(names) == 0 {
			return rules.Errorf(rules.CodeInvalid, "name who boards (or leaves)")
		}
		sh, err := d.ship(shipName)
		if err != nil {
			return err
		}
		shipNow = sh.rec.Name
		return d.crew(sh, section, names)
	})
	if err != nil {
		return projections.Ship{}, err
	}
	return s.Ship(shipNow, "")
}

// crew decides who boards a section of a ship (section ""; who leaves it),
// and folds it into the ship's record.
func (d *decision) crew(sh *ship, section string, names []string) error {
	var err error
	idx := -1
	if section != "" {
		if idx, err = sh.rec.ShipRecord().SectionIndex(section); err != nil {
			return rules.Errorf(rules.CodeOf(err), "%s: %v", sh.rec.Name, err)
		}
		if sh.rec.Sections[idx].Destroyed {
			return rules.Errorf(rules.CodeRule, "%s's %s is destroyed; nobody can board it", sh.rec.Name, sh.rec.Sections[idx].Name)
		}
	}
	seen := map[string]bool{}
	for _, n := range names {
		c, err := d.combatant(n)
		if err != nil {
			return err
		}
		if seen[c.member.ID] {
			return rules.Errorf(rules.CodeInvalid, "%s is named twice", c.sheet.Name)
		}
		seen[c.member.ID] = true
		if idx < 0 {
			if sh.rec.Aboard(c.member.ID) < 0 {
				return rules.Errorf(rules.CodeRule, "%s is not aboard %s", c.sheet.Name, sh.rec.Name)
			}
			if err := d.emitApplied(sh.stream, events.ShipUncrewed{CharacterID: c.member.ID, Character: c.sheet.Name}, sh.rec.Apply); err != nil {
				return err
			}
			continue
		}
		if !c.sheet.Alive() {
			return rules.Errorf(rules.CodeRule, "%s is dead and cannot crew a ship", c.sheet.Name)
		}
		if err := d.leaveOtherShips(c, sh); err != nil {
			return err
		}
		if err := d.emitApplied(sh.stream, events.ShipCrewed{CharacterID: c.member.ID, Character: c.sheet.Name, Section: sh.rec.Sections[idx].Name}, sh.rec.Apply); err != nil {
			return err
		}
	}
	return nil
}

// leaveOtherShips takes a character off any other ship before he boards one.
func (d *decision) leaveOtherShips(c *character, boarding *ship) error {
	f, err := d.fleetState()
	if err != nil {
		return err
	}
	for _, m := range f.Ships {
		if m.ID == boarding.member.ID {
			continue
		}
		other, err := d.shipByMember(m)
		if err != nil {
			return err
		}
		if other.rec.Aboard(c.member.ID) < 0 {
			continue
		}
		if err := d.emitApplied(other.stream, events.ShipUncrewed{CharacterID: c.member.ID, Character: c.sheet.Name}, other.rec.Apply); err != nil {
			return err
		}
	}
	return nil
}

// ShipHitRequest is what `ship hit` asks for.
type ShipHitRequest struct {
	Ship string
	// Damage is the points rolled, or Faces the weapon dice (d6).
	Damage int
	Faces  []int
	// Inflict, when 0 or more, is the points the attacker chooses to
	// inflict (fewer than rolled, sparing sections); -1 means all.
	Inflict int
	Source  string
}

// ShipHitResult reports a hit.
type ShipHitResult struct {
	Ship   projections.Ship
	Hit    events.ShipHit
	Killed []string
	Events []events.Event
}

// ShipHit applies a hit: shields subtract once, the rest destroys section
// points in listed order, and everyone aboard a destroyed section dies.
func (s *Service) ShipHit(req ShipHitRequest) (ShipHitResult, error) {
	var out ShipHitResult
	var name string
	res, err := s.execute(func(d *decision) error {
		out = ShipHitResult{}
		if err := d.refuseDetailed(req.Ship, "--damage, --dice and --inflict are for section ships; hit it with --facing, --weapon and --column"); err != nil {
			return err
		}
		sh, err := d.ship(req.Ship)
		if err != nil {
			return err
		}
		name = sh.rec.Name
		rolled := req.Damage
		if req.Faces != nil {
			if req.Damage != 0 {
				return rules.Errorf(rules.CodeInvalid, "give --damage or --dice, not both")
			}
			rolled = 0
			for _, f := range req.Faces {
				if f < 1 || f > 6 {
					return rules.Errorf(rules.CodeInvalid, "face %d is not on a d6 (1-6)", f)
				}
				rolled += f
			}
		} else if rolled < 1 {
			return rules.Errorf(rules.CodeInvalid, "--damage %d: a hit deals 1 point or more", rolled)
		} else if err := rules.CheckQuantity(rules.QtyShipDamage, rolled); err != nil {
			return err
		}
		if err := rules.CheckReason("--source", strings.TrimSpace(req.Source)); err != nil {
			return err
		}
		hit, err := d.applyShipHit(sh, rolled, req.Inflict, &out)
		if err != nil {
			return err
		}
		hit.Faces, hit.Entered, hit.Source = req.Faces, req.Faces != nil, strings.TrimSpace(req.Source)
		out.Hit = hit
		return d.emitShipHit(sh, hit, &out)
	})
	if err != nil {
		return out, err
	}
	out.Events = res.Events
	out.Ship, err = s.Ship(name, "")
	return out, err
}

// applyShipHit decides where a hit's points land, with the rules.
func (d *decision) applyShipHit(sh *ship, rolled, inflict int, out *ShipHitResult) (events.ShipHit, error) {
	o, _, err := rules.ApplyShipHit(sh.rec.ShipRecord(), sh.rec.SectionStates(), rolled, inflict)
	if err != nil {
		return events.ShipHit{}, err
	}
	hit := events.ShipHit{Rolled: o.Rolled, Shields: o.Shields, Inflicted: o.Inflicted, Wasted: o.Wasted, DIW: o.DIW, Sections: []events.SectionHit{}}
	for _, a := range o.Applied {
		sec := events.SectionHit{Section: a.Name, Points: a.Points, Destroyed: a.DestroyedNow}
		if a.DestroyedNow {
			// "A section ... is destroyed with everyone in it."
			sec.Killed = sh.rec.CrewIn(a.Index)
		}
		hit.Sections = append(hit.Sections, sec)
	}
	return hit, nil
}

// emitShipHit appends the hit and the deaths of those aboard destroyed
// sections, one command with events on every stream it touches.
func (d *decision) emitShipHit(sh *ship, hit events.ShipHit, out *ShipHitResult) error {
	if err := d.emit(sh.stream, hit); err != nil {
		return err
	}
	for _, sec := range hit.Sections {
		for _, id := range sec.Killed {
			c, err := d.memberByID(id)
			if err != nil {
				return err
			}
			if !c.sheet.Alive() {
				continue
			}
			out.Killed = append(out.Killed, c.sheet.Name)
			cause := fmt.Sprintf("aboard %s's %s when it was destroyed", sh.rec.Name, sec.Section)
			if err := d.emit(c.stream, events.CharacterDied{Cause: cause, Damage: c.sheet.Damage}); err != nil {
				return err
			}
		}
	}
	return nil
}

// ShipRepair removes damage from a section (the first damaged one when
// section is ""); points < 1 repairs it all.
func (s *Service) ShipRepair(shipName, section string, points int) (projections.Ship, events.ShipRepaired, error) {
	var name string
	var rep events.ShipRepaired
	_, err := s.execute(func(d *decision) error {
		sh, err := d.ship(shipName)
		if err != nil {
			return err
		}
		name = sh.rec.Name
		idx := -1
		if section == "" {
			for i, sec := range sh.rec.Sections {
				if sec.Damage > 0 {
					idx = i
					break
				}
			}
			if idx < 0 {
				return rules.Errorf(rules.CodeRule, "%s has no damage to repair", sh.rec.Name)
			}
		} else if idx, err = sh.rec.ShipRecord().SectionIndex(section); err != nil {
			return rules.Errorf(rules.CodeOf(err), "%s: %v", sh.rec.Name, err)
		}
		if points < 1 {
			points = -1
		}
		_, repaired, err := rules.RepairSection(sh.rec.SectionStates(), idx, points)
		if err != nil {
			return rules.Errorf(rules.CodeOf(err), "%s: %v", sh.rec.Name, err)
		}
		rep = events.ShipRepaired{Section: sh.rec.Sections[idx].Name, Points: repaired}
		return d.emit(sh.stream, rep)
	})
	if err != nil {
		return projections.Ship{}, rep, err
	}
	sh, err := s.Ship(name, "")
	return sh, rep, err
}
