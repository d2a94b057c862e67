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
	"slices"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// Character statuses shown on a sheet.
const (
	StatusOK            = "ok"
	StatusIncapacitated = "incapacitated"
	// StatusDying: damage of ST or more; the character dies when the
	// encounter ends (or, out of combat, at the next step of game time)
	// unless healed to ST−1 or less first.
	StatusDying = "dying"
	// StatusUnrecoverable: damage of twice ST or more; no healing saves
	// him, only a wish.
	StatusUnrecoverable = "unrecoverable"
	StatusDead          = "dead"
)

// Skill is one skill on a sheet.
type Skill struct {
	Key   string `json:"key"`
	Name  string `json:"name"`
	Level int    `json:"level"`
}

// Armor is an item of armour, as the edition's table gives it; on a sheet's
// Armor, the total of every item he wears.
type Armor struct {
	Item        string `json:"item,omitempty"`
	Name        string `json:"name"`
	Protection  int    `json:"protection"`
	Restriction int    `json:"restriction"`
	// NoBullets: the armour does not protect against missiles (B).
	NoBullets bool `json:"no_bullets,omitempty"`
	// SpaceSuit: an all-sixes check fails its power (SS); Failed once it has.
	SpaceSuit bool `json:"space_suit,omitempty"`
	Failed    bool `json:"failed,omitempty"`
}

// Weapon is the weapon a character wields.
type Weapon struct {
	Item   string   `json:"item"`
	Name   string   `json:"name"`
	Damage string   `json:"damage,omitempty"`
	Heft   int      `json:"heft,omitempty"`
	Flags  []string `json:"flags,omitempty"`
}

// Combat is what a character took in one encounter, for medics: they heal
// only damage sustained in the current combat.
type Combat struct {
	Adventure int `json:"adventure"`
	Encounter int `json:"encounter"`
	Damage    int `json:"damage"`
	Healed    int `json:"healed"`
	// TreatedBy lists the medics (character IDs) who treated him in it.
	TreatedBy []string `json:"treated_by,omitempty"`
}

