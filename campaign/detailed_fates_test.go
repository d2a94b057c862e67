package campaign

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
	"github.com/ltscamp/ltscamp/rules/interceptor"
)

// Issue 21: what the INTERCEPTOR book says happens to a detailed ship's
// crew, and to a ship a structural collapse breaks up, and the hits of
// one point of movement widowing once.

// dead reports whether the character or foe named is dead on his sheet.
func dead(t *testing.T, s *Service, name string) bool {
	t.Helper()
	sh, err := s.Sheet(name)
	if err != nil {
		if sh, err = s.FoeSheet(name); err != nil {
			t.Fatal(err)
		}
	}
	return sh.Dead
}

// cingulumCampaign is the TOG CINGULUM of the book's Bridge example
// (l.355), 50 Bridge boxes behind an unarmoured facing, with one human
// crewman, Ast.
func cingulumCampaign(t *testing.T) *Service {
	t.Helper()
	b := []string{"B", "B", "B", "B", "B", "B", "B", "B", "B", "B"}
	return shipCampaign(t, nil, "Cingulum", interceptor.Spec{
		Name:       "TOG Cingulum",
		Internal:   [][]string{b, b, b, b, b, {"P", "P", "P", "P", "P", "P", "P", "P", "P", "P"}, {"S", "S", "S", "S", "S", "S", "S", "S", "S", "S"}},
		Components: map[string]string{"B": "Bridge", "P": "Powerplant", "S": "Ship Destroyed"},
		Crew:       []interceptor.CrewSpec{{Name: "Ast", Race: "Human", Station: "B"}},
	})
}

// bridgeHits puts three 5-point lasers on the Cingulum's Bridge, in
// columns from first on.
func bridgeHits(t *testing.T, s *Service, first int) {
	t.Helper()
	for col := first; col < first+3; col++ {
		mustHit(t, s, DetailedHitRequest{Ship: "Cingulum", Facing: "forward", Laser: 5, Column: col})
	}
}

// TestDetailedWakeOnTotalHits: the Consciousness Table is rolled on the
// column of the crewman's "TOTAL HITS AT THIS POINT" (book l.360). Ast is
// wounded and knocked out with 15 of 50 Bridge boxes lost (the 2 Hits
// column, l.355) and does not wake. Next turn the Bridge is at 30 of 50
// (60%: 3 hits), his wound roll misses, and he rolls to wake on the 3
// Hits column: a 5 is over its 4, so he stays out (on his last roll's
// column, 6, the 5 would have woken him).
func TestDetailedWakeOnTotalHits(t *testing.T) {
	s := cingulumCampaign(t)
	bridgeHits(t, s, 1)
	res, err := s.DetailedShipTurnEnd("Cingulum", []int{3, 7, 9})
	if err != nil {
		t.Fatal(err)
	}
	if w := res.Turn.Wake; len(w) != 1 || w[0].Column != 2 || w[0].Status != "unconscious" {
		t.Fatalf("first wake roll %+v", w)
	}
	bridgeHits(t, s, 4)
	res, err = s.DetailedShipTurnEnd("Cingulum", []int{7, 5})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Turn.Rolls; len(r) != 1 || r[0].Wounded || r[0].Column != 3 {
		t.Fatalf("second turn's wound roll %+v", r)
	}
	if w := res.Turn.Wake; len(w) != 1 || w[0].Column != 3 || w[0].Number != 4 || w[0].Status != "unconscious" {
		t.Fatalf("wake roll %+v, want the 3 Hits column (4): a 5 leaves him out", w)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify %+v", rep.Violations)
	}
}

