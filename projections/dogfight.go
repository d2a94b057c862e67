package projections

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// DogfightCraft is one craft in a dogfight.
type DogfightCraft struct {
	ID     string `json:"ship_id"`
	Name   string `json:"name"`
	Exited bool   `json:"exited"`
	// Pilot is the last pilot who flew it in this dogfight.
	Pilot string `json:"pilot,omitempty"`
}

// DogfightPair is two craft's positions relative to each other.
type DogfightPair struct {
	A         string `json:"a"`
	B         string `json:"b"`
	APosition string `json:"a_position"`
	BPosition string `json:"b_position"`
}

// Dogfight is the current (or last) dogfight, folded from the dogfight
// stream: the craft, each pair's positions, and the round.
type Dogfight struct {
	Active bool            `json:"active"`
	Number int             `json:"number"`
	Round  int             `json:"round"`
	Craft  []DogfightCraft `json:"craft"`
	Pairs  []DogfightPair  `json:"pairs"`

	pos   map[[2]string]rules.Position
	acted map[string]bool
	// latest is the last maneuver or shot, and before the dogfight as it
	// was just before it: a karma re-roll replaces the latest action.
	latest string
	before *Dogfight
	// Version is the stream version folded up to.
	Version int64 `json:"version"`
}

// Position returns a's position relative to b (disengaged by default:
// "Craft begin disengaged").
func (d *Dogfight) Position(a, b string) rules.Position {
	if p, ok := d.pos[[2]string{a, b}]; ok {
		return p
	}
	return rules.Disengaged
}

// EngagedElsewhere reports whether a is engaged with a craft other than b.
func (d *Dogfight) EngagedElsewhere(a, b string) bool {
	for k, p := range d.pos {
		if k[0] == a && k[1] != b && p != rules.Disengaged {
			return true
		}
	}
	return false
}

// PursuerOf returns the craft pursuing b, other than except ("" if none).
func (d *Dogfight) PursuerOf(b, except string) string {
	for k, p := range d.pos {
		if k[1] == b && k[0] != except && p == rules.Pursuit {
			return k[0]
		}
	}
	return ""
}

// SecondPursuer returns the craft that already pursues one of the pair when
// the positions mover→target would make the other a second pursuer ("Only
// one craft can pursue a fleeing foe"); "" when they do not.
func (d *Dogfight) SecondPursuer(mover, target string, moverPos, targetPos rules.Position) string {
	if moverPos == rules.Pursuit {
		if other := d.PursuerOf(target, mover); other != "" {
			return other
		}
	}
	if targetPos == rules.Pursuit {
		if other := d.PursuerOf(mover, target); other != "" {
			return other
		}
	}
	return ""
}

// Targets returns the craft a is pursuing.
func (d *Dogfight) Targets(a string) []string {
	var out []string
	for k, p := range d.pos {
		if k[0] == a && p == rules.Pursuit {
			out = append(out, k[1])
		}
	}
	sort.Strings(out)
	return out
}

// Craft returns a craft of the dogfight by ship ID.
func (d *Dogfight) CraftByID(id string) (DogfightCraft, bool) {
	for _, c := range d.Craft {
		if c.ID == id {
			return c, true
		}
	}
	return DogfightCraft{}, false
}

// EffectiveRound is the round, counting a round as over once every craft
// still in the dogfight has acted or cannot (canAct false: dead in the
// water).
func (d *Dogfight) EffectiveRound(canAct func(id string) bool) int {
	waiting, acted := false, false
	for _, c := range d.Craft {
		switch {
		case c.Exited:
		case d.acted[c.ID]:
			acted = true
		case canAct(c.ID):
			waiting = true
		}
	}
	if acted && !waiting {
		return d.Round + 1
	}
	return d.Round
}

// FirstRound reports whether the dogfight is in its first round: until
// every craft in it has maneuvered or fired once, or cannot (dead in the
// water: canAct reports which can).
func (d *Dogfight) FirstRound(canAct func(id string) bool) bool {
	return d.EffectiveRound(canAct) <= 1
}

