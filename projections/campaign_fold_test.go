package projections

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// The campaign clock and the roster, given events, expect this state.

// streamCreatedAt is when stream records its first event.
var streamCreatedAt = time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)

func TestCampaignFoldClock(t *testing.T) {
	created := events.CampaignCreated{Name: "Kit-Kat crew", Edition: "2020"}
	base := func() Campaign {
		return Campaign{Name: "Kit-Kat crew", Edition: rules.Edition2020, CreatedAt: streamCreatedAt, Plotwords: map[string]int64{}}
	}
	tests := []struct {
		name   string
		events []events.Payload
		want   func(c *Campaign)
		now    events.GameTime
	}{
		{
			name: "created: between adventures",
			want: func(c *Campaign) {},
		},
		{
			name:   "plotwords, keyed upper-cased and trimmed, by the seq that acquired them",
			events: []events.Payload{events.PlotwordAcquired{Word: " kitkat "}, events.NoteRecorded{Text: "n"}, events.PlotwordAcquired{Word: "Gull"}},
			want:   func(c *Campaign) { c.Plotwords = map[string]int64{"KITKAT": 2, "GULL": 4} },
		},
		{
			name:   "an adventure starts on day 1, outside any encounter",
			events: []events.Payload{events.AdventureStarted{Number: 1, Title: "The Gull"}},
			want: func(c *Campaign) {
				c.InAdventure, c.Adventure, c.AdventureTitle, c.Day = true, 1, "The Gull", 1
			},
			now: events.GameTime{Adventure: 1, Day: 1},
		},
		{
			name:   "days advance; an encounter is under way",
			events: []events.Payload{events.AdventureStarted{Number: 1, Title: "The Gull"}, events.DayAdvanced{From: 1, To: 2, Reason: "day next"}, events.DayAdvanced{From: 2, To: 4, Reason: "rest"}, events.EncounterStarted{Number: 1, Title: "Pirates"}},
			want: func(c *Campaign) {
				c.InAdventure, c.Adventure, c.AdventureTitle, c.Day = true, 1, "The Gull", 4
				c.Encounter, c.EncounterTitle, c.InEncounter = 1, "Pirates", true
			},
			now: events.GameTime{Adventure: 1, Day: 4, Encounter: 1},
		},
		{
			name: "an encounter ended: its number stays, the time leaves it",
			events: []events.Payload{events.AdventureStarted{Number: 1, Title: "The Gull"}, events.EncounterStarted{Number: 1, Title: "Pirates"},
				events.EncounterEnded{Number: 1, Outcome: "victory", Contributors: []string{"A"}}, events.PartySlept{}},
			want: func(c *Campaign) {
				c.InAdventure, c.Adventure, c.AdventureTitle, c.Day = true, 1, "The Gull", 1
				c.Encounter, c.EncounterTitle = 1, "Pirates"
			},
			now: events.GameTime{Adventure: 1, Day: 1},
		},
		{
			name: "an adventure ended in an encounter: between adventures, the numbers kept",
			events: []events.Payload{events.AdventureStarted{Number: 1, Title: "The Gull"}, events.DayAdvanced{From: 1, To: 3},
				events.EncounterStarted{Number: 2, Title: "Pirates"}, events.AdventureEnded{Number: 1}},
			want: func(c *Campaign) {
				c.Adventure, c.AdventureTitle, c.Encounter, c.EncounterTitle = 1, "The Gull", 2, "Pirates"
			},
		},
		{
			name: "the next adventure starts afresh: day 1, no encounter",
			events: []events.Payload{events.AdventureStarted{Number: 1, Title: "The Gull"}, events.DayAdvanced{From: 1, To: 3},
				events.EncounterStarted{Number: 2, Title: "Pirates"}, events.AdventureEnded{Number: 1}, events.AdventureStarted{Number: 2, Title: "The Tern"}},
			want: func(c *Campaign) {
				c.InAdventure, c.Adventure, c.AdventureTitle, c.Day = true, 2, "The Tern", 1
			},
			now: events.GameTime{Adventure: 2, Day: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := FoldCampaign(stream(t, append([]events.Payload{created}, tt.events...)...))
			if err != nil {
				t.Fatal(err)
			}
			want := base()
			want.Version = int64(len(tt.events) + 1)
			tt.want(&want)
			if !reflect.DeepEqual(c, want) {
				t.Errorf("campaign:\n got %+v\nwant %+v", c, want)
			}
			if got := c.Now(); got != tt.now {
				t.Errorf("Now = %+v, want %+v", got, tt.now)
			}
			if c.BetweenAdventures() == c.InAdventure {
				t.Errorf("BetweenAdventures = %t with InAdventure %t", c.BetweenAdventures(), c.InAdventure)
			}
		})
	}
}

