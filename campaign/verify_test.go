package campaign

import (
	"bytes"
	"encoding/json"
	"fmt"
	"iter"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/memstore"
	"github.com/ltscamp/ltscamp/rules"
)

// verifyCampaign is a small 2021 campaign: Ajax earns 20 XP and raises ST.
func verifyCampaign(t *testing.T) *Service {
	t.Helper()
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	mustCreate(t, s, "Hector", 11, 12, 9)
	if _, err := s.AwardXP([]string{"Ajax"}, 20, "start"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SpendXP(Spend{Character: "Ajax", Target: "ST", Levels: 1}); err != nil {
		t.Fatal(err)
	}
	return s
}

func mustVerify(t *testing.T, s *Service) VerifyReport {
	t.Helper()
	rep, err := s.Verify()
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// appendRaw appends one hand-made event, bypassing the rules, as a faulty
// program or a hand editor would.
func appendRaw(t *testing.T, s *Service, stream string, p events.Payload) events.Event {
	t.Helper()
	return appendRawCommand(t, s, nil, rawEvent{stream, p})[0]
}

// rawEvent is one event of a hand-made command.
type rawEvent struct {
	stream string
	p      events.Payload
}

// appendRawCommand appends hand-made events as one command, stamped with
// the game time at (nil: none), bypassing the rules, and returns them.
func appendRawCommand(t *testing.T, s *Service, at *events.GameTime, evs ...rawEvent) []events.Event {
	t.Helper()
	cmd := events.Command{Actor: "mallory", RecordedAt: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), Expected: map[string]int64{}}
	for _, r := range evs {
		id := s.newID()
		if cmd.ID == "" {
			cmd.ID = "cmd-" + id
		}
		pe, err := events.Encode(id, r.stream, r.p, at)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Events = append(cmd.Events, pe)
		cmd.Expected[r.stream] = events.AnyVersion
	}
	res, err := s.store.Append(cmd)
	if err != nil {
		t.Fatal(err)
	}
	return res.Events
}

func TestVerifyCleanCampaign(t *testing.T) {
	s := verifyCampaign(t)
	rep := mustVerify(t, s)
	if !rep.OK || !rep.Chain.OK || len(rep.Violations) != 0 || rep.Events != 5 || rep.HeadSeq != 5 || rep.Edition != rules.Edition2021 {
		t.Fatalf("report %+v", rep)
	}
	if len(rep.Ledgers) != 2 {
		t.Fatalf("ledgers %+v", rep.Ledgers)
	}
	if l := rep.Ledgers[0]; l.Character != "Ajax" || l.Earned != 20 || l.Spent != 18 || l.Unspent != 2 || !l.OK {
		t.Errorf("Ajax %+v", l)
	}
	if l := rep.Ledgers[1]; l.Character != "Hector" || l.Earned != 0 || !l.OK {
		t.Errorf("Hector %+v", l)
	}

	// The demo, with its contest, karma re-roll and plotword, holds too.
	d := newCampaign(t, rules.Edition2021)
	if _, err := d.PlayDemo(); err != nil {
		t.Fatal(err)
	}
	if rep := mustVerify(t, d); !rep.OK {
		t.Fatalf("the demo fails verification: %+v", rep)
	}
}

// TestVerifyNamesAHandMadeSpend appends an xp.spent at a price the rules
// never gave: the chain is intact (the store sealed it), the replay names it.
func TestVerifyNamesAHandMadeSpend(t *testing.T) {
	s := verifyCampaign(t)
	ajax, err := s.Sheet("Ajax")
	if err != nil {
		t.Fatal(err)
	}
	bad := appendRaw(t, s, events.CharacterStream(ajax.ID), events.XPSpent{On: "attribute", Attribute: "DX", From: 11, To: 12, Price: 1, Formula: "a friend's price", Edition: "2021"})
	rep := mustVerify(t, s)
	if rep.OK || !rep.Chain.OK {
		t.Fatalf("report %+v", rep)
	}
	if len(rep.Violations) != 1 {
		t.Fatalf("violations %+v", rep.Violations)
	}
	v := rep.Violations[0]
	want := "DX 11→12 recorded at 1 XP (a friend's price); edition 2021 prices it 17 XP (current level + 6 = 11 + 6)"
	if v.Seq != bad.Seq || v.EventID != bad.ID || v.Type != events.TypeXPSpent || v.Problem != want {
		t.Errorf("violation %+v, want seq %d: %s", v, bad.Seq, want)
	}
	// Ajax has 1 XP left by the ledger: it balances, only the rules see it.
	if l := rep.Ledgers[0]; !l.OK || l.Unspent != 1 {
		t.Errorf("Ajax %+v", l)
	}
}

// TestVerifyLedgerBelowZero appends a spend beyond the balance: the replay
// and the ledger both name it.
func TestVerifyLedgerBelowZero(t *testing.T) {
	s := verifyCampaign(t)
	ajax, _ := s.Sheet("Ajax")
	bad := appendRaw(t, s, events.CharacterStream(ajax.ID), events.XPSpent{On: "attribute", Attribute: "ST", From: 13, To: 14, Price: 19, Formula: "current level + 6 = 13 + 6", Edition: "2021"})
	rep := mustVerify(t, s)
	if rep.OK || len(rep.Violations) != 1 || rep.Violations[0].Seq != bad.Seq {
		t.Fatalf("report %+v", rep)
	}
	l := rep.Ledgers[0]
	if l.OK || l.Seq != bad.Seq || l.Unspent != -17 || !strings.Contains(l.Problem, "the balance goes to -17 XP at seq 6") {
		t.Errorf("Ajax %+v", l)
	}
}

// TestVerifyUndoAndRedo checks the undo and redo events: a valid undo takes
// its command out of the replay and the ledger; an undo or a redo naming a
// command it cannot is reported.
func TestVerifyUndoAndRedo(t *testing.T) {
	s := verifyCampaign(t)
	log, err := s.store.Read(events.Query{})
	if err != nil {
		t.Fatal(err)
	}
	created, spend := log[0], log[4]
	appendRaw(t, s, events.CommandsStream, events.CommandReverted{CommandID: spend.CommandID, Reason: "misread the price"})
	rep := mustVerify(t, s)
	if !rep.OK || rep.RevertedCommands != 1 {
		t.Fatalf("a valid undo: report %+v", rep)
	}
	if l := rep.Ledgers[0]; l.Spent != 0 || l.Unspent != 20 {
		t.Errorf("Ajax after the undo %+v", l)
	}

	bad := []struct {
		p    events.Payload
		want string
	}{
		{events.CommandReverted{CommandID: spend.CommandID}, fmt.Sprintf("undoes command %s (seq 5), already undone at seq 6", spend.CommandID)},
		{events.CommandReverted{CommandID: "01NOSUCHCOMMAND"}, `names command "01NOSUCHCOMMAND", which is not earlier in the log`},
		{events.CommandReverted{CommandID: created.CommandID}, "undoes the campaign's creation (seq 1), which cannot be undone"},
		{events.CommandRestored{CommandIDs: []string{log[3].CommandID}}, fmt.Sprintf("redoes command %s (seq 4), which was in effect", log[3].CommandID)},
		{events.CommandRestored{}, "a redo that restores no command"},
		{events.XPAwarded{Amount: 5, Reason: "misfiled"}, "xp.awarded does not belong on the commands stream"},
	}
	for _, b := range bad {
		e := appendRaw(t, s, events.CommandsStream, b.p)
		rep := mustVerify(t, s)
		found := false
		for _, v := range rep.Violations {
			found = found || (v.Seq == e.Seq && v.Problem == b.want)
		}
		if rep.OK || !found {
			t.Errorf("%s at seq %d: want %q, got %+v", e.Type, e.Seq, b.want, rep.Violations)
		}
	}
	// An undo of an undo names a command that is itself an undo.
	all, _ := s.store.Read(events.Query{Streams: []string{events.CommandsStream}})
	e := appendRaw(t, s, events.CommandsStream, events.CommandReverted{CommandID: all[0].CommandID})
	rep = mustVerify(t, s)
	want := fmt.Sprintf("names command %s (seq %d), itself an undo or a redo", all[0].CommandID, all[0].Seq)
	if v := rep.Violations[len(rep.Violations)-1]; v.Seq != e.Seq || v.Problem != want {
		t.Errorf("last violation %+v, want seq %d: %s", v, e.Seq, want)
	}
}

// TestCheckChain breaks a good chain in each way and checks the break is
// named at the right seq.
func TestCheckChain(t *testing.T) {
	s := verifyCampaign(t)
	good, err := s.store.Read(events.Query{})
	if err != nil {
		t.Fatal(err)
	}
	clone := func() []events.Event {
		out := make([]events.Event, len(good))
		copy(out, good)
		return out
	}
	tests := []struct {
		name    string
		log     func() []events.Event
		seq     int64
		kind    string
		problem string
	}{
		{"intact", clone, 0, "", ""},
		{"payload changed", func() []events.Event {
			l := clone()
			l[3].Payload = []byte(`{"amount":200,"reason":"start"}`)
			return l
		}, 4, ChainHash, "seq 4: hash mismatch: the event was changed after it was written"},
		{"row deleted", func() []events.Event {
			l := clone()
			return append(l[:2], l[3:]...)
		}, 3, ChainGap, "seq 3 missing: the log jumps from 2 to 4"},
		{"rows deleted", func() []events.Event {
			l := clone()
			return append(l[:1], l[4:]...)
		}, 2, ChainGap, "seqs 2–4 missing: the log jumps from 1 to 5"},
		{"first rows deleted", func() []events.Event { return clone()[2:] }, 1, ChainGap, "seqs 1–2 missing: the log starts at seq 3"},
		{"changed and rehashed alone", func() []events.Event {
			l := clone()
			l[2].Actor = "mallory"
			l[2].Hash = events.ComputeHash(l[2].PrevHash, l[2])
			return l
		}, 4, ChainPrevHash, "seq 4: prev_hash is not the hash of seq 3: seq 3 was changed and rehashed, or seq 4's prev_hash was edited"},
		{"genesis", func() []events.Event {
			l := clone()
			l[0].PrevHash = l[1].Hash
			return l
		}, 1, ChainGenesis, "seq 1: prev_hash is not the genesis hash (32 zero bytes): the start of the log was rewritten"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := checkChain(tt.log(), nil)
			if c.OK != (tt.seq == 0) || c.Seq != tt.seq || c.Kind != tt.kind || c.Problem != tt.problem {
				t.Errorf("got %+v\nwant seq %d %s: %s", c, tt.seq, tt.kind, tt.problem)
			}
		})
	}
}

