package interceptor

import "slices"

// MaxLaserPoints bounds a laser hit's points.
const MaxLaserPoints = 1000

// Hit is one weapon's damage that struck a ship and got through its shield.
type Hit struct {
	// Facing is the armour block struck. A turret hit passes residual
	// damage into this facing of the hull.
	Facing Facing
	// Column is the attacker's die roll for the centre of the hit, 1-10
	// (book l.325).
	Column int
	// Points is a laser's strength: it destroys that many boxes straight
	// down the column (book l.321). Used when Template is nil.
	Points int
	// Template is the damage template of any other weapon.
	Template *Template
	// Turret is 0 for the hull, or the 1-based number of the turret struck
	// (see TurretStruck).
	Turret int
}

// Place names one box of a ship: the turret (0 for the hull), the block
// ("forward", "aft", "left", "right" for hull armour, "armour" for a
// turret's armour, "internal", or "external" for an external system on
// row 0), and its 1-based row and column.
type Place struct {
	Turret int
	Block  string
	Row    int
	Column int
}

// ComponentRef names a component of the hull (Turret 0) or of a turret.
type ComponentRef struct {
	Turret int
	Code   string
	Type   ComponentType
}

// Report says what a Hit, a RemoveWidowed or a Volley did.
type Report struct {
	// Destroyed lists the boxes the hit destroyed, in the order struck.
	Destroyed []Place
	// Exploded lists boxes destroyed by secondary explosions of missile
	// reloads or autoloader ammunition (book l.435).
	Exploded []Place
	// Wasted counts points that had no effect: beyond the sides of a block,
	// on boxes already gone, past the bottom of the Internal Component Block.
	Wasted int
	// Residual counts points that passed from a destroyed turret into the
	// hull (book l.341).
	Residual int
	// TurretDestroyed is the number of a turret this hit destroyed, or 0.
	TurretDestroyed int
	// Widowed lists armour boxes removed as widowed (book l.328-331).
	Widowed []Place
	// ExternalsLost names external systems lost with widowed armour.
	ExternalsLost []string
	// Disabled lists components newly disabled (Free boxes never are).
	Disabled []ComponentRef
	// ShipExploded is set when the hit took the last powerplant box
	// (POWERPLANT, book l.419; DESTROYING A SHIP, l.458).
	ShipExploded bool
	// Rolls lists the rolls the hit calls for now: Consciousness rolls for
	// cockpit hits and turret jam rolls. End-of-turn rolls come from EndTurn.
	Rolls []Roll
	// Killed names crewmen killed at once (a cockpit's fourth hit, the
	// powerplant's explosion).
	Killed []string
	// Shots holds each hit's own report, in order, when Volley made it;
	// the fields above gather them all and the widowed armour after them.
	Shots []Report
}

func (r *Report) add(o Report) {
	r.Destroyed = append(r.Destroyed, o.Destroyed...)
	r.Exploded = append(r.Exploded, o.Exploded...)
	r.Wasted += o.Wasted
	r.Residual += o.Residual
	if o.TurretDestroyed != 0 {
		r.TurretDestroyed = o.TurretDestroyed
	}
	r.Widowed = append(r.Widowed, o.Widowed...)
	r.ExternalsLost = append(r.ExternalsLost, o.ExternalsLost...)
	r.Disabled = append(r.Disabled, o.Disabled...)
	r.ShipExploded = r.ShipExploded || o.ShipExploded
	r.Rolls = append(r.Rolls, o.Rolls...)
	r.Killed = append(r.Killed, o.Killed...)
}

// target is the column stack a hit works down: external systems (hull
// only), an armour block, then an Internal Component Block.
type target struct {
	turret    int
	block     string
	armour    *armourBlock
	externals []*External // per column 0-9, nil if none
	body      *body
}

// depth runs from -1 (an external system) through the armour rows
// (0..armour.rows-1) into the internal rows.
func (t *target) bottom() int { return t.armour.rows + t.body.rows }

