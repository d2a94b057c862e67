package interceptor

import (
	"slices"
	"testing"
)

// gullWithE1Lost is the acceptance ship: the Space Gull after a
// laser of 11 down column 1 (8 armour rows, F, E1, E1) and a laser of 10
// down column 2 (8 armour rows, F, E1): E1 has lost 3 of its 4 boxes.
func gullWithE1Lost(t *testing.T) Ship {
	t.Helper()
	s, _, err := mustShip(t, spaceGullSpec()).Volley([]Hit{laser(Forward, 1, 11), laser(Forward, 2, 10)})
	if err != nil {
		t.Fatal(err)
	}
	if got := lostOf(s, 0, "E1"); got != 3 {
		t.Fatalf("E1 lost %d boxes, want 3", got)
	}
	return s
}

func lostOf(s Ship, turret int, code string) int {
	for _, c := range s.Components(turret) {
		if c.Code == code {
			return c.Destroyed
		}
	}
	return -1
}

// TestRepairBoxes checks partial repair: the book's time per box (ENGINE,
// book l.421: 2 hours per box), the deepest lost boxes first, and a ship
// that is not changed by the call.
func TestRepairBoxes(t *testing.T) {
	s := gullWithE1Lost(t)
	tests := []struct {
		boxes      int
		minutes    int
		restored   []Place
		col1, col2 string
	}{
		// Row 3 column 1 is the only lost E1 box of the lowest row.
		{1, 120, []Place{{Block: "internal", Row: 3, Column: 1}}, "x x E1 S ", "x x E1 S "},
		{2, 240, []Place{{Block: "internal", Row: 3, Column: 1}, {Block: "internal", Row: 2, Column: 1}}, "x E1 E1 S ", "x x E1 S "},
		{3, 360, []Place{{Block: "internal", Row: 3, Column: 1}, {Block: "internal", Row: 2, Column: 1}, {Block: "internal", Row: 2, Column: 2}}, "x E1 E1 S ", "x E1 E1 S "},
	}
	for _, tt := range tests {
		n, rep, err := s.RepairBoxes(0, "E1", tt.boxes)
		if err != nil {
			t.Fatalf("RepairBoxes(E1, %d): %v", tt.boxes, err)
		}
		if rep.Minutes != tt.minutes || rep.MinutesPerBox != 120 {
			t.Errorf("RepairBoxes(E1, %d) takes %d minutes (%d a box); want %d (2 hours a box)", tt.boxes, rep.Minutes, rep.MinutesPerBox, tt.minutes)
		}
		if !slices.Equal(rep.Restored, tt.restored) {
			t.Errorf("RepairBoxes(E1, %d) restored %v; want %v", tt.boxes, rep.Restored, tt.restored)
		}
		if rep.LostBefore != 3 || rep.LostAfter != 3-tt.boxes || lostOf(n, 0, "E1") != 3-tt.boxes {
			t.Errorf("RepairBoxes(E1, %d): lost %d → %d, ship shows %d", tt.boxes, rep.LostBefore, rep.LostAfter, lostOf(n, 0, "E1"))
		}
		if got := internalColumn(n, 1); got != tt.col1 {
			t.Errorf("RepairBoxes(E1, %d): column 1 = %q, want %q", tt.boxes, got, tt.col1)
		}
		if got := internalColumn(n, 2); got != tt.col2 {
			t.Errorf("RepairBoxes(E1, %d): column 2 = %q, want %q", tt.boxes, got, tt.col2)
		}
	}
	if lostOf(s, 0, "E1") != 3 || internalColumn(s, 1) != "x x x S " {
		t.Errorf("RepairBoxes changed the ship it was called on")
	}
	// A repaired engine is not disabled any more (ENGINE, book l.421).
	n, _, _ := s.RepairBoxes(0, "E1", 3)
	for _, c := range n.Components(0) {
		if c.Code == "E1" && c.Disabled {
			t.Errorf("E1 still disabled after a full repair")
		}
	}
}

// TestRepairBoxesRefused checks the refusals and their codes.
func TestRepairBoxesRefused(t *testing.T) {
	s := gullWithE1Lost(t)
	c := cargoShip(t, "loaded")
	c, _ = mustHit(t, c, laser(Forward, 1, 1))
	tests := []struct {
		name   string
		ship   Ship
		turret int
		code   string
		boxes  int
		want   string // "invalid" or "rule"
	}{
		{"no boxes", s, 0, "E1", 0, "invalid"},
		{"more boxes than it has", s, 0, "E1", 5, "invalid"},
		{"more boxes than it lost", s, 0, "E1", 4, "rule"},
		{"nothing lost", s, 0, "E2", 1, "rule"},
		{"unknown code", s, 0, "Q", 1, "invalid"},
		{"no such turret", s, 1, "E1", 1, "invalid"},
		{"Free boxes: no repair time", s, 0, "F", 1, "rule"},
		{"cargo: REPAIR TIME N/A (book l.435)", c, 0, "K", 1, "rule"},
	}
	for _, tt := range tests {
		n, rep, err := tt.ship.RepairBoxes(tt.turret, tt.code, tt.boxes)
		code := map[string]any{"invalid": CodeInvalid, "rule": CodeRule}[tt.want]
		if err == nil || CodeOf(err) != code {
			t.Errorf("%s: err %v, want %s", tt.name, err, tt.want)
		}
		if len(rep.Restored) != 0 || lostOf(n, 0, "E1") != lostOf(tt.ship, 0, "E1") {
			t.Errorf("%s: a refused repair changed something", tt.name)
		}
	}
}

// TestRepairBoxesTurret repairs a turret's component: its own block.
func TestRepairBoxesTurret(t *testing.T) {
	sp := spaceGullSpec()
	sp.Turrets = []TurretSpec{{Name: "Dorsal", Internal: [][]string{{"W", "W", "W", "F", "F", "F", "F", "F", "F", "F"}},
		Components: map[string]string{"W": "Weapon", "F": "Free"}}}
	s := mustShip(t, sp)
	s, _ = mustHit(t, s, Hit{Facing: Forward, Column: 2, Points: 1, Turret: 1})
	if lostOf(s, 1, "W") != 1 {
		t.Fatalf("turret weapon lost %d, want 1", lostOf(s, 1, "W"))
	}
	n, rep, err := s.RepairBoxes(1, "W", 1)
	if err != nil || rep.Minutes != 120 || lostOf(n, 1, "W") != 0 {
		t.Fatalf("RepairBoxes(turret 1, W, 1) = %+v, %v; want 120 minutes (WEAPONS, book l.403)", rep, err)
	}
	if rep.Restored[0].Turret != 1 || rep.Component.Turret != 1 {
		t.Errorf("the report names turret %d", rep.Restored[0].Turret)
	}
}
