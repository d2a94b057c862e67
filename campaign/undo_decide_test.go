package campaign

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// undoLast returns the log's last event.
func undoLast(t *testing.T, s *Service) events.Event {
	t.Helper()
	evs, err := s.store.Read(events.Query{Limit: 1, Last: true})
	if err != nil || len(evs) != 1 {
		t.Fatalf("the last event: %v, %v", evs, err)
	}
	return evs[0]
}

// undoRefused checks that err is a refusal with the given code that says
// want, and that it appended nothing (the log still has before events).
func undoRefused(t *testing.T, s *Service, err error, before int64, code rules.Code, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("allowed; want a refusal (%s) saying %q", code, want)
	}
	if rules.CodeOf(err) != code || !strings.Contains(err.Error(), want) {
		t.Fatalf("refused with %v (%s); want %s saying %q", err, rules.CodeOf(err), code, want)
	}
	if n := count(t, s); n != before {
		t.Fatalf("the refusal appended %d events", n-before)
	}
}

// undoPayload decodes an undo or a redo event.
func undoPayload(t *testing.T, e events.Event) events.Payload {
	t.Helper()
	p, err := events.Decode(e)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// undoIDs lists the IDs of the commands an undo or a redo reports.
func undoIDs(cs []CommandInfo) []string {
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = c.ID
	}
	return ids
}

// TestUndoReportsTheCommandItTakesBack: the result names each command
// taken back by its ID, seqs, event count and summary, and the event
// appended names the target and the reason, trimmed.
func TestUndoReportsTheCommandItTakesBack(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	mustCreate(t, s, "Hector", 11, 12, 9)
	mustCreate(t, s, "Brann", 10, 11, 11)
	cases := []struct {
		name    string
		run     func() error
		events  int
		summary string // how the summary ends
	}{
		{"one event", func() error {
			_, err := s.Roll(RollRequest{Expr: "d6", Faces: []int{4}})
			return err
		}, 1, "[4] = 4"},
		{"two events", func() error {
			_, err := s.AwardXP([]string{"Ajax", "Hector"}, 5, "the map")
			return err
		}, 2, " (+1 more event)"},
		{"three events", func() error {
			_, err := s.AwardXP([]string{"Ajax", "Hector", "Brann"}, 5, "the gate")
			return err
		}, 3, " (+2 more events)"},
	}
	for _, c := range cases {
		if err := c.run(); err != nil {
			t.Fatal(err)
		}
		last := undoLast(t, s)
		first := last.Seq - int64(c.events) + 1
		res, err := s.Undo(UndoRequest{Reason: "  table talk \n"})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(res.Reverted) != 1 {
			t.Fatalf("%s: reverted %+v", c.name, res.Reverted)
		}
		got := res.Reverted[0]
		if got.ID != last.CommandID || got.FirstSeq != first || got.LastSeq != last.Seq || got.Events != c.events || got.Actor != "gm" || got.Problem != "" {
			t.Errorf("%s: reverted %+v, want %s, seqs %d–%d, %d events, by gm", c.name, got, last.CommandID, first, last.Seq, c.events)
		}
		if !strings.HasSuffix(got.Summary, c.summary) || strings.Count(got.Summary, "(+") != strings.Count(c.summary, "(+") {
			t.Errorf("%s: summary %q, want it to end %q", c.name, got.Summary, c.summary)
		}
		e := res.Event
		if e.Type != events.TypeCommandReverted || e.Stream != events.CommandsStream || e.Seq != last.Seq+1 {
			t.Fatalf("%s: appended %s on %s at seq %d", c.name, e.Type, e.Stream, e.Seq)
		}
		p, ok := undoPayload(t, e).(*events.CommandReverted)
		if !ok || p.CommandID != last.CommandID || len(p.Cascade) != 0 || p.Reason != "table talk" {
			t.Errorf("%s: the undo event %+v", c.name, p)
		}
	}
}