// TestCampaignFoldErrors: a payload that cannot be read and an event of
// another stream are errors, and leave the campaign's version; a stream
// without campaign.created folds to an error.
func TestCampaignFoldErrors(t *testing.T) {
	good := stream(t, events.CampaignCreated{Name: "n", Edition: "2021"}, events.DayAdvanced{To: 2})
	for _, b := range []struct {
		name string
		e    events.Event
		want string
	}{
		{"not JSON", events.Event{Seq: 3, StreamVersion: 3, Type: events.TypeDayAdvanced, PayloadVersion: 1, Payload: []byte("{")}, "event 3: decode day.advanced"},
		{"an unknown type", events.Event{Seq: 3, StreamVersion: 3, Type: "day.lost", PayloadVersion: 1, Payload: []byte("{}")}, `event 3: unknown type "day.lost"`},
		{"a character's event", stream(t, ajaxCreated(), ajaxCreated(), events.XPAwarded{Amount: 1})[2], "event 3: xp.awarded does not belong on the campaign stream"},
	} {
		var c Campaign
		for _, e := range good {
			if err := c.Apply(e); err != nil {
				t.Fatal(err)
			}
		}
		if err := c.Apply(b.e); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: err = %v, want %q", b.name, err, b.want)
		}
		if c.Version != 2 || c.Day != 2 {
			t.Errorf("%s: the refused event moved the campaign on: %+v", b.name, c)
		}
		if got, err := FoldCampaign(append(good[:2:2], b.e)); err == nil || !reflect.DeepEqual(got, Campaign{}) {
			t.Errorf("%s: FoldCampaign = %+v, %v", b.name, got, err)
		}
	}
	if _, err := FoldCampaign(nil); err == nil || !strings.Contains(err.Error(), "no campaign.created") {
		t.Errorf("FoldCampaign(nil) = %v", err)
	}
}

// TestCampaignFoldOutOfOrder: a campaign stream whose first event is not
// campaign.created is not a campaign: FoldCampaign says so with an error.
//
// verify (World.apply) refuses such a log before it folds it; FoldCampaign
// says so too.
func TestCampaignFoldOutOfOrder(t *testing.T) {
	for _, first := range []events.Payload{events.AdventureStarted{Number: 1}, events.PlotwordAcquired{Word: "KITKAT"}} {
		t.Run(first.EventType(), func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("FoldCampaign panicked: %v", r)
				}
			}()
			if c, err := FoldCampaign(stream(t, first)); err == nil {
				t.Errorf("FoldCampaign([%s]) = %+v with no error", first.EventType(), c)
			}
		})
	}
}

// rosterOf folds a log into a roster.
func rosterOf(t *testing.T, log []events.Event) Roster {
	t.Helper()
	var r Roster
	for _, e := range log {
		if err := r.Apply(e); err != nil {
			t.Fatalf("Apply(event %d): %v", e.Seq, err)
		}
	}
	return r
}

