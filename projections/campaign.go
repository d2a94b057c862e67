package projections

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// Campaign is the campaign-wide state, folded from the campaign stream.
type Campaign struct {
	Name      string        `json:"name"`
	Edition   rules.Edition `json:"edition"`
	CreatedAt time.Time     `json:"created_at"`
	// InAdventure is false from creation until an adventure starts: a
	// campaign begins "between adventures", when new skills may be learned.
	InAdventure bool `json:"in_adventure"`
	// Adventure is the number of the current (or last) adventure, from 1;
	// AdventureTitle its title.
	Adventure      int    `json:"adventure"`
	AdventureTitle string `json:"adventure_title,omitempty"`
	// Day is the current day of the adventure (from 1; 0 between
	// adventures).
	Day int `json:"day"`
	// Encounter is the number of the last encounter of the adventure;
	// InEncounter whether it is under way.
	Encounter      int    `json:"encounter"`
	EncounterTitle string `json:"encounter_title,omitempty"`
	InEncounter    bool   `json:"in_encounter"`
	// Plotwords maps each plotword the party holds (upper-cased) to the seq
	// that acquired it.
	Plotwords map[string]int64 `json:"plotwords"`
	Version   int64            `json:"version"`
}

// BetweenAdventures reports whether the party is between adventures.
func (c *Campaign) BetweenAdventures() bool { return !c.InAdventure }

// Now returns the game time the campaign has reached, for stamping events.
func (c *Campaign) Now() events.GameTime {
	if !c.InAdventure {
		return events.GameTime{}
	}
	g := events.GameTime{Adventure: c.Adventure, Day: c.Day}
	if c.InEncounter {
		g.Encounter = c.Encounter
	}
	return g
}

// PlotwordKey normalises a plotword for comparison.
func PlotwordKey(word string) string { return strings.ToUpper(strings.TrimSpace(word)) }

// Apply folds one event of the campaign stream.
func (c *Campaign) Apply(e events.Event) error {
	p, err := events.Decode(e)
	if err != nil {
		return err
	}
	if _, created := p.(*events.CampaignCreated); !created && c.Version == 0 {
		return fmt.Errorf("event %d: %s before the campaign.created that begins the campaign stream", e.Seq, e.Type)
	}
	switch p := p.(type) {
	case *events.CampaignCreated:
		c.Name = p.Name
		c.Edition = rules.Edition(p.Edition)
		c.CreatedAt = e.RecordedAt
		c.Plotwords = map[string]int64{}
	case *events.PlotwordAcquired:
		c.Plotwords[PlotwordKey(p.Word)] = e.Seq
	case *events.AdventureStarted:
		c.InAdventure, c.Adventure, c.AdventureTitle = true, p.Number, p.Title
		c.Day, c.Encounter, c.InEncounter, c.EncounterTitle = 1, 0, false, ""
	case *events.AdventureEnded:
		c.InAdventure, c.Day, c.InEncounter = false, 0, false
	case *events.DayAdvanced:
		c.Day = p.To
	case *events.EncounterStarted:
		c.Encounter, c.EncounterTitle, c.InEncounter = p.Number, p.Title, true
	case *events.EncounterEnded:
		c.InEncounter = false
	case *events.PartySlept, *events.NoteRecorded:
	default:
		return fmt.Errorf("event %d: %s does not belong on the campaign stream", e.Seq, e.Type)
	}
	c.Version = e.StreamVersion
	return nil
}

// FoldCampaign folds the campaign stream.
func FoldCampaign(stream []events.Event) (Campaign, error) {
	var c Campaign
	for _, e := range stream {
		if err := c.Apply(e); err != nil {
			return Campaign{}, err
		}
	}
	if c.Version == 0 {
		return Campaign{}, fmt.Errorf("the campaign stream has no campaign.created event")
	}
	return c, nil
}

// Member is one party member, or one foe, in the roster.
type Member struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Seq  int64  `json:"seq"`
	// Foe is true for a non-player combatant (stream foe/<id>).
	Foe bool `json:"foe,omitempty"`
	// Encounter is, for a foe, the number of the encounter he belongs to
	// and leaves the roster at the end of (0: a standing foe).
	Encounter int `json:"encounter,omitempty"`
}

// Stream returns the member's stream: character/<id>, or foe/<id>.
func (m Member) Stream() string {
	if m.Foe {
		return events.FoeStream(m.ID)
	}
	return events.CharacterStream(m.ID)
}

// Roster is the party, every character created in creation order, and the
// foes on the roster (added and not removed), in the order added. Left are
// the foes who left the roster (removed, or gone with their encounter), in
// the order they left: `foe list --all` shows them.
type Roster struct {
	Members []Member `json:"members"`
	Foes    []Member `json:"foes,omitempty"`
	Left    []Member `json:"left,omitempty"`
	// members and foes index the names for Find and FindFoe, built when
	// first asked and kept up by Apply: a roster import checks every new
	// name against thousands.
	members, foes *nameIndex
}