// TestUndoRefusesWhatItCannotTakeBack: the campaign's creation, and a
// command already undone (with the undo's reason, when it gave one), are
// refused as rule errors that append nothing.
func TestUndoRefusesWhatItCannotTakeBack(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	created := undoLast(t, s)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	for _, ref := range []string{"1", created.CommandID, strings.ToLower(created.ID)} {
		before := count(t, s)
		_, err := s.Undo(UndoRequest{Target: ref, Cascade: true})
		undoRefused(t, s, err, before, rules.CodeRule, "the campaign's creation cannot be undone")
	}
	for _, reason := range []string{"wrong dice", ""} {
		if _, err := s.Roll(RollRequest{Expr: "d6", Faces: []int{2}}); err != nil {
			t.Fatal(err)
		}
		roll := undoLast(t, s)
		undo, err := s.Undo(UndoRequest{Reason: reason})
		if err != nil {
			t.Fatal(err)
		}
		before := count(t, s)
		_, err = s.Undo(UndoRequest{Target: fmt.Sprint(roll.Seq)})
		why := ""
		if reason != "" {
			why = " (" + reason + ")"
		}
		want := fmt.Sprintf("command %s was already undone at seq %d%s; `ltscamp redo %s` restores it", roll.CommandID, undo.Event.Seq, why, roll.CommandID)
		undoRefused(t, s, err, before, rules.CodeRule, want)
		if err.Error() != want {
			t.Errorf("refused with %q, want %q", err, want)
		}
	}
}

