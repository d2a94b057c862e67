package campaign

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events/sqlitestore"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// mustWhatIf replays s under ed (as of asOf) and checks it wrote nothing.
func mustWhatIf(t *testing.T, s *Service, ed rules.Edition, asOf string) projections.WhatIfReport {
	t.Helper()
	before := count(t, s)
	rep, err := s.WhatIf(WhatIfQuery{Edition: string(ed), AsOf: asOf})
	if err != nil {
		t.Fatalf("WhatIf(%s, %q): %v", ed, asOf, err)
	}
	if n := count(t, s); n != before {
		t.Fatalf("WhatIf(%s) appended %d events", ed, n-before)
	}
	if rep.Under != string(ed) {
		t.Errorf("under %q, want %q", rep.Under, ed)
	}
	return rep
}

// whatIfOf finds a character in a what-if report.
func whatIfOf(t *testing.T, rep projections.WhatIfReport, name string) projections.WhatIfCharacter {
	t.Helper()
	for _, c := range rep.Characters {
		if c.Character == name {
			return c
		}
	}
	t.Fatalf("no %s in the report: %+v", name, rep.Characters)
	return projections.WhatIfCharacter{}
}

// diffsText writes differences as "field real→would; ...".
func diffsText(ds []projections.WhatIfDifference) string {
	var b []string
	for _, d := range ds {
		b = append(b, fmt.Sprintf("%s %s→%s", d.Field, d.Real, d.WouldBe))
	}
	return strings.Join(b, "; ")
}

// wantReplayedExactly asserts that a replay under the campaign's own
// edition changes nobody and reports no command.
func wantReplayedExactly(t *testing.T, s *Service) {
	t.Helper()
	ed, err := s.Edition()
	if err != nil {
		t.Fatal(err)
	}
	rep := mustWhatIf(t, s, ed, "")
	if rep.Edition != string(ed) || len(rep.Carried) != 0 {
		t.Errorf("edition %q, carried %v", rep.Edition, rep.Carried)
	}
	if len(rep.Commands) != 0 {
		t.Errorf("%d commands reported under the own edition, first %+v", len(rep.Commands), rep.Commands[0])
	}
	sheets, err := s.Sheets()
	if err != nil {
		t.Fatal(err)
	}
	foes, err := s.AllFoeSheets()
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Characters) != len(sheets)+len(foes) || len(sheets) == 0 {
		t.Errorf("%d characters in the report, %d party members and %d foes in the campaign", len(rep.Characters), len(sheets), len(foes))
	}
	for _, c := range rep.Characters {
		if len(c.Differences) != 0 || c.StoppedAt != 0 || c.NotReplayed != 0 {
			t.Errorf("%s under the own edition: %s, stopped at %d, %d not replayed", c.Character, diffsText(c.Differences), c.StoppedAt, c.NotReplayed)
		}
	}
}

// TestWhatIfOwnEditionIsTheLog: replayed under its own edition, a
// campaign comes out as the log has it: the demo, a generated campaign
// and a random evening of play, in every edition.
func TestWhatIfOwnEditionIsTheLog(t *testing.T) {
	for _, ed := range rules.Editions() {
		t.Run(string(ed)+"/demo", func(t *testing.T) {
			s := diceFile(t, ed, nil)
			if _, err := s.PlayDemo(); err != nil {
				t.Fatal(err)
			}
			wantReplayedExactly(t, s)
		})
		t.Run(string(ed)+"/generated", func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "gen.ltscamp")
			start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			st, err := sqlitestore.Create(path, sqlitestore.Options{Now: func() time.Time { return start }})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Generate(st, GenerateOptions{Characters: 5, EventsPerCharacter: 300, EventsPerCommand: 20, Seed: 11, Start: start, Edition: ed}); err != nil {
				t.Fatal(err)
			}
			s, err := New(st, Options{VerifyKept: true, Now: fixedClock(), Actor: "gm"})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			wantReplayedExactly(t, s)
		})
		for seed := uint64(1); seed <= 2; seed++ {
			t.Run(fmt.Sprintf("%s/play%d", ed, seed), func(t *testing.T) {
				s := newCampaign(t, ed)
				kinds := randomPlay(t, s, seed, 250)
				// The play must have done what it claims to test.
				for _, k := range []string{"check", "skill check", "damage roll", "award", "spend", "reroll", "damage", "rest", "undo", "contest"} {
					if kinds[k] == 0 {
						t.Errorf("the play made no %s that stood: %v", k, kinds)
					}
				}
				wantReplayedExactly(t, s)
				// Under another edition the same play does change: the
				// replay above had decisions to make.
				other := rules.Edition2010
				if ed == other {
					other = rules.Edition2021
				}
				if rep := mustWhatIf(t, s, other, ""); len(rep.Commands) == 0 {
					t.Errorf("the play replayed under %s changes nothing", other)
				}
				if rep := mustVerify(t, s); !rep.OK {
					t.Errorf("the play's log fails verify: %+v", rep.Violations)
				}
			})
		}
	}
}

