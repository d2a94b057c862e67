package interceptor

import (
	"slices"
	"strconv"
	"strings"
)

// Columns is the width of every armour block and Internal Component Block:
// "It is configured in ten-column-wide boxes" (DAMAGE TEMPLATE, book l.325).
const Columns = 10

// Limits on a record. The book sets none; these keep records sane and a
// rendered block within 80 columns.
const (
	// MaxArmour is the most armour boxes one facing or turret may carry.
	MaxArmour = 2000
	// MaxInternalRows is the most rows an Internal Component Block may have.
	MaxInternalRows = 200
	// MaxCodeLength is the longest component code ("E1", "SD").
	MaxCodeLength = 4
	// MaxTurrets is the most turrets a ship may carry.
	MaxTurrets = 20
)

// Facing names one of the four armour blocks of a ship. Its string value is
// stable.
type Facing string

// The four facings of the Armour Diagram (FIRING ARCS, book l.17).
const (
	Forward Facing = "forward"
	Aft     Facing = "aft"
	Left    Facing = "left"
	Right   Facing = "right"
)

// Facings returns the four facings in the order records list them.
func Facings() [4]Facing { return [4]Facing{Forward, Aft, Left, Right} }

// index returns f's position in Facings, or -1.
func (f Facing) index() int {
	fs := Facings()
	return slices.Index(fs[:], f)
}

// Valid reports whether f is one of the four facings.
func (f Facing) Valid() bool { return f.index() >= 0 }

// CargoContents says what a cargo component holds (CARGO BAY, book l.435).
type CargoContents string

// The cargo contents.
const (
	// CargoEmpty boxes are ignored: hits pass on to the next solid box.
	CargoEmpty CargoContents = "empty"
	// CargoLoaded boxes are destroyed as usual; in battle they are free hits.
	CargoLoaded CargoContents = "loaded"
	// CargoMissileReloads boxes explode into every adjacent box when hit.
	CargoMissileReloads CargoContents = "missile reloads"
)

// ArmourSpec gives the armour boxes of each facing of a ship record.
type ArmourSpec struct {
	Forward, Aft, Left, Right int
}

func (a ArmourSpec) of(f Facing) int {
	return [4]int{a.Forward, a.Aft, a.Left, a.Right}[f.index()]
}

// ExternalSpec places an externally mounted system (External Hardpoint,
// External Heavy Hardpoint, External Rescue Compartment; book l.343-345) on
// top of one column of a facing's armour block. It is one box.
type ExternalSpec struct {
	Name   string
	Type   string // a component type name, e.g. "External Hardpoint"
	Facing Facing
	Column int // 1-10
}

// TurretSpec is a turret: its own armour block and Internal Component Block
// (TURRETS, book l.339-341).
type TurretSpec struct {
	Name       string
	Armour     int
	Internal   [][]string
	Components map[string]string
	Cargo      map[string]string
}

// CrewSpec puts a named crewman at a station: the code of a Bridge, Cockpit
// or Quarters component of the hull.
type CrewSpec struct {
	Name    string
	Race    string
	Station string
}

// Spec is a detailed ship record in plain Go values, as an importer reads it
// from YAML. NewShip validates it.
type Spec struct {
	Name   string
	Armour ArmourSpec
	// Internal is the Internal Component Block, outermost row first; each
	// cell is a component code.
	Internal [][]string
	// Components maps each code to a component type name ("Engine").
	Components map[string]string
	// Cargo maps the code of each Cargo component to its contents: "empty",
	// "loaded" or "missile reloads". A Cargo component not listed is empty.
	Cargo map[string]string
	// OccupiedHangars lists Hangar codes with a small craft aboard; others
	// are unoccupied and hits pass through them.
	OccupiedHangars []string
	Externals       []ExternalSpec
	Turrets         []TurretSpec
	Crew            []CrewSpec
}

// BoxState is the state of one box.
type BoxState uint8

// The box states.
const (
	// Intact boxes have not been hit.
	Intact BoxState = iota
	// Destroyed boxes were hit, or blown up by a secondary explosion.
	Destroyed
	// Widowed armour boxes were removed because no path of armour joined
	// them to the bottom row; also externals lost with them.
	Widowed
)

// Component is one internal component of a ship or turret.
type Component struct {
	Code string
	Type ComponentType
	// Contents is set for Cargo components.
	Contents CargoContents
	// Occupied is set for a Hangar with a craft aboard.
	Occupied bool
	// Boxes is the number of boxes the component has in its block.
	Boxes int
}

