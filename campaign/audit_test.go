package campaign

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

func mustAward(t *testing.T, s *Service, name string, n int, reason string) {
	t.Helper()
	if _, err := s.AwardXP([]string{name}, n, reason); err != nil {
		t.Fatal(err)
	}
}

func mustSpend(t *testing.T, s *Service, name, target string) SpendResult {
	t.Helper()
	res, err := s.SpendXP(Spend{Character: name, Target: target, Levels: 1})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func mustAudit(t *testing.T, s *Service, name string) projections.XPAudit {
	t.Helper()
	au, err := s.AuditXP(name)
	if err != nil {
		t.Fatal(err)
	}
	return au
}

// appendByHand appends one event to a character's stream without the
// rules, as a tampered or buggy log would have it.
func appendByHand(t *testing.T, s *Service, name string, p events.Payload) {
	t.Helper()
	sh, err := s.Sheet(name)
	if err != nil {
		t.Fatal(err)
	}
	n := count(t, s)
	stream := events.CharacterStream(sh.ID)
	pe, err := events.Encode(fmt.Sprintf("HANDEVENT%017d", n), stream, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Store().Append(events.Command{ID: fmt.Sprintf("HANDCOMMAND%015d", n), Actor: "mallory", RecordedAt: time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC),
		Expected: map[string]int64{stream: events.AnyVersion}, Events: []events.Pending{pe}}); err != nil {
		t.Fatal(err)
	}
}

// TestAuditXP itemises the worked example, 2021: 20 XP, ST 12→13
// for 18 (current level + 6), 1 XP more, and an award with the skill bought
// on it undone by cascade: 21 − 18 = 3.
func TestAuditXP(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9, "Medic:2")                                                         // seq 2
	mustCreate(t, s, "Hector", 11, 12, 9)                                                                  // seq 3
	mustAward(t, s, "Ajax", 20, "rescued the envoy")                                                       // seq 4
	mustSpend(t, s, "Ajax", "ST")                                                                          // seq 5
	mustAward(t, s, "Ajax", 1, "routed the pirates")                                                       // seq 6
	mustAward(t, s, "Hector", 5, "not Ajax's")                                                             // seq 7
	mustAward(t, s, "Ajax", 10, "found the map")                                                           // seq 8
	mustSpend(t, s, "Ajax", "skill:Knife")                                                                 // seq 9
	if _, err := s.Undo(UndoRequest{Target: "8", Cascade: true, Reason: "the map was fake"}); err != nil { // seq 10
		t.Fatal(err)
	}

	au := mustAudit(t, s, "ajax")
	if au.Character != "Ajax" || au.Edition != rules.Edition2021 {
		t.Fatalf("audit of %q, edition %s", au.Character, au.Edition)
	}
	type row struct {
		seq      int64
		kind     string
		what     string
		amount   int
		balance  int
		reverted int64
	}
	want := []row{
		{4, projections.LedgerAward, "rescued the envoy", 20, 20, 0},
		{5, projections.LedgerSpend, "ST 12→13", -18, 2, 0},
		{6, projections.LedgerAward, "routed the pirates", 1, 3, 0},
		{8, projections.LedgerAward, "found the map", 10, 3, 10},
		{9, projections.LedgerSpend, "Knife 0→1", -10, 3, 10},
	}
	if len(au.Rows) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(au.Rows), len(want), au.Rows)
	}
	for i, w := range want {
		r := au.Rows[i]
		var rv int64
		if r.Reverted != nil {
			rv = r.Reverted.Seq
		}
		got := row{r.Seq, r.Kind, r.What, r.Amount, r.Balance, rv}
		if got != w {
			t.Errorf("row %d: %+v, want %+v", i, got, w)
		}
		if r.Actor != "gm" || r.CommandID == "" || r.EventID == "" || r.RecordedAt.IsZero() {
			t.Errorf("row %d: actor %q, command %q, event %q, time %v", i, r.Actor, r.CommandID, r.EventID, r.RecordedAt)
		}
		if (r.Kind == projections.LedgerSpend) != (r.Rules != nil) {
			t.Errorf("row %d: a %s with rules %+v", i, r.Kind, r.Rules)
		}
	}
	if rv := au.Rows[3].Reverted; rv.Reason != "the map was fake" || rv.Target != au.Rows[3].CommandID {
		t.Errorf("reverted award: %+v", rv)
	}
	if rv := au.Rows[4].Reverted; rv.Target != au.Rows[3].CommandID {
		t.Errorf("the skill is reverted by cascade of the award: %+v", rv)
	}
	st := au.Rows[1]
	if st.Formula != "current level + 6 = 12 + 6" || st.Edition != "2021" || *st.Rules != (projections.RulesPrice{Price: 18, Formula: "current level + 6 = 12 + 6", Edition: rules.Edition2021, OK: true}) {
		t.Errorf("ST spend: formula %q, edition %q, rules %+v", st.Formula, st.Edition, st.Rules)
	}
	if au.Earned != 21 || au.Spent != 18 || au.Unspent != 3 || au.SheetUnspent != 3 {
		t.Errorf("earned %d, spent %d, unspent %d, sheet %d; want 21, 18, 3, 3", au.Earned, au.Spent, au.Unspent, au.SheetUnspent)
	}
	wantAssert := []projections.Assertion{
		{Name: projections.AssertBalance, OK: true, Detail: "earned − spent = unspent: 21 − 18 = 3"},
		{Name: projections.AssertNeverNegative, OK: true, Detail: "unspent ≥ 0 at every row: lowest 2, after seq 5"},
		{Name: projections.AssertPrices, OK: true, Detail: "every spend priced by the 2021 rules: 2 of 2 spends"},
	}
	if fmt.Sprint(au.Assertions) != fmt.Sprint(wantAssert) || !au.OK || len(au.Failed()) != 0 {
		t.Errorf("assertions %+v (ok %v), want %+v", au.Assertions, au.OK, wantAssert)
	}

	// Hector's audit holds his award only.
	if h := mustAudit(t, s, "Hector"); len(h.Rows) != 1 || h.Rows[0].Seq != 7 || h.Unspent != 5 || !h.OK {
		t.Errorf("Hector's audit: %+v", h)
	}
}

