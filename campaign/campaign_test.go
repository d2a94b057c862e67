package campaign

import (
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/memstore"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// fixedClock returns a clock that ticks one second per call, from a fixed
// start, so tests are repeatable.
func fixedClock() func() time.Time {
	t := time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)
	return func() time.Time {
		t = t.Add(time.Second)
		return t
	}
}

func newCampaign(t *testing.T, ed rules.Edition) *Service {
	t.Helper()
	s, err := Init(memstore.New(), "test", ed, Options{VerifyKept: true, Now: fixedClock(), Actor: "gm", Entropy: rand.New(rand.NewSource(1))})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustCreate(t *testing.T, s *Service, name string, st, dx, iq int, skills ...string) {
	t.Helper()
	if _, err := s.CreateCharacter(NewCharacter{Name: name, Attributes: rules.Attributes{ST: st, DX: dx, IQ: iq}, Skills: skills}); err != nil {
		t.Fatal(err)
	}
}

func count(t *testing.T, s *Service) int64 {
	t.Helper()
	n, err := s.EventCount()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestRejectedCommandsAppendNothing runs commands the rules refuse and checks
// each returns a coded error and leaves the log as it was.
func TestRejectedCommandsAppendNothing(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9, "Unarmed:2", "Medic:2")
	mustCreate(t, s, "Hector", 11, 12, 9)
	if _, err := s.AwardXP([]string{"Ajax"}, 20, "start"); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		code rules.Code
		run  func() error
	}{
		{"overspend", rules.CodeRule, func() error { _, err := s.SpendXP(Spend{Character: "Ajax", Target: "ST", Levels: 2}); return err }},
		{"unknown character", rules.CodeNotFound, func() error { _, err := s.Sheet("Ajx"); return err }},
		{"award with a stranger", rules.CodeNotFound, func() error { _, err := s.AwardXP([]string{"Ajax", "Nobody"}, 1, "r"); return err }},
		{"award twice to one", rules.CodeInvalid, func() error { _, err := s.AwardXP([]string{"Ajax", "ajax"}, 1, "r"); return err }},
		{"duplicate name", rules.CodeConflict, func() error {
			_, err := s.CreateCharacter(NewCharacter{Name: "HECTOR", Attributes: rules.Attributes{ST: 11, DX: 12, IQ: 9}})
			return err
		}},
		{"33 points", rules.CodeRule, func() error {
			_, err := s.CreateCharacter(NewCharacter{Name: "Zed", Attributes: rules.Attributes{ST: 12, DX: 12, IQ: 9}})
			return err
		}},
		{"face 7", rules.CodeInvalid, func() error {
			_, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Ajax", Faces: []int{7, 1, 1}})
			return err
		}},
		{"extra face", rules.CodeInvalid, func() error {
			_, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Ajax", Faces: []int{1, 1, 1, 1}})
			return err
		}},
		{"reroll without karma", rules.CodeRule, func() error {
			r, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Hector", Faces: []int{6, 6, 6}})
			if err != nil {
				return err
			}
			before := count(t, s)
			_, err = s.Reroll(RerollRequest{Roll: r.Event.ID})
			if count(t, s) != before {
				t.Errorf("a refused reroll appended events")
			}
			return err
		}},
		{"wish as karma outside 2010", rules.CodeRule, func() error {
			r, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Hector", Faces: []int{6, 6, 5}})
			if err != nil {
				return err
			}
			before := count(t, s)
			_, err = s.Reroll(RerollRequest{Roll: r.Event.ID, UseWish: true})
			if count(t, s) != before {
				t.Errorf("a refused reroll appended events")
			}
			return err
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := count(t, s)
			err := c.run()
			if got := rules.CodeOf(err); got != c.code {
				t.Fatalf("error %v: code %q, want %q", err, got, c.code)
			}
			if c.name != "reroll without karma" && c.name != "wish as karma outside 2010" && count(t, s) != before {
				t.Fatalf("a rejected command appended %d events", count(t, s)-before)
			}
		})
	}
}