// Rest counts consecutive days of proper rest (2010: a week heals all).
type Rest struct {
	Days      int `json:"days"`
	Adventure int `json:"adventure"`
	// UntilDay is the day the last rest reached; rest continues the count
	// only when it starts on that day.
	UntilDay int `json:"until_day"`
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
	// Armor is what he wears in all: the items' names, their protection
	// and restriction added up ("the cumulative rating of his armor");
	// nil for none. ArmorItems are the items, in the order put on.
	Armor      *Armor  `json:"armor"`
	ArmorItems []Armor `json:"armor_items"`
	Weapon     *Weapon `json:"weapon"`
	Skills     []Skill `json:"skills"`
	XP         XP      `json:"xp"`
	Karma      int     `json:"karma"`
	Wishes     int     `json:"wishes"`
	Curses     int     `json:"curses"`
	Damage     int     `json:"damage"`
	Fatigue    int     `json:"fatigue"`
	// DeathCause says how he died, when Status is dead.
	DeathCause string `json:"death_cause,omitempty"`
	// SkillBonus is his standing choice of where a combat skill's level
	// goes on his attacks, "hit" or "damage" (`char set NAME
	// --skill-bonus`); "hit" until he sets it.
	SkillBonus rules.SkillBonus `json:"skill_bonus"`
	// ExpiringKarma is the part of Karma that expires when the day ends
	// (a Storyteller's).
	ExpiringKarma int    `json:"expiring_karma"`
	Combat        Combat `json:"combat"`
	Rest          Rest   `json:"rest"`
	// Dead is true from death until a wish revives him.
	Dead bool `json:"dead"`
	// Foe is true for a non-player combatant, and Removed once he is taken
	// off the roster.
	Foe     bool `json:"foe,omitempty"`
	Removed bool `json:"removed,omitempty"`
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

// StandingBonus returns the character's standing choice of where a combat
// skill's level goes: "hit" unless he set "damage".
func (s *Sheet) StandingBonus() rules.SkillBonus {
	if s.SkillBonus == rules.BonusNone {
		return rules.BonusHit
	}
	return s.SkillBonus
}

// Alive reports whether the character is alive (not dead, or revived).
func (s *Sheet) Alive() bool { return !s.Dead }

// Body returns the character's ST, damage and fatigue for the injury rules.
func (s *Sheet) Body() rules.Body {
	return rules.Body{ST: s.Attributes.ST, Damage: s.Damage, Fatigue: s.Fatigue}
}

// CombatDamage returns the damage taken in the given encounter and not yet
// healed by a medic.
func (s *Sheet) CombatDamage(adventure, encounter int) (taken, healed int) {
	if s.Combat.Adventure != adventure || s.Combat.Encounter != encounter {
		return 0, 0
	}
	return s.Combat.Damage, s.Combat.Healed
}

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
	case events.TypeRollMade, events.TypeContestResolved, events.TypeAttackMade:
		// Rolls and attacks change nothing on the sheet by themselves (an
		// attack's points land as damage.taken on the target); skipping
		// their payloads keeps a long stream cheap to fold.
		s.Version, s.Seq = e.StreamVersion, e.Seq
		return nil
	}
	p, err := events.Decode(e)
	if err != nil {
		return err
	}
	c := checked{e: e}
	switch p := p.(type) {
	case *events.CharacterCreated:
		s.ID = p.CharacterID
		s.Name = p.Name
		s.Edition = rules.Edition(p.Edition)
		s.Attributes = rules.Attributes{ST: p.Attributes.ST, DX: p.Attributes.DX, IQ: p.Attributes.IQ}
		s.SkillBonus = rules.BonusHit
		s.Skills = nil
		for _, sk := range p.Skills {
			s.setSkill(sk.Skill, sk.Name, sk.Level)
		}
	case *events.FoeAdded:
		s.ID, s.Name, s.Edition, s.Foe = p.FoeID, p.Name, rules.Edition(p.Edition), true
		s.SkillBonus = rules.BonusHit
		s.Attributes = rules.Attributes{ST: p.Attributes.ST, DX: p.Attributes.DX, IQ: p.Attributes.IQ}
		s.SkillBonus = rules.BonusHit
		s.Skills = nil
		for _, sk := range p.Skills {
			s.setSkill(sk.Skill, sk.Name, sk.Level)
		}
	case *events.FoeRemoved:
		s.Removed = true
	case *events.XPAwarded:
		c.add(&s.XP.Earned, p.Amount, "XP earned")
	case *events.XPSpent:
		c.add(&s.XP.Spent, p.Price, "XP spent")
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
		c.add(&s.Karma, p.Amount, "karma")
		if p.ExpiresAtDayEnd {
			c.add(&s.ExpiringKarma, p.Amount, "expiring karma")
		}
	case *events.KarmaSpent:
		// Karma that expires tonight is spent first.
		c.sub(&s.Karma, p.Amount, "karma")
		c.sub(&s.ExpiringKarma, min(s.ExpiringKarma, p.Amount), "expiring karma")
	case *events.KarmaExpired:
		c.sub(&s.Karma, p.Amount, "karma")
		c.sub(&s.ExpiringKarma, p.Amount, "expiring karma")
	case *events.WishGranted:
		c.add(&s.Wishes, p.Amount, "wishes")
	case *events.WishSpent:
		c.sub(&s.Wishes, 1, "wishes")
	case *events.CurseAdded:
		c.add(&s.Curses, p.Levels, "curse levels")
	case *events.CurseLifted:
		c.sub(&s.Curses, 1, "curse levels")
		c.sub(&s.Wishes, p.Wishes, "wishes")
		c.sub(&s.Karma, p.Karma, "karma")
		c.sub(&s.ExpiringKarma, min(s.ExpiringKarma, p.Karma), "expiring karma")
		c.add(&s.XP.Spent, p.XP, "XP spent")
		if p.Attribute != "" {
			at, err := rules.ParseAttribute(p.Attribute)
			if err != nil {
				return fmt.Errorf("event %d: %w", e.Seq, err)
			}
			s.Attributes = s.Attributes.With(at, p.To)
		}
	case *events.ItemEquipped:
		if p.Slot == "armor" {
			if !p.Over {
				s.ArmorItems = nil
			}
			s.ArmorItems = append(slices.Clone(s.ArmorItems), Armor{Item: p.Item, Name: p.Name, Protection: p.Protection, Restriction: p.Restriction, NoBullets: p.NoBullets, SpaceSuit: p.SpaceSuit})
		} else {
			s.Weapon = &Weapon{Item: p.Item, Name: p.Name, Damage: p.Damage, Heft: p.Heft, Flags: p.Flags}
		}
	case *events.SkillBonusSet:
		s.SkillBonus = rules.SkillBonus(p.Bonus)
	case *events.ItemUnequipped:
		if p.Slot == "armor" {
			s.ArmorItems = slices.DeleteFunc(slices.Clone(s.ArmorItems), func(a Armor) bool { return p.Item == "" || a.Item == p.Item })
		} else {
			s.Weapon = nil
		}
	case *events.SuitFailed:
		s.ArmorItems = slices.Clone(s.ArmorItems)
		for i, a := range s.ArmorItems {
			if a.SpaceSuit && !a.Failed && a.Name == p.Armor {
				s.ArmorItems[i].Restriction, s.ArmorItems[i].Failed = p.Restriction, true
				break
			}
		}
	case *events.DamageTaken:
		c.add(&s.Damage, p.Damage, "damage")
		c.add(&s.Fatigue, p.Fatigue, "fatigue")
		if g, ok := p.GameTimeOf(); ok && g.Encounter > 0 {
			if s.Combat.Adventure != g.Adventure || s.Combat.Encounter != g.Encounter {
				s.Combat = Combat{Adventure: g.Adventure, Encounter: g.Encounter}
			}
			c.add(&s.Combat.Damage, p.Damage, "the combat's damage")
		}
	case *events.DamageWithdrawn:
		c.sub(&s.Damage, p.Damage, "damage")
		c.sub(&s.Fatigue, p.Fatigue, "fatigue")
		if g, ok := p.GameTimeOf(); ok && s.Combat.Adventure == g.Adventure && s.Combat.Encounter == g.Encounter {
			c.sub(&s.Combat.Damage, p.Damage, "the combat's damage")
		}
	case *events.HealingWithdrawn:
		c.add(&s.Damage, p.Points, "damage")
		c.sub(&s.Combat.Healed, p.Points, "the combat's healing")
		if i := slices.Index(s.Combat.TreatedBy, p.MedicID); i >= 0 {
			s.Combat.TreatedBy = slices.Delete(slices.Clone(s.Combat.TreatedBy), i, i+1)
		}
	case *events.DamageHealed:
		c.sub(&s.Damage, p.Points, "damage")
		if p.Reason == "medic" {
			c.add(&s.Combat.Healed, p.Points, "the combat's healing")
			s.Combat.TreatedBy = append(s.Combat.TreatedBy, p.MedicID)
		}
	case *events.FatigueRecovered:
		c.sub(&s.Fatigue, p.Points, "fatigue")
	case *events.CharacterRecovered:
		c.sub(&s.Damage, p.Damage, "damage")
		c.sub(&s.Fatigue, p.Fatigue, "fatigue")
	case *events.RestTaken:
		g, _ := p.GameTimeOf()
		s.Rest = Rest{Days: p.RestedDays, Adventure: g.Adventure, UntilDay: p.UntilDay}
	case *events.CharacterDied:
		s.Dead, s.DeathCause = true, p.Cause
	case *events.CharacterRevived:
		s.Dead, s.DeathCause = false, ""
		s.Damage, s.Fatigue = p.DamageTo, p.FatigueTo
	default:
		return fmt.Errorf("event %d: %s does not belong on a character sheet", e.Seq, e.Type)
	}
	if _, ok := rules.SubChecked(s.XP.Earned, s.XP.Spent); !ok {
		c.fail("unspent XP", s.XP.Earned, '-', s.XP.Spent)
	}
	if c.err != nil {
		return c.err
	}
	s.Version = e.StreamVersion
	s.Seq = e.Seq
	s.derive()
	return nil
}

