package projections

import (
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/ltscamp/ltscamp/events"
)

// timelineLog is a short campaign: Ajax in adventure 1, hurt in an
// encounter of day 1, rested on day 2, a note between adventures; the
// Space Gull hit; rolls on the dice stream and a contest told in both
// sides' streams; one command undone.
func timelineLog(t *testing.T) []events.Event {
	const ajax, hector, gull = "character/A", "character/H", "ship/G"
	contest := events.ContestResolved{Sides: [2]events.ContestSide{{Name: "Ajax", Attribute: "ST", Target: 12, Total: 13}, {Name: "Hector", Attribute: "ST", Target: 11, Total: 9}},
		Winner: 1, Outcome: "win", Reason: "the door"}
	return logOf(t,
		step{events.CampaignStream, "K1", events.CampaignCreated{Name: "c", Edition: "2021"}},                                                                            // 1
		step{ajax, "K2", events.CharacterCreated{CharacterID: "A", Name: "Ajax"}},                                                                                        // 2
		step{hector, "K3", events.CharacterCreated{CharacterID: "H", Name: "Hector"}},                                                                                    // 3
		step{ajax, "K4", events.XPAwarded{Amount: 2, Reason: "start"}},                                                                                                   // 4: between adventures
		step{events.CampaignStream, "K5", events.AdventureStarted{Number: 1, Title: "The Gull"}},                                                                         // 5
		step{events.CampaignStream, "K6", events.EncounterStarted{Number: 1, Title: "Pirates"}},                                                                          // 6
		step{ajax, "K7", events.RollMade{Character: "Ajax", Expr: "3/DX", Kind: "check", Faces: []int{1, 3, 6}, Total: 10, Target: 11, Outcome: "pass", Reason: "jump"}}, // 7
		step{ajax, "K8", contest},   // 8
		step{hector, "K8", contest}, // 9: the same contest
		step{hector, "K10", events.DamageTaken{Stamp: stampAt(1, 1, 1), Dealt: 3, Damage: 3}},                                                                                // 10
		step{events.DiceStream, "K11", events.RollMade{Expr: "d6", Kind: "dice", Faces: []int{4}, Total: 4}},                                                                 // 11
		step{ajax, "K12", events.RollMade{Character: "Ajax", Expr: "3/DX", Kind: "check", Faces: []int{2, 2, 2}, Total: 6, Target: 11, Outcome: "pass", Rerolls: "Exxxxxx"}}, // 12: re-rolls 7
		step{events.CampaignStream, "K13", events.EncounterEnded{Number: 1, Outcome: "victory"}},                                                                             // 13
		step{gull, "K14", builtShip("G", wrenSpec())},                                                                                                                        // 14
		step{gull, "K15", laserHit(2, 3)}, // 15
		step{events.CampaignStream, "K16", events.DayAdvanced{From: 1, To: 2, Reason: "day next"}}, // 16
		step{hector, "K17", events.DamageHealed{Points: 1, Reason: "rest"}},                        // 17
		step{ajax, "K18", events.XPAwarded{Amount: 5, Reason: "undone"}},                           // 18: undone
		step{events.CommandsStream, "K19", events.CommandReverted{CommandID: "K18"}},               // 19
		step{events.CampaignStream, "K20", events.AdventureEnded{Number: 1}},                       // 20
		step{events.CampaignStream, "K21", events.NoteRecorded{Text: "home"}},                      // 21
		step{"foe/O", "K22", events.FoeAdded{FoeID: "O", Name: "Ork"}},                             // 22
		step{"foe/O", "K23", events.DamageTaken{Damage: 1}},                                        // 23
	)
}

