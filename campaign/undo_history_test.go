package campaign

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/memstore"
	"github.com/ltscamp/ltscamp/rules"
)

// wholeReads is a store that counts the reads of the whole log (a query
// that selects everything) and the events every read returns.
type wholeReads struct {
	events.Store
	whole, events int
}

func (r *wholeReads) Read(q events.Query) ([]events.Event, error) {
	if reflect.DeepEqual(q, events.Query{}) {
		r.whole++
	}
	evs, err := r.Store.Read(q)
	r.events += len(evs)
	return evs, err
}

// undoTwins are two campaigns played alike: around decides undo and redo
// on the part of the log around the commands named, whole on the whole
// log.
type undoTwins struct {
	around, whole *Service
	reads         *wholeReads
}

func newUndoTwins(t *testing.T) *undoTwins {
	t.Helper()
	open := func(store events.Store, whole bool) *Service {
		s, err := Init(store, "test", rules.Edition2021, Options{VerifyKept: true, Now: fixedClock(), Actor: "gm", Entropy: rand.New(rand.NewSource(7))})
		if err != nil {
			t.Fatal(err)
		}
		s.undoWhole = whole
		return s
	}
	reads := &wholeReads{Store: memstore.New()}
	return &undoTwins{around: open(reads, false), whole: open(memstore.New(), true), reads: reads}
}

// both runs a command on both campaigns, which must answer alike.
func (tw *undoTwins) both(t *testing.T, run func(s *Service) error) error {
	t.Helper()
	errA, errW := run(tw.around), run(tw.whole)
	if fmt.Sprint(errA) != fmt.Sprint(errW) {
		t.Fatalf("around: %v\nwhole log: %v", errA, errW)
	}
	a, _ := tw.reads.Store.Read(events.Query{})
	w, _ := tw.whole.store.Read(events.Query{})
	if len(a) != len(w) || string(a[len(a)-1].Hash) != string(w[len(w)-1].Hash) {
		t.Fatalf("the logs differ: %d events around, %d on the whole log", len(a), len(w))
	}
	return errA
}

// must runs a command on both campaigns; it must succeed.
func (tw *undoTwins) must(t *testing.T, run func(s *Service) error) {
	t.Helper()
	if err := tw.both(t, run); err != nil {
		t.Fatal(err)
	}
}

// undo runs an undo on both, and returns the whole-log reads the around
// campaign made for it.
func (tw *undoTwins) undo(t *testing.T, req UndoRequest) (int, error) {
	t.Helper()
	before := tw.reads.whole
	err := tw.both(t, func(s *Service) error { _, err := s.Undo(req); return err })
	return tw.reads.whole - before, err
}