// TestUndoOfAnUndoOrARedo: undoing an undo redoes what it reverted, and
// undoing a redo reverts again what it restored; each is refused when what
// it named is no longer as it left it.
func TestUndoOfAnUndoOrARedo(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	if _, err := s.AwardXP([]string{"Ajax"}, 20, "the map"); err != nil {
		t.Fatal(err)
	}
	award := undoLast(t, s).CommandID
	if _, err := s.SpendXP(Spend{Character: "Ajax", Target: "ST", Levels: 1}); err != nil {
		t.Fatal(err)
	}
	spend := undoLast(t, s).CommandID
	// Undo the award with the spend on it: one event reverts both.
	u1, err := s.Undo(UndoRequest{Target: award, Cascade: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := undoIDs(u1.Reverted); !slices.Equal(got, []string{award, spend}) {
		t.Fatalf("the cascade reverted %v", got)
	}
	if unspent, st := sheetOf(t, s, "Ajax"); unspent != 0 || st != 12 {
		t.Fatalf("after the undo: %d unspent, ST %d", unspent, st)
	}
	// Undoing that undo puts both back, in one command.restored.
	r1, err := s.Undo(UndoRequest{Target: fmt.Sprint(u1.Event.Seq), Reason: " after all "})
	if err != nil {
		t.Fatal(err)
	}
	p, ok := undoPayload(t, r1.Event).(*events.CommandRestored)
	if !ok || !slices.Equal(p.CommandIDs, []string{award, spend}) || p.Reason != "after all" || len(r1.Reverted) != 0 {
		t.Fatalf("the undo of the undo appended %s %+v, reverted %+v", r1.Event.Type, p, r1.Reverted)
	}
	if got := undoIDs(r1.Restored); !slices.Equal(got, []string{award, spend}) {
		t.Fatalf("restored %v", got)
	}
	if unspent, st := sheetOf(t, s, "Ajax"); unspent != 2 || st != 13 {
		t.Fatalf("after the redo: %d unspent, ST %d", unspent, st)
	}
	// The first undo no longer holds: its commands are back.
	before := count(t, s)
	_, err = s.Undo(UndoRequest{Target: u1.Event.ID})
	undoRefused(t, s, err, before, rules.CodeRule, fmt.Sprintf("the undo at seq %d no longer holds", u1.Event.Seq))
	// Undoing the redo takes both out again, the award first.
	u2, err := s.Undo(UndoRequest{Target: fmt.Sprint(r1.Event.Seq)})
	if err != nil {
		t.Fatal(err)
	}
	q, ok := undoPayload(t, u2.Event).(*events.CommandReverted)
	if !ok || q.CommandID != award || !slices.Equal(q.Cascade, []string{spend}) {
		t.Fatalf("the undo of the redo appended %s %+v", u2.Event.Type, q)
	}
	if got := undoIDs(u2.Reverted); !slices.Equal(got, []string{award, spend}) {
		t.Fatalf("the undo of the redo reverted %v", got)
	}
	// Now the redo no longer holds either, and neither does the first
	// undo: the award and the spend are out by the latest undo, not by it.
	before = count(t, s)
	_, err = s.Undo(UndoRequest{Target: r1.Event.CommandID})
	undoRefused(t, s, err, before, rules.CodeRule, fmt.Sprintf("the redo at seq %d no longer holds", r1.Event.Seq))
	_, err = s.Undo(UndoRequest{Target: fmt.Sprint(u1.Event.Seq)})
	undoRefused(t, s, err, before, rules.CodeRule, fmt.Sprintf("the undo at seq %d no longer holds", u1.Event.Seq))
	// Undoing the latest undo works, as a redo would.
	if _, err := s.Undo(UndoRequest{Target: fmt.Sprint(u2.Event.Seq)}); err != nil {
		t.Fatal(err)
	}
	if unspent, st := sheetOf(t, s, "Ajax"); unspent != 2 || st != 13 {
		t.Fatalf("after the second redo: %d unspent, ST %d", unspent, st)
	}
}

// TestUndoOfARedoChecksLaterCommands: undoing a redo is refused while a
// later command depends on what it restored, unless cascaded, when the
// later command goes out in the same event.
func TestUndoOfARedoChecksLaterCommands(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	if _, err := s.AwardXP([]string{"Ajax"}, 20, "the map"); err != nil {
		t.Fatal(err)
	}
	award := undoLast(t, s).CommandID
	if _, err := s.Undo(UndoRequest{}); err != nil {
		t.Fatal(err)
	}
	redo, err := s.Redo(RedoRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if got := undoIDs(redo.Restored); !slices.Equal(got, []string{award}) {
		t.Fatalf("redo restored %v", got)
	}
	if _, err := s.SpendXP(Spend{Character: "Ajax", Target: "ST", Levels: 1}); err != nil {
		t.Fatal(err)
	}
	spend := undoLast(t, s)
	before := count(t, s)
	_, err = s.Undo(UndoRequest{Target: fmt.Sprint(redo.Event.Seq)})
	undoRefused(t, s, err, before, rules.CodeRule, "cannot undo "+award)
	if !strings.Contains(err.Error(), fmt.Sprintf("%s (seq %d", spend.CommandID, spend.Seq)) || !strings.Contains(err.Error(), "--cascade") {
		t.Fatalf("the refusal does not name the spend: %v", err)
	}
	res, err := s.Undo(UndoRequest{Target: fmt.Sprint(redo.Event.Seq), Cascade: true})
	if err != nil {
		t.Fatal(err)
	}
	p, ok := undoPayload(t, res.Event).(*events.CommandReverted)
	if !ok || p.CommandID != award || !slices.Equal(p.Cascade, []string{spend.CommandID}) {
		t.Fatalf("appended %+v", p)
	}
	if got := undoIDs(res.Reverted); !slices.Equal(got, []string{award, spend.CommandID}) {
		t.Fatalf("reverted %v", got)
	}
	if unspent, st := sheetOf(t, s, "Ajax"); unspent != 0 || st != 12 {
		t.Fatalf("after the cascade: %d unspent, ST %d", unspent, st)
	}
}

// TestUndoRefusalNamesWhatWouldBreak: a refused undo names the command
// and each later one that would become invalid, with why, and appends
// nothing; a command that depends on nothing undone is not named.
func TestUndoRefusalNamesWhatWouldBreak(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	if _, err := s.AwardXP([]string{"Ajax"}, 40, "the map"); err != nil {
		t.Fatal(err)
	}
	award := undoLast(t, s)
	if _, err := s.SpendXP(Spend{Character: "Ajax", Target: "ST", Levels: 1}); err != nil { // 18 XP
		t.Fatal(err)
	}
	st := undoLast(t, s)
	if _, err := s.Roll(RollRequest{Expr: "d6", Faces: []int{3}}); err != nil {
		t.Fatal(err)
	}
	bare := undoLast(t, s)
	if _, err := s.SpendXP(Spend{Character: "Ajax", Target: "DX", Levels: 1}); err != nil { // 17 XP
		t.Fatal(err)
	}
	dx := undoLast(t, s)
	before := count(t, s)
	_, err := s.Undo(UndoRequest{Target: award.ID})
	undoRefused(t, s, err, before, rules.CodeRule, "later commands depend on it and would become invalid")
	msg := err.Error()
	for _, want := range []string{
		fmt.Sprintf("cannot undo %s (seq %d, ", award.CommandID, award.Seq),
		fmt.Sprintf("%s (seq %d, ", st.CommandID, st.Seq),
		fmt.Sprintf("seq %d xp.spent: ", st.Seq),
		fmt.Sprintf("%s (seq %d, ", dx.CommandID, dx.Seq),
		"undo them first, or add --cascade",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, bare.CommandID) {
		t.Errorf("the refusal names the bare roll, which depends on nothing:\n%s", msg)
	}
	res, err := s.Undo(UndoRequest{Target: award.ID, Cascade: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := undoIDs(res.Reverted); len(got) != 3 || got[0] != award.CommandID || !slices.Contains(got, st.CommandID) || !slices.Contains(got, dx.CommandID) {
		t.Fatalf("the cascade reverted %v", got)
	}
	for _, c := range res.Reverted {
		if c.Problem != "" {
			t.Errorf("%s reported with a problem: %q", c.ID, c.Problem)
		}
	}
}

// TestRedoRefusals: redo names a command that was undone; an undo or a
// redo, a command in effect, one that does not exist and a redo with
// nothing undone are refused with their codes and append nothing.
func TestRedoRefusals(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	before := count(t, s)
	_, err := s.Redo(RedoRequest{Target: "  \t"})
	undoRefused(t, s, err, before, rules.CodeNotFound, "nothing to redo: no command is undone")
	mustCreate(t, s, "Ajax", 12, 11, 9)
	if _, err := s.Roll(RollRequest{Expr: "d6", Faces: []int{5}}); err != nil {
		t.Fatal(err)
	}
	roll := undoLast(t, s)
	before = count(t, s)
	_, err = s.Redo(RedoRequest{Target: fmt.Sprint(roll.Seq)})
	undoRefused(t, s, err, before, rules.CodeRule, fmt.Sprintf("command %s is in effect: there is nothing to redo", roll.CommandID))
	undo, err := s.Undo(UndoRequest{})
	if err != nil {
		t.Fatal(err)
	}
	before = count(t, s)
	for _, ref := range []string{fmt.Sprint(undo.Event.Seq), undo.Event.CommandID} {
		_, err = s.Redo(RedoRequest{Target: ref})
		undoRefused(t, s, err, before, rules.CodeInvalid, undo.Event.CommandID+" is an undo or a redo")
	}
	for _, ref := range []string{"99", "0", "nothing-here"} {
		_, err = s.Redo(RedoRequest{Target: ref})
		undoRefused(t, s, err, before, rules.CodeNotFound, "no ")
	}
	// A blank target is the latest undo; the reason is trimmed.
	res, err := s.Redo(RedoRequest{Target: " ", Reason: " it stood \n"})
	if err != nil {
		t.Fatal(err)
	}
	p, ok := undoPayload(t, res.Event).(*events.CommandRestored)
	if !ok || !slices.Equal(p.CommandIDs, []string{roll.CommandID}) || p.Reason != "it stood" {
		t.Fatalf("redo appended %+v", p)
	}
	if len(res.Restored) != 1 || res.Restored[0].ID != roll.CommandID || res.Restored[0].FirstSeq != roll.Seq || res.Restored[0].Events != 1 || len(res.Reverted) != 0 {
		t.Fatalf("redo reported %+v", res)
	}
	// The redo of it is a redo too.
	before = count(t, s)
	_, err = s.Redo(RedoRequest{Target: res.Event.ID})
	undoRefused(t, s, err, before, rules.CodeInvalid, "is an undo or a redo")
	_, err = s.Redo(RedoRequest{})
	undoRefused(t, s, err, before, rules.CodeNotFound, "nothing to redo")
}

// TestRedoByTargetOfACascade: redo of one command of a cascade restores it
// alone, and the undo still holds the rest.
func TestRedoByTargetOfACascade(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	if _, err := s.AwardXP([]string{"Ajax"}, 40, "the map"); err != nil {
		t.Fatal(err)
	}
	award := undoLast(t, s).CommandID
	if _, err := s.SpendXP(Spend{Character: "Ajax", Target: "ST", Levels: 1}); err != nil {
		t.Fatal(err)
	}
	spend := undoLast(t, s).CommandID
	undo, err := s.Undo(UndoRequest{Target: award, Cascade: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Redo(RedoRequest{Target: strings.ToLower(award)})
	if err != nil {
		t.Fatal(err)
	}
	if got := undoIDs(res.Restored); !slices.Equal(got, []string{award}) {
		t.Fatalf("redo restored %v", got)
	}
	if unspent, st := sheetOf(t, s, "Ajax"); unspent != 40 || st != 12 {
		t.Fatalf("after redoing the award alone: %d unspent, ST %d", unspent, st)
	}
	// Undoing the undo restores what it still holds out: the spend.
	res, err = s.Undo(UndoRequest{Target: fmt.Sprint(undo.Event.Seq)})
	if err != nil {
		t.Fatal(err)
	}
	if got := undoIDs(res.Restored); !slices.Equal(got, []string{spend}) {
		t.Fatalf("the undo of the undo restored %v", got)
	}
	if unspent, st := sheetOf(t, s, "Ajax"); unspent != 22 || st != 13 {
		t.Fatalf("after the spend came back: %d unspent, ST %d", unspent, st)
	}
}

// TestRedoChecksTheCommandItRestores: a command restored is re-checked
// itself, not only the commands after it. A spend is restored while an
// award that paid for it is out of effect: it would overdraw, so the
// restore must be refused and append nothing. Three ways in:
//
//   - undo the spend, then the award (allowed: the spend is out), then
//     redo the spend by name;
//   - the same, undoing the spend's undo instead;
//   - two awards, the second undone with the spend on it by cascade, the
//     second award redone alone, the first award undone, then the
//     cascade's undo undone: it restores the spend alone.
func TestRedoChecksTheCommandItRestores(t *testing.T) {
	for _, way := range []string{"redo", "undo of the undo", "undo of the cascade"} {
		t.Run(way, func(t *testing.T) { restoreRechecks(t, way) })
	}
}

// restoreRechecks plays one way of TestRedoChecksTheCommandItRestores.
func restoreRechecks(t *testing.T, way string) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	xp := 20
	if way == "undo of the cascade" {
		xp = 10
	}
	if _, err := s.AwardXP([]string{"Ajax"}, xp, "the map"); err != nil {
		t.Fatal(err)
	}
	first := undoLast(t, s).CommandID
	var second string
	if way == "undo of the cascade" {
		if _, err := s.AwardXP([]string{"Ajax"}, 10, "the gate"); err != nil {
			t.Fatal(err)
		}
		second = undoLast(t, s).CommandID
	}
	if _, err := s.SpendXP(Spend{Character: "Ajax", Target: "ST", Levels: 1}); err != nil { // 18 XP
		t.Fatal(err)
	}
	spend := undoLast(t, s).CommandID
	var undo UndoResult
	var err error
	if way == "undo of the cascade" {
		if undo, err = s.Undo(UndoRequest{Target: second, Cascade: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Redo(RedoRequest{Target: second}); err != nil {
			t.Fatal(err)
		}
	} else if undo, err = s.Undo(UndoRequest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Undo(UndoRequest{Target: first}); err != nil {
		t.Fatal(err)
	}
	before := count(t, s)
	if way == "redo" {
		_, err = s.Redo(RedoRequest{Target: spend})
	} else {
		_, err = s.Undo(UndoRequest{Target: undo.Event.ID})
	}
	undoRefused(t, s, err, before, rules.CodeRule, "the rules refuse it with the commands in effect now:\n  "+spend)
	undoRefused(t, s, err, before, rules.CodeRule, "ST 12→13 costs 18 XP")
	if strings.Contains(err.Error(), "made since") {
		t.Errorf("the refusal lists the command restored as made since: %v", err)
	}
	if unspent, st := sheetOf(t, s, "Ajax"); unspent != 20-xp || st != 12 {
		t.Fatalf("after the refused restore: %d unspent, ST %d", unspent, st)
	}
}

// TestUndoSummaryNamesEventsBySeq: a karma re-roll's summary names the
// roll it replaces by seq, in the preview (UndoTarget) and in the undo's
// result alike.
func TestUndoSummaryNamesEventsBySeq(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	r, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Ajax", Faces: []int{6, 6, 5}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.GrantKarma("Ajax", 1, "a good deed"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reroll(RerollRequest{Roll: r.Event.ID, Faces: []int{1, 1, 1}}); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("-1 karma for a reroll of seq %d (+1 more event)", r.Event.Seq)
	preview, err := s.UndoTarget("")
	if err != nil || preview.Summary != want {
		t.Fatalf("UndoTarget: %q, %v; want %q", preview.Summary, err, want)
	}
	res, err := s.Undo(UndoRequest{})
	if err != nil || len(res.Reverted) != 1 || res.Reverted[0] != preview {
		t.Fatalf("undo reverted %+v, %v; want %+v", res.Reverted, err, preview)
	}
}
