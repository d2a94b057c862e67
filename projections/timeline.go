package projections

import (
	"sort"
	"strings"

	"github.com/ltscamp/ltscamp/events"
)

// Timeline entry kinds.
const (
	TimelineAdventure = "adventure"
	TimelineNewDay    = "day"
	TimelineEncounter = "encounter"
	TimelineHurt      = "hurt"
	TimelineHealed    = "healed"
	TimelineFatigue   = "fatigue"
	TimelineDied      = "died"
	TimelineRevived   = "revived"
	TimelineXP        = "xp"
	TimelineKarma     = "karma"
	TimelineWish      = "wish"
	TimelineCurse     = "curse"
	TimelineRest      = "rest"
	TimelineSleep     = "sleep"
	TimelineAttack    = "attack"
	TimelineShip      = "ship"
	TimelineNote      = "note"
	// TimelineRoll and TimelineContest are told only by a timeline that
	// tells rolls (TellRolls).
	TimelineRoll    = "roll"
	TimelineContest = "contest"
)

// TimelineEntry is one thing that happened, told in a line.
type TimelineEntry struct {
	Seq       int64  `json:"seq"`
	Kind      string `json:"kind"`
	Encounter int    `json:"encounter,omitempty"`
	Character string `json:"character,omitempty"`
	Text      string `json:"text"`
}

// TimelineDay is one game day of an adventure.
type TimelineDay struct {
	Day     int             `json:"day"`
	Entries []TimelineEntry `json:"entries"`
}

// TimelinePeriod is an adventure, or (Adventure 0) a stretch between
// adventures, whose entries all sit on day 0.
type TimelinePeriod struct {
	Adventure int           `json:"adventure"`
	Title     string        `json:"title,omitempty"`
	Days      []TimelineDay `json:"days"`
}

// Timeline tells the campaign day by day: encounters and their outcomes;
// who was hurt, healed, died or revived; XP and karma gained, spent or
// expired. It is folded from the whole log, commands in effect only.
type Timeline struct {
	Periods []TimelinePeriod `json:"periods"`

	clock Campaign
	names map[string]string
	// seqs maps each roll, contest and attack to its seq, for the
	// re-rolls that name them.
	seqs map[string]int64
	// lookup, when set, finds the seq of an event the timeline was not
	// given (a fold of one day names rolls of earlier days).
	lookup func(id string) (int64, bool)
	// flush, when set, is handed each day once it is over (see Stream).
	flush func(TimelinePeriod, TimelineDay) error
	// rolls is set when the timeline tells rolls and contests too (see
	// TellRolls); lastContest is the command of the contest told last,
	// whose copies in the other side's stream are not told again.
	rolls       bool
	lastContest string
}

// TellRolls has the timeline tell every roll and contest too (initiative,
// a tackle, a medic's check), each with its dice, total, target and
// outcome, and what it was for. Set it before the first Apply; the events
// to fold are then those of TimelineRollTypes as well.
func (t *Timeline) TellRolls() { t.rolls = true }

// TimelineRollTypes lists the types of event a timeline that tells rolls
// folds besides those of TimelineTypes.
func TimelineRollTypes() []string {
	return []string{events.TypeContestResolved, events.TypeRollMade}
}

// Stream has the timeline hand each day to f once it is over (the next
// entry falls on another day), with its period (whose Days are left
// empty), instead of keeping it: a fold of the whole log then holds one
// day at a time. Finish hands over the last day.
func (t *Timeline) Stream(f func(TimelinePeriod, TimelineDay) error) { t.flush = f }

// Finish hands the last day to the function given to Stream.
func (t *Timeline) Finish() error {
	if t.flush == nil {
		return nil
	}
	return t.handOver()
}

// handOver hands the current day to flush and forgets it.
func (t *Timeline) handOver() error {
	n := len(t.Periods)
	if n == 0 || len(t.Periods[n-1].Days) == 0 {
		return nil
	}
	p := &t.Periods[n-1]
	head := *p
	head.Days = nil
	d := p.Days[len(p.Days)-1]
	p.Days = p.Days[:0]
	return t.flush(head, d)
}