// appendRawVersion appends a hand-made event at an older payload version,
// as the program before issue 21 wrote it.
func appendRawVersion(t *testing.T, s *Service, stream string, p events.Payload, version int) events.Event {
	t.Helper()
	id := s.newID()
	pe, err := events.Encode(id, stream, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	pe.PayloadVersion = version
	cmd := events.Command{ID: "cmd-" + id, Actor: "gm", RecordedAt: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
		Expected: map[string]int64{stream: events.AnyVersion}, Events: []events.Pending{pe}}
	res, err := s.store.Append(cmd)
	if err != nil {
		t.Fatal(err)
	}
	return res.Events[0]
}

// TestDetailedOldTurnEndsStillFold: a turn end of payload version 1 woke
// a crewman on the column of his last roll, and still folds and verifies
// so; the same turn end at version 2 is held to the total hits.
func TestDetailedOldTurnEndsStillFold(t *testing.T) {
	s := cingulumCampaign(t)
	bridgeHits(t, s, 1)
	first, err := s.DetailedShipTurnEnd("Cingulum", []int{3, 7, 9})
	if err != nil {
		t.Fatal(err)
	}
	bridgeHits(t, s, 4)
	old := events.DetailedTurnEnded{
		Rolls: []events.DetailedShipRoll{{Kind: "wound", Crew: "Ast", Station: "B", Column: 3, Percent: 60, Faces: []int{7}, Entered: true, Status: "unconscious"}},
		Wake:  []events.DetailedShipRoll{{Kind: "wake", Crew: "Ast", Station: "B", Column: 2, Number: 6, Faces: []int{5}, Entered: true, Status: "conscious"}},
	}
	e := appendRawVersion(t, s, first.Events[0].Stream, old, 1)
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("a version 1 turn end: %+v", rep.Violations)
	}
	sh, err := s.DetailedShip("Cingulum", "")
	if err != nil {
		t.Fatal(err)
	}
	if c := crewman(t, sh, "Ast"); c.Status != "conscious" {
		t.Fatalf("Ast after the old turn end: %+v", c)
	}
	if e.PayloadVersion != 1 {
		t.Fatalf("appended at version %d", e.PayloadVersion)
	}
	s = cingulumCampaign(t)
	bridgeHits(t, s, 1)
	if first, err = s.DetailedShipTurnEnd("Cingulum", []int{3, 7, 9}); err != nil {
		t.Fatal(err)
	}
	bridgeHits(t, s, 4)
	bad := appendRawVersion(t, s, first.Events[0].Stream, old, 2)
	rep := mustVerify(t, s)
	if rep.OK || len(rep.Violations) != 1 || rep.Violations[0].Seq != bad.Seq || !strings.Contains(rep.Violations[0].Problem, "column 3") {
		t.Fatalf("a version 2 turn end waking on the last roll's column: %+v", rep.Violations)
	}
}

// wrenCrew is the Wren with Mara (cockpit) a party character and Jon
// (bridge) a foe.
func wrenCrew(t *testing.T) *Service {
	t.Helper()
	s := wrenParty(t, nil, false)
	if _, err := s.AddFoe(NewFoe{Name: "Jon", Attributes: rules.Attributes{ST: 10, DX: 10, IQ: 10}}); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDetailedBreakUp: "1 - 4: The ship breaks up without an explosion.
// The crew has as many turns to abandon ship as there are Ship Destroyed
// boxes left ...; after this period, any personnel left aboard will die"
// (book l.467), and it is out of action permanently (l.456): no repair.
// The Wren loses 1 of its 8 Ship Destroyed boxes and breaks up: 7 turns.
// Mara abandons ship in the first; Jon stays and dies at the end of the
// seventh, on his own sheet too.
func TestDetailedBreakUp(t *testing.T) {
	s := wrenCrew(t)
	wrenHit(t, s, 4, 9, nil) // armour, powerplant twice, Ship Destroyed
	res, err := s.DetailedShipTurnEnd("Wren", []int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Ship.View()
	if r := res.Turn.Rolls; len(r) != 1 || r[0].Breakup != "breaks_up" || !v.BrokenUp || v.AbandonTurns == nil || *v.AbandonTurns != 7 || v.Exploded {
		t.Fatalf("after the collapse: %+v, view broken %v turns %v", res.Turn, v.BrokenUp, v.AbandonTurns)
	}
	if res.Turn.AbandonTurns == nil || *res.Turn.AbandonTurns != 7 {
		t.Fatalf("the turn end records %v turns", res.Turn.AbandonTurns)
	}
	before := count(t, s)
	_, err = s.DetailedShipRepair(DetailedRepairRequest{Ship: "Wren", Component: "P"})
	if rules.CodeOf(err) != rules.CodeRule || !strings.Contains(err.Error(), "out of action permanently") || count(t, s) != before {
		t.Fatalf("repair of a broken-up ship: %v", err)
	}
	res, err = s.DetailedShipTurnEnd("Wren", nil, "mara")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Turn.Abandoned, []string{"Mara"}) || *res.Turn.AbandonTurns != 6 || crewman(t, res.Ship, "Mara").Status != "ejected" {
		t.Fatalf("Mara abandons ship: %+v", res.Turn)
	}
	for turn := 2; turn <= 6; turn++ {
		if res, err = s.DetailedShipTurnEnd("Wren", nil); err != nil {
			t.Fatal(err)
		}
		if len(res.Turn.Killed) != 0 || *res.Turn.AbandonTurns != 7-turn {
			t.Fatalf("turn %d: %+v", turn, res.Turn)
		}
	}
	if dead(t, s, "Jon") {
		t.Fatal("Jon died before his time was up")
	}
	if res, err = s.DetailedShipTurnEnd("Wren", nil); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Turn.Killed, []string{"Jon"}) || *res.Turn.AbandonTurns != 0 || !slices.Equal(res.Killed, []string{"Jon"}) {
		t.Fatalf("the seventh turn: %+v, sheets %v", res.Turn, res.Killed)
	}
	if !dead(t, s, "Jon") || dead(t, s, "Mara") || crewman(t, res.Ship, "Jon").Status != "dead" {
		t.Fatal("Jon, left aboard, is not dead on his sheet, or Mara, who left, is")
	}
	before = count(t, s)
	if _, err := s.DetailedShipTurnEnd("Wren", nil); rules.CodeOf(err) != rules.CodeRule || count(t, s) != before {
		t.Fatalf("a turn end after the time was over: %v", err)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify %+v", rep.Violations)
	}
	if _, err := s.Undo(UndoRequest{Target: res.Events[0].CommandID, Reason: "not yet"}); err != nil {
		t.Fatal(err)
	}
	if dead(t, s, "Jon") {
		t.Fatal("undo left Jon dead on his sheet")
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify after undo %+v", rep.Violations)
	}
}

