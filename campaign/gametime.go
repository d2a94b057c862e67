package campaign

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// Encounter outcomes.
const (
	OutcomeVictory = "victory"
	OutcomeFled    = "fled"
	OutcomeOther   = "other"
)

// TimeResult reports a command that moved game time: what it did to whom.
type TimeResult struct {
	Campaign projections.Campaign
	Events   []events.Event
	// Names maps each character's stream to his name, so that what the
	// command did can say to whom.
	Names map[string]string
}

// timeCommand runs a decision that moves game time and folds the campaign
// after it.
func (s *Service) timeCommand(decide func(d *decision) error) (TimeResult, error) {
	res, err := s.execute(decide)
	if err != nil {
		return TimeResult{}, err
	}
	v, err := s.view("")
	if err != nil {
		return TimeResult{}, err
	}
	c, err := v.campaign()
	if err != nil {
		return TimeResult{}, err
	}
	r, err := v.roster()
	if err != nil {
		return TimeResult{}, err
	}
	names := make(map[string]string, len(r.Members)+len(r.Foes)+len(r.Left))
	for _, m := range slices.Concat(r.Members, r.Foes, r.Left) {
		names[m.Stream()] = m.Name
	}
	return TimeResult{Campaign: c, Events: res.Events, Names: names}, nil
}

// members loads every party member's stream, in creation order.
func (d *decision) members() ([]*character, error) {
	r, err := d.rosterState()
	if err != nil {
		return nil, err
	}
	return d.load(r.Members)
}

// combatants loads the party's streams, then the foes'.
func (d *decision) combatants() ([]*character, error) {
	r, err := d.rosterState()
	if err != nil {
		return nil, err
	}
	return d.load(append(slices.Clip(r.Members), r.Foes...))
}

