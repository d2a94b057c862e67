package projections

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// The XP ledger fold, given a character's events (and the undos of the
// commands stream), expect these entries and totals.

// ledgerOf folds the events of stream in log into a ledger, with rv.
func ledgerOf(t *testing.T, log []events.Event, stream string, rv *Reverts) Ledger {
	t.Helper()
	var l Ledger
	for _, e := range log {
		if e.Stream != stream {
			continue
		}
		if err := l.Apply(e, rv); err != nil {
			t.Fatalf("Apply(event %d): %v", e.Seq, err)
		}
	}
	return l
}

// entryAt is the ledger entry of an event with what the event itself
// gives: its seq, IDs, time and actor.
func entryAt(e events.Event, kind string, amount int, what string, balance int) LedgerEntry {
	return LedgerEntry{Seq: e.Seq, EventID: e.ID, CommandID: e.CommandID, RecordedAt: e.RecordedAt, Actor: e.Actor,
		Kind: kind, Amount: amount, What: what, Balance: balance}
}

func priced(le LedgerEntry, formula, edition string) LedgerEntry {
	le.Formula, le.Edition = formula, edition
	return le
}

// TestLedgerFold2021: worked examples 6 and 7 [2021]: 20 XP, ST12→13 for
// 18 keeps 2; a plotword's 1 XP; a skill point for 10; a curse lifted by
// lowering an attribute moves no XP and makes no entry.
func TestLedgerFold2021(t *testing.T) {
	log := logOf(t,
		step{ajaxStream, "K1", events.CharacterCreated{CharacterID: "A", Name: "Ajax", Edition: "2021", Attributes: events.Attributes{ST: 12, DX: 11, IQ: 9}}},
		step{ajaxStream, "K2", events.XPAwarded{Stamp: stampAt(1, 2, 0), Amount: 20, Reason: "adventure"}},
		step{ajaxStream, "K3", stRaise(18, "current level + 6 = 12 + 6", "2021")},
		step{ajaxStream, "K4", events.RollMade{Expr: "3/DX", Kind: "check"}},
		step{ajaxStream, "K5", events.XPAwarded{Amount: 9, Reason: "plotword KITKAT", Plotword: "KITKAT"}},
		step{ajaxStream, "K6", events.XPSpent{Stamp: stampAt(1, 3, 2), On: "skill", Skill: "knife", SkillName: "Knife", From: 0, To: 1, Price: 10, Formula: "10 XP a skill point", Edition: "2021"}},
		step{ajaxStream, "K7", events.CurseAdded{Levels: 1}},
		step{ajaxStream, "K8", events.CurseLifted{Method: "attribute", Attribute: "ST", From: 13, To: 12, Rule: "lower the highest attribute by one", Edition: "2021"}},
		step{ajaxStream, "K9", events.KarmaGranted{Amount: 1}},
	)
	l := ledgerOf(t, log, ajaxStream, nil)
	award := entryAt(log[1], LedgerAward, 20, "adventure", 20)
	award.At = &events.GameTime{Adventure: 1, Day: 2}
	skill := priced(entryAt(log[5], LedgerSpend, -10, "Knife 0→1", 1), "10 XP a skill point", "2021")
	skill.At = &events.GameTime{Adventure: 1, Day: 3, Encounter: 2}
	want := Ledger{
		Entries: []LedgerEntry{
			award,
			priced(entryAt(log[2], LedgerSpend, -18, "ST 12→13", 2), "current level + 6 = 12 + 6", "2021"),
			entryAt(log[4], LedgerAward, 9, "plotword KITKAT", 11),
			skill,
		},
		Earned: 29, Spent: 28, Version: 9,
	}
	if !reflect.DeepEqual(l, want) {
		t.Errorf("ledger:\n got %+v\nwant %+v", l, want)
	}
	if l.Balance() != 1 {
		t.Errorf("Balance = %d, want 1", l.Balance())
	}
	// The sheet, folded apart, agrees.
	var chars []events.Event
	for _, e := range log {
		if e.Stream == ajaxStream {
			chars = append(chars, e)
		}
	}
	if s, err := FoldSheet(chars); err != nil || s.XP.Unspent != l.Balance() {
		t.Errorf("sheet unspent %d (%v), ledger balance %d", s.XP.Unspent, err, l.Balance())
	}
}

