package interceptor

import (
	"reflect"
	"strings"
	"testing"
)

// TestBoxLookups: ArmourBox and InternalBox answer for rows 1..n and
// columns 1..10, and nothing outside them.
func TestBoxLookups(t *testing.T) {
	s := mustShip(t, spaceGullSpec())
	s, _ = mustHit(t, s, laser(Aft, 10, 5)) // aft column 10: 4 armour rows, then F
	for _, c := range []struct {
		row, col int
		want     BoxState
		ok       bool
	}{
		{1, 1, Intact, true}, {1, 10, Destroyed, true}, {4, 10, Destroyed, true}, {4, 9, Intact, true},
		{0, 1, 0, false}, {5, 1, 0, false}, {1, 0, 0, false}, {1, 11, 0, false},
	} {
		if st, ok := s.ArmourBox(Aft, c.row, c.col); st != c.want || ok != c.ok {
			t.Errorf("ArmourBox(aft, %d, %d) = %v, %v; want %v, %v", c.row, c.col, st, ok, c.want, c.ok)
		}
	}
	for _, c := range []struct {
		row, col int
		code     string
		want     BoxState
		ok       bool
	}{
		{1, 10, "F", Destroyed, true}, {1, 1, "F", Intact, true}, {2, 10, "E2", Intact, true}, {4, 10, "S", Intact, true}, {4, 1, "S", Intact, true},
		{0, 1, "", 0, false}, {5, 1, "", 0, false}, {1, 0, "", 0, false}, {1, 11, "", 0, false},
	} {
		if code, st, ok := s.InternalBox(c.row, c.col); code != c.code || st != c.want || ok != c.ok {
			t.Errorf("InternalBox(%d, %d) = %q, %v, %v; want %q, %v, %v", c.row, c.col, code, st, ok, c.code, c.want, c.ok)
		}
	}
}

// TestComponentsDisabled: Components reports each component's losses and
// whether it is disabled (book l.337: "more than half"); Free boxes never
// are, however many are lost. A turret number that names no turret has no
// components.
func TestComponentsDisabled(t *testing.T) {
	sp := spaceGullSpec()
	sp.Armour.Forward = 0
	s := mustShip(t, sp)
	// Columns 1, 2 and 9: F, E1, E1 / F, E1, E1 / F, E2; columns 3, 4
	// and 7: F.
	s, _, err := s.Volley([]Hit{laser(Forward, 1, 3), laser(Forward, 2, 3), laser(Forward, 9, 2), laser(Forward, 3, 1), laser(Forward, 4, 1), laser(Forward, 7, 1)})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{"C": {0, 0}, "E1": {4, 1}, "E2": {1, 0}, "F": {6, 0}, "P": {0, 0}, "S": {0, 0}}
	for _, c := range s.Components(0) {
		w := want[c.Code]
		if c.Destroyed != w[0] || c.Disabled != (w[1] == 1) {
			t.Errorf("component %s: %d lost, disabled %v; want %d, %v", c.Code, c.Destroyed, c.Disabled, w[0], w[1] == 1)
		}
	}
	if got := s.Components(1); got != nil {
		t.Errorf("Components(1) of a ship without turrets = %v", got)
	}
	if got := s.Components(-1); got != nil {
		t.Errorf("Components(-1) = %v", got)
	}
	if IsDisabled(0, 1) {
		t.Error("a component of no boxes is disabled")
	}
}

// TestRepairRows: Repair takes the book's time per lost box (COCKPIT,
// book l.367: 24 hours per box), 0 minutes for a component that lost
// nothing, and is refused on a ship out of action (l.456).
func TestRepairRows(t *testing.T) {
	sp := spaceGullSpec()
	sp.Armour.Forward = 0
	s := mustShip(t, sp)
	s, _ = mustHit(t, s, laser(Forward, 5, 3)) // F, C, C
	n, minutes, err := s.Repair(0, "C")
	if err != nil || minutes != 2*24*60 || lostOf(n, 0, "C") != 0 {
		t.Errorf("Repair(C) = %d minutes, %v; want 2880 (2 boxes at 24 hours)", minutes, err)
	}
	if _, minutes, err := s.Repair(0, "E1"); err != nil || minutes != 0 {
		t.Errorf("Repair(E1), nothing lost = %d, %v; want 0 minutes", minutes, err)
	}
	if _, _, err := s.Repair(0, "Q"); CodeOf(err) != CodeInvalid {
		t.Errorf("Repair(Q) error %v, want CodeInvalid", err)
	}
	if _, _, err := s.Repair(1, "C"); CodeOf(err) != CodeInvalid {
		t.Errorf("Repair(turret 1) error %v, want CodeInvalid", err)
	}
	// Out of action: even a component that lost nothing is refused.
	broken, _ := collapsed(t, false)
	broken, _, _ = broken.AfterCollapse(BreakupDrift)
	if _, _, err := broken.Repair(0, "P"); CodeOf(err) != CodeRule || !strings.Contains(err.Error(), "broke up") {
		t.Errorf("Repair(P) of a broken-up ship: %v, want CodeRule", err)
	}
	sp.Armour.Aft = 0
	boom, _, err := mustShip(t, sp).Volley([]Hit{laser(Aft, 3, 3), laser(Aft, 4, 3), laser(Aft, 7, 3), laser(Aft, 8, 3)})
	if err != nil || !boom.Exploded() {
		t.Fatalf("the ship did not explode: %v", err)
	}
	if _, _, err := boom.Repair(0, "C"); CodeOf(err) != CodeRule || !strings.Contains(err.Error(), "has exploded") {
		t.Errorf("Repair(C) of an exploded ship: %v, want CodeRule", err)
	}
}

