// Package projections folds events into the read models users see:
// character sheets, the campaign's state, the party roster, XP ledgers.
//
// Every projection is a pure fold: it never reads the clock or the database.
// Each has one Apply(event) method that is the only place its state changes,
// and each keeps the stream version it has folded up to, so a snapshot of it
// can later be stored and the stream read on from there.
package projections

import (
	"fmt"
	"sort"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// Character statuses shown on a sheet.
const (
	StatusOK            = "ok"
	StatusIncapacitated = "incapacitated"
	StatusDead          = "dead"
)

// Skill is one skill on a sheet.
type Skill struct {
	Key   string `json:"key"`
	Name  string `json:"name"`
	Level int    `json:"level"`
}

// Armor is the armour a character wears. Equipping arrives with the game-time
// issue; the sheet carries the field so adjusted DX and MA already use it.
type Armor struct {
	Name        string `json:"name"`
	Protection  int    `json:"protection"`
	Restriction int    `json:"restriction"`
}

// XP is a character's experience account.
type XP struct {
	Earned  int `json:"earned"`
	Spent   int `json:"spent"`
	Unspent int `json:"unspent"`
}

// Adjusted holds the values armour restriction changes.
type Adjusted struct {
	DX int `json:"DX"`
	MA int `json:"MA"`
}

// Sheet is a character sheet, folded from the character's stream.
type Sheet struct {
	ID         string           `json:"id"`
	Name       string           `json:"name"`
	Edition    rules.Edition    `json:"edition"`
	Status     string           `json:"status"`
	Attributes rules.Attributes `json:"attributes"`
	Adjusted   Adjusted         `json:"adjusted"`
	Armor      *Armor           `json:"armor"`
	Skills     []Skill          `json:"skills"`
	XP         XP               `json:"xp"`
	Karma      int              `json:"karma"`
	Wishes     int              `json:"wishes"`
	Curses     int              `json:"curses"`
	Damage     int              `json:"damage"`
	Fatigue    int              `json:"fatigue"`
	// Version is the stream version folded up to; Seq the global seq of
	// that event.
	Version int64 `json:"version"`
	Seq     int64 `json:"seq"`
}

// SkillLevel returns the character's level in the skill with the given
// catalogue key, 0 if he lacks it.
func (s *Sheet) SkillLevel(key string) int {
	for _, sk := range s.Skills {
		if sk.Key == key {
			return sk.Level
		}
	}
	return 0
}

// Alive reports whether the character is alive. Death arrives with the
// game-time issue; until then every character is alive.
func (s *Sheet) Alive() bool { return s.Status != StatusDead }

// Restriction returns the armour restriction the character suffers.
func (s *Sheet) Restriction() int {
	if s.Armor == nil {
		return 0
	}
	return s.Armor.Restriction
}

// Apply folds one event of the character's stream into the sheet. It is the
// only place a sheet changes.
func (s *Sheet) Apply(e events.Event) error {
	switch e.Type {
	case events.TypeRollMade, events.TypeContestResolved:
		// Rolls change nothing on the sheet by themselves; skipping their
		// payloads keeps a long stream cheap to fold.
		s.Version, s.Seq = e.StreamVersion, e.Seq
		return nil
	}
	p, err := events.Decode(e)
	if err != nil {
		return err
	}
	switch p := p.(type) {
	case *events.CharacterCreated:
		s.ID = p.CharacterID
		s.Name = p.Name
		s.Edition = rules.Edition(p.Edition)
		s.Attributes = rules.Attributes{ST: p.Attributes.ST, DX: p.Attributes.DX, IQ: p.Attributes.IQ}
		s.Skills = nil
		for _, sk := range p.Skills {
			s.setSkill(sk.Skill, sk.Name, sk.Level)
		}
	case *events.XPAwarded:
		s.XP.Earned += p.Amount
	case *events.XPSpent:
		s.XP.Spent += p.Price
		switch p.On {
		case "attribute":
			at, err := rules.ParseAttribute(p.Attribute)
			if err != nil {
				return fmt.Errorf("event %d: %w", e.Seq, err)
			}
			s.Attributes = s.Attributes.With(at, p.To)
		case "skill":
			s.setSkill(p.Skill, p.SkillName, p.To)
		default:
			return fmt.Errorf("event %d: xp.spent on %q", e.Seq, p.On)
		}
	case *events.KarmaGranted:
		s.Karma += p.Amount
	case *events.KarmaSpent:
		s.Karma -= p.Amount
	case *events.WishGranted:
		s.Wishes += p.Amount
	case *events.WishSpent:
		s.Wishes--
	case *events.CurseAdded:
		s.Curses += p.Levels
	default:
		return fmt.Errorf("event %d: %s does not belong on a character sheet", e.Seq, e.Type)
	}
	s.Version = e.StreamVersion
	s.Seq = e.Seq
	s.derive()
	return nil
}

func (s *Sheet) setSkill(key, name string, level int) {
	for i := range s.Skills {
		if s.Skills[i].Key == key {
			s.Skills[i].Level = level
			return
		}
	}
	s.Skills = append(s.Skills, Skill{Key: key, Name: name, Level: level})
	sort.Slice(s.Skills, func(i, j int) bool { return s.Skills[i].Name < s.Skills[j].Name })
}

// derive recomputes the values that follow from the others.
func (s *Sheet) derive() {
	s.XP.Unspent = s.XP.Earned - s.XP.Spent
	s.Adjusted.DX = rules.AdjustedDX(s.Attributes.DX, s.Restriction())
	s.Adjusted.MA = rules.MovementAllowance(s.Adjusted.DX)
	// RULES "Characters": damage + fatigue >= ST → incapacitated at once.
	if s.Damage+s.Fatigue >= s.Attributes.ST {
		s.Status = StatusIncapacitated
	} else {
		s.Status = StatusOK
	}
	if s.Skills == nil {
		s.Skills = []Skill{}
	}
}

// FoldSheet folds a character's stream, in order, into a sheet.
func FoldSheet(stream []events.Event) (Sheet, error) {
	var s Sheet
	for _, e := range stream {
		if err := s.Apply(e); err != nil {
			return Sheet{}, err
		}
	}
	return s, nil
}