// Apply folds one event of the dogfight stream.
func (d *Dogfight) Apply(e events.Event) error {
	p, err := events.Decode(e)
	if err != nil {
		return err
	}
	if err := d.replace(e, p); err != nil {
		return err
	}
	switch p := p.(type) {
	case *events.DogfightStarted:
		*d = Dogfight{Active: true, Number: p.Number, Round: 1, pos: map[[2]string]rules.Position{}, acted: map[string]bool{}}
		for _, s := range p.Ships {
			d.Craft = append(d.Craft, DogfightCraft{ID: s.ShipID, Name: s.Name})
		}
	case *events.DogfightManeuvered:
		d.setPositions(p.Positions)
		for i := range d.Craft {
			if d.Craft[i].ID == p.Mover.ShipID {
				d.Craft[i].Pilot = p.Pilot
			}
			if d.Craft[i].ID == p.Target.ShipID && p.TargetPilot != "" {
				d.Craft[i].Pilot = p.TargetPilot
			}
		}
		d.act(p.Mover.ShipID)
	case *events.DogfightFired:
		// A facing run is two events, one per craft: each marks its own
		// craft's turn.
		d.setPositions(p.Positions)
		d.act(p.Attacker.ShipID)
	case *events.DogfightExited:
		for i := range d.Craft {
			if d.Craft[i].ID == p.Ship.ShipID {
				d.Craft[i].Exited = true
			}
		}
		for k := range d.pos {
			if k[0] == p.Ship.ShipID || k[1] == p.Ship.ShipID {
				delete(d.pos, k)
			}
		}
		d.act(p.Ship.ShipID)
	case *events.DogfightEnded:
		d.Active = false
	default:
		return fmt.Errorf("event %d: %s does not belong on the dogfight stream", e.Seq, e.Type)
	}
	d.derive()
	d.Version = e.StreamVersion
	return nil
}

// replace keeps the state before each maneuver or shot, and rewinds to it
// for a re-roll of that action: the re-roll is applied in its place.
func (d *Dogfight) replace(e events.Event, p events.Payload) error {
	var rerolls string
	switch p := p.(type) {
	case *events.DogfightManeuvered:
		rerolls = p.Rerolls
	case *events.DogfightFired:
		rerolls = p.Rerolls
	default:
		d.latest, d.before = "", nil
		return nil
	}
	if rerolls == "" {
		b := d.clone()
		d.before = &b
	} else {
		if rerolls != d.latest || d.before == nil {
			return fmt.Errorf("event %d: a re-roll of %s, which is not the dogfight's latest maneuver or shot", e.Seq, rerolls)
		}
		before := d.before
		*d = before.clone()
		d.before = before
	}
	d.latest = e.ID
	return nil
}

// Latest returns the event ID of the dogfight's latest maneuver or shot,
// the one a karma re-roll may replace ("" when none may be).
func (d *Dogfight) Latest() string { return d.latest }

// Before returns the dogfight as it was just before its latest maneuver or
// shot.
func (d *Dogfight) Before() (Dogfight, bool) {
	if d.before == nil {
		return Dogfight{}, false
	}
	return d.before.clone(), true
}

// clone copies the dogfight's state (not its before-state).
func (d *Dogfight) clone() Dogfight {
	c := *d
	c.Craft = slices.Clone(d.Craft)
	c.Pairs = slices.Clone(d.Pairs)
	c.pos = maps.Clone(d.pos)
	c.acted = maps.Clone(d.acted)
	c.before, c.latest = nil, ""
	return c
}

func (d *Dogfight) setPositions(ps []events.PairPosition) {
	for _, pp := range ps {
		pos := rules.Position(pp.Position)
		if pos == rules.Disengaged {
			delete(d.pos, [2]string{pp.ShipID, pp.OtherID})
			continue
		}
		d.pos[[2]string{pp.ShipID, pp.OtherID}] = pos
	}
}

// act marks a craft's turn taken; when every craft still in the dogfight
// and able to act (not exited, not dead in the water) has acted, the next
// round begins.
func (d *Dogfight) act(id string) {
	d.acted[id] = true
	for _, c := range d.Craft {
		if !c.Exited && !d.acted[c.ID] {
			return
		}
	}
	d.Round++
	d.acted = map[string]bool{}
}

func (d *Dogfight) derive() {
	d.Pairs = []DogfightPair{}
	for i, a := range d.Craft {
		for _, b := range d.Craft[i+1:] {
			if a.Exited || b.Exited {
				continue
			}
			d.Pairs = append(d.Pairs, DogfightPair{A: a.Name, B: b.Name, APosition: string(d.Position(a.ID, b.ID)), BPosition: string(d.Position(b.ID, a.ID))})
		}
	}
}