// passThrough reports whether hits ignore the component's boxes: empty cargo
// and unoccupied hangars (book l.435, l.441).
func (c Component) passThrough() bool {
	return (c.Type == Cargo && c.Contents == CargoEmpty) || (c.Type == Hangar && !c.Occupied)
}

// explosive reports whether the component's boxes explode when destroyed.
func (c Component) explosive() bool {
	return c.Type.explosive() || (c.Type == Cargo && c.Contents == CargoMissileReloads)
}

// External is an externally mounted system and its state.
type External struct {
	Name   string
	Type   ComponentType
	Facing Facing
	Column int
	State  BoxState
}

// CrewStatus is a crewman's condition. Its string value is stable.
type CrewStatus string

// The crew statuses.
const (
	Conscious   CrewStatus = "conscious"
	Unconscious CrewStatus = "unconscious"
	Dead        CrewStatus = "dead"
	// Ejected: he abandoned ship and is no longer aboard (a delayed
	// explosion lets "All personnel able to eject ... abandon ship
	// immediately", book l.469).
	Ejected CrewStatus = "ejected"
)

// Crew is a named crewman at a station.
type Crew struct {
	Name    string
	Race    Race
	Station string
	Status  CrewStatus
	Wounded bool
	// Column is the Consciousness Table column of his last roll. A wake
	// roll is made on the column of his total hits at that point (see
	// DecisionPhaseRolls); Column is kept for turn ends recorded before
	// that rule, which woke him on it (DecisionPhaseRollsLastColumn).
	Column int
}

// armourBlock is one armour block: rows x Columns boxes, row 0 outermost.
type armourBlock struct {
	rows  int
	boxes []BoxState
}

// body is an Internal Component Block with its components.
type body struct {
	rows       int
	cells      []int // component index per box, row-major, row 0 outermost
	boxes      []BoxState
	components []Component // sorted by code
	hitTurn    []bool      // component hit since the last EndTurn
}

// turret is a turret's record and state.
type turret struct {
	name   string
	armour armourBlock
	body   body
	jammed bool // a turret jam roll was made
	jam    int  // its result: facing 1-6, or 0 for abandoned weapons
}

// Ship is a detailed ship record and its damage. It is a value: methods that
// change it return a new Ship.
type Ship struct {
	name      string
	armour    [4]armourBlock
	hull      body
	externals []External
	turrets   []turret
	crew      []Crew
	exploded  bool
	// brokenUp is set when a structural collapse broke the ship up (chart
	// 1-4, book l.467); abandonLeft is then the turns its crew has left to
	// abandon ship.
	brokenUp    bool
	abandonLeft int
}

// NewShip validates a record and returns an undamaged ship. Errors have
// CodeInvalid and name the first problem found.
func NewShip(sp Spec) (Ship, error) {
	var s Ship
	s.name = strings.TrimSpace(sp.Name)
	if s.name == "" {
		return Ship{}, errorf(CodeInvalid, "a ship record needs a name")
	}
	for i, f := range Facings() {
		b, err := newArmour(sp.Armour.of(f), "the "+string(f)+" armour")
		if err != nil {
			return Ship{}, err
		}
		s.armour[i] = b
	}
	hull, err := newBody(sp.Internal, sp.Components, sp.Cargo, sp.OccupiedHangars, "the Internal Component Block")
	if err != nil {
		return Ship{}, err
	}
	s.hull = hull
	taken := map[[2]int]string{}
	named := map[string]bool{}
	for _, e := range sp.Externals {
		x, err := newExternal(e, sp.Armour)
		if err != nil {
			return Ship{}, err
		}
		key := [2]int{x.Facing.index(), x.Column}
		if other, ok := taken[key]; ok {
			return Ship{}, errorf(CodeInvalid, "external systems %q and %q are both on %s column %d: one external system per column", other, x.Name, x.Facing, x.Column)
		}
		taken[key] = x.Name
		// A repair names a hull component by its code and an external
		// system by its name: neither may stand for the other.
		for _, c := range s.hull.components {
			if strings.EqualFold(c.Code, x.Name) {
				return Ship{}, errorf(CodeInvalid, "external system %q has the name of component %s (%s) of the Internal Component Block: give it a name that is no component's code", x.Name, c.Code, c.Type.Name())
			}
		}
		if named[lower(x.Name)] {
			return Ship{}, errorf(CodeInvalid, "two external systems are named %q: give each its own name (case does not count)", x.Name)
		}
		named[lower(x.Name)] = true
		s.externals = append(s.externals, x)
	}
	if len(sp.Turrets) > MaxTurrets {
		return Ship{}, errorf(CodeInvalid, "%d turrets: at most %d", len(sp.Turrets), MaxTurrets)
	}
	for i, t := range sp.Turrets {
		name := strings.TrimSpace(t.Name)
		if name == "" {
			name = "turret " + strconv.Itoa(i+1)
		}
		a, err := newArmour(t.Armour, name+"'s armour")
		if err != nil {
			return Ship{}, err
		}
		b, err := newBody(t.Internal, t.Components, t.Cargo, nil, name+"'s Internal Component Block")
		if err != nil {
			return Ship{}, err
		}
		s.turrets = append(s.turrets, turret{name: name, armour: a, body: b})
	}
	names := map[string]bool{}
	for _, c := range sp.Crew {
		cr, err := s.newCrew(c)
		if err != nil {
			return Ship{}, err
		}
		if names[lower(cr.Name)] {
			return Ship{}, errorf(CodeInvalid, "two crewmen are named %q", cr.Name)
		}
		names[lower(cr.Name)] = true
		s.crew = append(s.crew, cr)
	}
	return s, nil
}