// badRowStore fails every Read whose result would include one of its bad
// seqs, as the SQLite store does on a row it cannot decode.
type badRowStore struct {
	events.Store
	bad map[int64]bool
}

func (b badRowStore) Read(q events.Query) ([]events.Event, error) {
	evs, err := b.Store.Read(q)
	if err != nil {
		return nil, err
	}
	for _, e := range evs {
		if b.bad[e.Seq] {
			return nil, fmt.Errorf("read events: event %d: hash: not hex", e.Seq)
		}
	}
	return evs, nil
}

// Iter fails at the first bad row, as the SQLite store's does.
func (b badRowStore) Iter(q events.Query) iter.Seq2[events.Event, error] {
	return func(yield func(events.Event, error) bool) {
		for e, err := range b.Store.Iter(q) {
			if err == nil && b.bad[e.Seq] {
				err = fmt.Errorf("read events: event %d: hash: not hex", e.Seq)
			}
			if !yield(e, err) || err != nil {
				return
			}
		}
	}
}

// TestVerifyReadsAroundUnreadableRows checks that rows the store cannot
// decode are named by seq and the rest of the log is still checked.
func TestVerifyReadsAroundUnreadableRows(t *testing.T) {
	s := verifyCampaign(t)
	for _, bad := range []map[int64]bool{{2: true}, {2: true, 3: true}, {1: true, 5: true}, {5: true}} {
		t.Run(fmt.Sprint(bad), func(t *testing.T) {
			v := &Service{store: badRowStore{Store: s.store, bad: bad}}
			rep := mustVerify(t, v)
			if rep.OK || rep.Chain.OK || rep.Chain.Kind != ChainUnreadable || len(rep.Chain.Unreadable) != len(bad) || rep.Events != 5-len(bad) {
				t.Fatalf("report %+v", rep)
			}
			for _, u := range rep.Chain.Unreadable {
				if !bad[u.Seq] || u.Problem != "hash: not hex" {
					t.Errorf("unreadable %+v", u)
				}
			}
			first := int64(5)
			for seq := range bad {
				first = min(first, seq)
			}
			if want := fmt.Sprintf("seq %d cannot be read: hash: not hex", first); rep.Chain.Seq != first || rep.Chain.Problem != want {
				t.Errorf("chain %+v, want %s", rep.Chain, want)
			}
		})
	}
}

