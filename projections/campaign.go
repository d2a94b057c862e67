package projections

import (
	"fmt"
	"strings"
	"time"

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
	// The adventure events arrive with the game-time issue and only set it.
	InAdventure bool `json:"in_adventure"`
	// Plotwords maps each plotword the party holds (upper-cased) to the seq
	// that acquired it.
	Plotwords map[string]int64 `json:"plotwords"`
	Version   int64            `json:"version"`
}

// BetweenAdventures reports whether the party is between adventures.
func (c *Campaign) BetweenAdventures() bool { return !c.InAdventure }

// PlotwordKey normalises a plotword for comparison.
func PlotwordKey(word string) string { return strings.ToUpper(strings.TrimSpace(word)) }

// Apply folds one event of the campaign stream.
func (c *Campaign) Apply(e events.Event) error {
	p, err := events.Decode(e)
	if err != nil {
		return err
	}
	switch p := p.(type) {
	case *events.CampaignCreated:
		c.Name = p.Name
		c.Edition = rules.Edition(p.Edition)
		c.CreatedAt = e.RecordedAt
		c.Plotwords = map[string]int64{}
	case *events.PlotwordAcquired:
		c.Plotwords[PlotwordKey(p.Word)] = e.Seq
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

// Member is one party member in the roster.
type Member struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Seq  int64  `json:"seq"`
}

// Roster is the party: every character created, in creation order.
type Roster struct {
	Members []Member `json:"members"`
}

// Apply folds a character.created event into the roster; other events are
// ignored.
func (r *Roster) Apply(e events.Event) error {
	if e.Type != events.TypeCharacterCreated {
		return nil
	}
	p, err := events.Decode(e)
	if err != nil {
		return err
	}
	c := p.(*events.CharacterCreated)
	r.Members = append(r.Members, Member{ID: c.CharacterID, Name: c.Name, Seq: e.Seq})
	return nil
}

// Names returns the members' names in creation order.
func (r *Roster) Names() []string {
	names := make([]string, len(r.Members))
	for i, m := range r.Members {
		names[i] = m.Name
	}
	return names
}

// Find returns the member whose name matches, ignoring case and surrounding
// space (Unicode case folding).
func (r *Roster) Find(name string) (Member, bool) {
	name = NormalizeName(name)
	for _, m := range r.Members {
		if strings.EqualFold(m.Name, name) {
			return m, true
		}
	}
	return Member{}, false
}

// NormalizeName trims a character name and folds runs of white space to one
// space.
func NormalizeName(name string) string { return strings.Join(strings.Fields(name), " ") }
