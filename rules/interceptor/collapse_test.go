package interceptor

import (
	"slices"
	"testing"
)

// cingulum is the TOG CINGULUM of the BRIDGE example (book l.355), 50
// Bridge boxes behind an unarmoured forward facing, crewed by humans.
func cingulum(t *testing.T, crew ...string) Ship {
	t.Helper()
	sp := Spec{
		Name:       "TOG Cingulum",
		Internal:   [][]string{row10("B"), row10("B"), row10("B"), row10("B"), row10("B"), row10("P"), row10("S")},
		Components: map[string]string{"B": "Bridge", "P": "Powerplant", "S": "Ship Destroyed"},
	}
	for _, name := range crew {
		sp.Crew = append(sp.Crew, CrewSpec{Name: name, Race: "Human", Station: "B"})
	}
	return mustShip(t, sp)
}

func mustResolve(t *testing.T, s Ship, r Roll, faces ...int) (Ship, Outcome) {
	t.Helper()
	n, out, err := s.Resolve(r, faces...)
	if err != nil {
		t.Fatalf("Resolve(%+v, %v): %v", r, faces, err)
	}
	return n, out
}

// TestWakeRollOnTotalHits: a wake roll is made on the Consciousness
// Table's column for the crewman's "TOTAL HITS AT THIS POINT" (book
// l.360), not the column of his last roll. Ast is knocked out by a wound
// when the Bridge has lost 15 of 50 boxes (the 2 Hits column, l.355);
// the next turn the Bridge is down to 30 of 50 lost (60%: the 3 Hits
// column) and his wound roll misses, so his last roll was on column 2,
// but he wakes on column 3: 4 or less for a human, not 6.
func TestWakeRollOnTotalHits(t *testing.T) {
	s := cingulum(t, "Ast")
	s, _, err := s.Volley([]Hit{laser(Forward, 1, 5), laser(Forward, 2, 5), laser(Forward, 3, 5)})
	if err != nil {
		t.Fatal(err)
	}
	s, rolls := s.EndTurn()
	s, out := mustResolve(t, s, rolls[0], 3, 7) // wounded, then a 7 over 6
	if out.Status != Unconscious {
		t.Fatalf("wound 3, consciousness 7: %+v", out)
	}
	if w := s.DecisionPhaseRolls(); len(w) != 1 || w[0].Column != 2 || w[0].Number != 6 {
		t.Fatalf("wake roll with 15 of 50 lost: %+v, want column 2 (6)", w)
	}
	s, _ = mustResolve(t, s, s.DecisionPhaseRolls()[0], 9) // stays out
	s, _, err = s.Volley([]Hit{laser(Forward, 4, 5), laser(Forward, 5, 5), laser(Forward, 6, 5)})
	if err != nil {
		t.Fatal(err)
	}
	s, rolls = s.EndTurn()
	if len(rolls) != 1 || rolls[0].Percent != 60 || rolls[0].Column != 3 {
		t.Fatalf("second turn's rolls %+v, want a 60%% wound roll on column 3", rolls)
	}
	s, out = mustResolve(t, s, rolls[0], 7) // 7 over 6: not wounded
	if out.Wounded || s.Crew()[0].Column != 2 {
		t.Fatalf("unwounded: %+v, last column %d", out, s.Crew()[0].Column)
	}
	w := s.DecisionPhaseRolls()
	if len(w) != 1 || w[0].Column != 3 || w[0].Number != 4 {
		t.Fatalf("wake roll with 30 of 50 lost = %+v, want column 3 (4 or less)", w)
	}
	if _, out = mustResolve(t, s, w[0], 5); out.Status != Unconscious {
		t.Errorf("a 5 on the 3 Hits column woke him: %+v", out)
	}
	// The rule of older logs: the column of his last roll.
	if old := s.DecisionPhaseRollsLastColumn(); len(old) != 1 || old[0].Column != 2 || old[0].Number != 6 {
		t.Errorf("DecisionPhaseRollsLastColumn = %+v, want column 2 (6)", old)
	}
	if got := s.CrewHits("Ast"); got != 3 {
		t.Errorf("CrewHits = %d, want 3", got)
	}
}