// TestVerifyEnvelopes checks what only a broken store could write: a
// command split by another, and stream versions out of order.
func TestVerifyEnvelopes(t *testing.T) {
	s := verifyCampaign(t)
	log, err := s.store.Read(events.Query{})
	if err != nil {
		t.Fatal(err)
	}
	split := make([]events.Event, len(log))
	copy(split, log)
	split[4].CommandID = split[2].CommandID // the spend joins Hector's creation
	split[4].StreamVersion = 7
	got := checkEnvelopes(split)
	var problems []string
	for _, v := range got {
		problems = append(problems, fmt.Sprintf("%d: %s", v.Seq, v.Problem))
	}
	want := []string{
		fmt.Sprintf("5: stream %s jumps from version 2 to 7 (an event of the stream is missing)", log[4].Stream),
		fmt.Sprintf("5: command %s resumes after other commands: its events must be consecutive (it began at seq 3)", log[2].CommandID),
	}
	if strings.Join(problems, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
}

// TestVerifyGeneratedCampaign checks that the generator's campaigns, which
// the benchmarks use, are valid logs.
func TestVerifyGeneratedCampaign(t *testing.T) {
	st := memstore.New()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := Generate(st, GenerateOptions{Characters: 5, EventsPerCharacter: 200, EventsPerCommand: 50, Seed: 7, Start: start, Edition: rules.Edition2021}); err != nil {
		t.Fatal(err)
	}
	s, err := New(st, Options{VerifyKept: true, Now: func() time.Time { return start }, Actor: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	rep := mustVerify(t, s)
	if !rep.OK || len(rep.Ledgers) != 5 {
		t.Fatalf("chain %+v, %d violations (first %+v), ledgers %+v", rep.Chain, len(rep.Violations), rep.Violations[:min(1, len(rep.Violations))], rep.Ledgers)
	}
	// The log resembles a played one: every kind of event the generator
	// mixes in is there.
	evs, err := st.Read(events.Query{})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, e := range evs {
		kinds[e.Type]++
	}
	for _, k := range []string{events.TypeRollMade, events.TypeXPAwarded, events.TypeXPSpent, events.TypeKarmaGranted, events.TypeDamageTaken,
		events.TypeDamageHealed, events.TypeRestTaken, events.TypeAdventureStarted, events.TypeDayAdvanced, events.TypeCommandReverted} {
		if kinds[k] == 0 {
			t.Errorf("the generated log has no %s: %v", k, kinds)
		}
	}
	// The same seed gives the same log.
	again := memstore.New()
	if _, err := Generate(again, GenerateOptions{Characters: 5, EventsPerCharacter: 200, EventsPerCommand: 50, Seed: 7, Start: start, Edition: rules.Edition2021}); err != nil {
		t.Fatal(err)
	}
	seq1, head1, _ := st.Head()
	seq2, head2, _ := again.Head()
	if seq1 != seq2 || !bytes.Equal(head1, head2) {
		t.Errorf("two runs with seed 7 end at seq %d %x and seq %d %x", seq1, head1, seq2, head2)
	}
}

// BenchmarkVerify verifies the generated campaign of 100,001 events (see
// benchFile) from its file, as `ltscamp verify` does, and reports the
// events verified a second. `ltscamp verify` on a campaign of a million
// events, timed as a whole process, is in bench/long-campaign.sh.
func BenchmarkVerify(b *testing.B) {
	if testing.Short() {
		b.Skip("a long benchmark: it writes a campaign of 100,001 events first")
	}
	path := benchFile(b)
	verified := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rep, err := VerifyFile(path, Options{VerifyKept: true, Now: time.Now, Actor: "bench"}, VerifyOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if !rep.OK {
			b.Fatalf("the generated campaign fails verification: %+v", rep.Chain)
		}
		verified += rep.Events
	}
	b.ReportMetric(float64(verified)/b.Elapsed().Seconds(), "events/s")
}

// TestVerifyStorytellerKarma: a story gives its teller's level in karma,
// once. 2020, 2021 "Storyteller": "distribute one karma point per
// Storytelling level to the party".
func TestVerifyStorytellerKarma(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Cass", 8, 14, 10, "Storyteller:1")
	mustCreate(t, s, "Hector", 11, 12, 9)
	if _, err := s.AdventureStart("stories"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Storytell("Cass", []int{1, 2, 3}, []string{"Hector", "Hector"}); rules.CodeOf(err) != rules.CodeInvalid {
		t.Fatalf("two points from Storyteller 1: %v, want refused", err)
	}
	res, err := s.Storytell("Cass", []int{1, 2, 3}, []string{"hector"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Karma != 1 || len(res.Members) != 1 || res.Members[0] != "Hector" || res.Amounts[0] != 1 {
		t.Fatalf("story result %+v", res)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("a fair story fails verification: %+v", rep.Violations)
	}
	roll, err := s.store.Read(events.Query{TypePrefix: events.TypeRollMade})
	if err != nil || len(roll) != 1 {
		t.Fatalf("rolls %v, %v", roll, err)
	}
	sheets, _ := s.Sheets()
	forged := appendRaw(t, s, events.CharacterStream(sheets[1].ID), events.KarmaGranted{Amount: 1, Reason: "Cass's storytelling", ExpiresAtDayEnd: true, StorytellerID: sheets[0].ID, RollID: roll[0].ID})
	rep := mustVerify(t, s)
	if rep.OK || len(rep.Violations) != 1 || rep.Violations[0].Seq != forged.Seq || !strings.Contains(rep.Violations[0].Problem, "whose karma was given by its own command") {
		t.Fatalf("a second grant for one story: %+v", rep.Violations)
	}
}

// The timeline of one day, folded from that day's events after the clock
// and the names before it, is the whole timeline's day, entry for entry.
func TestDayTimelineMatchesWholeFold(t *testing.T) {
	st := memstore.New()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := Generate(st, GenerateOptions{Characters: 4, EventsPerCharacter: 220, EventsPerCommand: 30, Seed: 3, Start: start, Edition: rules.Edition2021}); err != nil {
		t.Fatal(err)
	}
	s, err := New(st, Options{VerifyKept: true, Now: func() time.Time { return start }, Actor: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	head, _, err := st.Head()
	if err != nil {
		t.Fatal(err)
	}
	for day := 1; day <= 5; day++ {
		fast, err := s.TimelineAsOf(1, day, "")
		if err != nil {
			t.Fatalf("day %d: %v", day, err)
		}
		whole, err := s.TimelineAsOf(1, day, strconv.FormatInt(head, 10))
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(fast)
		b, _ := json.Marshal(whole)
		if !bytes.Equal(a, b) || len(fast.Periods) != 1 || len(fast.Periods[0].Days[0].Entries) == 0 {
			t.Fatalf("day %d differs:\n fast %s\nwhole %s", day, a, b)
		}
	}
}
