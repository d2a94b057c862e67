package interceptor

// What a structural collapse does to a ship and to those aboard, after the
// roll (STRUCTURAL COLLAPSE, book l.466-472; DESTROYING A SHIP, l.456: "A
// ship can only be put out of action permanently in the following ways").

// aboard reports whether the crewman is alive and still aboard.
func (c Crew) aboard() bool { return c.Status != Dead && c.Status != Ejected }

// BrokenUp reports whether a structural collapse broke the ship up (chart
// 1-4, book l.467) and, if so, the turns its crew has left to abandon ship:
// "as many turns to abandon ship as there are Ship Destroyed boxes left",
// counted down at each turn's end (PassAbandonTurn). At 0 those still
// aboard are dead.
func (s Ship) BrokenUp() (bool, int) { return s.brokenUp, s.abandonLeft }

// OutOfAction reports whether the ship is out of action permanently: it
// exploded, or it broke up (book l.456).
func (s Ship) OutOfAction() bool { return s.exploded || s.brokenUp }

// outOfAction is the error for a repair of a ship out of action.
func (s Ship) outOfAction() error {
	switch {
	case s.exploded:
		return errorf(CodeRule, "%s has exploded: there is nothing to repair", s.name)
	case s.brokenUp:
		return errorf(CodeRule, "%s broke up in a structural collapse and is out of action permanently (book l.456, l.467): it cannot be repaired", s.name)
	}
	return nil
}

// AfterCollapse applies what a failed structural collapse roll's chart
// result b does beyond Resolve, and returns the crewmen it kills and those
// it ejects, in record order:
//
//   - 1-4, the ship breaks up (l.467): it is out of action permanently, and
//     its crew has as many turns to abandon ship as Ship Destroyed boxes are
//     left. With none left there is no turn to abandon ship in: those
//     aboard die at once.
//   - 5-7, it explodes after a short delay (l.469): "All personnel able to
//     eject may abandon ship immediately" (the conscious: they are ejected),
//     and "Any personnel unable to eject ... are lost in the blast" (the
//     unconscious, who "cannot abandon ship on his own initiative", l.353,
//     l.367: they die before any wake roll).
//
// Other results change nothing here (8-10 killed everyone in Resolve).
func (s Ship) AfterCollapse(b Breakup) (Ship, []string, []string) {
	n := s.clone()
	var killed, ejected []string
	switch b {
	case BreakupDrift:
		n.brokenUp = true
		n.abandonLeft = n.shipDestroyedLeft()
		if n.abandonLeft == 0 {
			killed = n.killAboard()
		}
	case BreakupDelayed:
		for i := range n.crew {
			cr := &n.crew[i]
			switch cr.Status {
			case Conscious:
				cr.Status = Ejected
				ejected = append(ejected, cr.Name)
			case Unconscious:
				cr.Status = Dead
				killed = append(killed, cr.Name)
			}
		}
	}
	return n, killed, ejected
}

// PassAbandonTurn counts one turn off the time a broken-up ship's crew has
// to abandon ship, at the end of a turn after the one it broke up in; when
// none is left, "any personnel left aboard will die" (l.467): it returns
// them. A ship that has not broken up, or whose time is over, is returned
// as it is.
func (s Ship) PassAbandonTurn() (Ship, []string) {
	if !s.brokenUp || s.abandonLeft == 0 {
		return s, nil
	}
	n := s.clone()
	n.abandonLeft--
	if n.abandonLeft > 0 {
		return n, nil
	}
	return n, n.killAboard()
}

// AbandonDue reports whether a turn's end has something to do on a
// broken-up ship: its crew's time to abandon ship is still running.
func (s Ship) AbandonDue() bool { return s.brokenUp && s.abandonLeft > 0 }

// killAboard kills every crewman still aboard and returns their names.
func (s *Ship) killAboard() []string {
	var out []string
	for i := range s.crew {
		if s.crew[i].aboard() {
			s.crew[i].Status = Dead
			out = append(out, s.crew[i].Name)
		}
	}
	return out
}

// shipDestroyedLeft returns the hull's Ship Destroyed boxes still intact.
func (s Ship) shipDestroyedLeft() int {
	total := 0
	for i := range s.hull.boxes {
		if s.hull.components[s.hull.cells[i]].Type == ShipDestroyed {
			total++
		}
	}
	return total - s.ShipDestroyedLost()
}

// Abandon takes a conscious crewman off the ship (he abandons ship, book
// l.467-469): he is ejected. An unconscious crewman "cannot abandon ship
// on his own initiative" (l.353); the dead and the ejected are not aboard.
func (s Ship) Abandon(name string) (Ship, error) {
	n := s.clone()
	for i := range n.crew {
		cr := &n.crew[i]
		if cr.Name != name {
			continue
		}
		if cr.Status != Conscious {
			return s, errorf(CodeRule, "%s is %s: only a conscious crewman abandons ship on his own initiative (book l.353)", name, cr.Status)
		}
		cr.Status = Ejected
		return n, nil
	}
	return s, errorf(CodeInvalid, "no crewman %q aboard %s", name, s.name)
}