// LookUpSeqs has the timeline find the seq of an event it was not given
// with f: a timeline folded from one day's events names rolls of earlier
// days by their seqs.
func (t *Timeline) LookUpSeqs(f func(id string) (int64, bool)) { t.lookup = f }

// timelineKinds says which event types the timeline tells, and as what.
var timelineKinds = map[string]string{
	events.TypeAdventureStarted: TimelineAdventure, events.TypeAdventureEnded: TimelineAdventure,
	events.TypeDayAdvanced:      TimelineNewDay,
	events.TypeEncounterStarted: TimelineEncounter, events.TypeEncounterEnded: TimelineEncounter,
	events.TypeAttackMade:  TimelineAttack,
	events.TypeDamageTaken: TimelineHurt, events.TypeDamageWithdrawn: TimelineHealed, events.TypeHealingWithdrawn: TimelineHurt, events.TypeDamageHealed: TimelineHealed, events.TypeCharacterRecovered: TimelineHealed,
	events.TypeFatigueRecovered: TimelineFatigue,
	events.TypeCharacterDied:    TimelineDied, events.TypeCharacterRevived: TimelineRevived,
	events.TypeXPAwarded: TimelineXP, events.TypeXPSpent: TimelineXP,
	events.TypeKarmaGranted: TimelineKarma, events.TypeKarmaSpent: TimelineKarma, events.TypeKarmaExpired: TimelineKarma,
	events.TypeWishGranted: TimelineWish, events.TypeWishSpent: TimelineWish,
	events.TypeCurseAdded: TimelineCurse, events.TypeCurseLifted: TimelineCurse,
	events.TypeRestTaken: TimelineRest, events.TypePartySlept: TimelineSleep,
	events.TypeShipHit: TimelineShip, events.TypeShipRepaired: TimelineShip, events.TypeShipHitWithdrawn: TimelineShip,
	events.TypeDetailedShipHit: TimelineShip, events.TypeDetailedShipRepaired: TimelineShip, events.TypeDetailedTurnEnded: TimelineShip,
	events.TypeDogfightStarted: TimelineShip, events.TypeDogfightManeuvered: TimelineShip, events.TypeDogfightFired: TimelineShip,
	events.TypeDogfightExited: TimelineShip, events.TypeDogfightEnded: TimelineShip,
	events.TypeNoteRecorded: TimelineNote,
}

