package campaign

import "fmt"

// Source is where a roster row came from, so an error can name it: the
// file, the line, and for CSV the column of the field.
type Source struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column,omitempty"`
}

// String returns "file:line" or "file:line:column".
func (s Source) String() string {
	if s.Column > 0 {
		return fmt.Sprintf("%s:%d:%d", s.File, s.Line, s.Column)
	}
	return fmt.Sprintf("%s:%d", s.File, s.Line)
}

// RosterCharacter is one character row of a roster: what `char new` takes,
// and what `equip` would put in his hands and on his back.
type RosterCharacter struct {
	// Source is the row; Fields the place of each field by its roster
	// name ("st", "skills"...), where the format tells it.
	Source Source
	Fields map[string]Source
	Name   string
	ST     int
	DX     int
	IQ     int
	// Skills are written "Name:Level", as `char new --skill` takes them.
	Skills []string
	// Weapon and Armor are catalogue names ("" for none).
	Weapon string
	Armor  string
}

// RosterShip is one star craft row of a roster: what `ship new` takes, and
// its crew by section, as `ship crew` takes them.
type RosterShip struct {
	Source Source
	Fields map[string]Source
	Name   string
	Record string
	// Owner is a character's name ("" for none).
	Owner string
	// Crew lists, section by section in the order given, who is aboard.
	Crew []RosterCrew
}

// RosterCrew is the crew of one section of a roster ship.
type RosterCrew struct {
	Section string
	Names   []string
}

// Roster is a party brought in from a file: characters first, then star
// craft (whose crews and owners may name the characters).
type Roster struct {
	Characters []RosterCharacter
	Ships      []RosterShip
}

// field returns the place of a field of a row, or the row's own place.
func field(row Source, fields map[string]Source, name string) Source {
	if s, ok := fields[name]; ok {
		return s
	}
	return row
}
