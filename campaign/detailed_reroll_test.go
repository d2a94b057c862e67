package campaign

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// wrenParty is the Wren with Mara (at the cockpit) a party character
// with karma; Jon, at the bridge, is a stranger unless jon is set.
func wrenParty(t *testing.T, roller rules.Roller, jon bool) *Service {
	t.Helper()
	s := shipCampaign(t, roller, "Wren", wren())
	mustCreate(t, s, "Mara", 10, 12, 10)
	if _, err := s.GrantKarma("Mara", 1, "a good deed"); err != nil {
		t.Fatal(err)
	}
	if jon {
		mustCreate(t, s, "Jon", 12, 10, 10)
		if _, err := s.GrantKarma("Jon", 2, "a good deed"); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func karmaOf(t *testing.T, s *Service, name string) int {
	t.Helper()
	sh, err := s.Sheet(name)
	if err != nil {
		t.Fatal(err)
	}
	return sh.Karma
}

func mustReroll(t *testing.T, s *Service, req RerollRequest) RerollResult {
	t.Helper()
	res, err := s.Reroll(req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestDetailedRerollConsciousness: Mara fails her consciousness roll at a
// cockpit hit (a 9 over her 8) and spends her karma point to roll again:
// the hit is made again in its place with her new die, and she is awake.
// Both hits stay in the log; the ship counts one; undo takes it back,
// karma and all.
func TestDetailedRerollConsciousness(t *testing.T) {
	s := wrenParty(t, nil, false)
	hit := wrenHit(t, s, 2, 1, []int{9})
	if c := crewman(t, hit.Ship, "Mara"); c.Status != "unconscious" {
		t.Fatalf("Mara %+v", c)
	}
	res := mustReroll(t, s, RerollRequest{Roll: fmt.Sprint(hit.Events[0].Seq), Faces: []int{3}})
	if res.Spent != "karma" || res.DetailedHit == nil || res.DetailedShip == nil {
		t.Fatalf("result %+v", res)
	}
	h := res.DetailedHit
	if h.Rerolls != hit.Events[0].ID || h.RerolledBy != "Mara" || h.RerolledRoll != 1 || h.RerolledDie != 0 {
		t.Fatalf("re-roll marks %+v", h.DetailedReroll)
	}
	if r := h.CrewRolls; len(r) != 1 || !equalInts(r[0].Faces, []int{3}) || !r[0].Entered || r[0].Status != "conscious" {
		t.Fatalf("crew rolls %+v", r)
	}
	if !slices.Equal(h.Destroyed, hit.Hit.Destroyed) || h.Column != 1 || h.Points != 2 {
		t.Fatalf("the re-rolled hit did other damage: %+v", h)
	}
	if c := crewman(t, *res.DetailedShip, "Mara"); c.Status != "conscious" {
		t.Fatalf("Mara after the re-roll %+v", c)
	}
	if v := res.DetailedShip.View(); v.Hits != 1 {
		t.Fatalf("hits %d, want 1 (the re-roll replaces the hit)", v.Hits)
	}
	if k := karmaOf(t, s, "Mara"); k != 0 {
		t.Fatalf("karma %d after the re-roll", k)
	}
	if len(res.Events) != 2 || res.Events[0].Type != events.TypeKarmaSpent || res.Events[1].Type != events.TypeDetailedShipHit {
		t.Fatalf("events %v", res.Events)
	}
	desc := projections.Describe(res.Events[1], func(string) (int64, bool) { return hit.Events[0].Seq, true })
	if !strings.Contains(desc, "karma re-roll of Mara's roll 1 of seq") || !strings.Contains(desc, "[1] consciousness by Mara") {
		t.Fatalf("log line %q", desc)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify %+v", rep.Violations)
	}
	// The re-roll is the latest event now: it can be re-rolled again, but
	// not the hit it replaced.
	if _, err := s.Reroll(RerollRequest{Roll: fmt.Sprint(hit.Events[0].Seq)}); err == nil || !strings.Contains(err.Error(), "no longer Wren's latest event") {
		t.Fatalf("re-roll of the replaced hit: %v", err)
	}
	if _, err := s.Undo(UndoRequest{Target: res.Events[0].CommandID, Reason: "table talk"}); err != nil {
		t.Fatal(err)
	}
	sh, err := s.DetailedShip("Wren", "")
	if err != nil {
		t.Fatal(err)
	}
	if c := crewman(t, sh, "Mara"); c.Status != "unconscious" {
		t.Fatalf("Mara after the undo %+v", c)
	}
	if k := karmaOf(t, s, "Mara"); k != 1 {
		t.Fatalf("karma %d after the undo", k)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify after undo %+v", rep.Violations)
	}
}

// TestDetailedRerollWoundChangesWake: Jon is wounded at the end of a turn
// and falls unconscious (a 9 on his consciousness die), so he makes a
// wake roll. Re-rolling only his consciousness die (--which 1.2) keeps
// the wound; awake, he makes no wake roll, and the wake die is dropped.
// Re-rolling the wound die instead keeps his consciousness die.
func TestDetailedRerollWoundChangesWake(t *testing.T) {
	for _, tc := range []struct {
		name    string
		which   string
		faces   []int
		rolled  []int // the roller's dice after the entered ones
		wounded bool
		status  string
		wake    int
		dice    []int // of Jon's wound roll
	}{
		{"consciousness die", "1.2", []int{2}, nil, true, "conscious", 0, []int{1, 2}},
		{"wound die, unhurt", "1", []int{10}, nil, false, "conscious", 0, []int{10}},
		{"wound die, wounded again", "1", []int{2}, nil, true, "unconscious", 1, []int{2, 9}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := wrenParty(t, rules.NewGivenFaces(tc.rolled), true)
			wrenHit(t, s, 2, 4, nil) // the bridge
			turn, err := s.DetailedShipTurnEnd("Wren", []int{1, 9, 9})
			if err != nil {
				t.Fatal(err)
			}
			if r := turn.Turn.Rolls; len(r) != 1 || r[0].Crew != "Jon" || !r[0].Wounded || r[0].Status != "unconscious" || len(turn.Turn.Wake) != 1 {
				t.Fatalf("turn %+v", turn.Turn)
			}
			before := count(t, s)
			res := mustReroll(t, s, RerollRequest{Roll: fmt.Sprint(turn.Events[0].Seq), Which: tc.which, Faces: tc.faces})
			tr := res.DetailedTurn
			if tr == nil || len(tr.Rolls) != 1 {
				t.Fatalf("turn %+v", tr)
			}
			r := tr.Rolls[0]
			if r.Wounded != tc.wounded || r.Status != tc.status || !equalInts(r.Faces, tc.dice) || len(tr.Wake) != tc.wake {
				t.Fatalf("re-rolled turn: %+v, wake %+v", r, tr.Wake)
			}
			if count(t, s) != before+2 {
				t.Fatalf("appended %d events, want 2", count(t, s)-before)
			}
			if k := karmaOf(t, s, "Jon"); k != 1 {
				t.Fatalf("Jon's karma %d", k)
			}
			if rep := mustVerify(t, s); !rep.OK {
				t.Fatalf("verify %+v", rep.Violations)
			}
		})
	}
}

// TestDetailedRerollCollapse: the pilot makes the structural collapse
// roll (book l.466); Mara, at the cockpit, fails it (1 against 1 lost)
// and the chart blows the ship up after a delay (6): she ejects. She
// re-rolls the chart die: the ship breaks up instead. Or she re-rolls the
// roll itself and the chart die is dropped.
func TestDetailedRerollCollapse(t *testing.T) {
	for _, tc := range []struct {
		which   string
		faces   []int
		breakup string
		dice    []int
	}{
		{"1.2", []int{2}, "breaks_up", []int{1, 2}},
		{"Mara", []int{5}, "none", []int{5}},
	} {
		t.Run(tc.which, func(t *testing.T) {
			s := wrenParty(t, nil, false)
			wrenHit(t, s, 4, 9, nil) // armour, powerplant twice, Ship Destroyed
			turn, err := s.DetailedShipTurnEnd("Wren", []int{1, 6})
			if err != nil {
				t.Fatal(err)
			}
			if r := turn.Turn.Rolls; len(r) != 1 || r[0].Kind != "structural_collapse" || r[0].Crew != "Mara" || !turn.Ship.View().Exploded ||
				!slices.Equal(turn.Turn.Ejected, []string{"Mara", "Jon"}) {
				t.Fatalf("turn %+v", turn.Turn)
			}
			res := mustReroll(t, s, RerollRequest{Roll: fmt.Sprint(turn.Events[0].Seq), Which: tc.which, Faces: tc.faces})
			r := res.DetailedTurn.Rolls[0]
			if r.Breakup != tc.breakup || !equalInts(r.Faces, tc.dice) || res.DetailedShip.View().Exploded {
				t.Fatalf("re-rolled %+v, exploded %v", r, res.DetailedShip.View().Exploded)
			}
			if rep := mustVerify(t, s); !rep.OK {
				t.Fatalf("verify %+v", rep.Violations)
			}
		})
	}
}

// TestDetailedRerollKeepsDeaths: a re-roll that would leave alive a
// crewman the replaced event killed, and who is dead on his sheet, is
// refused: karma does not bring the dead back (undo does).
func TestDetailedRerollKeepsDeaths(t *testing.T) {
	s := wrenParty(t, nil, false)
	wrenHit(t, s, 4, 9, nil)
	turn, err := s.DetailedShipTurnEnd("Wren", []int{1, 9}) // the ship explodes at once
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(turn.Killed, []string{"Mara"}) || !dead(t, s, "Mara") {
		t.Fatalf("killed %v", turn.Killed)
	}
	before := count(t, s)
	_, err = s.Reroll(RerollRequest{Roll: fmt.Sprint(turn.Events[0].Seq), Which: "1.2", Faces: []int{2}})
	if rules.CodeOf(err) != rules.CodeRule || !strings.Contains(err.Error(), "cannot bring him back") || count(t, s) != before {
		t.Fatalf("re-roll of the blast that killed Mara: %v", err)
	}
}

// TestDetailedRerollRefusals: what karma cannot re-roll is refused with
// the reason, and appends nothing.
func TestDetailedRerollRefusals(t *testing.T) {
	s := wrenParty(t, nil, false)
	if _, err := s.AddFoe(NewFoe{Name: "Jon", Attributes: rules.Attributes{ST: 10, DX: 10, IQ: 10}}); err != nil {
		t.Fatal(err)
	}
	maraHit := wrenHit(t, s, 2, 1, []int{9})
	seq := fmt.Sprint(maraHit.Events[0].Seq)
	for _, tc := range []struct {
		name string
		req  RerollRequest
		want string
	}{
		{"second die of a one-die roll", RerollRequest{Roll: seq, Which: "1.2"}, "rolled one die"},
		{"no such roll", RerollRequest{Roll: seq, Which: "3"}, "made 1 roll"},
		{"nobody's name", RerollRequest{Roll: seq, Which: "Zed"}, "Zed made no roll"},
		{"dice left over", RerollRequest{Roll: seq, Faces: []int{3, 4}}, "the rolls took 1"},
		{"damage dice", RerollRequest{Roll: seq, DamageFaces: []int{3}}, "--damage-dice"},
	} {
		t.Run(tc.name, func(t *testing.T) { refuseReroll(t, s, tc.req, tc.want) })
	}
	// Jon (a foe) at the bridge: his wound roll is no karma's.
	wrenHit(t, s, 2, 4, nil)
	turn, err := s.DetailedShipTurnEnd("Wren", []int{1, 9, 9, 9})
	if err != nil {
		t.Fatal(err)
	}
	tseq := fmt.Sprint(turn.Events[0].Seq)
	for _, tc := range []struct {
		name string
		req  RerollRequest
		want string
	}{
		{"a foe's roll", RerollRequest{Roll: tseq, Which: "1"}, "is a foe"},
		{"a crewman with two rolls", RerollRequest{Roll: tseq, Which: "Jon"}, "name one with --which N"},
		{"a replaced hit", RerollRequest{Roll: seq}, "no longer Wren's latest event"},
	} {
		t.Run(tc.name, func(t *testing.T) { refuseReroll(t, s, tc.req, tc.want) })
	}
	// Mara's wake roll is hers: she spends her one karma point, and then
	// has none for another.
	mustReroll(t, s, RerollRequest{Roll: tseq, Which: "Mara"})
	refuseReroll(t, s, RerollRequest{Roll: fmt.Sprint(count(t, s)), Which: "Mara"}, "no karma")
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify %+v", rep.Violations)
	}
}

// refuseReroll asks for a re-roll the program must refuse with want in
// its message, appending nothing.
func refuseReroll(t *testing.T, s *Service, req RerollRequest, want string) {
	t.Helper()
	before := count(t, s)
	if _, err := s.Reroll(req); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err %v, want %q", err, want)
	}
	if count(t, s) != before {
		t.Fatal("a refused re-roll appended")
	}
}

// TestVerifyCatchesForgedDetailedReroll: a re-rolling hit appended without
// karma, one paid for by another character, one that changed the hit's
// column, one that changed the dice of a roll it did not re-roll, and one
// that replaces a hit that is not the ship's latest are each caught.
func TestVerifyCatchesForgedDetailedReroll(t *testing.T) {
	for _, tc := range []struct {
		name  string
		payer string // "" for none
		later bool   // another hit comes between
		edit  func(h *events.DetailedShipHit)
		want  string
	}{
		{"unpaid", "", false, func(h *events.DetailedShipHit) {}, "no karma or wish spent"},
		{"paid by another", "Jon", false, func(h *events.DetailedShipHit) {}, "a re-roll of Mara's roll paid for by someone else"},
		{"other column", "Mara", false, func(h *events.DetailedShipHit) { h.Column = 2 }, "column or turret dice differ"},
		{"another's roll", "Mara", false, func(h *events.DetailedShipHit) { h.RerolledBy = "Jon" }, `recorded as "Jon"'s`},
		{"not the latest", "Mara", true, func(h *events.DetailedShipHit) {}, "not the ship's latest event"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := wrenParty(t, nil, true)
			hit := wrenHit(t, s, 2, 1, []int{9})
			forged := hit.Hit
			forged.CrewRolls = append([]events.DetailedShipRoll(nil), hit.Hit.CrewRolls...)
			forged.CrewRolls[0].Faces, forged.CrewRolls[0].Status = []int{3}, "conscious"
			forged.DetailedReroll = events.DetailedReroll{Rerolls: hit.Events[0].ID, RerolledBy: "Mara", RerolledRoll: 1}
			tc.edit(&forged)
			if tc.later {
				wrenHit(t, s, 1, 9, nil)
			}
			var evs []rawEvent
			if tc.payer != "" {
				sh, err := s.Sheet(tc.payer)
				if err != nil {
					t.Fatal(err)
				}
				evs = append(evs, rawEvent{events.CharacterStream(sh.ID), events.KarmaSpent{Amount: 1, For: "reroll", RollID: hit.Events[0].ID, Which: "roll 1"}})
			}
			evs = append(evs, rawEvent{hit.Events[0].Stream, forged})
			got := appendRawCommand(t, s, nil, evs...)
			rep := mustVerify(t, s)
			found := false
			for _, v := range rep.Violations {
				if v.CommandID == got[0].CommandID && strings.Contains(v.Problem, tc.want) {
					found = true
				}
			}
			if !found {
				t.Fatalf("violations %+v, want %q", rep.Violations, tc.want)
			}
		})
	}
}
