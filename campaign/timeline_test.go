package campaign

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/memstore"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// TestTimelineReadsOnlyWhatItTells: the timeline, folded from the events
// it tells (rolls left unread, their seqs looked up), whole or streamed a
// day at a time, is the plain fold of every event of the log.
func TestTimelineReadsOnlyWhatItTells(t *testing.T) {
	st := memstore.New()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := Generate(st, GenerateOptions{Characters: 4, EventsPerCharacter: 400, EventsPerCommand: 30, Seed: 5, Start: start, Edition: rules.Edition2021}); err != nil {
		t.Fatal(err)
	}
	s, err := New(st, Options{VerifyKept: true, Now: func() time.Time { return start }, Actor: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	demo := newCampaign(t, rules.Edition2021)
	if _, err := demo.PlayDemo(); err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*Service{"generated": s, "demo": demo} {
		log, err := s.store.Read(events.Query{})
		if err != nil {
			t.Fatal(err)
		}
		rv, err := s.reverts(0)
		if err != nil {
			t.Fatal(err)
		}
		want, err := projections.FoldTimeline(log, rv.Skip(nil, nil))
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Timeline(0, 0)
		if err != nil {
			t.Fatal(err)
		}
		w, _ := json.Marshal(want)
		if g, _ := json.Marshal(got); string(g) != string(w) {
			t.Fatalf("%s: the timeline\n got %s\nwant %s", name, g, w)
		}
		streamed := projections.Timeline{Periods: []projections.TimelinePeriod{}}
		days := 0
		err = s.TimelineStream(0, func(p projections.TimelinePeriod, d projections.TimelineDay) error {
			days++
			n := len(streamed.Periods)
			if n == 0 || streamed.Periods[n-1].Adventure != p.Adventure {
				streamed.Periods = append(streamed.Periods, p)
				n++
			}
			streamed.Periods[n-1].Days = append(streamed.Periods[n-1].Days, d)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if g, _ := json.Marshal(streamed); string(g) != string(w) {
			t.Fatalf("%s: the timeline streamed\n got %s\nwant %s", name, g, w)
		}
		if days < 3 {
			t.Fatalf("%s: %d days streamed: the test tells too little", name, days)
		}
	}
}
