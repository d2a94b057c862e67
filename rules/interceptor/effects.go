package interceptor

import "slices"

// IsDisabled reports whether a component of boxes boxes with destroyed of
// them gone is disabled (DAMAGING INTERNAL COMPONENTS, book l.337):
// "Components with a single box are disabled by a single hit; those with
// more than one box are disabled when more than half of the boxes in that
// component (rounding up) are marked off." Read as: more than half, which
// for an odd count is half rounded up (3 boxes: 2; 4 boxes: 3; 8 boxes: 5).
func IsDisabled(boxes, destroyed int) bool {
	return boxes > 0 && destroyed*2 > boxes
}

// RollKind says what a Roll is for. Its string value is stable.
type RollKind string

// The roll kinds.
const (
	// RollConsciousness: a cockpit hit; roll Number or less to stay
	// conscious (COCKPIT, book l.357).
	RollConsciousness RollKind = "consciousness"
	// RollWound: end of a turn in which a Bridge or occupied Quarters was
	// hit; Percent/10 or less on a d10 is a wound, and a wounded crewman
	// then rolls on the Consciousness Table's Column (book l.353, l.433).
	RollWound RollKind = "wound"
	// RollWake: Decision Phase; an unconscious crewman rolls Number or less
	// on his Column to reawaken (book l.353, l.367).
	RollWake RollKind = "wake"
	// RollCollapse: end of a turn with Ship Destroyed damage; the pilot must
	// roll above Number, the Ship Destroyed boxes lost (book l.466).
	RollCollapse RollKind = "structural_collapse"
	// RollTurretJam: a Turret Structure was disabled (book l.409).
	RollTurretJam RollKind = "turret_jam"
)

// Roll is a die roll the rules call for. Resolve settles it given the faces.
type Roll struct {
	Kind    RollKind
	Crew    string // the crewman who rolls: crew rolls, and the Pilot for a collapse roll
	Station string // the component code involved
	Turret  int    // for RollTurretJam
	Column  int    // Consciousness Table column (total hits), 1-4
	Number  int    // the number the roll is made against (see RollKind)
	Percent int    // wound chance, for RollWound
}

// Outcome is what a resolved Roll did.
type Outcome struct {
	// Moot is set when the roll no longer matters: the crewman is dead, or
	// already unconscious for a consciousness roll.
	Moot bool
	// Wounded is set when a wound roll wounded the crewman.
	Wounded bool
	// Status is the crewman's status after the roll.
	Status CrewStatus
	// Breakup is a structural collapse roll's result.
	Breakup Breakup
	// JamFacing is a turret jam roll's result: 1-6, or 0 when the turret's
	// weapons must be abandoned.
	JamFacing int
}

// snapshot records destroyed counts so that effects can tell what a change did.
type snapshot struct {
	destroyed [][]int // per body (hull, then turrets), per component
	externals []BoxState
}

func (b body) destroyedCounts() []int {
	n := make([]int, len(b.components))
	for i, st := range b.boxes {
		if st != Intact {
			n[b.cells[i]]++
		}
	}
	return n
}

func (s Ship) snapshot() snapshot {
	sn := snapshot{destroyed: [][]int{s.hull.destroyedCounts()}}
	for _, t := range s.turrets {
		sn.destroyed = append(sn.destroyed, t.body.destroyedCounts())
	}
	for _, e := range s.externals {
		sn.externals = append(sn.externals, e.State)
	}
	return sn
}