// TestAuditXPPricesRevertedSpendsAtTheirOwnLevel: ST 12→13 and 13→14 are
// undone together; the second is priced at 13 (19 XP), the level it records,
// not at the 12 the sheet now shows.
func TestAuditXPPricesRevertedSpendsAtTheirOwnLevel(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	mustAward(t, s, "Ajax", 40, "a hoard")
	first := mustSpend(t, s, "Ajax", "ST")
	mustSpend(t, s, "Ajax", "ST")
	if _, err := s.Undo(UndoRequest{Target: fmt.Sprint(first.Sheet.Seq), Cascade: true}); err != nil {
		t.Fatal(err)
	}
	au := mustAudit(t, s, "Ajax")
	if !au.OK || au.Unspent != 40 || au.SheetUnspent != 40 {
		t.Fatalf("audit %+v", au)
	}
	second := au.Rows[2]
	if second.Reverted == nil || second.Rules.Price != 19 || !second.Rules.OK {
		t.Fatalf("second spend %+v, rules %+v", second, second.Rules)
	}
}

// TestAuditXPCatchesHandWrittenSpends appends spends the rules would not
// have produced and expects the audit to fail, naming the rules' price.
func TestAuditXPCatchesHandWrittenSpends(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	mustAward(t, s, "Ajax", 21, "r")
	mustSpend(t, s, "Ajax", "ST") // 3 left
	// DX 11→12 costs 17 in 2021; recorded at 5, which overdraws by 2.
	appendByHand(t, s, "Ajax", events.XPSpent{On: "attribute", Attribute: "DX", From: 11, To: 12, Price: 5, Formula: "a friend's price", Edition: "2021"})
	au := mustAudit(t, s, "Ajax")
	if au.OK {
		t.Fatal("the audit passed a hand-written spend")
	}
	bad := au.Rows[2]
	if bad.Actor != "mallory" || bad.Rules.OK || bad.Rules.Price != 17 || !strings.Contains(bad.Rules.Problem, "recorded 5 XP (a friend's price, edition 2021); the 2021 rules give 17 XP (current level + 6 = 11 + 6)") {
		t.Fatalf("hand-written row %+v, rules %+v", bad, bad.Rules)
	}
	failed := au.Failed()
	if len(failed) != 2 || failed[0].Name != projections.AssertNeverNegative || failed[1].Name != projections.AssertPrices {
		t.Fatalf("failed assertions %+v", failed)
	}
	if failed[0].Detail != "unspent ≥ 0 at every row: lowest -2, after seq 5" {
		t.Errorf("never-negative detail %q", failed[0].Detail)
	}
	if want := "every spend priced by the 2021 rules: 1 of 2 spends; seq 5: recorded 5 XP"; !strings.HasPrefix(failed[1].Detail, want) {
		t.Errorf("prices detail %q, want it to start %q", failed[1].Detail, want)
	}
	// The ledger and the sheet fold the same events: they agree, at -2.
	if !au.Assertions[0].OK || au.Unspent != -2 || au.SheetUnspent != -2 {
		t.Errorf("balance %+v, unspent %d, sheet %d", au.Assertions[0], au.Unspent, au.SheetUnspent)
	}

	// A spend that raises from a level the character did not have.
	s2 := newCampaign(t, rules.Edition2021)
	mustCreate(t, s2, "Ajax", 12, 11, 9)
	mustAward(t, s2, "Ajax", 30, "r")
	appendByHand(t, s2, "Ajax", events.XPSpent{On: "attribute", Attribute: "ST", From: 10, To: 11, Price: 16, Formula: "current level + 6 = 10 + 6", Edition: "2021"})
	au = mustAudit(t, s2, "Ajax")
	if au.OK || !strings.Contains(au.Rows[1].Rules.Problem, "ST raised from 10, but Ajax had 12") || au.Rows[1].Rules.Price != 18 {
		t.Fatalf("spend from the wrong level: %+v", au.Rows[1].Rules)
	}
}