// TestDetailedDelayedExplosion: "5 - 7: The ship explodes after a short
// delay. All personnel able to eject may abandon ship immediately ...
// Any personnel unable to eject ... are lost in the blast" (book l.469).
// Mara is out cold in her cockpit: she cannot abandon ship (l.357, l.367)
// and dies before any wake roll (the two dice entered are all the turn
// end takes); Jon, the pilot now, ejects.
func TestDetailedDelayedExplosion(t *testing.T) {
	s := wrenCrew(t)
	wrenHit(t, s, 2, 1, []int{9}) // armour, cockpit: a 9 knocks her out
	wrenHit(t, s, 4, 9, nil)
	res, err := s.DetailedShipTurnEnd("Wren", []int{1, 6})
	if err != nil {
		t.Fatal(err)
	}
	tu := res.Turn
	if len(tu.Rolls) != 1 || tu.Rolls[0].Crew != "Jon" || tu.Rolls[0].Breakup != "explodes_after_delay" || len(tu.Wake) != 0 {
		t.Fatalf("turn end %+v", tu)
	}
	if !slices.Equal(tu.Killed, []string{"Mara"}) || !slices.Equal(tu.Ejected, []string{"Jon"}) || !slices.Equal(res.Killed, []string{"Mara"}) {
		t.Fatalf("killed %v, ejected %v, sheets %v", tu.Killed, tu.Ejected, res.Killed)
	}
	if !dead(t, s, "Mara") || dead(t, s, "Jon") {
		t.Fatal("Mara is not dead on her sheet, or Jon is")
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify %+v", rep.Violations)
	}
}

// TestDetailedKIAOnSheet: a cockpit's fourth hit kills its crewman (book
// l.357-365): Mara, a party character, is dead on her sheet too, in the
// same command; Jon, named like no one of the campaign, is the record's
// free text.
func TestDetailedKIAOnSheet(t *testing.T) {
	s := wrenParty(t, nil, false)
	wrenHit(t, s, 3, 1, []int{1, 1})
	res := wrenHit(t, s, 3, 2, nil) // hits 3 and 4: the third's roll is moot
	if r := res.Hit.CrewRolls; len(r) != 1 || !r[0].Moot {
		t.Fatalf("crew rolls %+v", r)
	}
	if !slices.Equal(res.Hit.Killed, []string{"Mara"}) || !slices.Equal(res.Killed, []string{"Mara"}) || !dead(t, s, "Mara") {
		t.Fatalf("the fourth cockpit hit: killed %v, sheets %v", res.Hit.Killed, res.Killed)
	}
	if len(res.Events) != 2 || res.Events[1].Type != events.TypeCharacterDied || res.Events[0].CommandID != res.Events[1].CommandID {
		t.Fatalf("events %+v", res.Events)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify %+v", rep.Violations)
	}
	if _, err := s.Undo(UndoRequest{Target: res.Events[0].CommandID, Reason: "missed"}); err != nil {
		t.Fatal(err)
	}
	if dead(t, s, "Mara") {
		t.Fatal("undo left Mara dead")
	}
}