// TimelineTypes lists the types of event, besides those of the campaign
// stream (its clock), that a timeline which looks up the seqs of rolls
// (LookUpSeqs) folds: the others change nothing in it.
func TimelineTypes() []string {
	out := []string{events.TypeShipBuilt, events.TypeDetailedShipBuilt, events.TypeCharacterCreated, events.TypeFoeAdded}
	for t := range timelineKinds {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// Apply folds one event (in seq order, in effect) into the timeline.
func (t *Timeline) Apply(e events.Event) error {
	if t.names == nil {
		t.names, t.seqs = map[string]string{}, map[string]int64{}
	}
	switch e.Type {
	case events.TypeRollMade, events.TypeContestResolved, events.TypeAttackMade:
		if t.lookup == nil { // with a lookup, a re-roll's roll is looked up instead
			t.seqs[e.ID] = e.Seq
		}
	}
	ended := t.clock.Now() // an adventure's end is told as its last entry
	switch e.Stream {
	case events.CampaignStream:
		if err := t.clock.Apply(e); err != nil {
			return err
		}
	case events.CommandsStream:
		return nil
	case events.DiceStream: // bare rolls, and contests of no party member
		if !t.rolls {
			return nil
		}
	}
	if e.Type == events.TypeShipBuilt {
		p, err := events.Decode(e)
		if err != nil {
			return err
		}
		b := p.(*events.ShipBuilt)
		t.names[b.ShipID] = b.Name
		return nil
	}
	if e.Type == events.TypeDetailedShipBuilt {
		p, err := events.Decode(e)
		if err != nil {
			return err
		}
		b := p.(*events.DetailedShipBuilt)
		t.names[b.ShipID] = b.Name
		return nil
	}
	if e.Type == events.TypeCharacterCreated {
		p, err := events.Decode(e)
		if err != nil {
			return err
		}
		c := p.(*events.CharacterCreated)
		t.names[c.CharacterID] = c.Name
		return nil
	}
	if e.Type == events.TypeFoeAdded {
		p, err := events.Decode(e)
		if err != nil {
			return err
		}
		f := p.(*events.FoeAdded)
		t.names[f.FoeID] = f.Name
		return nil
	}
	kind, ok := timelineKinds[e.Type]
	if t.rolls {
		switch e.Type {
		case events.TypeRollMade:
			kind, ok = TimelineRoll, true
		case events.TypeContestResolved:
			if e.CommandID != "" && e.CommandID == t.lastContest {
				return nil // the same contest, in the other side's stream
			}
			t.lastContest = e.CommandID
			kind, ok = TimelineContest, true
		}
	}
	if !ok {
		return nil
	}
	p, err := events.Decode(e)
	if err != nil {
		return err
	}
	at := t.clock.Now()
	if g, ok := events.GameTimeOf(p); ok {
		at = g
	}
	if e.Type == events.TypeAdventureEnded {
		at = ended
	}
	entry := TimelineEntry{Seq: e.Seq, Kind: kind, Encounter: at.Encounter, Text: Describe(e, t.seqOf)}
	switch p := p.(type) {
	case *events.RollMade: // what the roll was for, as an award's reason is told
		entry.Text += because(p.Reason)
	case *events.ContestResolved:
		entry.Text += because(p.Reason)
	}
	if id, ok := strings.CutPrefix(e.Stream, events.ShipStreamPrefix); ok {
		entry.Text = t.names[id] + ": " + entry.Text
	}
	id, ok := strings.CutPrefix(e.Stream, events.CharacterStreamPrefix)
	if !ok {
		id, ok = strings.CutPrefix(e.Stream, events.FoeStreamPrefix)
	}
	if ok {
		entry.Character = t.names[id]
		if kind != TimelineAttack && kind != TimelineRoll && kind != TimelineContest { // these texts name who rolled
			entry.Text = entry.Character + ": " + entry.Text
		}
	}
	day, err := t.day(at)
	if err != nil {
		return err
	}
	day.Entries = append(day.Entries, entry)
	return nil
}

func (t *Timeline) seqOf(id string) (int64, bool) {
	if seq, ok := t.seqs[id]; ok {
		return seq, true
	}
	if t.lookup != nil {
		return t.lookup(id)
	}
	return 0, false
}

// day returns the day an entry at g belongs to, adding periods and days as
// the story reaches them.
func (t *Timeline) day(g events.GameTime) (*TimelineDay, error) {
	n := len(t.Periods)
	newPeriod := n == 0 || t.Periods[n-1].Adventure != g.Adventure
	if t.flush != nil && n > 0 {
		if last := t.Periods[n-1].Days; newPeriod || len(last) > 0 && last[len(last)-1].Day != g.Day {
			if err := t.handOver(); err != nil {
				return nil, err
			}
		}
		if newPeriod {
			t.Periods, n = t.Periods[:0], 0
		}
	}
	if newPeriod {
		t.Periods = append(t.Periods, TimelinePeriod{Adventure: g.Adventure, Title: t.clock.AdventureTitle})
		if g.Adventure == 0 {
			t.Periods[len(t.Periods)-1].Title = ""
		}
		n++
	}
	p := &t.Periods[n-1]
	if d := len(p.Days); d == 0 || p.Days[d-1].Day != g.Day {
		p.Days = append(p.Days, TimelineDay{Day: g.Day, Entries: []TimelineEntry{}})
	}
	return &p.Days[len(p.Days)-1], nil
}

// FoldTimeline folds the log (seq order), skipping the events skip says are
// out of effect (nil: none).
func FoldTimeline(log []events.Event, skip func(events.Event) bool) (Timeline, error) {
	var t Timeline
	for _, e := range log {
		if skip != nil && skip(e) {
			continue
		}
		if err := t.Apply(e); err != nil {
			return Timeline{}, err
		}
	}
	if t.Periods == nil {
		t.Periods = []TimelinePeriod{}
	}
	return t, nil
}