// effects compares s with before and reports newly disabled components,
// cockpit hits and their rolls, and a powerplant explosion.
func (s *Ship) effects(before snapshot, rep *Report) {
	bodies := []*body{&s.hull}
	for k := range s.turrets {
		bodies = append(bodies, &s.turrets[k].body)
	}
	for k, b := range bodies {
		now := b.destroyedCounts()
		for i, c := range b.components {
			was := before.destroyed[k][i]
			if c.Type != Free && !IsDisabled(c.Boxes, was) && IsDisabled(c.Boxes, now[i]) {
				rep.Disabled = append(rep.Disabled, ComponentRef{Turret: k, Code: c.Code, Type: c.Type})
				if c.Type == TurretStructure && k > 0 {
					rep.Rolls = append(rep.Rolls, Roll{Kind: RollTurretJam, Turret: k, Station: c.Code})
				}
			}
			if k == 0 && c.Type == Cockpit {
				for hits := was + 1; hits <= now[i]; hits++ {
					s.cockpitHit(c.Code, hits, rep)
				}
			}
		}
	}
	for i, e := range s.externals {
		if before.externals[i] == Intact && e.State != Intact {
			rep.Disabled = append(rep.Disabled, ComponentRef{Code: e.Name, Type: e.Type})
		}
	}
	if !s.exploded && s.powerplantGone() {
		// POWERPLANT (book l.419): "If all powerplant boxes are lost, the
		// ship explodes and is destroyed"; l.458: "along with all crewmen".
		s.exploded = true
		rep.ShipExploded = true
		for i := range s.crew {
			if s.crew[i].aboard() {
				s.crew[i].Status = Dead
				rep.Killed = append(rep.Killed, s.crew[i].Name)
			}
		}
	}
}

// cockpitHit records the hits-th hit on a cockpit: its occupant rolls on the
// Consciousness Table's hits column, or dies at 4 hits (book l.357-365).
func (s *Ship) cockpitHit(code string, hits int, rep *Report) {
	for i := range s.crew {
		cr := &s.crew[i]
		if cr.Station != code || !cr.aboard() {
			continue
		}
		cr.Column = hits
		number, kia, _ := ConsciousnessNumber(cr.Race, hits)
		switch {
		case kia:
			cr.Status = Dead
			rep.Killed = append(rep.Killed, cr.Name)
		case cr.Status == Conscious:
			rep.Rolls = append(rep.Rolls, Roll{Kind: RollConsciousness, Crew: cr.Name, Station: code, Column: hits, Number: number})
		}
	}
}

// powerplantGone reports whether the hull has powerplant boxes and all are lost.
func (s *Ship) powerplantGone() bool {
	total, lost := 0, 0
	for i, st := range s.hull.boxes {
		if s.hull.components[s.hull.cells[i]].Type == Powerplant {
			total++
			if st != Intact {
				lost++
			}
		}
	}
	return total > 0 && lost == total
}

// ShipDestroyedLost returns the number of Ship Destroyed boxes the hull has lost.
func (s Ship) ShipDestroyedLost() int {
	lost := 0
	for i, st := range s.hull.boxes {
		if st != Intact && s.hull.components[s.hull.cells[i]].Type == ShipDestroyed {
			lost++
		}
	}
	return lost
}

// CollapseRoll returns the structural collapse roll a pilot makes when he
// must take a Piloting skill roll on a ship with Ship Destroyed damage
// (book l.466), and false when the ship has none.
func (s Ship) CollapseRoll() (Roll, bool) {
	lost := s.ShipDestroyedLost()
	if lost == 0 || s.exploded || s.brokenUp {
		// A ship already broken up has no further collapse roll: it is out
		// of action for good (book l.456, l.467).
		return Roll{}, false
	}
	return Roll{Kind: RollCollapse, Number: lost, Crew: s.Pilot()}, true
}

// Pilot names the crewman who makes the pilot's rolls (STRUCTURAL
// COLLAPSE, book l.466: "its pilot must roll"): the first conscious
// crewman of the record at a Cockpit, else at the Bridge; "" when none
// is. The book does not say who flies a ship with several stations; a
// cockpit is where a ship is flown, and a conscious crewman flies it.
func (s Ship) Pilot() string {
	for _, station := range []ComponentType{Cockpit, Bridge} {
		for _, cr := range s.crew {
			if cr.Status != Conscious {
				continue
			}
			if i := s.hull.component(cr.Station); i >= 0 && s.hull.components[i].Type == station {
				return cr.Name
			}
		}
	}
	return ""
}