// TestVerifyCatchesCrewDeathNotOnSheet: a hit that kills a party crewman
// without his death is caught, as is a turn end that forgets whom it
// killed.
func TestVerifyCatchesCrewDeathNotOnSheet(t *testing.T) {
	s := wrenParty(t, nil, false)
	first := wrenHit(t, s, 3, 1, []int{1, 1})
	sh, err := s.DetailedShip("Wren", "")
	if err != nil {
		t.Fatal(err)
	}
	hit := events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Points: 3, Column: 2, Entered: true}}
	one := func() (int, bool, error) { return 1, true, nil }
	made, err := sh.MakeHit(&hit, one, one) // hits 3 and 4 of her cockpit
	if err != nil || !slices.Equal(made.Killed, []string{"Mara"}) {
		t.Fatalf("made %+v, %v", made, err)
	}
	bad := appendRaw(t, s, first.Events[0].Stream, made)
	rep := mustVerify(t, s)
	if rep.OK || len(rep.Violations) != 1 || rep.Violations[0].Seq != bad.Seq || !strings.Contains(rep.Violations[0].Problem, "Mara was killed aboard a detailed ship") {
		t.Fatalf("violations %+v", rep.Violations)
	}

	s = wrenCrew(t)
	wrenHit(t, s, 2, 1, []int{9})
	res := wrenHit(t, s, 4, 9, nil)
	sh, err = s.DetailedShip("Wren", "")
	if err != nil {
		t.Fatal(err)
	}
	faces := []int{1, 6}
	turn, err := sh.EndTurn(func() (int, bool, error) { f := faces[0]; faces = faces[1:]; return f, true, nil }, nil)
	if err != nil {
		t.Fatal(err)
	}
	turn.Killed = nil // and no death for Mara
	bad = appendRaw(t, s, res.Events[0].Stream, turn)
	rep = mustVerify(t, s)
	if rep.OK || len(rep.Violations) != 1 || rep.Violations[0].Seq != bad.Seq || !strings.Contains(rep.Violations[0].Problem, "killed; the rules kill [Mara]") {
		t.Fatalf("violations %+v", rep.Violations)
	}
}

