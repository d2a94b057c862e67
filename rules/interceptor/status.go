package interceptor

import (
	"slices"
)

// Name returns the ship's name.
func (s Ship) Name() string { return s.name }

// ArmourRows returns the number of armour rows of facing f.
func (s Ship) ArmourRows(f Facing) int {
	if !f.Valid() {
		return 0
	}
	return s.armour[f.index()].rows
}

// ArmourBox returns the state of armour box (row, column), both 1-based,
// of facing f, and false if there is no such box.
func (s Ship) ArmourBox(f Facing, row, column int) (BoxState, bool) {
	if !f.Valid() {
		return 0, false
	}
	return s.armour[f.index()].box(row, column)
}

func (a armourBlock) box(row, column int) (BoxState, bool) {
	if row < 1 || row > a.rows || column < 1 || column > Columns {
		return 0, false
	}
	return a.boxes[(row-1)*Columns+column-1], true
}

// InternalRows returns the number of rows of the hull's Internal Component Block.
func (s Ship) InternalRows() int { return s.hull.rows }

// InternalBox returns the component code and state of box (row, column) of
// the hull's Internal Component Block, and false if there is no such box.
func (s Ship) InternalBox(row, column int) (string, BoxState, bool) {
	return s.hull.box(row, column)
}

func (b body) box(row, column int) (string, BoxState, bool) {
	if row < 1 || row > b.rows || column < 1 || column > Columns {
		return "", 0, false
	}
	i := (row-1)*Columns + column - 1
	return b.components[b.cells[i]].Code, b.boxes[i], true
}

// ComponentStatus is a component with its damage.
type ComponentStatus struct {
	Component
	Destroyed int
	Disabled  bool
}

// Components returns the components of the hull (turret 0) or of turret
// 1..n, sorted by code, with their damage. Free boxes are never Disabled.
func (s Ship) Components(turret int) []ComponentStatus {
	b, ok := s.bodyOf(turret)
	if !ok {
		return nil
	}
	gone := b.destroyedCounts()
	out := make([]ComponentStatus, len(b.components))
	for i, c := range b.components {
		out[i] = ComponentStatus{Component: c, Destroyed: gone[i], Disabled: c.Type != Free && IsDisabled(c.Boxes, gone[i])}
	}
	return out
}

func (s Ship) bodyOf(turret int) (body, bool) {
	switch {
	case turret == 0:
		return s.hull, true
	case turret > 0 && turret <= len(s.turrets):
		return s.turrets[turret-1].body, true
	}
	return body{}, false
}

// Externals returns the external systems and their states.
func (s Ship) Externals() []External { return slices.Clone(s.externals) }

// Crew returns the crew and their states, in record order.
func (s Ship) Crew() []Crew { return slices.Clone(s.crew) }

// TurretStatus is a turret's name and state.
type TurretStatus struct {
	Name       string
	ArmourRows int
	Destroyed  bool
	// Jammed is set once a turret jam roll was made; JamFacing is then its
	// result (1-6, or 0 for weapons that must be abandoned).
	Jammed    bool
	JamFacing int
}

// Turrets returns the turrets, numbered from 1 in this order.
func (s Ship) Turrets() []TurretStatus {
	out := make([]TurretStatus, len(s.turrets))
	for i, t := range s.turrets {
		out[i] = TurretStatus{Name: t.name, ArmourRows: t.armour.rows, Destroyed: t.destroyed(), Jammed: t.jammed, JamFacing: t.jam}
	}
	return out
}

// Exploded reports whether the ship has exploded: its powerplant is gone,
// or a structural collapse roll blew it up.
func (s Ship) Exploded() bool { return s.exploded }

// Repair restores every destroyed box of one component of the hull (turret
// 0) or of a turret, between scenarios (DAMAGE CONTROL AND REPAIR, book
// l.479-481), and returns the minutes it takes: RepairMinutes per box.
// Components the book marks N/A fail with CodeRule and the ship is
// unchanged. Armour and widowed armour are not repaired here: the book
// gives no time for them. A component with nothing lost takes 0 minutes.
func (s Ship) Repair(turret int, code string) (Ship, int, error) {
	b, ok := s.bodyOf(turret)
	if !ok {
		return s, 0, errorf(CodeInvalid, "no turret %d", turret)
	}
	i := b.component(code)
	if i < 0 {
		return s, 0, errorf(CodeInvalid, "no component %q to repair", code)
	}
	gone := b.destroyedCounts()[i]
	if _, err := RepairTime(b.components[i].Type, gone); err != nil {
		return s, 0, err
	}
	if gone == 0 {
		if err := s.outOfAction(); err != nil {
			return s, 0, err
		}
		return s, 0, nil
	}
	n, rep, err := s.RepairBoxes(turret, code, gone)
	return n, rep.Minutes, err
}