func TestRosterFold(t *testing.T) {
	log := logOf(t,
		step{events.CampaignStream, "K0", events.CampaignCreated{Name: "n", Edition: "2021"}},
		step{events.CharacterStream("A"), "K1", events.CharacterCreated{CharacterID: "A", Name: "Ajax"}},
		step{events.FoeStream("O"), "K2", events.FoeAdded{FoeID: "O", Name: "Ork", Encounter: 1}},
		step{events.CharacterStream("A"), "K3", events.XPAwarded{Amount: 1}},
		step{events.FoeStream("G"), "K4", events.FoeAdded{FoeID: "G", Name: "Guard"}},
		step{events.FoeStream("P"), "K5", events.FoeAdded{FoeID: "P", Name: "Pirate", Encounter: 2}},
		step{events.CharacterStream("H"), "K6", events.CharacterCreated{CharacterID: "H", Name: "Hector"}},
		step{events.FoeStream("O"), "K7", events.FoeRemoved{Reason: "killed"}},
		step{events.FoeStream("Z"), "K8", events.FoeRemoved{Reason: "never added"}},
	)
	r := rosterOf(t, log)
	want := Roster{
		Members: []Member{{ID: "A", Name: "Ajax", Seq: 2}, {ID: "H", Name: "Hector", Seq: 7}},
		Foes:    []Member{{ID: "G", Name: "Guard", Seq: 5, Foe: true}, {ID: "P", Name: "Pirate", Seq: 6, Foe: true, Encounter: 2}},
		Left:    []Member{{ID: "O", Name: "Ork", Seq: 3, Foe: true, Encounter: 1}},
	}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("roster:\n got %+v\nwant %+v", r, want)
	}
	if got := r.Names(); !reflect.DeepEqual(got, []string{"Ajax", "Hector"}) {
		t.Errorf("Names = %q", got)
	}
	if got := r.FoeNames(); !reflect.DeepEqual(got, []string{"Guard", "Pirate"}) {
		t.Errorf("FoeNames = %q", got)
	}
	if got := r.EncounterFoes(); !reflect.DeepEqual(got, []Member{{ID: "P", Name: "Pirate", Seq: 6, Foe: true, Encounter: 2}}) {
		t.Errorf("EncounterFoes = %+v", got)
	}
	for _, c := range []struct {
		find   func(string) (Member, bool)
		name   string
		wantID string
	}{
		{r.Find, "hector", "H"}, {r.Find, "Guard", ""}, {r.Find, "Ork", ""},
		{r.FindFoe, "GUARD", "G"}, {r.FindFoe, "ajax", ""}, {r.FindFoe, "ork", ""}, {r.FindFoe, "pirate ", "P"},
		{r.FindAny, "ajax", "A"}, {r.FindAny, "pirate", "P"}, {r.FindAny, "nobody", ""},
	} {
		m, ok := c.find(c.name)
		if ok != (c.wantID != "") || m.ID != c.wantID {
			t.Errorf("find %q = %+v, %t; want %q", c.name, m, ok, c.wantID)
		}
	}
	if s := (Member{ID: "A"}).Stream(); s != "character/A" {
		t.Errorf("a member's stream %q", s)
	}
	if s := (Member{ID: "G", Foe: true}).Stream(); s != "foe/G" {
		t.Errorf("a foe's stream %q", s)
	}
	// Removing the first, then the last foe.
	more := logOf(t, append(stepsOf(log),
		step{events.FoeStream("G"), "K9", events.FoeRemoved{}},
		step{events.FoeStream("P"), "K10", events.FoeRemoved{}})...)
	r = rosterOf(t, more)
	if len(r.Foes) != 0 || len(r.Left) != 3 || r.Left[1].ID != "G" || r.Left[2].ID != "P" {
		t.Errorf("all foes removed: foes %+v, left %+v", r.Foes, r.Left)
	}
	if _, ok := r.FindFoe("guard"); ok {
		t.Error("FindFoe found a foe who left")
	}
}