func newArmour(n int, what string) (armourBlock, error) {
	switch {
	case n < 0 || n > MaxArmour:
		return armourBlock{}, errorf(CodeInvalid, "%s has %d boxes: it must be 0 to %d", what, n, MaxArmour)
	case n%Columns != 0:
		// book l.325: "configured in ten-column-wide boxes"; the book shows
		// no partial row and says nothing of where one would sit.
		return armourBlock{}, errorf(CodeInvalid, "%s has %d boxes, which is not a multiple of ten: armour is ten columns wide in full rows (%d or %d)", what, n, n/Columns*Columns, (n/Columns+1)*Columns)
	}
	return armourBlock{rows: n / Columns, boxes: make([]BoxState, n)}, nil
}

func newBody(rows [][]string, comps, cargo map[string]string, occupied []string, what string) (body, error) {
	var b body
	if len(rows) == 0 {
		return body{}, errorf(CodeInvalid, "%s has no rows", what)
	}
	if len(rows) > MaxInternalRows {
		return body{}, errorf(CodeInvalid, "%s has %d rows: at most %d", what, len(rows), MaxInternalRows)
	}
	codes := make([]string, 0, len(comps))
	for code := range comps {
		codes = append(codes, code)
	}
	slices.Sort(codes)
	index := map[string]int{}
	for _, code := range codes {
		if !validCode(code) {
			return body{}, errorf(CodeInvalid, "component code %q in %s: a code is 1 to %d letters or digits", code, what, MaxCodeLength)
		}
		t, err := ParseComponentType(comps[code])
		if err != nil {
			return body{}, errorf(CodeInvalid, "component %s in %s: %s", code, what, err.Error())
		}
		c := Component{Code: code, Type: t}
		if t == Cargo {
			c.Contents = CargoEmpty
		}
		index[code] = len(b.components)
		b.components = append(b.components, c)
	}
	for code, v := range cargo {
		i, ok := index[code]
		if !ok || b.components[i].Type != Cargo {
			return body{}, errorf(CodeInvalid, "cargo contents are given for %q, which is not a Cargo component of %s", code, what)
		}
		switch CargoContents(lower(v)) {
		case CargoEmpty, CargoLoaded, CargoMissileReloads:
			b.components[i].Contents = CargoContents(lower(v))
		default:
			return body{}, errorf(CodeInvalid, "cargo %s holds %q: contents are empty, loaded or missile reloads", code, v)
		}
	}
	for _, code := range occupied {
		i, ok := index[code]
		if !ok || b.components[i].Type != Hangar {
			return body{}, errorf(CodeInvalid, "%q is listed as an occupied hangar but is not a Hangar component of %s", code, what)
		}
		b.components[i].Occupied = true
	}
	for r, row := range rows {
		if len(row) != Columns {
			return body{}, errorf(CodeInvalid, "row %d of %s has %d cells: every row is %d wide, the same as the armour columns it lies under", r+1, what, len(row), Columns)
		}
		for c, code := range row {
			code = strings.TrimSpace(code)
			i, ok := index[code]
			if !ok {
				return body{}, errorf(CodeInvalid, "row %d column %d of %s holds %q, which is not in the components list", r+1, c+1, what, code)
			}
			b.cells = append(b.cells, i)
			b.components[i].Boxes++
		}
	}
	b.rows = len(rows)
	b.boxes = make([]BoxState, len(b.cells))
	b.hitTurn = make([]bool, len(b.components))
	for _, c := range b.components {
		switch {
		case c.Boxes == 0:
			return body{}, errorf(CodeInvalid, "component %s (%s) of %s has no boxes in the block", c.Code, c.Type.Name(), what)
		case c.Type == Cockpit && c.Boxes != 4:
			// book l.357: "All cockpits, regardless of type or occupant, can take 4 hits".
			return body{}, errorf(CodeInvalid, "cockpit %s of %s has %d boxes: every cockpit has 4", c.Code, what, c.Boxes)
		case c.Type == ExternalHardpoint || c.Type == ExternalHeavyHardpoint || c.Type == ExternalRescue:
			return body{}, errorf(CodeInvalid, "component %s of %s is an %s: list it under external systems, on an armour column", c.Code, what, c.Type.Name())
		}
	}
	return b, nil
}

