package projections

import (
	"fmt"
	"slices"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// ShipSection is one section of a ship record, with its damage and crew.
type ShipSection struct {
	Name      string   `json:"name"`
	Kind      string   `json:"kind"`
	Points    int      `json:"points"`
	Damage    int      `json:"damage"`
	Destroyed bool     `json:"destroyed"`
	Crew      []string `json:"crew"`
	crewIDs   []string
}

// State names the section's state: "ok", "damaged" or "destroyed".
func (s ShipSection) State() string {
	switch {
	case s.Destroyed:
		return "destroyed"
	case s.Damage > 0:
		return "damaged"
	}
	return "ok"
}

// Ship is a star craft's record, folded from its stream.
type Ship struct {
	ID      string        `json:"id"`
	Name    string        `json:"name"`
	Edition rules.Edition `json:"edition"`
	// Record is the canonical long form.
	Record      string        `json:"record"`
	Cost        int           `json:"cost"`
	CostFormula string        `json:"cost_formula"`
	Owner       string        `json:"owner,omitempty"`
	Sections    []ShipSection `json:"sections"`
	Weapons     string        `json:"weapons"`
	Shields     int           `json:"shields"`
	Maneuver    int           `json:"maneuver"`
	Systems     int           `json:"systems,omitempty"`
	CargoUnits  int           `json:"cargo_units"`
	// MustReturnToBase: without a Living section, "after combat, the craft
	// must return to a base or mother ship".
	MustReturnToBase bool `json:"must_return_to_base"`
	// DIW: Engineering or Operations destroyed, "dead in the water".
	DIW       bool   `json:"diw"`
	DIWReason string `json:"diw_reason,omitempty"`
	Version   int64  `json:"version"`
	Seq       int64  `json:"seq"`

	record rules.ShipRecord
}

// ShipRecord returns the parsed record.
func (s *Ship) ShipRecord() rules.ShipRecord { return s.record }

// SectionStates returns the sections' damage for the rules.
func (s *Ship) SectionStates() []rules.SectionState {
	out := make([]rules.SectionState, len(s.Sections))
	for i, sec := range s.Sections {
		out[i] = rules.SectionState{Section: s.record.Sections[i], Damage: sec.Damage}
	}
	return out
}

// CrewIn returns the IDs of the characters aboard a section.
func (s *Ship) CrewIn(section int) []string { return slices.Clone(s.Sections[section].crewIDs) }

// SectionIndex finds a section by name, ignoring case; -1 if none.
func (s *Ship) SectionIndex(name string) int {
	for i, sec := range s.Sections {
		if equalFoldTrim(sec.Name, name) {
			return i
		}
	}
	return -1
}

// Aboard returns the section a character is in, -1 if not aboard.
func (s *Ship) Aboard(characterID string) int {
	for i, sec := range s.Sections {
		if slices.Contains(sec.crewIDs, characterID) {
			return i
		}
	}
	return -1
}

// Apply folds one event of the ship's stream.
func (s *Ship) Apply(e events.Event) error {
	p, err := events.Decode(e)
	if err != nil {
		return err
	}
	switch p := p.(type) {
	case *events.ShipBuilt:
		r, err := rules.ParseShipRecord(rules.Edition(p.Edition), p.Record)
		if err != nil {
			return fmt.Errorf("event %d: %w", e.Seq, err)
		}
		s.ID, s.Name, s.Edition, s.record = p.ShipID, p.Name, rules.Edition(p.Edition), r
		s.Record, s.Cost, s.CostFormula, s.Owner = r.String(), p.Cost, p.CostFormula, p.Owner
		s.Sections = make([]ShipSection, len(r.Sections))
		for i, sec := range r.Sections {
			s.Sections[i] = ShipSection{Name: sec.Name, Kind: string(sec.Kind), Points: sec.Points, Crew: []string{}}
		}
		s.Weapons = ""
		if r.WeaponDice > 0 {
			s.Weapons = fmt.Sprintf("%dd6", r.WeaponDice)
			if r.WeaponDice == 1 {
				s.Weapons = "d6"
			}
		}
		s.Shields, s.Maneuver, s.Systems = r.Shields, r.Maneuver, r.Systems
		s.CargoUnits, s.MustReturnToBase = r.CargoUnits(), !r.HasLiving()
	case *events.ShipCrewed:
		s.removeCrew(p.CharacterID)
		i := s.SectionIndex(p.Section)
		if i < 0 {
			return fmt.Errorf("event %d: %s has no section %q", e.Seq, s.Name, p.Section)
		}
		s.Sections[i].crewIDs = append(s.Sections[i].crewIDs, p.CharacterID)
		s.Sections[i].Crew = append(s.Sections[i].Crew, p.Character)
	case *events.ShipUncrewed:
		s.removeCrew(p.CharacterID)
	case *events.ShipHit:
		for _, h := range p.Sections {
			i := s.SectionIndex(h.Section)
			if i < 0 {
				return fmt.Errorf("event %d: %s has no section %q", e.Seq, s.Name, h.Section)
			}
			s.Sections[i].Damage += h.Points
			if h.Destroyed {
				// "A character is killed if he occupies a section when it is destroyed."
				s.Sections[i].crewIDs, s.Sections[i].Crew = nil, []string{}
			}
		}
	case *events.ShipHitWithdrawn:
		for _, h := range p.Sections {
			i := s.SectionIndex(h.Section)
			if i < 0 {
				return fmt.Errorf("event %d: %s has no section %q", e.Seq, s.Name, h.Section)
			}
			s.Sections[i].Damage -= h.Points
		}
	case *events.ShipRepaired:
		i := s.SectionIndex(p.Section)
		if i < 0 {
			return fmt.Errorf("event %d: %s has no section %q", e.Seq, s.Name, p.Section)
		}
		s.Sections[i].Damage -= p.Points
	default:
		return fmt.Errorf("event %d: %s does not belong on a ship's record", e.Seq, e.Type)
	}
	for i := range s.Sections {
		s.Sections[i].Destroyed = s.Sections[i].Damage >= s.Sections[i].Points
	}
	s.DIW, s.DIWReason = rules.Dead(s.SectionStates())
	s.Version, s.Seq = e.StreamVersion, e.Seq
	return nil
}

func (s *Ship) removeCrew(id string) {
	for i := range s.Sections {
		if j := slices.Index(s.Sections[i].crewIDs, id); j >= 0 {
			s.Sections[i].crewIDs = slices.Delete(s.Sections[i].crewIDs, j, j+1)
			s.Sections[i].Crew = slices.Delete(s.Sections[i].Crew, j, j+1)
		}
	}
}

// ShipMember is a ship in the fleet list.
type ShipMember struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Seq  int64  `json:"seq"`
}

// Fleet lists every ship built, in order.
type Fleet struct {
	Ships []ShipMember `json:"ships"`
}

// Apply folds a ship.built event into the fleet; other events are ignored.
func (f *Fleet) Apply(e events.Event) error {
	if e.Type != events.TypeShipBuilt {
		return nil
	}
	p, err := events.Decode(e)
	if err != nil {
		return err
	}
	b := p.(*events.ShipBuilt)
	f.Ships = append(f.Ships, ShipMember{ID: b.ShipID, Name: b.Name, Seq: e.Seq})
	return nil
}

// Find returns the ship whose name matches, ignoring case.
func (f *Fleet) Find(name string) (ShipMember, bool) {
	for _, s := range f.Ships {
		if equalFoldTrim(s.Name, name) {
			return s, true
		}
	}
	return ShipMember{}, false
}

// Names returns the ships' names.
func (f *Fleet) Names() []string {
	out := make([]string, len(f.Ships))
	for i, s := range f.Ships {
		out[i] = s.Name
	}
	return out
}
