package exports

import (
	"bytes"
	"testing"

	"github.com/ltscamp/ltscamp/projections"
)

// TestTimelineJSONStreamsWriteJSON: the document written a day at a time
// is the one WriteJSON writes of the whole timeline, byte for byte: no
// days, one, several periods, text that JSON would escape as HTML.
func TestTimelineJSONStreamsWriteJSON(t *testing.T) {
	entry := func(seq int64, text string) projections.TimelineEntry {
		return projections.TimelineEntry{Seq: seq, Kind: projections.TimelineXP, Character: "Ajax", Text: text}
	}
	for name, tl := range map[string]projections.Timeline{
		"empty": {Periods: []projections.TimelinePeriod{}},
		"one day": {Periods: []projections.TimelinePeriod{
			{Adventure: 0, Days: []projections.TimelineDay{{Day: 0, Entries: []projections.TimelineEntry{entry(3, "+20 XP")}}}},
		}},
		"periods and days": {Periods: []projections.TimelinePeriod{
			{Adventure: 0, Days: []projections.TimelineDay{{Day: 0, Entries: []projections.TimelineEntry{entry(3, "+20 XP: <the envoy> & co")}}}},
			{Adventure: 1, Title: "The Kit-Kat run", Days: []projections.TimelineDay{
				{Day: 1, Entries: []projections.TimelineEntry{entry(5, "a"), {Seq: 6, Kind: projections.TimelineEncounter, Encounter: 1, Text: "pirates"}}},
				{Day: 2, Entries: []projections.TimelineEntry{entry(9, "b")}},
				{Day: 1, Entries: []projections.TimelineEntry{entry(12, "a re-roll told on its day")}},
			}},
			{Adventure: 0, Days: []projections.TimelineDay{{Day: 0, Entries: []projections.TimelineEntry{entry(20, "c")}}}},
			{Adventure: 2, Title: "Next", Days: []projections.TimelineDay{{Day: 1, Entries: []projections.TimelineEntry{}}}},
		}},
	} {
		var want, got bytes.Buffer
		if err := WriteJSON(&want, tl); err != nil {
			t.Fatal(err)
		}
		w := NewTimelineJSON(&got)
		for _, p := range tl.Periods {
			for _, d := range p.Days {
				if err := w.Day(p, d); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s: streamed\n%s\nwant\n%s", name, got.String(), want.String())
		}
	}
}
