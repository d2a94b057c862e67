package projections

import (
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
	events.TypeDogfightStarted: TimelineShip, events.TypeDogfightManeuvered: TimelineShip, events.TypeDogfightFired: TimelineShip,
	events.TypeDogfightExited: TimelineShip, events.TypeDogfightEnded: TimelineShip,
	events.TypeNoteRecorded: TimelineNote,
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
	case events.CommandsStream, events.DiceStream:
		return nil
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
	if !ok {
		return nil
	}
	p, err := events.Decode(e)
	if err != nil {
		return err
	}
	at := t.clock.Now()
	if st, ok := p.(interface {
		GameTimeOf() (events.GameTime, bool)
	}); ok {
		if g, ok := st.GameTimeOf(); ok {
			at = g
		}
	}
	if e.Type == events.TypeAdventureEnded {
		at = ended
	}
	entry := TimelineEntry{Seq: e.Seq, Kind: kind, Encounter: at.Encounter, Text: Describe(e, t.seqOf)}
	if id, ok := strings.CutPrefix(e.Stream, events.ShipStreamPrefix); ok {
		entry.Text = t.names[id] + ": " + entry.Text
	}
	id, ok := strings.CutPrefix(e.Stream, events.CharacterStreamPrefix)
	if !ok {
		id, ok = strings.CutPrefix(e.Stream, events.FoeStreamPrefix)
	}
	if ok {
		entry.Character = t.names[id]
		if kind != TimelineAttack { // an attack's text names the attacker
			entry.Text = entry.Character + ": " + entry.Text
		}
	}
	day := t.day(at)
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
func (t *Timeline) day(g events.GameTime) *TimelineDay {
	n := len(t.Periods)
	if n == 0 || t.Periods[n-1].Adventure != g.Adventure {
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
	return &p.Days[len(p.Days)-1]
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