// TestWakeColumnBounds: the column is at least 1 and at most 3, the last
// one rolled on.
func TestWakeColumnBounds(t *testing.T) {
	for hits, want := range map[int]int{0: 1, 1: 1, 2: 2, 3: 3, 4: 3} {
		if got := wakeColumn(hits); got != want {
			t.Errorf("wakeColumn(%d) = %d, want %d", hits, got, want)
		}
	}
}

// collapsed returns the Space Gull with two Ship Destroyed boxes lost, its
// pilot's collapse roll due, and the pilot Marcos knocked out when out is
// set (a cockpit hit and a failed consciousness roll).
func collapsed(t *testing.T, out bool) (Ship, Roll) {
	t.Helper()
	sp := spaceGullSpec()
	sp.Armour.Left = 0
	sp.Crew = append(sp.Crew, CrewSpec{Name: "Ines", Race: "Human", Station: "C2"})
	sp.Internal[0][0] = "C2"
	sp.Internal[0][1] = "C2"
	sp.Internal[0][2] = "C2"
	sp.Internal[0][3] = "C2"
	sp.Components["C2"] = "Cockpit"
	s := mustShip(t, sp)
	// Column 9: F, E2, E2, S; column 10 the same.
	s, _, err := s.Volley([]Hit{laser(Left, 9, 4), laser(Left, 10, 4)})
	if err != nil {
		t.Fatal(err)
	}
	if out {
		var rep Report
		s, rep = mustHit(t, s, laser(Left, 5, 2)) // F, C
		s, _ = mustResolve(t, s, rep.Rolls[0], 10)
	}
	s, rolls := s.EndTurn()
	if len(rolls) != 1 || rolls[0].Kind != RollCollapse || rolls[0].Number != 2 {
		t.Fatalf("EndTurn rolls %+v, want one collapse roll above 2", rolls)
	}
	return s, rolls[0]
}

// TestBreakUp: "1 - 4: The ship breaks up without an explosion. The crew
// has as many turns to abandon ship as there are Ship Destroyed boxes
// left ...; after this period, any personnel left aboard will die" (book
// l.467); "A ship can only be put out of action permanently in the
// following ways" (l.456): it is repaired no more.
func TestBreakUp(t *testing.T) {
	s, roll := collapsed(t, false)
	s, out := mustResolve(t, s, roll, 2, 3)
	if out.Breakup != BreakupDrift {
		t.Fatalf("a 2 then a 3: %q", out.Breakup)
	}
	s, killed, ejected := s.AfterCollapse(out.Breakup)
	if len(killed)+len(ejected) != 0 {
		t.Errorf("breaking up killed %v and ejected %v at once", killed, ejected)
	}
	if b, left := s.BrokenUp(); !b || left != 8 || !s.OutOfAction() || s.Exploded() {
		t.Fatalf("broken up %v with %d turns left (out of action %v); want 8, the Ship Destroyed boxes left", b, left, s.OutOfAction())
	}
	if _, _, err := s.RepairBoxes(0, "S", 1); CodeOf(err) != CodeRule {
		t.Errorf("repair of a broken-up ship: %v, want CodeRule", err)
	}
	if _, ok := s.CollapseRoll(); ok {
		t.Error("a broken-up ship still makes collapse rolls")
	}
	// Ines abandons ship; Marcos stays aboard.
	s, err := s.Abandon("Ines")
	if err != nil {
		t.Fatal(err)
	}
	for turn := 1; turn <= 7; turn++ {
		var dead []string
		if s, dead = s.PassAbandonTurn(); len(dead) != 0 {
			t.Fatalf("turn %d after the break-up killed %v", turn, dead)
		}
		if _, left := s.BrokenUp(); left != 8-turn || !s.AbandonDue() {
			t.Fatalf("turn %d: %d turns left, want %d", turn, left, 8-turn)
		}
	}
	s, dead := s.PassAbandonTurn()
	if !slices.Equal(dead, []string{"Marcos"}) || s.AbandonDue() {
		t.Fatalf("the eighth turn killed %v, want Marcos (Ines had left)", dead)
	}
	if st := []CrewStatus{s.Crew()[0].Status, s.Crew()[1].Status}; st[0] != Dead || st[1] != Ejected {
		t.Errorf("statuses %v, want dead, ejected", st)
	}
	if again, more := s.PassAbandonTurn(); len(more) != 0 || again.AbandonDue() {
		t.Errorf("a turn after the time was over killed %v", more)
	}
}