func TestTimelineFold(t *testing.T) {
	log := timelineLog(t)
	skip := func(e events.Event) bool { return e.CommandID == "K18" }
	tl, err := FoldTimeline(log, skip)
	if err != nil {
		t.Fatal(err)
	}
	entry := func(seq int64, kind string, encounter int, character, text string) TimelineEntry {
		return TimelineEntry{Seq: seq, Kind: kind, Encounter: encounter, Character: character, Text: text}
	}
	want := []TimelinePeriod{
		{Adventure: 0, Days: []TimelineDay{{Day: 0, Entries: []TimelineEntry{entry(4, TimelineXP, 0, "Ajax", "Ajax: +2 XP: start")}}}},
		{Adventure: 1, Title: "The Gull", Days: []TimelineDay{
			{Day: 1, Entries: []TimelineEntry{
				entry(5, TimelineAdventure, 0, "", "adventure 1 started: The Gull (day 1)"),
				entry(6, TimelineEncounter, 1, "", "encounter 1 started: Pirates"),
				entry(10, TimelineHurt, 1, "Hector", "Hector: took 3 damage"),
				entry(13, TimelineEncounter, 0, "", "encounter 1 ended: victory"),
				entry(15, TimelineShip, 0, "", "Wren: laser 2 on the forward facing, column 3 (rolled): 0 armour, 0 internal boxes destroyed"),
			}},
			{Day: 2, Entries: []TimelineEntry{
				entry(16, TimelineNewDay, 0, "", "day 1 → day 2 (day next)"),
				entry(17, TimelineHealed, 0, "Hector", "Hector: healed 1 damage (rest)"),
				entry(20, TimelineAdventure, 0, "", "adventure 1 ended"),
			}},
		}},
		{Adventure: 0, Days: []TimelineDay{{Day: 0, Entries: []TimelineEntry{
			entry(21, TimelineNote, 0, "", "note: home"),
			entry(23, TimelineHurt, 0, "Ork", "Ork: took 1 damage"),
		}}}},
	}
	if !reflect.DeepEqual(tl.Periods, want) {
		t.Errorf("timeline:\n got %+v\nwant %+v", tl.Periods, want)
	}
	// Told with the rolls: the rolls of the party and of the dice stream,
	// the contest once, each with what it was for.
	var rolls Timeline
	rolls.TellRolls()
	for _, e := range log {
		if skip(e) {
			continue
		}
		if err := rolls.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	day1 := rolls.Periods[1].Days[0].Entries
	var told []TimelineEntry
	for _, en := range day1 {
		if en.Kind == TimelineRoll || en.Kind == TimelineContest {
			told = append(told, en)
		}
	}
	wantRolls := []TimelineEntry{
		entry(7, TimelineRoll, 1, "Ajax", "Ajax: 3/DX [1,3,6] = 10 vs 11, pass: jump"),
		entry(8, TimelineContest, 1, "Ajax", "contest: Ajax rolled 13 on ST 12, Hector rolled 9 on ST 11: Hector wins: the door"),
		entry(11, TimelineRoll, 1, "", "bare roll: d6 [4] = 4"),
		entry(12, TimelineRoll, 1, "Ajax", "Ajax: 3/DX [2,2,2] = 6 vs 11, pass, re-roll of seq 7"),
	}
	if !reflect.DeepEqual(told, wantRolls) {
		t.Errorf("rolls told:\n got %+v\nwant %+v", told, wantRolls)
	}
	// An empty log is an empty timeline, not none.
	if empty, err := FoldTimeline(nil, nil); err != nil || empty.Periods == nil || len(empty.Periods) != 0 {
		t.Errorf("empty: %+v, %v", empty, err)
	}
}

// TestTimelineStream: a streamed timeline hands each day over once it is
// over, and the last at Finish, holding one day at a time; a timeline
// folded from a later part of the log looks up the seqs of the rolls it
// was not given.
func TestTimelineStream(t *testing.T) {
	log := timelineLog(t)
	skip := func(e events.Event) bool { return e.CommandID == "K18" }
	whole, err := FoldTimeline(log, skip)
	if err != nil {
		t.Fatal(err)
	}
	var got []TimelinePeriod
	var s Timeline
	s.Stream(func(p TimelinePeriod, d TimelineDay) error {
		if len(p.Days) != 0 {
			t.Errorf("a period handed over with its days")
		}
		if n := len(got); n > 0 && got[n-1].Adventure == p.Adventure && got[n-1].Title == p.Title && p.Adventure != 0 {
			got[n-1].Days = append(got[n-1].Days, d)
		} else {
			p.Days = []TimelineDay{d}
			got = append(got, p)
		}
		return nil
	})
	for _, e := range log {
		if !skip(e) {
			if err := s.Apply(e); err != nil {
				t.Fatal(err)
			}
		}
		held := 0
		for _, p := range s.Periods {
			held += len(p.Days)
		}
		if held > 1 {
			t.Fatalf("after event %d the streamed timeline holds %d days", e.Seq, held)
		}
	}
	if err := s.Finish(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, whole.Periods) {
		t.Errorf("streamed:\n got %+v\nwant %+v", got, whole.Periods)
	}
	// A flush that fails stops the fold.
	var failing Timeline
	failing.Stream(func(TimelinePeriod, TimelineDay) error { return errors.New("disk full") })
	var ferr error
	for _, e := range log {
		if ferr = failing.Apply(e); ferr != nil {
			break
		}
	}
	if ferr == nil || ferr.Error() != "disk full" {
		t.Errorf("a failing flush: %v", ferr)
	}
	var none Timeline
	if err := none.Finish(); err != nil {
		t.Errorf("Finish without Stream: %v", err)
	}
	// Folded from seq 12 on, with the clock: the re-roll's roll is found
	// by lookup.
	var part Timeline
	part.TellRolls()
	asked := []string{}
	part.LookUpSeqs(func(id string) (int64, bool) { asked = append(asked, id); return 7, id == log[6].ID })
	for _, e := range log {
		if e.Stream != events.CampaignStream && e.Type != events.TypeCharacterCreated && e.Seq < 12 {
			continue
		}
		if skip(e) {
			continue
		}
		if err := part.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	entries := part.Periods[0].Days[0].Entries
	if !slices.Contains(asked, log[6].ID) || entries[len(entries)-1].Seq != 15 {
		t.Errorf("looked up %q; day 1 %+v", asked, entries)
	}
	found := false
	for _, en := range entries {
		if en.Seq == 12 && en.Text == "Ajax: 3/DX [2,2,2] = 6 vs 11, pass, re-roll of seq 7" {
			found = true
		}
	}
	if !found {
		t.Errorf("the re-roll not told with its roll's seq: %+v", entries)
	}
}

// TestTimelineTypes: the types a timeline folds, sorted, with the builds
// and creations that name its streams; the roll types told with rolls.
func TestTimelineTypes(t *testing.T) {
	types := TimelineTypes()
	if !slices.IsSorted(types) {
		t.Errorf("not sorted: %q", types)
	}
	for _, ty := range []string{events.TypeShipBuilt, events.TypeDetailedShipBuilt, events.TypeCharacterCreated, events.TypeFoeAdded, events.TypeXPAwarded, events.TypeNoteRecorded, events.TypeDetailedTurnEnded} {
		if !slices.Contains(types, ty) {
			t.Errorf("TimelineTypes lacks %s", ty)
		}
	}
	if slices.Contains(types, events.TypeRollMade) || slices.Contains(types, events.TypeCampaignCreated) {
		t.Errorf("TimelineTypes has a roll or the campaign's creation: %q", types)
	}
	if got := TimelineRollTypes(); !slices.Equal(got, []string{events.TypeContestResolved, events.TypeRollMade}) {
		t.Errorf("TimelineRollTypes = %q", got)
	}
	// Events that cannot be read are errors.
	for _, ty := range []string{events.TypeShipBuilt, events.TypeDetailedShipBuilt, events.TypeCharacterCreated, events.TypeFoeAdded, events.TypeXPAwarded} {
		var tl Timeline
		if err := tl.Apply(events.Event{Seq: 3, Stream: "character/A", Type: ty, PayloadVersion: 1, Payload: []byte("{")}); err == nil {
			t.Errorf("%s that is not JSON folded", ty)
		}
	}
	var tl Timeline
	if err := tl.Apply(events.Event{Seq: 3, Stream: events.CampaignStream, Type: events.TypeXPAwarded, PayloadVersion: 1, Payload: []byte("{}")}); err == nil {
		t.Error("an award on the campaign stream folded")
	}
	if _, err := FoldTimeline([]events.Event{{Seq: 3, Stream: events.CampaignStream, Type: events.TypeXPAwarded, PayloadVersion: 1, Payload: []byte("{}")}}, nil); err == nil {
		t.Error("FoldTimeline folded an award on the campaign stream")
	}
}