// TestUndoDecidesOnPartOfTheLog: undos and redos whose later commands
// replay cleanly in the part of the log around them are decided there,
// without reading the whole log, and answer as on the whole log.
func TestUndoDecidesOnPartOfTheLog(t *testing.T) {
	tw := newUndoTwins(t)
	for _, c := range []struct {
		name       string
		st, dx, iq int
	}{{"Ajax", 12, 11, 9}, {"Hector", 11, 12, 9}, {"Brann", 10, 11, 11}} {
		tw.must(t, func(s *Service) error {
			_, err := s.CreateCharacter(NewCharacter{Name: c.name, Attributes: rules.Attributes{ST: c.st, DX: c.dx, IQ: c.iq}})
			return err
		})
	}
	roll := func(who string, faces ...int) func(s *Service) error {
		return func(s *Service) error {
			_, err := s.Roll(RollRequest{Expr: "3/DX", Character: who, Faces: faces})
			return err
		}
	}
	tw.must(t, func(s *Service) error { _, err := s.AwardXP([]string{"Ajax"}, 20, "the map"); return err })
	award := undoLast(t, tw.around)
	tw.must(t, roll("Brann", 1, 2, 3))
	brann := undoLast(t, tw.around)
	tw.must(t, roll("Hector", 2, 2, 2))
	tw.must(t, func(s *Service) error {
		_, err := s.SpendXP(Spend{Character: "Ajax", Target: "ST", Levels: 1})
		return err
	})
	tw.must(t, roll("Ajax", 3, 3, 3))
	// Brann's roll: later commands of other characters replay cleanly
	// without it.
	n, err := tw.undo(t, UndoRequest{Target: fmt.Sprint(brann.Seq)})
	if err != nil || n != 0 {
		t.Fatalf("undo of Brann's roll: %v, %d reads of the whole log", err, n)
	}
	undoBrann := undoLast(t, tw.around)
	// The award: the spend depends on it.
	n, err = tw.undo(t, UndoRequest{Target: award.CommandID})
	if rules.CodeOf(err) != rules.CodeRule || !strings.Contains(err.Error(), "xp.spent") || n != 0 {
		t.Fatalf("undo of the award: %v, %d reads of the whole log", err, n)
	}
	n, err = tw.undo(t, UndoRequest{Target: award.CommandID, Cascade: true})
	if err != nil || n != 0 {
		t.Fatalf("undo --cascade of the award: %v, %d reads of the whole log", err, n)
	}
	undoAward := undoLast(t, tw.around)
	// Undo of an undo, and redo.
	n, err = tw.undo(t, UndoRequest{Target: undoBrann.CommandID})
	if err != nil || n != 0 {
		t.Fatalf("undo of the undo of Brann's roll: %v, %d reads of the whole log", err, n)
	}
	before := tw.reads.whole
	tw.must(t, func(s *Service) error { _, err := s.Redo(RedoRequest{Target: award.CommandID}); return err })
	tw.must(t, func(s *Service) error { _, err := s.Redo(RedoRequest{}); return err })
	if n := tw.reads.whole - before; n != 0 {
		t.Fatalf("the redos read the whole log %d times", n)
	}
	n, err = tw.undo(t, UndoRequest{Target: undoAward.CommandID})
	if rules.CodeOf(err) != rules.CodeRule || !strings.Contains(err.Error(), "no longer holds") || n != 0 {
		t.Fatalf("undo of the undo of the award: %v, %d reads of the whole log", err, n)
	}
}

// TestUndoOfAnUndoReadsAroundIt: in a long log, undoing an undo near its
// end reads the part of the log from the command it restores on, not the
// whole log.
func TestUndoOfAnUndoReadsAroundIt(t *testing.T) {
	tw := newUndoTwins(t)
	s := tw.around
	mustCreate(t, s, "Ajax", 12, 11, 9)
	mustCreate(t, s, "Hector", 11, 12, 9)
	for i := range 120 {
		if _, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Hector", Faces: []int{1 + i%6, 2, 3}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.AwardXP([]string{"Ajax"}, 20, "the map"); err != nil {
		t.Fatal(err)
	}
	undo, err := s.Undo(UndoRequest{})
	if err != nil {
		t.Fatal(err)
	}
	size := count(t, s)
	tw.reads.whole, tw.reads.events = 0, 0
	res, err := s.Undo(UndoRequest{Target: undo.Event.CommandID})
	if err != nil || len(res.Restored) != 1 {
		t.Fatalf("undo of the undo: %+v, %v", res, err)
	}
	if tw.reads.whole != 0 || tw.reads.events > int(size)/2 {
		t.Fatalf("the undo of the undo read the whole log %d times, %d events of %d", tw.reads.whole, tw.reads.events, size)
	}
}