// TestPlotwordIsOneCommand checks a plotword's XP for every member is one
// command, so undo and audit treat it as a unit.
func TestPlotwordIsOneCommand(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	mustCreate(t, s, "Hector", 11, 12, 9)
	mustCreate(t, s, "Cassandra", 8, 14, 10)
	sheets, err := s.Plotword("kitkat")
	if err != nil {
		t.Fatal(err)
	}
	if len(sheets) != 3 {
		t.Fatalf("%d sheets awarded", len(sheets))
	}
	for _, sh := range sheets {
		if sh.XP.Earned != 1 {
			t.Errorf("%s earned %d", sh.Name, sh.XP.Earned)
		}
	}
	evs, err := s.Log(LogFilter{})
	if err != nil {
		t.Fatal(err)
	}
	last := evs[len(evs)-1].CommandID
	n := 0
	for _, e := range evs {
		if e.CommandID == last {
			n++
		}
	}
	if n != 4 { // plotword.acquired + three xp.awarded
		t.Fatalf("the plotword command has %d events, want 4", n)
	}
}

// TestSpendPricesEachLevel checks a multi-level spend records one priced
// event per level (worked example 6 across editions).
func TestSpendPricesEachLevel(t *testing.T) {
	for _, tc := range []struct {
		ed     rules.Edition
		prices []int
	}{
		{rules.Edition2010, []int{10, 11}}, // next level: IQ 9→10 costs 10, 10→11 costs 11
		{rules.Edition2020, []int{15, 16}}, // next level + 5
		{rules.Edition2021, []int{15, 16}}, // current level + 6
	} {
		t.Run(string(tc.ed), func(t *testing.T) {
			s := newCampaign(t, tc.ed)
			mustCreate(t, s, "Ajax", 12, 11, 9)
			if _, err := s.AwardXP([]string{"Ajax"}, 40, "r"); err != nil {
				t.Fatal(err)
			}
			res, err := s.SpendXP(Spend{Character: "Ajax", Target: "iq", Levels: 2})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Spends) != 2 || res.Spends[0].Price != tc.prices[0] || res.Spends[1].Price != tc.prices[1] {
				t.Fatalf("spends %+v, want prices %v", res.Spends, tc.prices)
			}
			if res.Sheet.Attributes.IQ != 11 || res.Sheet.XP.Unspent != 40-tc.prices[0]-tc.prices[1] {
				t.Fatalf("sheet after spend: IQ %d, unspent %d", res.Sheet.Attributes.IQ, res.Sheet.XP.Unspent)
			}
		})
	}
}

// TestCap2020 checks the human maximum of 42 attribute points in 2020 only.
func TestCap2020(t *testing.T) {
	for _, ed := range []rules.Edition{rules.Edition2020, rules.Edition2021} {
		s := newCampaign(t, ed)
		mustCreate(t, s, "Ajax", 12, 11, 9) // 32 points
		if _, err := s.AwardXP([]string{"Ajax"}, 1000, "r"); err != nil {
			t.Fatal(err)
		}
		// Ten levels reach exactly 42: allowed in every edition.
		if _, err := s.SpendXP(Spend{Character: "Ajax", Target: "ST", Levels: 10}); err != nil {
			t.Fatalf("%s: raising to 42 points: %v", ed, err)
		}
		before := count(t, s)
		_, err := s.SpendXP(Spend{Character: "Ajax", Target: "DX", Levels: 1})
		if ed == rules.Edition2020 {
			if rules.CodeOf(err) != rules.CodeRule || !strings.Contains(err.Error(), "42") {
				t.Fatalf("2020: raising to 43 points: %v", err)
			}
			if count(t, s) != before {
				t.Fatal("a refused spend appended events")
			}
		} else if err != nil {
			t.Fatalf("%s has no cap: %v", ed, err)
		}
	}
}