// TestAuditXPBalanceIsTheSheets: in the demo and in a story of each
// edition, every character's audit passes and ends at the sheet's unspent
// XP (acceptance 6).
func TestAuditXPBalanceIsTheSheets(t *testing.T) {
	demo := newCampaign(t, rules.DefaultEdition)
	if _, err := demo.PlayDemo(); err != nil {
		t.Fatal(err)
	}
	campaigns := map[string]*Service{"demo": demo}
	for _, ed := range rules.Editions() {
		s := newCampaign(t, ed)
		mustCreate(t, s, "Ajax", 12, 11, 9, "Medic:2")
		mustCreate(t, s, "Hector", 11, 12, 9)
		if _, err := s.AwardXP([]string{"Ajax", "Hector"}, 30, "the siege"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Plotword("KITKAT"); err != nil {
			t.Fatal(err)
		}
		mustSpend(t, s, "Ajax", "IQ")
		mustSpend(t, s, "Hector", "skill:Knife")
		if _, err := s.Undo(UndoRequest{}); err != nil {
			t.Fatal(err)
		}
		mustSpend(t, s, "Hector", "DX")
		campaigns[string(ed)] = s
	}
	for name, s := range campaigns {
		sheets, err := s.Sheets()
		if err != nil {
			t.Fatal(err)
		}
		for _, sh := range sheets {
			au := mustAudit(t, s, sh.Name)
			if !au.OK || au.Unspent != sh.XP.Unspent || au.Earned != sh.XP.Earned || au.Spent != sh.XP.Spent {
				t.Errorf("%s, %s: audit %d − %d = %d (ok %v, %+v); sheet %+v", name, sh.Name, au.Earned, au.Spent, au.Unspent, au.OK, au.Failed(), sh.XP)
			}
			if n := len(au.Rows); n > 0 && au.Rows[n-1].Balance != au.Unspent {
				t.Errorf("%s, %s: last row's balance %d, unspent %d", name, sh.Name, au.Rows[n-1].Balance, au.Unspent)
			}
		}
	}
}

// TestAuditXPUnknownCharacter: a name not in the party is not found.
func TestAuditXPUnknownCharacter(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	if _, err := s.AuditXP("Ajx"); rules.CodeOf(err) != rules.CodeNotFound || !strings.Contains(err.Error(), `did you mean "Ajax"`) {
		t.Fatalf("audit of Ajx: %v", err)
	}
}