// checked does a fold's arithmetic on counts: a sum or a difference that
// would overflow an int leaves the count as it was and records an error,
// the first, which Apply returns. A log whose numbers wrap round (a forged
// event, or one written before the commands bounded what they take) is an
// invalid log, not a negative ledger.
type checked struct {
	e   events.Event
	err error
}

func (c *checked) add(dst *int, n int, what string) {
	if v, ok := rules.AddChecked(*dst, n); ok {
		*dst = v
	} else {
		c.fail(what, *dst, '+', n)
	}
}

func (c *checked) sub(dst *int, n int, what string) {
	if v, ok := rules.SubChecked(*dst, n); ok {
		*dst = v
	} else {
		c.fail(what, *dst, '-', n)
	}
}

func (c *checked) fail(what string, a int, op rune, b int) {
	if c.err == nil {
		c.err = rules.Errorf(rules.CodeInvalidLog, "event %d (%s): %s overflows: %d %c %d is beyond the range of a count", c.e.Seq, c.e.Type, what, a, op, b)
	}
}

// wornArmor totals the items worn (nil for none).
func wornArmor(items []Armor) *Armor {
	switch len(items) {
	case 0:
		return nil
	case 1:
		a := items[0]
		return &a
	}
	worn := make([]rules.Armor, len(items))
	keys := make([]string, len(items))
	total := Armor{NoBullets: true}
	for i, a := range items {
		worn[i] = rules.Armor{Name: a.Name}
		keys[i] = a.Item
		total.Protection += a.Protection
		total.Restriction += a.Restriction
		total.NoBullets = total.NoBullets && a.NoBullets
		total.SpaceSuit = total.SpaceSuit || a.SpaceSuit
		total.Failed = total.Failed || a.Failed
	}
	total.Name, total.Item = rules.ArmorNames(worn), strings.Join(keys, "+")
	return &total
}

