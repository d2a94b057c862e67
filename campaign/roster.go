package campaign

import (
	"fmt"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
	"github.com/ltscamp/ltscamp/rules/interceptor"
)

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
	// Detailed, when set, is the ship's detailed (INTERCEPTOR) record,
	// instead of Record: the ship is built as `ship new --detailed` builds
	// it. Its crew is in the record; Owner and Crew are for section ships.
	Detailed *interceptor.Spec
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

// RosterResult is what a roster import created, or with DryRun would
// create.
type RosterResult struct {
	Characters    []projections.Sheet
	Ships         []projections.Ship
	DetailedShips []projections.DetailedShip
	// Events is how many events the import appends (or would).
	Events int
	DryRun bool
}

// RosterProblem is a roster row, or one field of it, that the rules refuse.
type RosterProblem struct {
	Source  Source
	Field   string
	Name    string
	Problem string
	// Code is the domain error code the same command would have failed
	// with on its own.
	Code rules.Code
}

// RosterError lists every row of a roster the rules refuse, in file order.
type RosterError struct {
	Problems []RosterProblem
}

// Error implements error: a count, then one problem per line.
func (e *RosterError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the roster was not imported (nothing was changed): %s", projections.Count(len(e.Problems), "problem", "problems"))
	for _, p := range e.Problems {
		fmt.Fprintf(&b, "\n  %s: %s", p.Source, p.Name)
		if p.Field != "" {
			fmt.Fprintf(&b, ": %s", p.Field)
		}
		fmt.Fprintf(&b, ": %s", p.Problem)
	}
	return b.String()
}

// ImportRoster creates a roster's characters (each as `char new` would,
// then equipped as `equip` would) and its ships (as `ship new` would, then
// crewed as `ship crew` would), decided by the same rules, as one command:
// everything goes in, or nothing does. Every row the rules refuse is
// listed in a *RosterError (inside a coded error), not only the first.
// With dryRun it decides everything and appends nothing.
func (s *Service) ImportRoster(r Roster, dryRun bool) (RosterResult, error) {
	if len(r.Characters) == 0 && len(r.Ships) == 0 {
		return RosterResult{}, rules.Errorf(rules.CodeInvalid, "the roster has no characters and no ships")
	}
	var chars []*character
	var ships []*ship
	var detailed []*projections.DetailedShip
	var n int
	decide := func(d *decision) error {
		chars, ships, detailed = nil, nil, nil
		var problems []RosterProblem
		refuse := func(src Source, name, fieldName string, err error) {
			problems = append(problems, RosterProblem{Source: src, Field: fieldName, Name: name, Problem: err.Error(), Code: rules.CodeOf(err)})
		}
		camp, err := d.campaignState()
		if err != nil {
			return err
		}
		for _, row := range r.Characters {
			c, err := d.createCharacter(NewCharacter{Name: row.Name, Attributes: rules.Attributes{ST: row.ST, DX: row.DX, IQ: row.IQ}, Skills: row.Skills})
			if err != nil {
				refuse(row.Source, row.Name, "", err)
				continue
			}
			chars = append(chars, c)
			for _, eq := range []struct{ slot, item string }{{SlotWeapon, row.Weapon}, {SlotArmor, row.Armor}} {
				if strings.TrimSpace(eq.item) == "" {
					continue
				}
				if err := d.equip(camp.Edition, c, eq.slot, eq.item); err != nil {
					refuse(field(row.Source, row.Fields, eq.slot), row.Name, eq.slot, err)
				}
			}
		}
		for _, row := range r.Ships {
			if row.Detailed != nil {
				if row.Owner != "" || len(row.Crew) > 0 {
					refuse(row.Source, row.Name, "", rules.Errorf(rules.CodeInvalid, "a detailed record holds its crew itself: owner and crew are for section ships"))
					continue
				}
				ds, err := d.buildDetailedShip(row.Name, *row.Detailed, row.Source.String())
				if err != nil {
					refuse(field(row.Source, row.Fields, "detailed"), row.Name, "detailed", err)
					continue
				}
				detailed = append(detailed, ds)
				continue
			}
			sh, err := d.buildShip(row.Name, row.Record, row.Owner)
			if err != nil {
				refuse(row.Source, row.Name, "", err)
				continue
			}
			ships = append(ships, sh)
			for _, cr := range row.Crew {
				if err := d.crew(sh, cr.Section, cr.Names); err != nil {
					refuse(field(row.Source, row.Fields, "crew"), row.Name, "crew", err)
				}
			}
		}
		if len(problems) > 0 {
			re := &RosterError{Problems: problems}
			return &rules.Error{Code: problems[0].Code, Message: re.Error(), Err: re}
		}
		n = len(d.pending)
		return nil
	}
	if dryRun {
		d := s.newDecision()
		if err := decide(d); err != nil {
			return RosterResult{}, err
		}
		out := RosterResult{Events: n, DryRun: true}
		for _, c := range chars {
			out.Characters = append(out.Characters, c.sheet)
		}
		for _, sh := range ships {
			out.Ships = append(out.Ships, sh.rec)
		}
		for _, ds := range detailed {
			out.DetailedShips = append(out.DetailedShips, *ds)
		}
		return out, nil
	}
	res, err := s.execute(decide)
	if err != nil {
		return RosterResult{}, err
	}
	return rosterResult(res.Events, n, chars, ships, detailed)
}

// rosterResult reads back what an import created from the events it
// appended: every stream it names is new, so those events are the whole of
// each, and folding them gives what a read of the log would (the command's
// events are all in effect). Reading each back from the log instead folded
// the roster once per character, which made an import quadratic.
func rosterResult(appended []events.Event, n int, chars []*character, ships []*ship, detailed []*projections.DetailedShip) (RosterResult, error) {
	out := RosterResult{Events: n}
	sheets := make(map[string]*projections.Sheet, len(chars))
	for _, c := range chars {
		sheets[c.stream] = &projections.Sheet{}
	}
	recs := make(map[string]*projections.Ship, len(ships))
	for _, sh := range ships {
		recs[sh.stream] = &projections.Ship{}
	}
	drecs := make(map[string]*projections.DetailedShip, len(detailed))
	for _, ds := range detailed {
		drecs[events.ShipStream(ds.ID)] = &projections.DetailedShip{}
	}
	for _, e := range appended {
		var err error
		if sh, ok := sheets[e.Stream]; ok {
			err = sh.Apply(e)
		} else if rec, ok := recs[e.Stream]; ok {
			err = rec.Apply(e)
		} else if rec, ok := drecs[e.Stream]; ok {
			err = rec.Apply(e)
		}
		if err != nil {
			return out, err
		}
	}
	for _, c := range chars {
		out.Characters = append(out.Characters, *sheets[c.stream])
	}
	for _, sh := range ships {
		out.Ships = append(out.Ships, *recs[sh.stream])
	}
	for _, ds := range detailed {
		out.DetailedShips = append(out.DetailedShips, *drecs[events.ShipStream(ds.ID)])
	}
	return out, nil
}