// TestUndoFallsBackToTheWholeLog: a later command that reads an event
// outside the part of the log around the command undone (a counterattack
// answers an attack on another stream) cannot be replayed there, so the
// undo is decided on the whole log, and answers as it does there.
func TestUndoFallsBackToTheWholeLog(t *testing.T) {
	tw, strike, brann, counter := counterTwins(t)
	// Brann's roll is undone on the whole log.
	n, err := tw.undo(t, UndoRequest{Target: fmt.Sprint(brann.Seq)})
	if err != nil || n != 1 {
		t.Fatalf("undo of Brann's roll: %v, %d reads of the whole log, want 1", err, n)
	}
	// The strike cannot go while the counterattack answers it.
	_, err = tw.undo(t, UndoRequest{Target: fmt.Sprint(strike.Seq)})
	if rules.CodeOf(err) != rules.CodeRule || !strings.Contains(err.Error(), counter.CommandID) {
		t.Fatalf("undo of the strike: %v", err)
	}
	// The counterattack, the latest command, is decided around it.
	n, err = tw.undo(t, UndoRequest{})
	if err != nil || n != 0 {
		t.Fatalf("undo of the counterattack: %v, %d reads of the whole log", err, n)
	}
}

// counterTwins plays, on twin campaigns, Ajax's strike on the foe Hector,
// a roll of Brann's, and Hector's counterattack on Ajax, which misses: it
// answers the strike, on Ajax's stream, and leaves no event there. It
// returns the last event of each.
func counterTwins(t *testing.T) (tw *undoTwins, strike, brann, counter events.Event) {
	t.Helper()
	tw = newUndoTwins(t)
	for _, name := range []string{"Ajax", "Brann"} {
		tw.must(t, func(s *Service) error {
			_, err := s.CreateCharacter(NewCharacter{Name: name, Attributes: rules.Attributes{ST: 12, DX: 11, IQ: 9}})
			return err
		})
	}
	tw.must(t, func(s *Service) error {
		_, err := s.AddFoe(NewFoe{Name: "Hector", Attributes: rules.Attributes{ST: 11, DX: 12, IQ: 10}})
		return err
	})
	tw.must(t, func(s *Service) error { _, err := s.AdventureStart("Troy"); return err })
	tw.must(t, func(s *Service) error { _, err := s.EncounterStart("The walls"); return err })
	tw.must(t, func(s *Service) error { _, err := s.Initiative(InitiativeRequest{Faces: []int{5, 2}}); return err })
	tw.must(t, func(s *Service) error {
		_, err := s.Attack(AttackRequest{Attacker: "Ajax", Target: "Hector", HitFaces: []int{4, 4, 3}, DamageFaces: []int{1}})
		return err
	})
	strike = undoLast(t, tw.around)
	tw.must(t, undoBrannRolls)
	brann = undoLast(t, tw.around)
	tw.must(t, func(s *Service) error {
		_, err := s.Attack(AttackRequest{Attacker: "Hector", Target: "Ajax", Counter: true, HitFaces: []int{6, 6, 6}, DamageFaces: []int{1}})
		return err
	})
	counter = undoLast(t, tw.around)
	strikes, _ := tw.reads.Store.Read(events.Query{CommandIDs: []string{strike.CommandID}, Limit: 1})
	counters, _ := tw.reads.Store.Read(events.Query{CommandIDs: []string{counter.CommandID}})
	for _, e := range counters {
		if e.Stream == strikes[0].Stream {
			t.Fatalf("the counterattack has %s on Ajax's stream", e.Type)
		}
	}
	return tw, strike, brann, counter
}

// undoBrannRolls is a roll of Brann's.
func undoBrannRolls(s *Service) error {
	_, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Brann", Faces: []int{1, 2, 3}})
	return err
}

// TestRedoOfACommandThatReadsOutsideThePart: the counterattack undone,
// then a roll of Brann's: redo of the counterattack must answer as on the
// whole log, where the strike it answers is in effect, and the redo holds.
//
// Around the counterattack, the strike on Ajax's stream is not read; the
// counterattack put back breaks the rules on that part, so the redo is
// decided on the whole log.
func TestRedoOfACommandThatReadsOutsideThePart(t *testing.T) {
	tw, _, _, counter := counterTwins(t)
	if _, err := tw.undo(t, UndoRequest{}); err != nil {
		t.Fatal(err)
	}
	tw.must(t, undoBrannRolls)
	tw.must(t, func(s *Service) error { _, err := s.Redo(RedoRequest{Target: counter.CommandID}); return err })
}

