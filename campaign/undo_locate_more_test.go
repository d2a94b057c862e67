package campaign

import (
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// undoActor opens s's store again as another actor.
func undoActor(t *testing.T, s *Service, actor string) *Service {
	t.Helper()
	o, err := New(s.store, Options{Now: fixedClock(), Actor: actor, Entropy: rand.New(rand.NewSource(int64(len(actor))))})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// undoBareRolls makes n bare rolls, one command each.
func undoBareRolls(t *testing.T, s *Service, n int) {
	t.Helper()
	for i := range n {
		if _, err := s.Roll(RollRequest{Expr: "d6", Faces: []int{1 + i%6}}); err != nil {
			t.Fatal(err)
		}
	}
}

// lastReads is a store that counts the events the search for the latest
// command reads (the queries for the last events up to a seq).
type lastReads struct {
	events.Store
	events int
}

func (r *lastReads) Read(q events.Query) ([]events.Event, error) {
	evs, err := r.Store.Read(q)
	if q.Last && q.Limit > 0 {
		r.events += len(evs)
	}
	return evs, err
}

// TestUndoTargetResolvesEachKindOfRef: a seq, a command ID and an event ID
// (any case, spaces around) all name the command; UndoTarget describes it
// and appends nothing.
func TestUndoTargetResolvesEachKindOfRef(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	mustCreate(t, s, "Hector", 11, 12, 9)
	if _, err := s.AwardXP([]string{"Ajax", "Hector"}, 5, "the map"); err != nil {
		t.Fatal(err)
	}
	evs, err := s.store.Read(events.Query{TypePrefix: "xp."})
	if err != nil || len(evs) != 2 || evs[0].CommandID != evs[1].CommandID {
		t.Fatalf("the award's events: %+v, %v", evs, err)
	}
	if _, err := s.Roll(RollRequest{Expr: "d6", Faces: []int{6}}); err != nil {
		t.Fatal(err)
	}
	cmd := evs[0].CommandID
	before := count(t, s)
	for _, ref := range []string{
		fmt.Sprint(evs[0].Seq), fmt.Sprintf(" %d\n", evs[1].Seq),
		cmd, strings.ToLower(cmd), " " + cmd + " ",
		evs[0].ID, strings.ToLower(evs[1].ID),
	} {
		c, err := s.UndoTarget(ref)
		if err != nil {
			t.Fatalf("%q: %v", ref, err)
		}
		if c.ID != cmd || c.FirstSeq != evs[0].Seq || c.LastSeq != evs[1].Seq || c.Events != 2 || c.Actor != "gm" || !strings.HasSuffix(c.Summary, " (+1 more event)") {
			t.Errorf("%q names %+v, want the award %s", ref, c, cmd)
		}
	}
	if n := count(t, s); n != before {
		t.Fatalf("UndoTarget appended %d events", n-before)
	}
	// No ref: the latest command, the roll.
	c, err := s.UndoTarget(" ")
	if err != nil || c.FirstSeq != before || c.Events != 1 || strings.Contains(c.Summary, "(+") {
		t.Fatalf("the latest command: %+v, %v", c, err)
	}
	// An undo by event ID takes back the whole command.
	res, err := s.Undo(UndoRequest{Target: evs[1].ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Reverted) != 1 || res.Reverted[0].ID != cmd {
		t.Fatalf("undo by event ID reverted %+v", res.Reverted)
	}
}

// TestUndoRefusesRefsToNothing: a seq outside the log, a seq below 1, an
// unknown ID: not found, and nothing appended.
func TestUndoRefusesRefsToNothing(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	if _, err := s.Roll(RollRequest{Expr: "d6", Faces: []int{6}}); err != nil {
		t.Fatal(err)
	}
	last := undoLast(t, s)
	before := count(t, s)
	for _, ref := range []string{fmt.Sprint(last.Seq + 1), "0", "-1", "-3", "01ARZ3NDEKTSV4RRFFQ69G5FAV", "ajax"} {
		_, err := s.Undo(UndoRequest{Target: ref, Cascade: true})
		undoRefused(t, s, err, before, rules.CodeNotFound, "no ")
		if _, err := s.UndoTarget(ref); rules.CodeOf(err) != rules.CodeNotFound {
			t.Errorf("UndoTarget(%q): %v", ref, err)
		}
	}
	_, err := s.Undo(UndoRequest{Target: "0"})
	undoRefused(t, s, err, before, rules.CodeNotFound, "no event at seq 0")
	_, err = s.Undo(UndoRequest{Target: "ajax"})
	undoRefused(t, s, err, before, rules.CodeNotFound, `no command or event with id "ajax"`)
}

// TestUndoLatestIsTheActorsOwn: a bare undo takes the actor's latest
// command in effect, passing over undos, commands already undone and
// other actors' commands; with none of his left it names the latest
// command in effect, another's, and appends nothing.
func TestUndoLatestIsTheActorsOwn(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	bob := undoActor(t, s, "bob")
	mustCreate(t, s, "Ajax", 12, 11, 9)
	ajax := undoLast(t, s)
	if _, err := s.Roll(RollRequest{Expr: "d6", Faces: []int{1}}); err != nil {
		t.Fatal(err)
	}
	gmRoll := undoLast(t, s)
	undoBareRolls(t, bob, 2)
	bobRoll := undoLast(t, s)
	res, err := s.Undo(UndoRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Reverted) != 1 || res.Reverted[0].ID != gmRoll.CommandID {
		t.Fatalf("gm's undo took %+v, want his roll", res.Reverted)
	}
	// Next: past the undo, bob's rolls and the roll undone, Ajax.
	c, err := s.UndoTarget("")
	if err != nil || c.ID != ajax.CommandID {
		t.Fatalf("gm's next undo would take %+v, %v; want Ajax's creation", c, err)
	}
	// Bob's own latest is his second roll.
	c, err = bob.UndoTarget("")
	if err != nil || c.ID != bobRoll.CommandID || c.Actor != "bob" {
		t.Fatalf("bob's undo would take %+v, %v", c, err)
	}
	// Carol has nothing: she is told of bob's latest roll, by seq.
	carol := undoActor(t, s, "carol")
	before := count(t, s)
	_, err = carol.Undo(UndoRequest{})
	want := fmt.Sprintf("nothing of carol's to undo; the latest command in effect is bob's, seq %d (bare roll: d6 [2] = 2): name it to undo it, `ltscamp undo %d`", bobRoll.Seq, bobRoll.Seq)
	undoRefused(t, s, err, before, rules.CodeNotFound, want)
	if _, err := carol.UndoTarget(""); rules.CodeOf(err) != rules.CodeNotFound || err.Error() != want {
		t.Fatalf("carol's undo target: %v", err)
	}
	// Named, bob's roll is carol's to undo.
	res, err = carol.Undo(UndoRequest{Target: fmt.Sprint(bobRoll.Seq)})
	if err != nil || len(res.Reverted) != 1 || res.Reverted[0].ID != bobRoll.CommandID {
		t.Fatalf("carol's undo of bob's roll: %+v, %v", res.Reverted, err)
	}
	// With Ajax's creation undone too, gm has nothing left but the
	// campaign's creation, which the search stops at, and the latest in
	// effect is bob's first roll.
	if _, err := s.Undo(UndoRequest{}); err != nil {
		t.Fatal(err)
	}
	before = count(t, s)
	_, err = s.Undo(UndoRequest{})
	undoRefused(t, s, err, before, rules.CodeNotFound, fmt.Sprintf("nothing of gm's to undo; the latest command in effect is bob's, seq %d ", bobRoll.Seq-1))
}

// TestUndoNothingButTheCreation: in a campaign with nothing but its
// creation, a bare undo finds nothing, says so, and appends nothing.
func TestUndoNothingButTheCreation(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	for _, o := range []*Service{s, undoActor(t, s, "bob")} {
		before := count(t, s)
		_, err := o.Undo(UndoRequest{})
		undoRefused(t, s, err, before, rules.CodeNotFound, "nothing to undo: no command is in effect but the campaign's creation")
	}
}

// TestUndoLatestReadsBackInBatches: the search for the latest command reads
// the log backwards a batch at a time, each event once, and finds a
// command at a batch's edge: first in the last batch, then alone in the
// batch before it.
func TestUndoLatestReadsBackInBatches(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	if _, err := s.Roll(RollRequest{Expr: "d6", Faces: []int{3}}); err != nil {
		t.Fatal(err)
	}
	mine := undoLast(t, s)
	if mine.Seq != 2 {
		t.Fatalf("gm's roll at seq %d", mine.Seq)
	}
	bob := undoActor(t, s, "bob")
	undoBareRolls(t, bob, backBatch-1)
	for _, n := range []int64{backBatch + 1, backBatch + 2} {
		if n == backBatch+2 {
			undoBareRolls(t, bob, 1)
		}
		if got := count(t, s); got != n {
			t.Fatalf("%d events, want %d", got, n)
		}
		lr := &lastReads{Store: s.store}
		gm := *s
		gm.store = lr
		c, err := gm.UndoTarget("")
		if err != nil || c.ID != mine.CommandID || c.FirstSeq != 2 {
			t.Fatalf("%d events: the undo target %+v, %v; want gm's roll at seq 2", n, c, err)
		}
		// Each event once, back to gm's roll: all but the creation in
		// one batch, then the batch before it.
		if want := map[int64]int{backBatch + 1: backBatch, backBatch + 2: backBatch + 2}[n]; lr.events != want {
			t.Errorf("%d events: the search read %d events, want %d", n, lr.events, want)
		}
	}
	res, err := s.Undo(UndoRequest{})
	if err != nil || len(res.Reverted) != 1 || res.Reverted[0].ID != mine.CommandID {
		t.Fatalf("undo: %+v, %v", res.Reverted, err)
	}
	// Bob, who made the latest, finds his at once.
	c, err := bob.UndoTarget("")
	if err != nil || c.FirstSeq != backBatch+2 {
		t.Fatalf("bob's undo target %+v, %v", c, err)
	}
	// Nothing of gm's is left: the search reads back to the creation.
	before := count(t, s)
	_, err = s.Undo(UndoRequest{})
	undoRefused(t, s, err, before, rules.CodeNotFound, fmt.Sprintf("nothing of gm's to undo; the latest command in effect is bob's, seq %d ", backBatch+2))
}

// failingCommandReads is a store whose reads of one command's events fail.
type failingCommandReads struct {
	events.Store
	command string
}

var errUndoMedium = errors.New("the medium failed")

func (f *failingCommandReads) Read(q events.Query) ([]events.Event, error) {
	if len(q.CommandIDs) == 1 && q.CommandIDs[0] == f.command {
		return nil, errUndoMedium
	}
	return f.Store.Read(q)
}

// TestUndoAndRedoReportAFailingStore: when the log cannot be read while
// undo or redo looks at the command named, the error comes back (no
// panic) and nothing is appended.
func TestUndoAndRedoReportAFailingStore(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	if _, err := s.Roll(RollRequest{Expr: "d6", Faces: []int{4}}); err != nil {
		t.Fatal(err)
	}
	roll := undoLast(t, s)
	undo, err := s.Undo(UndoRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, command string
		run           func(s *Service) error
	}{
		{"redo of the roll", roll.CommandID, func(s *Service) error {
			_, err := s.Redo(RedoRequest{Target: fmt.Sprint(roll.Seq)})
			return err
		}},
		{"undo of the undo", undo.Event.CommandID, func(s *Service) error {
			_, err := s.Undo(UndoRequest{Target: fmt.Sprint(undo.Event.Seq)})
			return err
		}},
		{"undo target", undo.Event.CommandID, func(s *Service) error {
			_, err := s.UndoTarget(fmt.Sprint(undo.Event.Seq))
			return err
		}},
	} {
		before := count(t, s)
		broken := *s
		broken.store = &failingCommandReads{Store: s.store, command: c.command}
		if err := c.run(&broken); !errors.Is(err, errUndoMedium) {
			t.Errorf("%s: %v, want the store's error", c.name, err)
		}
		if n := count(t, s); n != before {
			t.Fatalf("%s: appended %d events", c.name, n-before)
		}
	}
}