// state returns the state of the box at column c (0-based) and depth d, and
// whether there is a box there at all.
func (t *target) state(c, d int) (BoxState, bool) {
	switch {
	case d < 0:
		if t.externals == nil || t.externals[c] == nil {
			return 0, false
		}
		return t.externals[c].State, true
	case d < t.armour.rows:
		return t.armour.boxes[d*Columns+c], true
	}
	return t.body.boxes[(d-t.armour.rows)*Columns+c], true
}

// passThrough reports whether the box at c, d is one hits ignore.
func (t *target) passThrough(c, d int) bool {
	if d < t.armour.rows {
		return false
	}
	return t.body.components[t.body.cells[(d-t.armour.rows)*Columns+c]].passThrough()
}

// solid reports whether the box at c, d is intact and stops a hit.
func (t *target) solid(c, d int) bool {
	st, ok := t.state(c, d)
	return ok && st == Intact && !t.passThrough(c, d)
}

func (t *target) place(c, d int) Place {
	switch {
	case d < 0:
		return Place{Turret: t.turret, Block: "external", Row: 0, Column: c + 1}
	case d < t.armour.rows:
		return Place{Turret: t.turret, Block: t.block, Row: d + 1, Column: c + 1}
	}
	return Place{Turret: t.turret, Block: "internal", Row: d - t.armour.rows + 1, Column: c + 1}
}

// destroy marks the intact box at c, d destroyed and sets off any secondary
// explosions.
func (t *target) destroy(c, d int, rep *Report) {
	switch {
	case d < 0:
		t.externals[c].State = Destroyed
	case d < t.armour.rows:
		t.armour.boxes[d*Columns+c] = Destroyed
	default:
		t.destroyInternal(c, d-t.armour.rows, rep, false)
		return
	}
	rep.Destroyed = append(rep.Destroyed, t.place(c, d))
}

// destroyInternal destroys internal box (row r, column c) and, if it holds
// missile reloads, every box around it, in a chain (CARGO BAY, book l.435:
// "All boxes adjacent to the Missile Reload box will be destroyed; this can
// cause a chain reaction"). Adjacent means the eight boxes around it; the
// explosion stays inside the Internal Component Block.
func (t *target) destroyInternal(c, r int, rep *Report, explosion bool) {
	b := t.body
	queue := [][2]int{{c, r}}
	for len(queue) > 0 {
		c, r := queue[0][0], queue[0][1]
		queue = queue[1:]
		i := r*Columns + c
		if b.boxes[i] != Intact {
			continue
		}
		b.boxes[i] = Destroyed
		b.hitTurn[b.cells[i]] = true
		p := t.place(c, r+t.armour.rows)
		if explosion {
			rep.Exploded = append(rep.Exploded, p)
		} else {
			rep.Destroyed = append(rep.Destroyed, p)
		}
		explosion = true // everything after the first box is secondary
		if !b.components[b.cells[i]].explosive() {
			continue
		}
		for dr := -1; dr <= 1; dr++ {
			for dc := -1; dc <= 1; dc++ {
				nc, nr := c+dc, r+dr
				if (dc != 0 || dr != 0) && nc >= 0 && nc < Columns && nr >= 0 && nr < b.rows && b.boxes[nr*Columns+nc] == Intact {
					queue = append(queue, [2]int{nc, nr})
				}
			}
		}
	}
}

// laser destroys points boxes straight down column c, starting at the
// highest remaining box and passing over boxes already gone and boxes hits
// ignore (DAMAGE TEMPLATE, book l.321: "their damage simply descends
// straight down a column of armour for a number of boxes equal to the
// strength of the laser"; l.335). It returns the points left over past the
// bottom of the block.
func (t *target) laser(c, points int, rep *Report) int {
	for d := -1; d < t.bottom() && points > 0; d++ {
		if t.solid(c, d) {
			t.destroy(c, d, rep)
			points--
		}
	}
	return points
}