// EndTurn returns the rolls due at the end of a turn and a ship whose
// record of what was hit this turn is cleared: a wound roll for each living
// occupant of a Bridge or Quarters hit this turn (book l.353, l.433) and a
// structural collapse roll if the Ship Destroyed row was hit this turn
// (l.466).
func (s Ship) EndTurn() (Ship, []Roll) {
	n := s.clone()
	var rolls []Roll
	if n.exploded {
		return n, nil
	}
	now := n.hull.destroyedCounts()
	collapse := false
	for i, c := range n.hull.components {
		if !n.hull.hitTurn[i] {
			continue
		}
		switch c.Type {
		case Bridge, Quarters:
			percent, column, _ := WoundChance(now[i], c.Boxes)
			for _, cr := range n.crew {
				if cr.Station == c.Code && cr.Status != Dead && cr.Status != Ejected {
					rolls = append(rolls, Roll{Kind: RollWound, Crew: cr.Name, Station: c.Code, Column: column, Percent: percent})
				}
			}
		case ShipDestroyed:
			collapse = true
		}
	}
	if collapse {
		r, _ := n.CollapseRoll()
		rolls = append(rolls, r)
	}
	clear(n.hull.hitTurn)
	for k := range n.turrets {
		clear(n.turrets[k].body.hitTurn)
	}
	return n, rolls
}

// DecisionPhaseRolls returns a wake roll for each unconscious crewman
// (book l.353, l.367: "During the Decision Phase of the next turn, all
// unconscious crewmen must roll again on the Consciousness Table"), on the
// table's column for his total hits at this point ("TOTAL HITS AT THIS
// POINT", l.360; see CrewHits).
func (s Ship) DecisionPhaseRolls() []Roll {
	var rolls []Roll
	for _, cr := range s.crew {
		if cr.Status == Unconscious {
			column := wakeColumn(s.CrewHits(cr.Name))
			number, _, _ := ConsciousnessNumber(cr.Race, column)
			rolls = append(rolls, Roll{Kind: RollWake, Crew: cr.Name, Station: cr.Station, Column: column, Number: number})
		}
	}
	return rolls
}

// wakeColumn is the column a wake roll is made on for hits total hits: at
// least the 1 Hit column (an unconscious crewman was hit; a repair may have
// taken his station's damage since), at most the 3 Hits column, the last
// that is rolled on: 4 hits kill when they are taken (a cockpit's fourth
// hit, a wound on the 4 Hits column), and one who was not killed then is
// not killed by waking.
func wakeColumn(hits int) int { return min(max(hits, 1), 3) }

// DecisionPhaseRollsLastColumn returns the wake rolls as ltscamp made them
// before it read the table's "TOTAL HITS AT THIS POINT": on the column of
// each crewman's last roll. Turn ends recorded then are replayed with it,
// so that an old log folds to what it recorded.
func (s Ship) DecisionPhaseRollsLastColumn() []Roll {
	var rolls []Roll
	for _, cr := range s.crew {
		if cr.Status == Unconscious {
			number, _, _ := ConsciousnessNumber(cr.Race, cr.Column)
			rolls = append(rolls, Roll{Kind: RollWake, Crew: cr.Name, Station: cr.Station, Column: cr.Column, Number: number})
		}
	}
	return rolls
}

// CrewHits returns a crewman's total hits at this point, the column of the
// Consciousness Table he rolls on (book l.360): the hits his cockpit has
// taken (COCKPIT, l.357: "These hits represent wounds inflicted on the
// crewman himself"), or for a Bridge or Quarters occupant each 25% of its
// damage, rounding up (l.353, l.433). 0 for no such crewman.
func (s Ship) CrewHits(name string) int {
	i := slices.IndexFunc(s.crew, func(c Crew) bool { return c.Name == name })
	if i < 0 {
		return 0
	}
	ci := s.hull.component(s.crew[i].Station)
	if ci < 0 {
		return 0
	}
	c := s.hull.components[ci]
	lost := s.hull.destroyedCounts()[ci]
	if c.Type == Cockpit {
		return lost
	}
	_, column, _ := WoundChance(lost, c.Boxes)
	return column
}