// TestDetailedVolleyWidowsOnce: widowed armour is removed "When all damage
// against a ship at a given point in its movement has been resolved"
// (book l.330). The book's example (l.327) in one command: two 6-point
// lasers in columns 3 and 5 of the SPACE GULL's forward block, then a
// hit centred on column 5, lowered to row 7, widows column 4, once, after
// them all. A fourth laser in column 4 in the same command still meets
// column 4's armour, not yet removed; made as a command of its own after
// the three, it finds column 4 bare and goes into the internal block.
func TestDetailedVolleyWidowsOnce(t *testing.T) {
	shots := []DetailedShotRequest{
		{Facing: "forward", Laser: 6, Column: 5},
		{Facing: "forward", Template: "Block 6", Column: 5},
	}
	one := gullCampaign(t, nil)
	res := mustHit(t, one, DetailedHitRequest{Ship: "Space Gull", Facing: "forward", Laser: 6, Column: 3, MoreShots: shots})
	h := res.Hit
	if len(h.Shots()) != 3 || len(h.Destroyed) != 6 || len(h.MoreShots[0].Destroyed) != 6 || len(h.MoreShots[1].Destroyed) != 6 {
		t.Fatalf("shots %+v", h.Shots())
	}
	want := []events.ShipPlace{}
	for row := 1; row <= 6; row++ {
		want = append(want, events.ShipPlace{Block: "forward", Row: row, Column: 4})
	}
	if !slices.Equal(h.Widowed, want) || res.Ship.View().Armor["forward"].Intact != 56 {
		t.Fatalf("widowed %+v, intact %d; want column 4 rows 1-6 and 56", h.Widowed, res.Ship.View().Armor["forward"].Intact)
	}

	four := append(slices.Clone(shots), DetailedShotRequest{Facing: "forward", Laser: 6, Column: 4})
	volley := gullCampaign(t, nil)
	res = mustHit(t, volley, DetailedHitRequest{Ship: "Space Gull", Facing: "forward", Laser: 6, Column: 3, MoreShots: four})
	if n := len(res.Hit.MoreShots[2].Destroyed); n != 6 || len(res.Hit.Widowed) != 0 || res.Ship.View().Internal.Destroyed != 0 {
		t.Fatalf("the fourth laser in the volley destroyed %d, widowed %d, internal %d; want 6 of column 4's armour, none widowed, none inside",
			n, len(res.Hit.Widowed), res.Ship.View().Internal.Destroyed)
	}
	apart := gullCampaign(t, nil)
	mustHit(t, apart, DetailedHitRequest{Ship: "Space Gull", Facing: "forward", Laser: 6, Column: 3, MoreShots: shots})
	res = mustHit(t, apart, DetailedHitRequest{Ship: "Space Gull", Facing: "forward", Laser: 6, Column: 4})
	if v := res.Ship.View(); v.Internal.Destroyed != 4 || res.Hit.Wasted != 2 {
		t.Fatalf("the fourth laser alone: %d internal destroyed, %d wasted; want F, P, P, S and 2 wasted", v.Internal.Destroyed, res.Hit.Wasted)
	}
	for _, s := range []*Service{one, volley, apart} {
		if rep := mustVerify(t, s); !rep.OK {
			t.Fatalf("verify %+v", rep.Violations)
		}
	}
	// A bad shot refuses the whole hit, naming it.
	before := count(t, volley)
	_, err := volley.DetailedShipHit(DetailedHitRequest{Ship: "Space Gull", Facing: "forward", Laser: 1, Column: 1,
		MoreShots: []DetailedShotRequest{{Facing: "up", Laser: 1, Column: 1}}})
	if rules.CodeOf(err) != rules.CodeInvalid || !strings.Contains(err.Error(), "shot 2") || count(t, volley) != before {
		t.Fatalf("a bad second shot: %v", err)
	}
}

// TestDetailedOldHitsStillFold: hits of payload version 1 are one shot
// each and killed no one on his sheet; a log of them still verifies.
func TestDetailedOldHitsStillFold(t *testing.T) {
	s := wrenParty(t, nil, false)
	stream := wrenHit(t, s, 1, 1, nil).Events[0].Stream // the armour only
	one := func() (int, bool, error) { return 1, true, nil }
	for _, h := range [][2]int{{1, 2}, {2, 3}} { // column and points: cockpit hits 1-2, then 3-4
		col, points := h[0], h[1]
		sh, err := s.DetailedShip("Wren", "")
		if err != nil {
			t.Fatal(err)
		}
		hit := events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Points: points, Column: col, Entered: true}}
		made, err := sh.MakeHit(&hit, one, one)
		if err != nil {
			t.Fatal(err)
		}
		appendRawVersion(t, s, stream, made, 1)
	}
	sh, err := s.DetailedShip("Wren", "")
	if err != nil {
		t.Fatal(err)
	}
	if c := crewman(t, sh, "Mara"); c.Status != "dead" || dead(t, s, "Mara") {
		t.Fatalf("Mara %+v on the ship; dead on her sheet %v", c, dead(t, s, "Mara"))
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("version 1 hits: %+v", rep.Violations)
	}
}

// TestDetailedRerollInAVolley: Mara re-rolls the consciousness roll of a
// hit of two shots; the hit is made again with both, and verify holds it.
func TestDetailedRerollInAVolley(t *testing.T) {
	s := wrenParty(t, nil, false)
	res := mustHit(t, s, DetailedHitRequest{Ship: "Wren", Facing: "forward", Laser: 2, Column: 1, CrewDice: []int{9},
		MoreShots: []DetailedShotRequest{{Facing: "forward", Laser: 2, Column: 4}}})
	if c := crewman(t, res.Ship, "Mara"); c.Status != "unconscious" {
		t.Fatalf("Mara %+v", c)
	}
	rr := mustReroll(t, s, RerollRequest{Roll: fmt.Sprint(res.Events[0].Seq), Which: "1", Faces: []int{3}})
	if h := rr.DetailedHit; h == nil || len(h.MoreShots) != 1 || h.MoreShots[0].Column != 4 || h.CrewRolls[0].Status != "conscious" {
		t.Fatalf("re-rolled hit %+v", rr.DetailedHit)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify %+v", rep.Violations)
	}
}