// TestRosterFindKeepsUp: Find answers from an index built when first
// asked and kept up by Apply: members added after it are found, and a
// foe removed from the middle leaves the ones after it found.
func TestRosterFindKeepsUp(t *testing.T) {
	var r Roster
	if _, ok := r.Find("ajax"); ok {
		t.Fatal("Find in an empty roster")
	}
	names := []string{"Ajax", "Hector", "Zoë", "ajax"}
	var steps []step
	for i, n := range names {
		id := string(rune('A' + i))
		steps = append(steps, step{events.CharacterStream(id), "K" + id, events.CharacterCreated{CharacterID: id, Name: n}},
			step{events.FoeStream("F" + id), "F" + id, events.FoeAdded{FoeID: "F" + id, Name: "Foe " + n}})
	}
	log := logOf(t, steps...)
	for i, e := range log {
		if err := r.Apply(e); err != nil {
			t.Fatal(err)
		}
		// Ask after each, so that the index is kept up rather than built.
		for j := 0; j <= i/2; j++ {
			want := string(rune('A' + j))
			if j == 3 {
				want = "A" // the first of two names that fold together
			}
			if m, ok := r.Find(strings.ToUpper(names[j])); !ok || m.ID != want {
				t.Errorf("after event %d: Find(%q) = %+v, %t; want %s", i+1, names[j], m, ok, want)
			}
		}
	}
	removed := logOf(t, append(steps, step{events.FoeStream("FB"), "R", events.FoeRemoved{}})...)
	if err := r.Apply(removed[len(removed)-1]); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"Foe Ajax", "Foe Zoë"} {
		if _, ok := r.FindFoe(n); !ok {
			t.Errorf("FindFoe(%q) missed after a foe before it left", n)
		}
	}
	if _, ok := r.FindFoe("foe hector"); ok {
		t.Error("FindFoe found the foe who left")
	}
}

// TestRosterFindsMembersAppendedApart: Members and Foes are exported; a
// member appended to either other than by Apply, after the index was
// built, is found all the same.
func TestRosterFindsMembersAppendedApart(t *testing.T) {
	var r Roster
	r.Members = []Member{{ID: "A", Name: "Ajax"}}
	r.Foes = []Member{{ID: "O", Name: "Ork", Foe: true}}
	if _, ok := r.Find("ajax"); !ok {
		t.Fatal("Find(ajax) missed")
	}
	if _, ok := r.FindFoe("ork"); !ok {
		t.Fatal("FindFoe(ork) missed")
	}
	r.Members = append(r.Members, Member{ID: "H", Name: "Hector"})
	r.Foes = append(r.Foes, Member{ID: "G", Name: "Guard", Foe: true})
	if m, ok := r.Find("HECTOR"); !ok || m.ID != "H" {
		t.Errorf("Find(HECTOR) = %+v, %t after Hector was appended", m, ok)
	}
	if m, ok := r.FindFoe("guard"); !ok || m.ID != "G" {
		t.Errorf("FindFoe(guard) = %+v, %t after the guard was appended", m, ok)
	}
}