// TestLedgerFold2010: worked example 6 [2010]: IQ13→14 costs 14 XP; a
// karma point taken as 1 XP; a curse lifted for 10 XP is a spend, one
// lifted by a wish or three karma moves no XP.
func TestLedgerFold2010(t *testing.T) {
	const stream = "character/B"
	log := logOf(t,
		step{stream, "K1", events.CharacterCreated{CharacterID: "B", Name: "Brainy", Edition: "2010", Attributes: events.Attributes{ST: 9, DX: 10, IQ: 13}}},
		step{stream, "K2", events.XPAwarded{Amount: 14, Reason: "adventure"}},
		step{stream, "K3", events.XPSpent{On: "attribute", Attribute: "IQ", From: 13, To: 14, Price: 14, Formula: "the next level = 14", Edition: "2010"}},
		step{stream, "K4", events.XPAwarded{Amount: 1, Reason: "karma taken as XP", Source: "karma"}},
		step{stream, "K5", events.XPAwarded{Amount: 10, Reason: "victory", Source: "encounter"}},
		step{stream, "K6", events.CurseAdded{Levels: 3}},
		step{stream, "K7", events.CurseLifted{Method: "xp", XP: 10, Rule: "10 XP", Edition: "2010"}},
		step{stream, "K8", events.CurseLifted{Method: "wish", Wishes: 1, Rule: "one wish", Edition: "2010"}},
		step{stream, "K9", events.CurseLifted{Method: "karma", Karma: 3, Rule: "three karma", Edition: "2010"}},
	)
	l := ledgerOf(t, log, stream, nil)
	want := Ledger{
		Entries: []LedgerEntry{
			entryAt(log[1], LedgerAward, 14, "adventure", 14),
			priced(entryAt(log[2], LedgerSpend, -14, "IQ 13→14", 0), "the next level = 14", "2010"),
			entryAt(log[3], LedgerKarma, 1, "karma taken as XP", 1),
			entryAt(log[4], LedgerAward, 10, "victory", 11),
			priced(entryAt(log[6], LedgerSpend, -10, "lift a curse", 1), "10 XP", "2010"),
		},
		Earned: 25, Spent: 24, Version: 9,
	}
	if !reflect.DeepEqual(l, want) {
		t.Errorf("ledger:\n got %+v\nwant %+v", l, want)
	}
}

// TestLedgerFoldReverted: an entry whose command an undo took out of
// effect is listed, marked with the undo, and left out of the totals and
// the balance; a redo puts it back.
func TestLedgerFoldReverted(t *testing.T) {
	log := logOf(t,
		step{ajaxStream, "K1", events.CharacterCreated{CharacterID: "A", Name: "Ajax", Edition: "2021"}},
		step{ajaxStream, "K2", events.XPAwarded{Amount: 20, Reason: "adventure"}},
		step{ajaxStream, "K3", stRaise(18, "current level + 6 = 12 + 6", "2021")},
		step{ajaxStream, "K4", events.XPAwarded{Amount: 5, Reason: "bonus"}},
		step{ajaxStream, "K5", events.CurseLifted{Method: "xp", XP: 10, Rule: "10 XP", Edition: "2010"}},
		step{events.CommandsStream, "U1", events.CommandReverted{CommandID: "K3", Cascade: []string{"K5"}, Reason: "wrong attribute"}},
		step{events.CommandsStream, "U2", events.CommandReverted{CommandID: "K4"}},
	)
	rv, err := FoldReverts(log[5:])
	if err != nil {
		t.Fatal(err)
	}
	l := ledgerOf(t, log, ajaxStream, &rv)
	undo := &Revert{Seq: 6, EventID: log[5].ID, CommandID: "U1", Actor: "gm", At: log[5].RecordedAt, Reason: "wrong attribute", Target: "K3"}
	undo2 := &Revert{Seq: 7, EventID: log[6].ID, CommandID: "U2", Actor: "gm", At: log[6].RecordedAt, Target: "K4"}
	spend := priced(entryAt(log[2], LedgerSpend, -18, "ST 12→13", 20), "current level + 6 = 12 + 6", "2021")
	spend.Reverted = undo
	bonus := entryAt(log[3], LedgerAward, 5, "bonus", 20)
	bonus.Reverted = undo2
	lift := priced(entryAt(log[4], LedgerSpend, -10, "lift a curse", 20), "10 XP", "2010")
	lift.Reverted = undo
	want := Ledger{Entries: []LedgerEntry{entryAt(log[1], LedgerAward, 20, "adventure", 20), spend, bonus, lift}, Earned: 20, Spent: 0, Version: 5}
	if !reflect.DeepEqual(l, want) {
		t.Errorf("ledger:\n got %+v\nwant %+v", l, want)
	}
	// Redone: everything counts again.
	restored := logOf(t, append(stepsOf(log), step{events.CommandsStream, "R1", events.CommandRestored{CommandIDs: []string{"K3", "K4", "K5"}}})...)
	rv, err = FoldReverts(restored[5:])
	if err != nil {
		t.Fatal(err)
	}
	l = ledgerOf(t, restored, ajaxStream, &rv)
	if l.Earned != 25 || l.Spent != 28 || l.Balance() != -3 || len(l.Entries) != 4 || l.Entries[3].Balance != -3 || l.Entries[1].Reverted != nil {
		t.Errorf("after the redo: %+v", l)
	}
}

// stepsOf turns a log back into steps, for a longer log.
func stepsOf(log []events.Event) []step {
	out := make([]step, len(log))
	for i, e := range log {
		p, err := events.Decode(e)
		if err != nil {
			panic(err)
		}
		out[i] = step{e.Stream, e.CommandID, derefPayload(p)}
	}
	return out
}