func newExternal(e ExternalSpec, armour ArmourSpec) (External, error) {
	name := strings.TrimSpace(e.Name)
	if name == "" {
		return External{}, errorf(CodeInvalid, "an external system needs a name")
	}
	if !e.Facing.Valid() {
		return External{}, errorf(CodeInvalid, "external system %q is on facing %q: use forward, aft, left or right", name, string(e.Facing))
	}
	if e.Column < 1 || e.Column > Columns {
		return External{}, errorf(CodeInvalid, "external system %q is on column %d: columns are 1 to %d", name, e.Column, Columns)
	}
	t, err := ParseComponentType(e.Type)
	if err != nil {
		return External{}, errorf(CodeInvalid, "external system %q: %s", name, err.Error())
	}
	if t != ExternalHardpoint && t != ExternalHeavyHardpoint && t != ExternalRescue {
		// book l.345: External Hardpoints, External Heavy Hardpoints and
		// External Rescue Compartments.
		return External{}, errorf(CodeInvalid, "external system %q is a %s: only External Hardpoints, External Heavy Hardpoints and External Rescue Compartments are mounted outside the armour", name, t.Name())
	}
	if armour.of(e.Facing) == 0 {
		// book l.345: "Unarmoured ships cannot carry external systems."
		return External{}, errorf(CodeInvalid, "external system %q is on the %s facing, which has no armour: unarmoured facings cannot carry external systems", name, e.Facing)
	}
	return External{Name: name, Type: t, Facing: e.Facing, Column: e.Column}, nil
}

func (s Ship) newCrew(c CrewSpec) (Crew, error) {
	name := strings.TrimSpace(c.Name)
	if name == "" {
		return Crew{}, errorf(CodeInvalid, "a crewman needs a name")
	}
	race, err := ParseRace(c.Race)
	if err != nil {
		return Crew{}, errorf(CodeInvalid, "crewman %s: %s", name, err.Error())
	}
	i := s.hull.component(c.Station)
	if i < 0 || !s.hull.components[i].Type.crewStation() {
		return Crew{}, errorf(CodeInvalid, "crewman %s is at station %q: a station is the code of a Bridge, Cockpit or Quarters component", name, c.Station)
	}
	if s.hull.components[i].Type == Cockpit {
		for _, other := range s.crew {
			if other.Station == c.Station {
				return Crew{}, errorf(CodeInvalid, "cockpit %s holds %s already: one crewman per cockpit", c.Station, other.Name)
			}
		}
	}
	return Crew{Name: name, Race: race, Station: c.Station, Status: Conscious}, nil
}

// component returns the index of the component with the code, or -1.
func (b *body) component(code string) int {
	i, ok := slices.BinarySearchFunc(b.components, code, func(c Component, code string) int {
		return strings.Compare(c.Code, code)
	})
	if !ok {
		return -1
	}
	return i
}

func validCode(code string) bool {
	if len(code) == 0 || len(code) > MaxCodeLength {
		return false
	}
	for _, r := range code {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func lower(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// clone returns a deep copy of s, so that methods can change it and leave s
// as it was.
func (s Ship) clone() Ship {
	c := s
	for i := range c.armour {
		c.armour[i].boxes = slices.Clone(s.armour[i].boxes)
	}
	c.hull = s.hull.clone()
	c.externals = slices.Clone(s.externals)
	c.turrets = slices.Clone(s.turrets)
	for i := range c.turrets {
		c.turrets[i].armour.boxes = slices.Clone(s.turrets[i].armour.boxes)
		c.turrets[i].body = s.turrets[i].body.clone()
	}
	c.crew = slices.Clone(s.crew)
	return c
}

func (b body) clone() body {
	c := b
	c.boxes = slices.Clone(b.boxes)
	c.hitTurn = slices.Clone(b.hitTurn)
	// cells and components never change after NewShip, so they are shared.
	return c
}