// template lowers tp onto column c (book l.325): its top row lies on the
// highest remaining box of the column, and each X destroys the box under
// it. X cells beyond either side, on boxes already gone, or on depth -1 of
// a column without an external system are wasted (l.325, l.345). Boxes
// hits ignore (empty cargo, unoccupied hangars) are skipped, so the
// template's cells in that column move down past them (l.435, l.441). It
// returns, row by row, which cells fell past the bottom of the block.
func (t *target) template(c int, tp Template, rep *Report) [][]bool {
	below := make([][]bool, len(tp.rows))
	for i := range below {
		below[i] = make([]bool, tp.Width())
	}
	top := -2
	for d := -1; d < t.bottom(); d++ {
		if t.solid(c, d) {
			top = d
			break
		}
	}
	if top == -2 {
		// Nothing remains in the column: the template has nothing to rest
		// on and falls through the block.
		top = t.bottom()
	}
	centre := tp.Width() / 2
	var shift [Columns]int
	for i, row := range tp.rows {
		for j, ch := range row {
			if ch != 'X' {
				continue
			}
			cc := c + j - centre
			if cc < 0 || cc >= Columns {
				rep.Wasted++
				continue
			}
			d := top + i + shift[cc]
			for d >= 0 && d < t.bottom() && t.passThrough(cc, d) {
				shift[cc]++
				d++
			}
			if d >= t.bottom() {
				below[i][j] = true
				continue
			}
			if st, ok := t.state(cc, d); ok && st == Intact {
				t.destroy(cc, d, rep)
			} else {
				rep.Wasted++
			}
		}
	}
	return below
}

// hullTarget returns the target for a hull hit on facing f.
func (s *Ship) hullTarget(f Facing) *target {
	t := &target{block: string(f), armour: &s.armour[f.index()], body: &s.hull, externals: make([]*External, Columns)}
	for i := range s.externals {
		if e := &s.externals[i]; e.Facing == f {
			t.externals[e.Column-1] = e
		}
	}
	return t
}

// Hit applies one hit and returns the new ship and what happened. Widowed
// armour is not removed: the book checks it "when all damage against a ship
// at a given point in its movement has been resolved" (l.330), so call
// RemoveWidowed after the last hit at that point, or use Volley. Hit fails
// with CodeInvalid for a malformed hit and with CodeRule for a hit on a
// destroyed turret or an exploded ship.
func (s Ship) Hit(h Hit) (Ship, Report, error) {
	if err := s.checkHit(h); err != nil {
		return s, Report{}, err
	}
	n := s.clone()
	before := n.snapshot()
	var rep Report
	c := h.Column - 1
	if h.Turret == 0 {
		t := n.hullTarget(h.Facing)
		if h.Template == nil {
			rep.Wasted += t.laser(c, h.Points, &rep)
		} else {
			for _, row := range t.template(c, *h.Template, &rep) {
				for _, b := range row {
					if b {
						rep.Wasted++
					}
				}
			}
		}
	} else {
		n.hitTurret(h, &rep)
	}
	n.effects(before, &rep)
	return n, rep, nil
}

// hitTurret resolves a hit on turret h.Turret. "Once a turret is destroyed,
// any residual damage passes into the ship's hull and is resolved as usual"
// (TURRETS, book l.341): a laser's points left past the turret's bottom
// continue down the same column of the struck hull facing; a template's
// cells that fell past the bottom form a smaller template (the same columns,
// the rows below, leading empty rows dropped) lowered onto the same column
// of the hull. A turret is destroyed when none of its internal boxes that
// stop hits is left; residual damage of a hit that leaves it standing is
// wasted.
func (s *Ship) hitTurret(h Hit, rep *Report) {
	tu := &s.turrets[h.Turret-1]
	t := &target{turret: h.Turret, block: "armour", armour: &tu.armour, body: &tu.body}
	c := h.Column - 1
	var residual int
	var rest *Template
	if h.Template == nil {
		residual = t.laser(c, h.Points, rep)
	} else {
		below := t.template(c, *h.Template, rep)
		var rows []string
		for _, r := range below {
			line := make([]byte, len(r))
			for j, b := range r {
				line[j] = '.'
				if b {
					line[j] = 'X'
					residual++
				}
			}
			if len(rows) == 0 && !slices.Contains(r, true) {
				continue
			}
			rows = append(rows, string(line))
		}
		if residual > 0 {
			tp := Template{Name: h.Template.Name + " (residual)", rows: rows}
			rest = &tp
		}
	}
	if !tu.destroyed() {
		rep.Wasted += residual
		return
	}
	rep.TurretDestroyed = h.Turret
	if residual == 0 {
		return
	}
	rep.Residual = residual
	ht := s.hullTarget(h.Facing)
	if rest == nil {
		rep.Wasted += ht.laser(c, residual, rep)
		return
	}
	for _, row := range ht.template(c, *rest, rep) {
		for _, b := range row {
			if b {
				rep.Wasted++
			}
		}
	}
}