// TestRepairBoxesWholeComponent restores every box of a component in the
// top row of the block, the first component by code: ENGINE, book l.421,
// 2 hours per box.
func TestRepairBoxesWholeComponent(t *testing.T) {
	s := mustShip(t, Spec{
		Name:       "Tug",
		Internal:   [][]string{{"A", "A", "F", "F", "F", "F", "F", "F", "F", "F"}, row10("P")},
		Components: map[string]string{"A": "Engine", "F": "Free", "P": "Powerplant"},
	})
	s, _, err := s.Volley([]Hit{laser(Forward, 1, 1), laser(Forward, 2, 1)})
	if err != nil {
		t.Fatal(err)
	}
	n, rep, err := s.RepairBoxes(0, "A", 2)
	want := RepairReport{Component: ComponentRef{Code: "A", Type: Engine}, Restored: []Place{ip(1, 1), ip(1, 2)},
		MinutesPerBox: 120, Minutes: 240, LostBefore: 2, LostAfter: 0}
	if err != nil || !reflect.DeepEqual(rep, want) || lostOf(n, 0, "A") != 0 {
		t.Errorf("RepairBoxes(A, 2) = %+v, %v; want %+v", rep, err, want)
	}
	if _, _, err := n.RepairBoxes(0, "A", 1); CodeOf(err) != CodeRule || !strings.Contains(err.Error(), "A (Engine) has lost no boxes") {
		t.Errorf("repairing an intact engine: %v", err)
	}
	if _, _, err := s.RepairBoxes(0, "A", 3); CodeOf(err) != CodeInvalid || !strings.Contains(err.Error(), "it has 2, so repair 1 to 2") {
		t.Errorf("repairing 3 boxes of 2: %v", err)
	}
	s1, _, _ := n.Volley([]Hit{laser(Forward, 2, 1)})
	if _, _, err := s1.RepairBoxes(0, "A", 2); CodeOf(err) != CodeRule || !strings.Contains(err.Error(), "it has lost 1 of 2") {
		t.Errorf("repairing 2 boxes of 1 lost: %v", err)
	}
}

// TestRepairExternalFolding: a name is matched exactly, else in any case
// (Unicode case folding); when that matches two external systems the
// repair is refused and names both. Capital sigma folds to both small
// sigmas, which NewShip takes for two names.
func TestRepairExternalFolding(t *testing.T) {
	sp := spaceGullSpec()
	sp.Externals = []ExternalSpec{
		{Name: "Σ1", Type: "External Hardpoint", Facing: Forward, Column: 1},
		{Name: "ς1", Type: "External Hardpoint", Facing: Forward, Column: 2},
	}
	s := mustShip(t, sp)
	s, _ = volley(t, s, laser(Forward, 1, 1), laser(Forward, 2, 1))
	if _, _, err := s.RepairExternal("σ1"); CodeOf(err) != CodeInvalid || !strings.Contains(err.Error(), `external systems "Σ1" and "ς1" both match "σ1"`) {
		t.Errorf("RepairExternal(σ1): %v, want both named", err)
	}
	if i, err := s.external("σ1"); i != -1 || err == nil {
		t.Errorf("external(σ1) = %d, %v; want -1 and an error", i, err)
	}
	if e, ok := s.ExternalNamed("σ1"); ok {
		t.Errorf("ExternalNamed(σ1) = %+v, want none: two match", e)
	}
	n, rep, err := s.RepairExternal("ς1")
	if err != nil || rep.Restored[0].Column != 2 || externalState(n, "ς1") != Intact || externalState(n, "Σ1") != Destroyed {
		t.Errorf("RepairExternal(ς1) = %+v, %v; want the exact name's system, column 2", rep, err)
	}
	if e, ok := s.ExternalNamed("Σ1"); !ok || e.Column != 1 {
		t.Errorf("ExternalNamed(Σ1) = %+v, %v", e, ok)
	}
	if _, ok := s.ExternalNamed("H9"); ok {
		t.Error("ExternalNamed(H9) found one")
	}
}

// TestRenderEdges: an unarmoured facing says so; a turret renders its
// armour and its block; numbers that name no turret render nothing.
func TestRenderEdges(t *testing.T) {
	sp := spaceGullSpec()
	sp.Armour.Right = 0
	sp.Turrets = []TurretSpec{{Name: "Dorsal", Armour: 10, Internal: [][]string{row10("W")}, Components: map[string]string{"W": "Weapon"}}}
	s := mustShip(t, sp)
	if got, want := s.RenderArmour(Right), []string{"right armour (0 boxes)", "    1  2  3  4  5  6  7  8  9  10", "  (no armour)"}; !reflect.DeepEqual(got, want) {
		t.Errorf("RenderArmour(right) = %q, want %q", got, want)
	}
	s, _ = mustHit(t, s, Hit{Facing: Left, Column: 10, Points: 2, Turret: 1})
	want := []string{
		"turret 1 Dorsal armour (10 boxes)",
		"    1  2  3  4  5  6  7  8  9  10",
		"  1 o  o  o  o  o  o  o  o  o  x",
		"turret 1 Dorsal internal components",
		"    1  2  3  4  5  6  7  8  9  10",
		"  1 W  W  W  W  W  W  W  W  W  x",
	}
	if got := s.RenderTurret(1); !reflect.DeepEqual(got, want) {
		t.Errorf("RenderTurret(1) =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, k := range []int{0, 2} {
		if got := s.RenderTurret(k); got != nil {
			t.Errorf("RenderTurret(%d) = %q, want nothing", k, got)
		}
	}
}
