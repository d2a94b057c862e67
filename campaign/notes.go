package campaign

import (
	"strings"
	"unicode/utf8"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// MaxNoteLen is the longest session note, in characters: a paragraph of
// the story, not a chapter.
const MaxNoteLen = rules.MaxNoteLength

// Note records a line of the story (note.recorded) on the campaign stream,
// stamped with the game time the campaign has reached. It returns the event
// and the campaign as it stands.
func (s *Service) Note(text string) (events.Event, projections.Campaign, error) {
	text = strings.Join(strings.Fields(text), " ")
	var camp projections.Campaign
	res, err := s.execute(func(d *decision) error {
		switch n := utf8.RuneCountInString(text); {
		case n == 0:
			return rules.Errorf(rules.CodeInvalid, "the note is empty: write what happened, e.g. ltscamp note \"the envoy lied about the cargo\"")
		case n > MaxNoteLen:
			return rules.Errorf(rules.CodeInvalid, "the note is %d characters long; a note holds at most %d (record a long account as several notes)", n, MaxNoteLen)
		}
		if err := rules.CheckNote(text); err != nil {
			return err
		}
		c, err := d.campaignState()
		if err != nil {
			return err
		}
		camp = *c
		return d.emit(events.CampaignStream, events.NoteRecorded{Text: text})
	})
	if err != nil {
		return events.Event{}, projections.Campaign{}, err
	}
	return res.Events[0], camp, nil
}