// destroyed reports whether no internal box of the turret that stops hits
// is left.
func (t turret) destroyed() bool {
	for i, st := range t.body.boxes {
		if st == Intact && !t.body.components[t.body.cells[i]].passThrough() {
			return false
		}
	}
	return true
}

func (s Ship) checkHit(h Hit) error {
	if s.exploded {
		return errorf(CodeRule, "%s has exploded: it cannot be hit", s.name)
	}
	return s.checkTerms(h)
}

// checkTerms checks a hit's terms against the ship, whether or not it
// can still be hit.
func (s Ship) checkTerms(h Hit) error {
	switch {
	case !h.Facing.Valid():
		return errorf(CodeInvalid, "hit on facing %q: use forward, aft, left or right", string(h.Facing))
	case h.Column < 1 || h.Column > Columns:
		return errorf(CodeInvalid, "hit on column %d: the column is a d10 roll, 1 to %d", h.Column, Columns)
	case h.Template == nil && (h.Points < 1 || h.Points > MaxLaserPoints):
		return errorf(CodeInvalid, "a laser hit of %d points: it must do 1 to %d", h.Points, MaxLaserPoints)
	case h.Template != nil && h.Points != 0:
		return errorf(CodeInvalid, "a hit gives both laser points (%d) and template %q: give one", h.Points, h.Template.Name)
	case h.Template != nil && len(h.Template.rows) == 0:
		return errorf(CodeInvalid, "the hit's template is empty: build templates with NewTemplate")
	case h.Turret < 0 || h.Turret > len(s.turrets):
		return errorf(CodeInvalid, "hit on turret %d: %s has %d turrets", h.Turret, s.name, len(s.turrets))
	case h.Turret > 0 && s.turrets[h.Turret-1].destroyed():
		return errorf(CodeRule, "turret %d (%s) is destroyed: hits on it are re-rolled (book l.341)", h.Turret, s.turrets[h.Turret-1].name)
	}
	return nil
}

// TurretChance returns the highest d10 face that hits a turret rather than
// the hull (TURRETS, book l.341): the number of turrets / 2, rounding up,
// with a minimum of 1 as long as one still exists; 0 when none is left. The
// number counts every turret the ship was built with, destroyed ones too,
// since "Hits on a previously-destroyed turret are re-rolled".
func (s Ship) TurretChance() int {
	for _, t := range s.turrets {
		if !t.destroyed() {
			return max(1, ceilDiv(len(s.turrets), 2))
		}
	}
	return 0
}

// TurretStruck decides where a hit lands on a ship with turrets (book
// l.341): face is the d10 roll against TurretChance; picks are the rolls
// "to see which of the turrets is hit", each a turret number 1..n, used in
// order until one names a turret still standing. It returns 0 for the hull.
// It fails with CodeInvalid when the picks run out on destroyed turrets:
// roll again and call it with more.
func (s Ship) TurretStruck(face int, picks ...int) (int, error) {
	if err := checkD10(face, "turret roll"); err != nil {
		return 0, err
	}
	if face > s.TurretChance() {
		return 0, nil
	}
	if len(s.turrets) == 1 {
		return 1, nil
	}
	for _, p := range picks {
		if p < 1 || p > len(s.turrets) {
			return 0, errorf(CodeInvalid, "turret pick %d: %s has turrets 1 to %d", p, s.name, len(s.turrets))
		}
		if !s.turrets[p-1].destroyed() {
			return p, nil
		}
	}
	return 0, errorf(CodeInvalid, "the turret picks %v name only destroyed turrets: roll again to see which turret is hit", picks)
}