// RulesArmor returns the items he wears as the rules read them.
func (s *Sheet) RulesArmor() []rules.Armor {
	if len(s.ArmorItems) == 0 {
		return nil
	}
	out := make([]rules.Armor, len(s.ArmorItems))
	for i, a := range s.ArmorItems {
		out[i] = rules.Armor{Key: a.Item, Name: a.Name, Protection: a.Protection, Restriction: a.Restriction, NoBullets: a.NoBullets, SpaceSuit: a.SpaceSuit}
	}
	return out
}

func (s *Sheet) setSkill(key, name string, level int) {
	for i := range s.Skills {
		if s.Skills[i].Key == key {
			s.Skills[i].Level = level
			return
		}
	}
	s.Skills = append(s.Skills, Skill{Key: key, Name: name, Level: level})
	slices.SortFunc(s.Skills, func(a, b Skill) int { return strings.Compare(a.Name, b.Name) })
}

// derive recomputes the values that follow from the others.
func (s *Sheet) derive() {
	s.Armor = wornArmor(s.ArmorItems)
	if s.ArmorItems == nil {
		s.ArmorItems = []Armor{}
	}
	s.XP.Unspent = s.XP.Earned - s.XP.Spent
	s.Adjusted.DX = rules.AdjustedDX(s.Attributes.DX, s.Restriction())
	s.Adjusted.MA = rules.MovementAllowance(s.Adjusted.DX)
	// RULES "Characters": damage + fatigue >= ST → incapacitated at once;
	// damage >= ST → dies when combat ends unless healed; >= 2×ST →
	// unrecoverable.
	b := s.Body()
	switch {
	case s.Dead:
		s.Status = StatusDead
	case b.Unrecoverable():
		s.Status = StatusUnrecoverable
	case b.MortallyWounded():
		s.Status = StatusDying
	case b.Incapacitated():
		s.Status = StatusIncapacitated
	default:
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