// derefPayload returns the payload Decode gave as a value, as logOf takes.
func derefPayload(p events.Payload) events.Payload {
	v := reflect.ValueOf(p)
	if v.Kind() == reflect.Pointer {
		return v.Elem().Interface().(events.Payload)
	}
	return p
}

// TestLedgerFoldErrors: every event moves the version on, even one the
// ledger ignores; a payload that cannot be read is an error and adds no
// entry; an overflow is an invalid log.
func TestLedgerFoldErrors(t *testing.T) {
	var l Ledger
	ignored := events.Event{Seq: 4, StreamVersion: 3, Type: events.TypeKarmaGranted, PayloadVersion: 1, Payload: []byte("not json")}
	if err := l.Apply(ignored, nil); err != nil || l.Version != 3 || len(l.Entries) != 0 {
		t.Fatalf("an ignored event: %v, %+v", err, l)
	}
	for _, ty := range []string{events.TypeXPAwarded, events.TypeXPSpent, events.TypeCurseLifted} {
		bad := events.Event{Seq: 5, StreamVersion: 4, Type: ty, PayloadVersion: 1, Payload: []byte("not json")}
		if err := l.Apply(bad, nil); err == nil || !strings.Contains(err.Error(), "event 5: decode "+ty) {
			t.Errorf("%s that is not JSON: err = %v", ty, err)
		}
	}
	if len(l.Entries) != 0 || l.Earned != 0 || l.Spent != 0 {
		t.Errorf("bad payloads changed the ledger: %+v", l)
	}
	huge := logOf(t,
		step{ajaxStream, "K1", events.XPSpent{On: "skill", SkillName: "Knife", To: 1, Price: int(^uint(0) >> 1)}},
		step{ajaxStream, "K2", events.CurseLifted{Method: "xp", XP: 1}},
		step{ajaxStream, "K3", events.XPSpent{On: "skill", SkillName: "Knife", To: 2, Price: 1}},
	)
	var l2 Ledger
	if err := l2.Apply(huge[0], nil); err != nil {
		t.Fatal(err)
	}
	for _, e := range huge[1:] {
		err := l2.Apply(e, nil)
		if err == nil || rules.CodeOf(err) != rules.CodeInvalidLog || !strings.Contains(err.Error(), "XP spent overflows: 9223372036854775807 + 1") {
			t.Errorf("event %d (%s): err = %v, want an XP spent overflow", e.Seq, e.Type, err)
		}
	}
	if len(l2.Entries) != 1 || l2.Spent != int(^uint(0)>>1) {
		t.Errorf("the overflowing spends changed the ledger: %+v", l2)
	}
}

// TestRollsFold: the rolls index maps each re-rolled roll, contest or
// attack to the one that replaced it; other rolls are not even decoded.
func TestRollsFold(t *testing.T) {
	log := logOf(t,
		step{ajaxStream, "K1", events.RollMade{Expr: "3/DX", Kind: "check"}},
		step{ajaxStream, "K2", events.RollMade{Expr: "3/DX", Kind: "check", Rerolls: "Eroll"}},
		step{ajaxStream, "K3", events.ContestResolved{Rerolls: "Econtest"}},
		step{ajaxStream, "K4", events.AttackMade{Rerolls: "Eattack"}},
		step{ajaxStream, "K5", events.ContestResolved{}},
		step{ajaxStream, "K6", events.XPAwarded{Amount: 1, Reason: "rerolls"}},
	)
	var r Rolls
	for _, e := range log {
		if err := r.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]string{"Eroll": log[1].ID, "Econtest": log[2].ID, "Eattack": log[3].ID}
	if !reflect.DeepEqual(r.RerolledBy, want) {
		t.Errorf("RerolledBy = %v, want %v", r.RerolledBy, want)
	}
	// No re-roll, no map.
	var none Rolls
	for _, e := range log[:1] {
		if err := none.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	if none.RerolledBy != nil {
		t.Errorf("RerolledBy = %v, want nil", none.RerolledBy)
	}
	// A roll without the key is not decoded, so its payload is not read;
	// one with it is, and a bad one is an error. Other types are ignored.
	for _, c := range []struct {
		ty, payload string
		fails       bool
	}{
		{events.TypeRollMade, `not json`, false},
		{events.TypeRollMade, `{"rerolls": 7}`, true},
		{events.TypeContestResolved, `{"rerolls": 7}`, true},
		{events.TypeAttackMade, `{"rerolls": 7}`, true},
		{events.TypeXPAwarded, `{"rerolls": 7}`, false},
		{events.TypeRollMade, `{"rerolls": ""}`, false},
	} {
		var r Rolls
		err := r.Apply(events.Event{Seq: 9, Type: c.ty, PayloadVersion: 1, Payload: []byte(c.payload)})
		if (err != nil) != c.fails || r.RerolledBy != nil {
			t.Errorf("%s %s: err = %v, map %v", c.ty, c.payload, err, r.RerolledBy)
		}
	}
}