// RemoveWidowed removes widowed armour from every armour block (WIDOWED
// ARMOUR, book l.328-331): an intact armour box is widowed when it cannot
// trace a path of intact armour boxes, joined at a side, top or bottom
// (not at a corner), to the bottom row of its block. An external system is
// lost with the armour under it: it goes when the top box of its column is
// no longer intact (l.345).
func (s Ship) RemoveWidowed() (Ship, Report) {
	n := s.clone()
	var rep Report
	for i, f := range Facings() {
		rep.Widowed = append(rep.Widowed, widow(&n.armour[i], 0, string(f))...)
	}
	for k := range n.turrets {
		rep.Widowed = append(rep.Widowed, widow(&n.turrets[k].armour, k+1, "armour")...)
	}
	for i := range n.externals {
		e := &n.externals[i]
		a := n.armour[e.Facing.index()]
		if e.State == Intact && a.boxes[e.Column-1] != Intact {
			e.State = Widowed
			rep.ExternalsLost = append(rep.ExternalsLost, e.Name)
			rep.Widowed = append(rep.Widowed, Place{Block: "external", Row: 0, Column: e.Column})
		}
	}
	before := s.snapshot()
	n.effects(before, &rep)
	return n, rep
}

// Volley applies hits at one point of a ship's movement in order, then
// removes widowed armour once (book l.330). Rolls, disabled components and
// the rest are gathered into one report, and each hit's own report is in
// its Shots. A hit after one that blew the ship up does nothing: "All
// weapons allocated against a target are considered to fire even if not
// all of them are required to destroy the target" (GENERAL COMBAT
// PROCEDURE). On an error the ship is returned unchanged; a single hit's
// error is Hit's, a later one's names its number.
func (s Ship) Volley(hits []Hit) (Ship, Report, error) {
	n := s
	var rep Report
	for i, h := range hits {
		if i > 0 && n.exploded {
			if err := n.checkTerms(h); err != nil {
				return s, Report{}, errorf(CodeOf(err), "hit %d: %s", i+1, err.Error())
			}
			rep.Shots = append(rep.Shots, Report{})
			continue
		}
		next, r, err := n.Hit(h)
		if err != nil {
			if len(hits) == 1 {
				return s, Report{}, err
			}
			return s, Report{}, errorf(CodeOf(err), "hit %d: %s", i+1, err.Error())
		}
		n = next
		rep.add(r)
		rep.Shots = append(rep.Shots, r)
	}
	n, r := n.RemoveWidowed()
	rep.add(r)
	return n, rep, nil
}

// widow marks widowed every intact box of a that has no 4-connected path of
// intact boxes to its bottom row, and returns their places.
func widow(a *armourBlock, turret int, block string) []Place {
	if a.rows == 0 {
		return nil
	}
	reach := make([]bool, len(a.boxes))
	var stack []int
	for c := range Columns {
		if i := (a.rows-1)*Columns + c; a.boxes[i] == Intact {
			reach[i] = true
			stack = append(stack, i)
		}
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		r, c := i/Columns, i%Columns
		for _, nb := range [4][2]int{{r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}} {
			nr, nc := nb[0], nb[1]
			if nr < 0 || nr >= a.rows || nc < 0 || nc >= Columns {
				continue
			}
			if j := nr*Columns + nc; !reach[j] && a.boxes[j] == Intact {
				reach[j] = true
				stack = append(stack, j)
			}
		}
	}
	var out []Place
	for i, st := range a.boxes {
		if st == Intact && !reach[i] {
			a.boxes[i] = Widowed
			out = append(out, Place{Turret: turret, Block: block, Row: i/Columns + 1, Column: i%Columns + 1})
		}
	}
	return out
}