func (d *decision) load(ms []projections.Member) ([]*character, error) {
	out := make([]*character, 0, len(ms))
	for _, m := range ms {
		c, err := d.characterByMember(m)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// resolveDeaths closes the window in which the mortally wounded may still
// be healed: RULES "Characters": "When all combat is over, a character with
// damage ≥ ST must be healed to a net ST of at least 1 ... or dies."
func (d *decision) resolveDeaths() ([]string, error) {
	chars, err := d.combatants()
	if err != nil {
		return nil, err
	}
	var died []string
	for _, c := range chars {
		if !c.sheet.Alive() {
			continue
		}
		dies, cause := rules.EndOfCombat(c.sheet.Body())
		if !dies {
			continue
		}
		died = append(died, c.sheet.Name)
		if err := d.emit(c.stream, events.CharacterDied{Cause: cause, Damage: c.sheet.Damage}); err != nil {
			return nil, err
		}
	}
	return died, nil
}

// expireKarma ends the day for karma that had to be used within it.
func (d *decision) expireKarma() error {
	chars, err := d.members()
	if err != nil {
		return err
	}
	for _, c := range chars {
		if n := min(c.sheet.ExpiringKarma, c.sheet.Karma); n > 0 {
			// 2021 Storyteller: "These karma points must be used in current game day."
			if err := d.emit(c.stream, events.KarmaExpired{Amount: n, Reason: "storyteller karma lasts the game day"}); err != nil {
				return err
			}
		}
	}
	return nil
}

func (d *decision) inAdventure(what string) (*projections.Campaign, error) {
	c, err := d.campaignState()
	if err != nil {
		return nil, err
	}
	if !c.InAdventure {
		return nil, rules.Errorf(rules.CodeRule, "%s needs an adventure under way: the party is between adventures (start one with `ltscamp adventure start TITLE`)", what)
	}
	return c, nil
}

// timeStep opens a step of game time taken outside combat: an adventure
// must be under way and no encounter, and the deaths still pending resolve
// first. It returns the campaign and who died.
func (d *decision) timeStep(what, refusal string) (*projections.Campaign, []string, error) {
	c, err := d.inAdventure(what)
	if err != nil {
		return nil, nil, err
	}
	if err := d.noEncounter(c, refusal); err != nil {
		return nil, nil, err
	}
	died, err := d.resolveDeaths()
	return c, died, err
}

func (d *decision) noEncounter(c *projections.Campaign, what string) error {
	if c.InEncounter {
		return rules.Errorf(rules.CodeRule, "%s: encounter %d%s is under way; end it first with `ltscamp encounter end --outcome victory|fled|other`", what, c.Encounter, titled(c.EncounterTitle))
	}
	return nil
}

func titled(t string) string {
	if t == "" {
		return ""
	}
	return fmt.Sprintf(" (%s)", t)
}

// AdventureStart begins an adventure: day 1 starts with it.
func (s *Service) AdventureStart(title string) (TimeResult, error) {
	title = strings.TrimSpace(title)
	return s.timeCommand(func(d *decision) error {
		if title == "" {
			return rules.Errorf(rules.CodeInvalid, "an adventure needs a TITLE")
		}
		if err := rules.CheckReason("the adventure's title", title); err != nil {
			return err
		}
		c, err := d.campaignState()
		if err != nil {
			return err
		}
		if c.InAdventure {
			return rules.Errorf(rules.CodeRule, "adventure %d (%s) is under way; end it first with `ltscamp adventure end`", c.Adventure, c.AdventureTitle)
		}
		if _, err := d.resolveDeaths(); err != nil {
			return err
		}
		n := c.Adventure + 1
		d.setTime(events.GameTime{Adventure: n, Day: 1})
		return d.emit(events.CampaignStream, events.AdventureStarted{Number: n, Title: title})
	})
}

// AdventureEnd ends the adventure: the day's karma expires and every living
// character recovers fully ("Between adventures, characters recover fully").
func (s *Service) AdventureEnd() (TimeResult, error) {
	return s.timeCommand(func(d *decision) error {
		c, _, err := d.timeStep("adventure end", "the adventure cannot end")
		if err != nil {
			return err
		}
		if err := d.expireKarma(); err != nil {
			return err
		}
		// The adventure ends first: the recoveries happen between adventures.
		d.setTime(events.GameTime{})
		if err := d.emit(events.CampaignStream, events.AdventureEnded{Number: c.Adventure}); err != nil {
			return err
		}
		chars, err := d.members()
		if err != nil {
			return err
		}
		for _, ch := range chars {
			if !ch.sheet.Alive() || (ch.sheet.Damage == 0 && ch.sheet.Fatigue == 0) || d.diedNow(ch) {
				continue
			}
			if err := d.emit(ch.stream, events.CharacterRecovered{Damage: ch.sheet.Damage, Fatigue: ch.sheet.Fatigue, Reason: "between adventures"}); err != nil {
				return err
			}
		}
		return nil
	})
}

// diedNow reports whether this command has already recorded c's death.
func (d *decision) diedNow(c *character) bool {
	for _, p := range d.pending {
		if p.Stream == c.stream && p.Type == events.TypeCharacterDied {
			return true
		}
	}
	return false
}

// DayNext ends the current game day and starts the next (or the day n days
// on). Karma that had to be used within the day expires.
func (s *Service) DayNext(n int) (TimeResult, error) {
	return s.timeCommand(func(d *decision) error {
		if n < 1 {
			return rules.Errorf(rules.CodeInvalid, "--days %d: advance 1 day or more", n)
		}
		if err := rules.CheckQuantity(rules.QtyDayNext, n); err != nil {
			return err
		}
		c, _, err := d.timeStep("day next", "the day cannot end")
		if err != nil {
			return err
		}
		return d.advanceDays(c, n, "day next")
	})
}

// advanceDays ends the day (its karma expires) and moves n days on. The
// caller resolves pending deaths first.
func (d *decision) advanceDays(c *projections.Campaign, n int, reason string) error {
	if err := d.expireKarma(); err != nil {
		return err
	}
	d.setTime(events.GameTime{Adventure: c.Adventure, Day: c.Day + n})
	return d.emit(events.CampaignStream, events.DayAdvanced{From: c.Day, To: c.Day + n, Reason: reason})
}

// EncounterStart opens an encounter in the current day, with the foes
// that belong to it (see addEncounterFoes).
func (s *Service) EncounterStart(title string, foes ...NewFoe) (TimeResult, error) {
	return s.EncounterStartWith(title, nil, foes...)
}

// EncounterStartWith is EncounterStart where sp, when not nil, gives a
// side surprise: "one free unopposed turn, and then ... the first turn"
// (see Surprise). The foes join first: one of them may roll Alertness.
func (s *Service) EncounterStartWith(title string, sp *Surprise, foes ...NewFoe) (TimeResult, error) {
	title = strings.TrimSpace(title)
	return s.timeCommand(func(d *decision) error {
		if err := rules.CheckReason("the encounter's title", title); err != nil {
			return err
		}
		c, _, err := d.timeStep("encounter start", "a new encounter cannot start")
		if err != nil {
			return err
		}
		n := c.Encounter + 1
		d.setTime(events.GameTime{Adventure: c.Adventure, Day: c.Day, Encounter: n})
		if err := d.emit(events.CampaignStream, events.EncounterStarted{Number: n, Title: title}); err != nil {
			return err
		}
		if err := d.addEncounterFoes(n, foes); err != nil {
			return err
		}
		if sp != nil {
			return d.declareSurprise(c, n, *sp)
		}
		return nil
	})
}

// EncounterEnd closes the encounter. The mortally wounded who were not
// healed die; on a victory each contributor gets 1 XP (none when the party
// fled); every living character recovers one fatigue point.
func (s *Service) EncounterEnd(outcome string, contributors []string) (TimeResult, error) {
	outcome = strings.ToLower(strings.TrimSpace(outcome))
	return s.timeCommand(func(d *decision) error {
		switch outcome {
		case OutcomeVictory, OutcomeFled, OutcomeOther:
		default:
			return rules.Errorf(rules.CodeInvalid, "--outcome %q: choose victory, fled or other", outcome)
		}
		c, err := d.campaignState()
		if err != nil {
			return err
		}
		if !c.InEncounter {
			return rules.Errorf(rules.CodeRule, "no encounter is under way; start one with `ltscamp encounter start`")
		}
		if err := d.noHitsToCome("the encounter ends"); err != nil {
			return err
		}
		if outcome != OutcomeVictory && len(contributors) > 0 {
			return rules.Errorf(rules.CodeInvalid, "--contributors names who earned a victory's XP; this encounter ended %s", outcome)
		}
		died, err := d.resolveDeaths()
		if err != nil {
			return err
		}
		chars, err := d.members()
		if err != nil {
			return err
		}
		var earners []*character
		if outcome == OutcomeVictory {
			if earners, err = d.contributors(chars, contributors, died); err != nil {
				return err
			}
		}
		ids := []string{}
		for _, ch := range earners {
			ids = append(ids, ch.member.ID)
			// 2021 "Experience Points": "After combat, every character contributing to
			// victory gets one XP"; 2010: "After each encounter".
			if err := d.emit(ch.stream, events.XPAwarded{Amount: 1, Reason: fmt.Sprintf("victory in encounter %d%s", c.Encounter, titled(c.EncounterTitle)), Source: "encounter"}); err != nil {
				return err
			}
		}
		// "A character recovers one fatigue point after each encounter."
		if err := d.recoverFatigue(chars, died, "encounter", rules.FatigueAfterEncounter); err != nil {
			return err
		}
		if err := d.dismissEncounterFoes(c.Encounter, c.EncounterTitle); err != nil {
			return err
		}
		return d.emit(events.CampaignStream, events.EncounterEnded{Number: c.Encounter, Outcome: outcome, Contributors: ids})
	})
}

// recoverFatigue has every living character (but those who died in this
// command) recover the fatigue points the rule gives.
func (d *decision) recoverFatigue(chars []*character, died []string, reason string, points func(rules.Body) int) error {
	for _, ch := range chars {
		if !ch.sheet.Alive() || slices.Contains(died, ch.sheet.Name) {
			continue
		}
		if n := points(ch.sheet.Body()); n > 0 {
			if err := d.emit(ch.stream, events.FatigueRecovered{Points: n, Reason: reason}); err != nil {
				return err
			}
		}
	}
	return nil
}

// contributors resolves who earned a victory: the named characters, or
// every character alive at its end.
func (d *decision) contributors(chars []*character, names []string, died []string) ([]*character, error) {
	if len(names) == 0 {
		var out []*character
		for _, ch := range chars {
			if ch.sheet.Alive() && !slices.Contains(died, ch.sheet.Name) {
				out = append(out, ch)
			}
		}
		return out, nil
	}
	var out []*character
	for _, n := range names {
		ch, err := d.character(n)
		if err != nil {
			return nil, err
		}
		if slices.Contains(out, ch) {
			return nil, rules.Errorf(rules.CodeInvalid, "%s is named twice in --contributors", ch.sheet.Name)
		}
		if !ch.sheet.Alive() || slices.Contains(died, ch.sheet.Name) {
			return nil, rules.Errorf(rules.CodeRule, "%s is dead and earns no XP", ch.sheet.Name)
		}
		out = append(out, ch)
	}
	return out, nil
}

// Sleep is a full night's sleep: all fatigue recovers.
func (s *Service) Sleep() (TimeResult, error) {
	return s.timeCommand(func(d *decision) error {
		c, err := d.campaignState()
		if err != nil {
			return err
		}
		if err := d.noEncounter(c, "nobody sleeps"); err != nil {
			return err
		}
		died, err := d.resolveDeaths()
		if err != nil {
			return err
		}
		chars, err := d.members()
		if err != nil {
			return err
		}
		// "... and all his fatigue with a full night of sleep."
		if err := d.recoverFatigue(chars, died, "sleep", rules.FatigueAfterSleep); err != nil {
			return err
		}
		return d.emit(events.CampaignStream, events.PartySlept{})
	})
}

// RestRequest is what `rest` asks for.
type RestRequest struct {
	// Names are who rest; none is the whole party (every living member).
	Names []string
	Days  int
	// Conditions are the four the books require for rest to heal.
	Conditions rules.RestConditions
}

// Rest lets characters rest for days (no names: every living party
// member), which pass for the whole party:
// 2020/2021 heal one damage a day of proper rest; 2010 heals everything
// after a week of it.
func (s *Service) Rest(req RestRequest) (TimeResult, error) {
	return s.timeCommand(func(d *decision) error {
		if req.Days < 1 {
			return rules.Errorf(rules.CodeInvalid, "--days %d: rest 1 day or more", req.Days)
		}
		if err := rules.CheckQuantity(rules.QtyRestDays, req.Days); err != nil {
			return err
		}
		c, died, err := d.timeStep("rest", "nobody rests")
		if err != nil {
			return err
		}
		resting, err := d.resting(req.Names, died)
		if err != nil {
			return err
		}
		// The days pass first: the rest's healing is told on the day it
		// reaches, and the karma of the first day expires as it ends.
		if err := d.advanceDays(c, req.Days, "rest"); err != nil {
			return err
		}
		for _, ch := range resting {
			before := 0
			if ch.sheet.Rest.Adventure == c.Adventure && ch.sheet.Rest.UntilDay == c.Day {
				before = ch.sheet.Rest.Days
			}
			healed, after, note := rules.RestHealing(c.Edition, ch.sheet.Body(), req.Days, before, req.Conditions)
			rt := events.RestTaken{Days: req.Days, StayedPut: req.Conditions.StayedPut, Sheltered: req.Conditions.Sheltered,
				Provisioned: req.Conditions.Provisioned, NoStrenuous: req.Conditions.NoStrenuous,
				Healed: healed, RestedDays: after, UntilDay: c.Day + req.Days, Note: note, Edition: string(c.Edition)}
			if err := d.emit(ch.stream, rt); err != nil {
				return err
			}
			switch {
			case healed > 0 && c.Edition == rules.Edition2010:
				// 2010 "Recovery": "a character fully recovers in a week".
				err = d.emit(ch.stream, events.CharacterRecovered{Damage: healed, Fatigue: ch.sheet.Fatigue, Reason: "a week of rest"})
			case healed > 0:
				err = d.emit(ch.stream, events.DamageHealed{Points: healed, Reason: "rest"})
			}
			if err != nil {
				return err
			}
			// A day of rest ends in a night's sleep, which recovers all
			// fatigue ("all his fatigue with a full night of sleep").
			if n := rules.FatigueAfterSleep(ch.sheet.Body()); n > 0 && !(healed > 0 && c.Edition == rules.Edition2010) {
				if err := d.emit(ch.stream, events.FatigueRecovered{Points: n, Reason: "sleep"}); err != nil {
					return err
				}
			}
		}
		return nil
	})
}