// Apply folds character.created, foe.added and foe.removed into the
// roster; other events are ignored.
func (r *Roster) Apply(e events.Event) error {
	switch e.Type {
	case events.TypeCharacterCreated:
		p, err := events.Decode(e)
		if err != nil {
			return err
		}
		c := p.(*events.CharacterCreated)
		r.Members = append(r.Members, Member{ID: c.CharacterID, Name: c.Name, Seq: e.Seq})
		r.members.added(&r.Members)
	case events.TypeFoeAdded:
		p, err := events.Decode(e)
		if err != nil {
			return err
		}
		f := p.(*events.FoeAdded)
		r.Foes = append(r.Foes, Member{ID: f.FoeID, Name: f.Name, Seq: e.Seq, Foe: true, Encounter: f.Encounter})
		r.foes.added(&r.Foes)
	case events.TypeFoeRemoved:
		id := strings.TrimPrefix(e.Stream, events.FoeStreamPrefix)
		i := slices.IndexFunc(r.Foes, func(m Member) bool { return m.ID == id })
		if i >= 0 {
			r.Left = append(r.Left, r.Foes[i])
			r.Foes = slices.Delete(r.Foes, i, i+1)
		}
		r.foes = nil // the foes after it moved up
	}
	return nil
}

// Names returns the members' names in creation order.
func (r *Roster) Names() []string { return memberNames(r.Members) }

// EncounterFoes returns the foes on the roster who belong to an encounter
// (and leave the roster when it ends), in the order added.
func (r *Roster) EncounterFoes() []Member {
	var out []Member
	for _, m := range r.Foes {
		if m.Encounter != 0 {
			out = append(out, m)
		}
	}
	return out
}

// FoeNames returns the foes' names in the order added.
func (r *Roster) FoeNames() []string { return memberNames(r.Foes) }

func memberNames(ms []Member) []string {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Name
	}
	return names
}

// Find returns the party member whose name matches, ignoring case and
// surrounding space (Unicode case folding).
func (r *Roster) Find(name string) (Member, bool) {
	return r.members.find(&r.members, &r.Members, name)
}

// FindFoe returns the foe whose name matches, as Find does.
func (r *Roster) FindFoe(name string) (Member, bool) { return r.foes.find(&r.foes, &r.Foes, name) }

// FindAny returns the party member, or else the foe, whose name matches.
func (r *Roster) FindAny(name string) (Member, bool) {
	if m, ok := r.Find(name); ok {
		return m, true
	}
	return r.FindFoe(name)
}

// nameIndex maps the case-folded names of a list of members (foldKey) to
// the first member of each: it finds the first member whose name matches
// (strings.EqualFold of NormalizeName), without reading the whole list.
// It belongs to one roster's list, by its address: a copy of the roster
// shares the pointer but not the list, and builds an index of its own
// when first asked, so that neither's Apply changes the other's.
type nameIndex struct {
	list  *[]Member
	first map[string]int
	// n is how many members of the list it holds.
	n int
}

// find finds name in *list through the index *ix, which it builds afresh
// when there is none, it belongs to another list, or it does not hold the
// whole list (members appended other than by Apply).
func (ix *nameIndex) find(at **nameIndex, list *[]Member, name string) (Member, bool) {
	if ix == nil || ix.list != list || ix.n != len(*list) {
		ix = &nameIndex{list: list, first: make(map[string]int, len(*list))}
		for _, m := range *list {
			ix.add(m)
		}
		*at = ix
	}
	if i, ok := ix.first[foldKey(NormalizeName(name))]; ok {
		return (*list)[i], true
	}
	return Member{}, false
}

// added indexes the last member of *list, when the index is the list's
// own and holds those before it (a nil index is built when first asked).
func (ix *nameIndex) added(list *[]Member) {
	if ix != nil && ix.list == list && ix.n == len(*list)-1 {
		ix.add((*list)[ix.n])
	}
}

// add indexes m as the next member of the list.
func (ix *nameIndex) add(m Member) {
	k := foldKey(m.Name)
	if _, ok := ix.first[k]; !ok {
		ix.first[k] = ix.n
	}
	ix.n++
}

// foldKey returns name with each rune replaced by the least rune it folds
// to (unicode.SimpleFold's orbit): two names have the same key exactly
// when strings.EqualFold holds between them (which also reads each invalid
// byte as U+FFFD, as ranging over the string does).
func foldKey(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	for _, r := range name {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}

// NormalizeName trims a character name and folds runs of white space to one
// space.
func NormalizeName(name string) string { return strings.Join(strings.Fields(name), " ") }

// equalFoldTrim compares two names ignoring case and surrounding or
// repeated white space.
func equalFoldTrim(a, b string) bool { return strings.EqualFold(NormalizeName(a), NormalizeName(b)) }