// randomPlay plays steps random commands on s: checks, skill checks and
// damage rolls with random faces, XP awarded and spent, karma and its
// re-rolls, damage, rest, days and undo. It returns how many of each kind
// the rules let through.
func randomPlay(t *testing.T, s *Service, seed uint64, steps int) map[string]int {
	t.Helper()
	mustCreate(t, s, "Ajax", 12, 11, 9, "Unarmed:2", "Medic:2")
	mustCreate(t, s, "Hector", 11, 12, 9, "Swimming:1")
	mustCreate(t, s, "Brann", 10, 11, 11)
	if _, err := s.AdventureStart("The long one"); err != nil {
		t.Fatal(err)
	}
	names := []string{"Ajax", "Hector", "Brann"}
	r := rand.New(rand.NewPCG(seed, 7))
	dice := func(n int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = 1 + r.IntN(6)
		}
		return out
	}
	// failed are the failed checks in effect, to re-roll (Reroll takes an
	// undone roll too, which verify then reports: see the report).
	type rolled struct{ id, command string }
	var failed []rolled
	kinds := map[string]int{}
	for step := range steps {
		who := names[r.IntN(len(names))]
		var err error
		var kind string
		switch k := r.IntN(14); {
		case k < 3:
			kind = "check"
			var res RollResult
			res, err = s.Roll(RollRequest{Expr: []string{"3/DX", "3/ST", "3/IQ", "4/IQ"}[r.IntN(4)], Character: who, Faces: dice(3 + boolInt(k == 2 && r.IntN(2) == 0))})
			if err != nil && strings.Contains(err.Error(), "face") {
				err = nil // 4/IQ given three faces, or the other way round
			} else if err == nil && res.Roll.Outcome == "fail" {
				failed = append(failed, rolled{res.Event.ID, res.Event.CommandID})
			}
		case k == 3:
			kind = "skill check"
			var res RollResult
			res, err = s.Roll(RollRequest{Expr: []string{"3/ST+Unarmed", "3/IQ+Medic", "3/ST against Swimming"}[r.IntN(3)], Character: who, Faces: dice(3)})
			if err == nil && res.Roll.Outcome == "fail" && len(res.Roll.Faces) > 0 {
				failed = append(failed, rolled{res.Event.ID, res.Event.CommandID})
			}
		case k == 4:
			kind = "damage roll"
			_, err = s.Roll(RollRequest{Expr: "2d6-1", Character: who, Faces: dice(2)})
		case k == 5:
			kind = "award"
			_, err = s.AwardXP([]string{who}, 1+r.IntN(20), "play")
		case k == 6:
			kind = "spend"
			_, err = s.SpendXP(Spend{Character: who, Target: []string{"ST", "DX", "IQ", "skill:Medic", "skill:Swimming"}[r.IntN(5)], Levels: 1})
		case k == 7:
			kind = "karma"
			_, err = s.GrantKarma(who, 1+r.IntN(2), "luck")
		case k == 8 && len(failed) > 0:
			kind = "reroll"
			_, err = s.Reroll(RerollRequest{Roll: failed[r.IntN(len(failed))].id, Faces: dice(3)})
		case k == 9:
			kind = "damage"
			_, _, err = s.Damage(DamageRequest{Name: who, Points: 1 + r.IntN(3), IgnoreArmor: true, Source: "fall"})
		case k == 10:
			kind = "rest"
			_, err = s.Rest(RestRequest{Days: 1 + r.IntN(8), Conditions: rules.RestConditions{StayedPut: true, Sheltered: true, Provisioned: true, NoStrenuous: r.IntN(4) > 0}})
		case k == 11:
			kind = "day"
			_, err = s.DayNext(1)
		case k == 12:
			kind = "undo"
			var u UndoResult
			if u, err = s.Undo(UndoRequest{Reason: "oops"}); err == nil {
				for _, c := range u.Reverted {
					failed = slices.DeleteFunc(failed, func(f rolled) bool { return f.command == c.ID })
				}
			}
		default:
			kind = "contest"
			_, err = s.Contest(ContestRequest{Sides: [2]string{who + ":ST", names[r.IntN(len(names))] + ":DX"}, Faces: [2][]int{dice(3), dice(3)}})
		}
		switch c := rules.CodeOf(err); {
		case err == nil:
			kinds[kind]++
		case c == rules.CodeRule || c == rules.CodeInvalid || c == rules.CodeConflict:
			// refused by the rules: nothing appended
		default:
			t.Fatalf("step %d (%s %s): %v (code %q)", step, kind, who, err, c)
		}
	}
	return kinds
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// whatIfSpend is a campaign of ed: Ajax (ST 12) is awarded 30 XP and
// raises ST once. It returns the spend's seq.
func whatIfSpend(t *testing.T, ed rules.Edition) (*Service, int64) {
	t.Helper()
	s := diceFile(t, ed, nil)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	mustCreate(t, s, "Hector", 11, 12, 9)
	if _, err := s.AwardXP([]string{"Ajax"}, 30, "start"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SpendXP(Spend{Character: "Ajax", Target: "ST", Levels: 1}); err != nil {
		t.Fatal(err)
	}
	return s, count(t, s)
}

// TestWhatIfPricesTheSpendAgain: a 2021 spend of ST 12→13 (2021 p.2
// "Increasing Attributes": current level + 6 = 18 XP) replayed under 2010
// ("Advancement": XPs equal to the next higher level = 13 XP) and 2020
// ("Increasing Attributes": next level + 5 = 18 XP).
func TestWhatIfPricesTheSpendAgain(t *testing.T) {
	s, spendSeq := whatIfSpend(t, rules.Edition2021)
	real := rules.AttributePrice(rules.Edition2021, 12).XP
	if real != 18 {
		t.Fatalf("2021 ST 12→13 costs %d, the book says 18", real)
	}
	for _, c := range []struct {
		ed   rules.Edition
		book int // the price the edition's book gives
	}{{rules.Edition2010, 13}, {rules.Edition2020, 18}} {
		t.Run(string(c.ed), func(t *testing.T) {
			price := rules.AttributePrice(c.ed, 12).XP
			if price != c.book {
				t.Fatalf("%s: ST 12→13 costs %d, the book says %d", c.ed, price, c.book)
			}
			rep := mustWhatIf(t, s, c.ed, "")
			if rep.Edition != "2021" || rep.Seq != spendSeq || len(rep.Carried) == 0 {
				t.Errorf("edition %q, seq %d (want %d), carried %v", rep.Edition, rep.Seq, spendSeq, rep.Carried)
			}
			ajax := whatIfOf(t, rep, "Ajax")
			want := ""
			if price != real {
				want = fmt.Sprintf("XP spent %d→%d; XP unspent %d→%d", real, price, 30-real, 30-price)
			}
			if got := diffsText(ajax.Differences); got != want || ajax.StoppedAt != 0 || ajax.NotReplayed != 0 {
				t.Errorf("Ajax: %q, stopped at %d; want %q", got, ajax.StoppedAt, want)
			}
			if h := whatIfOf(t, rep, "Hector"); len(h.Differences) != 0 {
				t.Errorf("Hector: %s", diffsText(h.Differences))
			}
			if price == real {
				if len(rep.Commands) != 0 {
					t.Errorf("the same price, yet commands %+v", rep.Commands)
				}
				return
			}
			if len(rep.Commands) != 1 {
				t.Fatalf("commands %+v, want the spend", rep.Commands)
			}
			cmd := rep.Commands[0]
			wantWhat := fmt.Sprintf("ST 12→13 for %d XP under 2021; 12→13 for %d XP under %s", real, price, c.ed)
			if cmd.Kind != projections.WhatIfDiverges || cmd.Seq != spendSeq || cmd.Type != "xp.spent" || cmd.Character != "Ajax" || cmd.What != wantWhat {
				t.Errorf("command %+v, want diverges at seq %d: %q", cmd, spendSeq, wantWhat)
			}
		})
	}

	// As of the award, before the spend, nothing differs.
	rep := mustWhatIf(t, s, rules.Edition2010, fmt.Sprint(spendSeq-1))
	if rep.Seq != spendSeq-1 || len(rep.Commands) != 0 {
		t.Errorf("as of seq %d: seq %d, commands %+v", spendSeq-1, rep.Seq, rep.Commands)
	}
	for _, c := range rep.Characters {
		if len(c.Differences) != 0 {
			t.Errorf("as of seq %d: %s %s", spendSeq-1, c.Character, diffsText(c.Differences))
		}
	}
	if a := whatIfOf(t, rep, "Ajax"); a.Character != "Ajax" {
		t.Errorf("as of the award: %+v", a)
	}
}

// TestWhatIfStopsASpendHeCannotAfford: in 2010 Ajax raises ST twice (13
// and 14 XP, "next level"); under 2021 (current level + 6: 18, then 19)
// the second is beyond the 12 XP he would have left, so his line stops
// there and his later commands are counted, the first ten listed.
func TestWhatIfStopsASpendHeCannotAfford(t *testing.T) {
	s := diceFile(t, rules.Edition2010, nil)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	mustCreate(t, s, "Hector", 11, 12, 9)
	if _, err := s.AwardXP([]string{"Ajax", "Hector"}, 30, "start"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SpendXP(Spend{Character: "Ajax", Target: "ST", Levels: 1}); err != nil {
		t.Fatal(err)
	}
	firstSpend := count(t, s)
	if _, err := s.GrantKarma("Ajax", 1, "luck"); err != nil {
		t.Fatal(err)
	}
	before, err := s.Sheet("Ajax")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SpendXP(Spend{Character: "Ajax", Target: "ST", Levels: 1}); err != nil {
		t.Fatal(err)
	}
	stop := count(t, s)
	// Twelve commands of his after it, and Hector's interleaved.
	for i := range 11 {
		if _, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Ajax", Faces: []int{1 + i%6, 2, 3}}); err != nil {
			t.Fatal(err)
		}
		if i%4 == 0 {
			if _, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Hector", Faces: []int{1, 2, 3}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := s.AwardXP([]string{"Ajax"}, 5, "more"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SpendXP(Spend{Character: "Hector", Target: "DX", Levels: 1}); err != nil { // 13 XP in 2010, 18 in 2021
		t.Fatal(err)
	}

	rep := mustWhatIf(t, s, rules.Edition2021, "")
	ajax := whatIfOf(t, rep, "Ajax")
	if ajax.StoppedAt != stop || ajax.NotReplayed != 12 {
		t.Errorf("Ajax stopped at %d with %d not replayed; want %d and 12", ajax.StoppedAt, ajax.NotReplayed, stop)
	}
	// His would-be sheet is the real one just before the stop, but for
	// the price of the first raise (18 under 2021, 13 in 2010).
	const wantDiffs = "ST 14→13; XP earned 35→30; XP spent 27→18; XP unspent 8→12"
	if got := diffsText(ajax.Differences); got != wantDiffs {
		t.Errorf("Ajax: %s\nwant %s", got, wantDiffs)
	}
	if before.Attributes.ST != 13 || before.XP.Earned != 30 || before.XP.Spent != 13 || before.Karma != 1 {
		t.Fatalf("Ajax before the stop: %+v", before)
	}
	for _, d := range ajax.Differences {
		if d.Field == "karma" || d.Field == "damage" || d.Field == "status" {
			t.Errorf("Ajax's %s differs: %s", d.Field, d)
		}
	}
	var stops, skipped, hector int
	for _, c := range rep.Commands {
		switch {
		case c.Character == "Hector":
			hector++
			if c.Kind != projections.WhatIfDiverges || c.Type != "xp.spent" {
				t.Errorf("Hector's command %+v", c)
			}
		case c.Kind == projections.WhatIfDiverges:
			if c.Seq != firstSpend || c.Character != "Ajax" || c.What != "ST 12→13 for 13 XP under 2010; 12→13 for 18 XP under 2021" {
				t.Errorf("Ajax's first raise: %+v", c)
			}
		case c.Kind == projections.WhatIfStops:
			stops++
			if c.Seq != stop || c.Character != "Ajax" || c.Type != "xp.spent" || !strings.Contains(c.What, "could not afford ST 13→14: it costs 19 XP under 2021, and he would have 12 unspent") {
				t.Errorf("the stop: %+v", c)
			}
		case c.Kind == projections.WhatIfSkipped:
			skipped++
			if c.Seq <= stop || c.Character != "Ajax" || !strings.Contains(c.What, fmt.Sprintf("line stopped at seq %d", stop)) {
				t.Errorf("a skipped command: %+v", c)
			}
		default:
			t.Errorf("command %+v", c)
		}
	}
	if stops != 1 || skipped != 10 || hector != 1 || len(rep.Commands) != 13 {
		t.Errorf("%d stops, %d skipped listed, %d of Hector's, %d in all; want 1, 10, 1 (his raise), 13", stops, skipped, hector, len(rep.Commands))
	}
	// Hector's line goes on to the end: his raise priced again, 13 XP in
	// 2010 and 18 under 2021, which he can afford.
	h := whatIfOf(t, rep, "Hector")
	if h.StoppedAt != 0 || h.NotReplayed != 0 || diffsText(h.Differences) != "XP spent 13→18; XP unspent 17→12" {
		t.Errorf("Hector: stopped at %d, %s", h.StoppedAt, diffsText(h.Differences))
	}
}

// TestWhatIfChecksDecidedAgain: a check against a required skill adds the
// skill's level in 2010 only (2010 "SKILLS": "roll his attribute (+skill)
// or less"; 2021 "SKILLS": the skill is only the prerequisite), so
// Hector's 3/ST against Swimming [4 4 4] (12 against ST 11) fails in 2021
// and would pass in 2010, at 12 with Swimming 1. Rest heals one damage a
// day in 2021 and nothing short of a week in 2010 ("Recovery").
func TestWhatIfChecksDecidedAgain(t *testing.T) {
	s := diceFile(t, rules.Edition2021, nil)
	mustCreate(t, s, "Hector", 11, 12, 9, "Swimming:1")
	if _, err := s.AdventureStart("The river"); err != nil {
		t.Fatal(err)
	}
	r, err := s.Roll(RollRequest{Expr: "3/ST against Swimming", Character: "Hector", Faces: []int{4, 4, 4}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Roll.Outcome != "fail" || r.Roll.Target != 11 {
		t.Fatalf("2021: %+v", r.Roll)
	}
	checkSeq := count(t, s)
	// A plain check is the same in every edition.
	if _, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Hector", Faces: []int{4, 4, 5}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Damage(DamageRequest{Name: "Hector", Points: 5, IgnoreArmor: true, Source: "rocks"}); err != nil {
		t.Fatal(err)
	}
	all := rules.RestConditions{StayedPut: true, Sheltered: true, Provisioned: true, NoStrenuous: true}
	if _, err := s.Rest(RestRequest{Days: 3, Conditions: all}); err != nil {
		t.Fatal(err)
	}
	restSeq := count(t, s)
	if sh, _ := s.Sheet("Hector"); sh.Damage != 2 {
		t.Fatalf("Hector after 3 days of rest in 2021: damage %d, want 2", sh.Damage)
	}

	rep := mustWhatIf(t, s, rules.Edition2010, "")
	if len(rep.Commands) != 2 {
		t.Fatalf("commands %+v, want the check and the rest", rep.Commands)
	}
	check := rep.Commands[0]
	wantCheck := "Hector's 3/ST against Swimming [4 4 4]: fail (12 vs 11) under 2021; would pass (12 vs 12) under 2010"
	if check.Kind != projections.WhatIfDiverges || check.Seq != checkSeq || check.Type != "roll.made" || check.What != wantCheck {
		t.Errorf("the check: %+v\nwant %q at seq %d", check, wantCheck, checkSeq)
	}
	rest := rep.Commands[1]
	if rest.Kind != projections.WhatIfDiverges || rest.Type != "rest.taken" || rest.Seq >= restSeq || !strings.Contains(rest.What, "heals 3 under 2021, 0 under 2010") {
		t.Errorf("the rest: %+v", rest)
	}
	h := whatIfOf(t, rep, "Hector")
	if got := diffsText(h.Differences); got != "damage 2→5" || h.StoppedAt != 0 {
		t.Errorf("Hector would be: %q, stopped at %d; want damage 2→5", got, h.StoppedAt)
	}

	// Under 2020 the check fails as in 2021, the rest heals as in 2021.
	if rep := mustWhatIf(t, s, rules.Edition2020, ""); len(rep.Commands) != 0 || len(whatIfOf(t, rep, "Hector").Differences) != 0 {
		t.Errorf("2020: %+v", rep)
	}
}

// TestWhatIfRefusals: an edition there is none of is a usage error, as is
// a point in the log there is none of; neither writes.
func TestWhatIfRefusals(t *testing.T) {
	s, _ := whatIfSpend(t, rules.Edition2021)
	for _, c := range []struct {
		q    WhatIfQuery
		code rules.Code
		says string
	}{
		{WhatIfQuery{Edition: "1999"}, rules.CodeInvalid, `unknown edition "1999"`},
		{WhatIfQuery{Edition: ""}, rules.CodeInvalid, "unknown edition"},
		{WhatIfQuery{Edition: "2010", AsOf: "yesterday-ish"}, rules.CodeInvalid, "--as-of"},
		{WhatIfQuery{Edition: "2010", AsOf: "999"}, rules.CodeNotFound, "--as-of 999"},
	} {
		before := count(t, s)
		_, err := s.WhatIf(c.q)
		if rules.CodeOf(err) != c.code || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%+v: %v (code %q), want %q naming %q", c.q, err, rules.CodeOf(err), c.code, c.says)
		}
		if count(t, s) != before {
			t.Errorf("%+v: a refused replay appended events", c.q)
		}
	}
}