// RepairReport says what a RepairBoxes or a RepairExternal did.
type RepairReport struct {
	// Component is the component repaired.
	Component ComponentRef
	// Restored lists the boxes made intact again, in the order restored.
	Restored []Place
	// MinutesPerBox is the book's repair time of one box; Minutes the
	// whole repair's: MinutesPerBox times the boxes restored.
	MinutesPerBox, Minutes int
	// Lost is how many boxes of the component were lost before and after.
	LostBefore, LostAfter int
	// External is set when the component is an external system (see
	// RepairExternal): Component.Code is then its name.
	External bool
}

// RepairBoxes restores boxes destroyed boxes of one component of the hull
// (turret 0) or of a turret, between scenarios (DAMAGE CONTROL AND REPAIR,
// book l.479-481), at the component's REPAIR TIME per box. boxes must be 1
// to the component's size (CodeInvalid); more than it has lost, a
// component the book marks N/A or gives no time (Free boxes, Turret
// Structure), or an exploded ship fail with CodeRule. The ship it is
// called on is unchanged.
//
// The deepest lost boxes come back first: the lowest row of the Internal
// Component Block, then the next row up, left to right within a row. Every
// hit takes the highest remaining box of a column (book l.321, l.335), so
// damage eats each column from the top; restoring from the bottom up keeps
// it that way, and a partly repaired ship is one that hits alone could have
// made, which later hits then treat as the book does. (The most recently
// lost box first would need the order of the hits, which a Ship does not
// keep; the rows do not depend on it.)
func (s Ship) RepairBoxes(turret int, code string, boxes int) (Ship, RepairReport, error) {
	b, ok := s.bodyOf(turret)
	if !ok {
		return s, RepairReport{}, errorf(CodeInvalid, "no turret %d: the ship has %d", turret, len(s.turrets))
	}
	i := b.component(code)
	if i < 0 {
		return s, RepairReport{}, errorf(CodeInvalid, "no component %q to repair", code)
	}
	c := b.components[i]
	rep := RepairReport{Component: ComponentRef{Turret: turret, Code: c.Code, Type: c.Type}}
	if boxes < 1 || boxes > c.Boxes {
		return s, rep, errorf(CodeInvalid, "cannot repair %d boxes of %s (%s): it has %d, so repair 1 to %d", boxes, c.Code, c.Type.Name(), c.Boxes, c.Boxes)
	}
	per, err := RepairMinutes(c.Type)
	if err != nil {
		return s, rep, err
	}
	if err := s.outOfAction(); err != nil {
		return s, rep, err
	}
	gone := b.destroyedCounts()[i]
	if boxes > gone {
		if gone == 0 {
			return s, rep, errorf(CodeRule, "%s (%s) has lost no boxes: there is nothing to repair", c.Code, c.Type.Name())
		}
		return s, rep, errorf(CodeRule, "cannot repair %d boxes of %s (%s): it has lost %d of %d", boxes, c.Code, c.Type.Name(), gone, c.Boxes)
	}
	n := s.clone()
	nb := &n.hull
	if turret > 0 {
		nb = &n.turrets[turret-1].body
	}
	left := boxes
	for r := nb.rows - 1; r >= 0 && left > 0; r-- {
		for col := 0; col < Columns && left > 0; col++ {
			j := r*Columns + col
			if nb.cells[j] != i || nb.boxes[j] == Intact {
				continue
			}
			nb.boxes[j] = Intact
			rep.Restored = append(rep.Restored, Place{Turret: turret, Block: "internal", Row: r + 1, Column: col + 1})
			left--
		}
	}
	rep.MinutesPerBox, rep.Minutes = per, per*boxes
	rep.LostBefore, rep.LostAfter = gone, gone-boxes
	return n, rep, nil
}