// TestUndoBlamesOnlyWhatItBreaks: a command that breaks the rules already
// (a spend entered twice by hand) is not listed as made invalid by an
// undo that does not touch it, on part of the log or on the whole.
func TestUndoBlamesOnlyWhatItBreaks(t *testing.T) {
	for _, whole := range []bool{false, true} {
		s := newCampaign(t, rules.Edition2021)
		s.undoWhole = whole
		mustCreate(t, s, "Ajax", 12, 11, 9)
		if _, err := s.AwardXP([]string{"Ajax"}, 40, "the map"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Roll(RollRequest{Expr: "d6", Faces: []int{2}}); err != nil {
			t.Fatal(err)
		}
		bare := undoLast(t, s)
		if _, err := s.SpendXP(Spend{Character: "Ajax", Target: "ST", Levels: 1}); err != nil {
			t.Fatal(err)
		}
		spend := undoLast(t, s)
		// The same spend again, appended by hand: ST is 13 by then.
		if _, err := s.store.Append(events.Command{ID: "01K000000000000000000DUPL1", Actor: "gm", RecordedAt: time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC),
			Expected: map[string]int64{spend.Stream: events.AnyVersion},
			Events:   []events.Pending{{ID: "01K000000000000000000DUPL2", Stream: spend.Stream, Type: spend.Type, PayloadVersion: spend.PayloadVersion, Payload: spend.Payload}}}); err != nil {
			t.Fatal(err)
		}
		if rep, err := s.Verify(); err != nil || len(rep.Violations) != 1 || rep.Violations[0].CommandID != "01K000000000000000000DUPL1" {
			t.Fatalf("whole %v: verify %+v, %v; want the spend entered by hand", whole, rep.Violations, err)
		}
		res, err := s.Undo(UndoRequest{Target: fmt.Sprint(bare.Seq)})
		if err != nil || len(res.Reverted) != 1 || res.Reverted[0].ID != bare.CommandID {
			t.Fatalf("whole %v: undo of the bare roll: %+v, %v", whole, res.Reverted, err)
		}
		// The first spend is made invalid by the award's undo; the one
		// entered by hand was invalid before, and is not named.
		before := count(t, s)
		_, err = s.Undo(UndoRequest{Target: "3"})
		undoRefused(t, s, err, before, rules.CodeRule, spend.CommandID)
		if strings.Contains(err.Error(), "DUPL1") {
			t.Fatalf("whole %v: the refusal blames the spend entered by hand: %v", whole, err)
		}
	}
}

// TestUndoOfAShipHit: a ship's hit, one event, is reported as one event,
// though ship streams are read by prefix as well as by name.
func TestUndoOfAShipHit(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	if _, err := s.ShipNew("Kit-Kat", "C1, E1, O1, L1, d6/1, M+1", ""); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := s.ShipHit(ShipHitRequest{Ship: "Kit-Kat", Damage: 1, Inflict: -1, Source: "pirates"}); err != nil {
			t.Fatal(err)
		}
	}
	hit := undoLast(t, s)
	if !strings.HasPrefix(hit.Stream, events.ShipStreamPrefix) {
		t.Fatalf("the hit is on %s", hit.Stream)
	}
	res, err := s.Undo(UndoRequest{Reason: "missed"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Reverted) != 1 || res.Reverted[0].ID != hit.CommandID || res.Reverted[0].Events != 1 || res.Reverted[0].LastSeq != hit.Seq || strings.Contains(res.Reverted[0].Summary, "(+") {
		t.Fatalf("reverted %+v", res.Reverted)
	}
	// The first hit, with the second undone, goes too.
	res, err = s.Undo(UndoRequest{Target: fmt.Sprint(hit.Seq - 1)})
	if err != nil || len(res.Reverted) != 1 || res.Reverted[0].Events != 1 {
		t.Fatalf("undo of the first hit: %+v, %v", res.Reverted, err)
	}
}