// TestBreakUpWithNoBoxLeft: with no Ship Destroyed box left, there is no
// turn to abandon ship in: those aboard die at once.
func TestBreakUpWithNoBoxLeft(t *testing.T) {
	s := mustShip(t, Spec{
		Name:       "Skiff",
		Internal:   [][]string{row10("F"), row10("S"), {"C", "C", "C", "C", "F", "F", "F", "F", "F", "F"}},
		Components: map[string]string{"F": "Free", "S": "Ship Destroyed", "C": "Cockpit"},
		Crew:       []CrewSpec{{Name: "Marcos", Race: "Human", Station: "C"}},
	})
	for c := 1; c <= Columns; c++ {
		s, _ = mustHit(t, s, laser(Forward, c, 2)) // F, S
	}
	roll, ok := s.CollapseRoll()
	if !ok || roll.Number != 10 {
		t.Fatalf("collapse roll %+v, %v; want one above 10", roll, ok)
	}
	s, out := mustResolve(t, s, roll, 10, 1)
	s, killed, _ := s.AfterCollapse(out.Breakup)
	if b, left := s.BrokenUp(); !b || left != 0 || !slices.Equal(killed, []string{"Marcos"}) || s.AbandonDue() {
		t.Errorf("no box left: broken up %v, %d turns, killed %v; want 0 turns and Marcos dead", b, left, killed)
	}
}

// TestDelayedExplosionKillsTheUnconscious: "5 - 7: ... All personnel able
// to eject may abandon ship immediately ... Any personnel unable to eject
// ... are lost in the blast" (book l.469). Marcos is unconscious: he
// cannot abandon ship (l.353) and dies, before any wake roll; Ines ejects.
func TestDelayedExplosionKillsTheUnconscious(t *testing.T) {
	s, roll := collapsed(t, true)
	if roll.Crew != "Ines" {
		t.Fatalf("the collapse roll is %q's, want Ines (Marcos is out)", roll.Crew)
	}
	s, out := mustResolve(t, s, roll, 1, 6)
	if out.Breakup != BreakupDelayed || !s.Exploded() {
		t.Fatalf("a 1 then a 6: %q, exploded %v", out.Breakup, s.Exploded())
	}
	s, killed, ejected := s.AfterCollapse(out.Breakup)
	if !slices.Equal(killed, []string{"Marcos"}) || !slices.Equal(ejected, []string{"Ines"}) {
		t.Fatalf("killed %v, ejected %v; want Marcos, Ines", killed, ejected)
	}
	if w := s.DecisionPhaseRolls(); len(w) != 0 {
		t.Errorf("wake rolls after the blast: %+v", w)
	}
}

// TestVolleyAfterExplosion: "All weapons allocated against a target are
// considered to fire even if not all of them are required to destroy the
// target" (GENERAL COMBAT PROCEDURE): a shot after the one that blew the
// ship up does nothing, and is no error; a malformed one still is.
func TestVolleyAfterExplosion(t *testing.T) {
	sp := spaceGullSpec()
	sp.Armour.Aft = 0
	s := mustShip(t, sp)
	boom := []Hit{laser(Aft, 3, 3), laser(Aft, 4, 3), laser(Aft, 7, 3), laser(Aft, 8, 3), laser(Aft, 1, 2)}
	n, rep, err := s.Volley(boom)
	if err != nil {
		t.Fatal(err)
	}
	if !n.Exploded() || len(rep.Shots) != 5 || len(rep.Shots[4].Destroyed) != 0 || !rep.Shots[3].ShipExploded {
		t.Fatalf("exploded %v, shots %d, last %+v", n.Exploded(), len(rep.Shots), rep.Shots[len(rep.Shots)-1])
	}
	if _, _, err := s.Volley(append(boom, laser(Aft, 11, 1))); CodeOf(err) != CodeInvalid {
		t.Errorf("a bad column after the blast: %v, want CodeInvalid", err)
	}
	if _, _, err := n.Volley([]Hit{laser(Aft, 1, 1)}); CodeOf(err) != CodeRule {
		t.Errorf("a hit on a ship that had exploded: %v, want CodeRule", err)
	}
}