// TestContestOnBothStreams checks a contest between two party members is
// recorded on both streams, and a karma re-roll of one side keeps the other's
// dice.
func TestContestOnBothStreams(t *testing.T) {
	s := newCampaign(t, rules.Edition2020)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	mustCreate(t, s, "Hector", 11, 12, 9)
	// Worked example 3 [2020]: Ajax 13 over ST 12; Hector 9 wins.
	res, err := s.Contest(ContestRequest{Sides: [2]string{"Ajax:ST", "Hector:ST"}, Faces: [2][]int{{6, 4, 3}, {3, 3, 3}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Events) != 2 || res.Events[0].Stream == res.Events[1].Stream || res.Events[0].CommandID != res.Events[1].CommandID {
		t.Fatalf("contest events %+v", res.Events)
	}
	if res.Contest.Winner != 1 || res.Contest.Outcome != "win" {
		t.Fatalf("contest %+v", res.Contest)
	}
	if _, err := s.GrantKarma("Ajax", 1, ""); err != nil {
		t.Fatal(err)
	}
	rr, err := s.Reroll(RerollRequest{Roll: res.Events[0].ID, Faces: []int{4, 4, 3}})
	if err != nil {
		t.Fatal(err)
	}
	c := rr.Contest
	if c == nil || c.Winner != 0 || c.Sides[0].Total != 11 || c.Sides[1].Total != 9 {
		t.Fatalf("re-rolled contest %+v", c)
	}
	if len(rr.Events) != 3 { // karma.spent + the contest on both streams
		t.Fatalf("reroll appended %d events", len(rr.Events))
	}
	// Hector's stream points at Hector's own copy of the first contest.
	if p, err := events.Decode(rr.Events[2]); err != nil || p.(*events.ContestResolved).Rerolls != res.Events[1].ID {
		t.Fatalf("Hector's re-rolled contest: %+v %v", p, err)
	}
	// Hector cannot re-roll the first contest any more: it was replaced.
	if _, err := s.GrantKarma("Hector", 1, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reroll(RerollRequest{Roll: res.Events[1].ID}); rules.CodeOf(err) != rules.CodeRule {
		t.Fatalf("re-rolling a replaced contest: %v", err)
	}
}

// TestWishAsKarma2010 checks a wish stands in for a karma point in 2010.
func TestWishAsKarma2010(t *testing.T) {
	s := newCampaign(t, rules.Edition2010)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	if _, err := s.GrantWish("Ajax", 1, ""); err != nil {
		t.Fatal(err)
	}
	r, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Ajax", Faces: []int{6, 6, 6}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reroll(RerollRequest{Roll: r.Event.ID}); err == nil || !strings.Contains(err.Error(), "--wish") {
		t.Fatalf("2010 reroll without karma should hint at --wish: %v", err)
	}
	rr, err := s.Reroll(RerollRequest{Roll: r.Event.ID, UseWish: true, Faces: []int{1, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if rr.Spent != "wish" || rr.Roll.Outcome != "pass" {
		t.Fatalf("reroll %+v", rr)
	}
	sh, err := s.Sheet("Ajax")
	if err != nil {
		t.Fatal(err)
	}
	if sh.Wishes != 0 {
		t.Fatalf("wishes left %d", sh.Wishes)
	}
}

// TestCurseWorsensChecksAndDamage checks the curse modifier on a check and a
// damage roll.
func TestCurseWorsensChecksAndDamage(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	if _, err := s.AddCurse("Ajax", 2, "the idol"); err != nil {
		t.Fatal(err)
	}
	r, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Ajax", Faces: []int{1, 3, 6}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Roll.Total != 12 || r.Roll.Outcome != "fail" {
		t.Fatalf("cursed 3/DX 1,3,6: total %d %s, want 12 fail", r.Roll.Total, r.Roll.Outcome)
	}
	d, err := s.Roll(RollRequest{Expr: "2d6-1", Character: "Ajax", Faces: []int{5, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if d.Roll.Total != 4 {
		t.Fatalf("cursed 2d6-1 5,2: %d, want 4", d.Roll.Total)
	}
}

// TestDemo checks the demo story runs on any store and ends where the README and docs/tour.md
// says.
func TestDemo(t *testing.T) {
	s := newCampaign(t, rules.DefaultEdition)
	if _, err := s.PlayDemo(); err != nil {
		t.Fatal(err)
	}
	ajax, err := s.Sheet("Ajax")
	if err != nil {
		t.Fatal(err)
	}
	if ajax.Attributes.ST != 13 || ajax.XP.Unspent != 3 || ajax.Karma != 0 {
		t.Fatalf("Ajax after the demo: %+v", ajax)
	}
}

// TestRerollKeepsTheRollsConditions checks a re-roll is decided under the
// conditions of the roll it replaces, not the sheet as it is later.
func TestRerollKeepsTheRollsConditions(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9, "Medic:2")
	r, err := s.Roll(RollRequest{Expr: "3/IQ+Medic", Character: "Ajax", Faces: []int{6, 6, 6}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Roll.Target != 11 || r.Roll.AttributeValue != 9 || r.Roll.SkillLevel != 2 {
		t.Fatalf("roll conditions %+v", r.Roll)
	}
	// Later the character is cursed and learns more Medic.
	if _, err := s.AddCurse("Ajax", 1, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AwardXP([]string{"Ajax"}, 10, "r"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SpendXP(Spend{Character: "Ajax", Target: "skill:Medic", Levels: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GrantKarma("Ajax", 1, ""); err != nil {
		t.Fatal(err)
	}
	rr, err := s.Reroll(RerollRequest{Roll: r.Event.ID, Faces: []int{4, 4, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if rr.Roll.Target != 11 || rr.Roll.Total != 11 || rr.Roll.Outcome != "pass" || rr.Roll.Curses != 0 {
		t.Fatalf("re-roll under the original conditions: %+v", rr.Roll)
	}
	// A fresh roll now carries the curse and Medic 3.
	fresh, err := s.Roll(RollRequest{Expr: "3/IQ+Medic", Character: "Ajax", Faces: []int{4, 4, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if fresh.Roll.Target != 12 || fresh.Roll.Total != 12 || fresh.Roll.Curses != 1 {
		t.Fatalf("fresh roll %+v", fresh.Roll)
	}
}

// TestReplayFindsNothingInAGoodLog replays the demo, a 2010 story with a
// wish re-roll, and a contest re-roll, and expects no violation.
func TestReplayFindsNothingInAGoodLog(t *testing.T) {
	s := newCampaign(t, rules.DefaultEdition)
	if _, err := s.PlayDemo(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Roll(RollRequest{Expr: "d6"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GrantKarma("Hector", 1, ""); err != nil {
		t.Fatal(err)
	}
	c, err := s.Contest(ContestRequest{Sides: [2]string{"Ajax:ST", "Hector:ST"}, Faces: [2][]int{{1, 1, 1}, {2, 2, 2}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reroll(RerollRequest{Roll: c.Events[1].ID, Faces: []int{1, 1, 1}}); err != nil {
		t.Fatal(err)
	}
	log, err := s.Store().Read(events.Query{})
	if err != nil {
		t.Fatal(err)
	}
	w := projections.Replay(log, nil)
	if len(w.Violations) != 0 {
		t.Fatalf("violations in a good log: %+v", w.Violations)
	}
	ajax, _ := s.Sheet("Ajax")
	if got := *w.Sheets[ajax.ID]; got.XP != ajax.XP || got.Attributes != ajax.Attributes {
		t.Fatalf("replayed Ajax %+v, sheet %+v", got, ajax)
	}

	s10 := newCampaign(t, rules.Edition2010)
	mustCreate(t, s10, "Ajax", 12, 11, 9)
	if _, err := s10.GrantWish("Ajax", 1, ""); err != nil {
		t.Fatal(err)
	}
	r, err := s10.Roll(RollRequest{Expr: "3/DX", Character: "Ajax", Faces: []int{6, 6, 6}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s10.Reroll(RerollRequest{Roll: r.Event.ID, UseWish: true}); err != nil {
		t.Fatal(err)
	}
	log, err = s10.Store().Read(events.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if w := projections.Replay(log, nil); len(w.Violations) != 0 {
		t.Fatalf("violations in a good 2010 log: %+v", w.Violations)
	}
}