// TestRosterApplyKeepsItsIndex: a roster import checks every new name
// against thousands, so Apply adds each new member to the index Find
// built instead of leaving Find to build it again.
func TestRosterApplyKeepsItsIndex(t *testing.T) {
	log := logOf(t,
		step{events.CharacterStream("A"), "K1", events.CharacterCreated{CharacterID: "A", Name: "Ajax"}},
		step{events.FoeStream("O"), "K2", events.FoeAdded{FoeID: "O", Name: "Ork"}},
		step{events.CharacterStream("H"), "K3", events.CharacterCreated{CharacterID: "H", Name: "Hector"}},
		step{events.FoeStream("G"), "K4", events.FoeAdded{FoeID: "G", Name: "Guard"}},
	)
	r := rosterOf(t, log[:2])
	r.Find("ajax")
	r.FindFoe("ork")
	members, foes := r.members, r.foes
	for _, e := range log[2:] {
		if err := r.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	if m, ok := r.Find("hector"); !ok || m.ID != "H" || r.members != members || r.members.n != 2 {
		t.Errorf("Find(hector) = %+v, %t; the index was built again (%t) or holds %d members", m, ok, r.members != members, r.members.n)
	}
	if m, ok := r.FindFoe("guard"); !ok || m.ID != "G" || r.foes != foes || r.foes.n != 2 {
		t.Errorf("FindFoe(guard) = %+v, %t; the index was built again (%t) or holds %d foes", m, ok, r.foes != foes, r.foes.n)
	}
}

// TestRosterFoldErrors: a creation or a foe that cannot be read is an
// error; other events are not read at all.
func TestRosterFoldErrors(t *testing.T) {
	for _, ty := range []string{events.TypeCharacterCreated, events.TypeFoeAdded} {
		var r Roster
		if err := r.Apply(events.Event{Seq: 4, Type: ty, PayloadVersion: 1, Payload: []byte("not json")}); err == nil || !strings.Contains(err.Error(), "event 4: decode "+ty) {
			t.Errorf("%s: err = %v", ty, err)
		}
		if len(r.Members)+len(r.Foes) != 0 {
			t.Errorf("%s: a bad payload joined the roster: %+v", ty, r)
		}
	}
	var r Roster
	for _, ty := range []string{events.TypeFoeRemoved, events.TypeXPAwarded, "no.such.type"} {
		if err := r.Apply(events.Event{Seq: 4, Stream: "foe/X", Type: ty, PayloadVersion: 1, Payload: []byte("not json")}); err != nil {
			t.Errorf("%s: err = %v", ty, err)
		}
	}
}

// TestRosterCopiesFindApart: two copies of a roster, each folding a new
// member of its own, each find their own members.
//
// A copy shares the original's name index pointer; the index belongs to
// the list it was built for, so each builds its own.
func TestRosterCopiesFindApart(t *testing.T) {
	log := logOf(t,
		step{events.CharacterStream("A"), "K1", events.CharacterCreated{CharacterID: "A", Name: "Ajax"}},
		step{events.CharacterStream("C"), "K2", events.CharacterCreated{CharacterID: "C", Name: "Cyd"}},
		step{events.CharacterStream("D"), "K3", events.CharacterCreated{CharacterID: "D", Name: "Dan"}},
	)
	r := rosterOf(t, log[:1])
	if _, ok := r.Find("ajax"); !ok { // builds the index
		t.Fatal("Find(ajax) missed")
	}
	c := r
	c.Members = append([]Member(nil), r.Members...)
	if err := c.Apply(log[1]); err != nil {
		t.Fatal(err)
	}
	if err := r.Apply(log[2]); err != nil {
		t.Fatal(err)
	}
	if m, ok := r.Find("Dan"); !ok || m.ID != "D" {
		t.Errorf("the original's Find(Dan) = %+v, %t; its members are %q", m, ok, r.Names())
	}
	if m, ok := c.Find("Cyd"); !ok || m.ID != "C" {
		t.Errorf("the copy's Find(Cyd) = %+v, %t; its members are %q", m, ok, c.Names())
	}
	if _, ok := r.Find("Cyd"); ok {
		t.Errorf("the original found the copy's member")
	}
}

// TestRosterCopiesFold: a copy of a roster folds on apart from it, and
// the original folds on as well: each finds the members both had.
func TestRosterCopiesFold(t *testing.T) {
	log := logOf(t,
		step{events.CharacterStream("A"), "K1", events.CharacterCreated{CharacterID: "A", Name: "Ajax"}},
		step{events.CharacterStream("C"), "K2", events.CharacterCreated{CharacterID: "C", Name: "Cyd"}},
		step{events.CharacterStream("E"), "K3", events.CharacterCreated{CharacterID: "E", Name: "Eve"}},
		step{events.CharacterStream("D"), "K4", events.CharacterCreated{CharacterID: "D", Name: "Dan"}},
	)
	for _, copyFolds := range []int{1, 2} {
		r := rosterOf(t, log[:1])
		if _, ok := r.Find("ajax"); !ok { // builds the index
			t.Fatal("Find(ajax) missed")
		}
		c := r
		c.Members = slices.Clone(r.Members)
		for _, e := range log[1 : 1+copyFolds] {
			if err := c.Apply(e); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.Apply(log[3]); err != nil {
			t.Fatal(err)
		}
		if m, ok := r.Find("AJAX"); !ok || m.ID != "A" || len(r.Members) != 2 {
			t.Errorf("the original after the copy folded %d: Find(ajax) = %+v, %t; members %q", copyFolds, m, ok, r.Names())
		}
		if m, ok := c.Find("cyd"); !ok || m.ID != "C" {
			t.Errorf("the copy's Find(cyd) = %+v, %t", m, ok)
		}
	}
}