// Resolve settles a roll given its d10 faces and returns the new ship and
// the outcome. A moot roll (a dead crewman's, a consciousness roll of one
// already out, a wake roll of one awake, a jam roll of a turret the hit
// destroyed) takes no faces. Wound rolls take two faces when the first wounds a conscious
// crewman (wound, then consciousness); structural collapse rolls take two
// when the first fails (roll, then the chart). Missing or bad faces fail
// with CodeInvalid.
func (s Ship) Resolve(r Roll, faces ...int) (Ship, Outcome, error) {
	face := func(i int, what string) (int, error) {
		if i >= len(faces) {
			return 0, errorf(CodeInvalid, "the %s roll needs a %s die", r.Kind, what)
		}
		return faces[i], checkD10(faces[i], string(r.Kind)+" "+what+" roll")
	}
	n := s.clone()
	switch r.Kind {
	case RollCollapse:
		f, err := face(0, "first")
		if err != nil {
			return s, Outcome{}, err
		}
		chart := 0
		if f <= r.Number {
			if chart, err = face(1, "chart"); err != nil {
				return s, Outcome{}, err
			}
		}
		b, err := StructuralCollapse(r.Number, f, chart)
		if err != nil {
			return s, Outcome{}, err
		}
		if b == BreakupExplodes || b == BreakupDelayed {
			n.exploded = true
		}
		if b == BreakupExplodes {
			for i := range n.crew {
				if n.crew[i].aboard() {
					n.crew[i].Status = Dead
				}
			}
		}
		return n, Outcome{Breakup: b}, nil
	case RollTurretJam:
		if r.Turret < 1 || r.Turret > len(n.turrets) {
			return s, Outcome{}, errorf(CodeInvalid, "turret jam roll for turret %d: there are %d turrets", r.Turret, len(n.turrets))
		}
		if n.turrets[r.Turret-1].destroyed() {
			// The hit that disabled the structure destroyed the turret:
			// its weapons are gone, and nobody rolls where they point.
			return s, Outcome{Moot: true}, nil
		}
		f, err := face(0, "jam")
		if err != nil {
			return s, Outcome{}, err
		}
		jam, err := TurretJam(f)
		if err != nil {
			return s, Outcome{}, err
		}
		n.turrets[r.Turret-1].jam = jam
		n.turrets[r.Turret-1].jammed = true
		return n, Outcome{JamFacing: jam}, nil
	}
	ci := slices.IndexFunc(n.crew, func(c Crew) bool { return c.Name == r.Crew })
	if ci < 0 {
		return s, Outcome{}, errorf(CodeInvalid, "no crewman %q aboard %s", r.Crew, s.name)
	}
	cr := &n.crew[ci]
	if cr.Status == Dead || cr.Status == Ejected {
		return s, Outcome{Moot: true, Status: cr.Status}, nil
	}
	switch r.Kind {
	case RollConsciousness, RollWake:
		// A moot roll takes no die: nobody rolls it.
		if (r.Kind == RollConsciousness && cr.Status != Conscious) || (r.Kind == RollWake && cr.Status != Unconscious) {
			return s, Outcome{Moot: true, Status: cr.Status}, nil
		}
		f, err := face(0, "consciousness")
		if err != nil {
			return s, Outcome{}, err
		}
		number, kia, err := ConsciousnessNumber(cr.Race, r.Column)
		if err != nil || kia {
			return s, Outcome{}, errorf(CodeInvalid, "a %s roll on column %d: columns 1-3 are rolled on", r.Kind, r.Column)
		}
		cr.Column = r.Column
		if f <= number {
			cr.Status = Conscious
		} else {
			cr.Status = Unconscious
		}
		return n, Outcome{Status: cr.Status}, nil
	case RollWound:
		f, err := face(0, "wound")
		if err != nil {
			return s, Outcome{}, err
		}
		if r.Percent < 0 || r.Percent > 100 || r.Column < 0 || r.Column > 4 {
			return s, Outcome{}, errorf(CodeInvalid, "a wound roll of %d%% on column %d is not one EndTurn gives", r.Percent, r.Column)
		}
		if f > r.Percent/10 {
			return n, Outcome{Status: cr.Status}, nil
		}
		cr.Wounded = true
		cr.Column = r.Column
		number, kia, _ := ConsciousnessNumber(cr.Race, r.Column)
		if kia {
			cr.Status = Dead
			return n, Outcome{Wounded: true, Status: Dead}, nil
		}
		if cr.Status == Conscious {
			g, err := face(1, "consciousness")
			if err != nil {
				return s, Outcome{}, err
			}
			if g > number {
				cr.Status = Unconscious
			}
		}
		return n, Outcome{Wounded: true, Status: cr.Status}, nil
	}
	return s, Outcome{}, errorf(CodeInvalid, "unknown roll kind %q", string(r.Kind))
}
