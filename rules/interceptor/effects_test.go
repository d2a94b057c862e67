package interceptor

import (
	"reflect"
	"slices"
	"strconv"
	"testing"
)

func TestIsDisabled(t *testing.T) {
	cases := []struct {
		boxes, destroyed int
		want             bool
	}{
		{1, 0, false}, {1, 1, true}, {2, 1, false}, {2, 2, true}, {3, 1, false}, {3, 2, true},
		{4, 2, false}, {4, 3, true}, {8, 4, false}, {8, 5, true}, {0, 0, false},
	}
	for _, c := range cases {
		if got := IsDisabled(c.boxes, c.destroyed); got != c.want {
			t.Errorf("IsDisabled(%d, %d) = %v, want %v", c.boxes, c.destroyed, got, c.want)
		}
	}
}

// TestCockpitHits: "All cockpits ... can take 4 hits, and are disabled after
// 3 hits"; each hit calls for a Consciousness roll (book l.357).
func TestCockpitHits(t *testing.T) {
	// An unarmoured Gull: a laser in column 5 hits F then C, C, S.
	sp := spaceGullSpec()
	sp.Armour.Forward = 0
	s := mustShip(t, sp)
	s, rep := mustHit(t, s, laser(Forward, 5, 2))
	want := []Roll{{Kind: RollConsciousness, Crew: "Marcos", Station: "C", Column: 1, Number: 8}}
	if !reflect.DeepEqual(rep.Rolls, want) {
		t.Fatalf("rolls = %+v, want %+v", rep.Rolls, want)
	}
	s, out, err := s.Resolve(rep.Rolls[0], 9)
	if err != nil || out.Status != Unconscious {
		t.Fatalf("a 9 on 8: %+v, %v; want unconscious", out, err)
	}
	if got := s.DecisionPhaseRolls(); len(got) != 1 || got[0].Kind != RollWake || got[0].Number != 8 {
		t.Errorf("DecisionPhaseRolls = %+v, want one wake roll on 8", got)
	}
	// Unconscious: the next cockpit hit calls for no roll.
	s, rep = mustHit(t, s, laser(Forward, 6, 2))
	if len(rep.Rolls) != 0 || len(rep.Disabled) != 0 {
		t.Errorf("second cockpit hit on an unconscious pilot: rolls %+v, disabled %+v", rep.Rolls, rep.Disabled)
	}
	s, out, _ = s.Resolve(s.DecisionPhaseRolls()[0], 6)
	if out.Status != Conscious {
		t.Fatalf("a 6 on the 2 Hits column (6) did not wake him: %+v", out)
	}
	// Third hit: disabled, and a roll on the 3 Hits column (4).
	s, rep = mustHit(t, s, laser(Forward, 5, 1))
	if !reflect.DeepEqual(rep.Disabled, []ComponentRef{{Code: "C", Type: Cockpit}}) {
		t.Errorf("third hit disabled %+v, want the cockpit", rep.Disabled)
	}
	if len(rep.Rolls) != 1 || rep.Rolls[0].Column != 3 || rep.Rolls[0].Number != 4 {
		t.Errorf("third hit rolls %+v, want one on column 3 (4)", rep.Rolls)
	}
	// Fourth hit: killed in action, no roll.
	s, rep = mustHit(t, s, laser(Forward, 6, 1))
	if !slices.Equal(rep.Killed, []string{"Marcos"}) || len(rep.Rolls) != 0 {
		t.Errorf("fourth hit: killed %v, rolls %+v; want Marcos KIA and no roll", rep.Killed, rep.Rolls)
	}
	if s.Crew()[0].Status != Dead {
		t.Errorf("Marcos is %s", s.Crew()[0].Status)
	}
}

// TestPowerplantExplosion: "If all powerplant boxes are lost, the ship
// explodes" (book l.419).
func TestPowerplantExplosion(t *testing.T) {
	sp := spaceGullSpec()
	sp.Armour.Aft = 0
	s := mustShip(t, sp)
	var hits []Hit
	for _, c := range []int{3, 4, 7} {
		hits = append(hits, laser(Aft, c, 3)) // F, P, P
	}
	s, rep, err := s.Volley(hits)
	if err != nil {
		t.Fatal(err)
	}
	if rep.ShipExploded || s.Exploded() {
		t.Fatal("exploded with 2 powerplant boxes left")
	}
	if !slices.Contains(rep.Disabled, ComponentRef{Code: "P", Type: Powerplant}) {
		t.Errorf("6 of 8 powerplant boxes gone and not disabled: %+v", rep.Disabled)
	}
	s, rep = mustHit(t, s, laser(Aft, 8, 3))
	if !rep.ShipExploded || !s.Exploded() || !slices.Equal(rep.Killed, []string{"Marcos"}) {
		t.Fatalf("last powerplant box: exploded %v, killed %v", rep.ShipExploded, rep.Killed)
	}
	if _, _, err := s.Hit(laser(Aft, 1, 1)); CodeOf(err) != CodeRule {
		t.Errorf("hitting an exploded ship: %v, want CodeRule", err)
	}
}

// TestShipDestroyedRow: hits on the Ship Destroyed row call for a collapse
// roll at the end of the turn, against the boxes lost (book l.466).
func TestShipDestroyedRow(t *testing.T) {
	sp := spaceGullSpec()
	sp.Armour.Left = 0
	s := mustShip(t, sp)
	s, _, err := s.Volley([]Hit{laser(Left, 1, 4), laser(Left, 2, 4)})
	if err != nil {
		t.Fatal(err)
	}
	s, rolls := s.EndTurn()
	want := []Roll{{Kind: RollCollapse, Number: 2, Crew: "Marcos"}} // the pilot, at the cockpit
	if !reflect.DeepEqual(rolls, want) {
		t.Fatalf("EndTurn rolls = %+v, want %+v", rolls, want)
	}
	if _, out, _ := s.Resolve(rolls[0], 3); out.Breakup != BreakupNone {
		t.Errorf("a 3 against 2 lost: %q", out.Breakup)
	}
	n, out, _ := s.Resolve(rolls[0], 2, 9)
	if out.Breakup != BreakupExplodes || !n.Exploded() {
		t.Errorf("a 2 then 9: %q, exploded %v", out.Breakup, n.Exploded())
	}
	if s.Exploded() {
		t.Error("Resolve changed the ship it was called on")
	}
	if r, ok := s.CollapseRoll(); !ok || r.Number != 2 {
		t.Errorf("CollapseRoll = %+v, %v", r, ok)
	}
}

func cargoShip(t *testing.T, contents string) Ship {
	t.Helper()
	return mustShip(t, Spec{
		Name: "Hauler",
		Internal: [][]string{
			{"K", "K", "K", "K", "K", "F", "F", "F", "F", "F"},
			{"K", "K", "K", "K", "K", "F", "F", "F", "F", "F"},
			{"E", "E", "E", "P", "P", "P", "P", "E2", "E2", "E2"},
			{"S", "S", "S", "S", "S", "S", "S", "S", "S", "S"},
		},
		Components: map[string]string{"K": "Cargo", "F": "Free", "E": "Engine", "E2": "Engine", "P": "Powerplant", "S": "Ship Destroyed"},
		Cargo:      map[string]string{"K": contents},
	})
}

// TestCargo: empty cargo boxes are ignored and hits go on (book l.435);
// loaded ones are destroyed; missile reloads explode into every box around
// them, in a chain.
func TestCargo(t *testing.T) {
	t.Run("empty, laser", func(t *testing.T) {
		s, _ := mustHit(t, cargoShip(t, "empty"), laser(Forward, 2, 1))
		if got := internalColumn(s, 2); got != "K K x S " {
			t.Errorf("column 2 = %q, want the engine box under the cargo destroyed", got)
		}
	})
	t.Run("empty, template", func(t *testing.T) {
		// Block 6 on column 5: the arrow passes the two empty cargo boxes
		// of column 5 and rests on row 3, so the template covers rows 3-4
		// of columns 4-6; column 6's Free boxes above are untouched.
		s, rep := mustHit(t, cargoShip(t, "empty"), templateHit(t, Forward, 5, "Block 6"))
		for col, want := range map[int]string{4: "K K x x ", 5: "K K x x ", 6: "F F x x "} {
			if got := internalColumn(s, col); got != want {
				t.Errorf("column %d = %q, want %q", col, got, want)
			}
		}
		if rep.Wasted != 0 {
			t.Errorf("wasted %d", rep.Wasted)
		}
	})
	t.Run("empty, template's side column", func(t *testing.T) {
		// Block 6 on column 6 rests on the Free box of row 1; its cells
		// over column 5 pass the two empty cargo boxes and strike rows 3-4.
		s, _ := mustHit(t, cargoShip(t, "empty"), templateHit(t, Forward, 6, "Block 6"))
		for col, want := range map[int]string{5: "K K x x ", 6: "x x P S ", 7: "x x P S "} {
			if got := internalColumn(s, col); got != want {
				t.Errorf("column %d = %q, want %q", col, got, want)
			}
		}
	})
	t.Run("loaded", func(t *testing.T) {
		s, _ := mustHit(t, cargoShip(t, "loaded"), laser(Forward, 2, 1))
		if got := internalColumn(s, 2); got != "x K E S " {
			t.Errorf("column 2 = %q", got)
		}
	})
	t.Run("missile reloads", func(t *testing.T) {
		s, rep := mustHit(t, cargoShip(t, "missile reloads"), laser(Forward, 1, 1))
		// The chain takes all ten cargo boxes and every box around them:
		// row 1-2 column 6 (Free) and row 3 columns 1-6.
		for col, want := range map[int]string{1: "x x x S ", 5: "x x x S ", 6: "x x x S ", 7: "F F P S "} {
			if got := internalColumn(s, col); got != want {
				t.Errorf("column %d = %q, want %q", col, got, want)
			}
		}
		if len(rep.Destroyed) != 1 || len(rep.Exploded) != 10+2+6-1 {
			t.Errorf("destroyed %d, exploded %d; want 1 and 17", len(rep.Destroyed), len(rep.Exploded))
		}
	})
}

// TestExternalSystem: the external system takes the first box (book l.345);
// a template's other cells on that row are wasted; it is lost with widowed
// armour.
func TestExternalSystem(t *testing.T) {
	sp := spaceGullSpec()
	sp.Externals = []ExternalSpec{{Name: "Hardpoint 1", Type: "External Hardpoint", Facing: Forward, Column: 4}}
	s := mustShip(t, sp)

	n, rep := mustHit(t, s, laser(Forward, 4, 2))
	if got := column(n, Forward, 4); got != "xooooooo" || n.Externals()[0].State != Destroyed {
		t.Errorf("laser 2 in column 4: column %s, external %v", got, n.Externals()[0].State)
	}
	if !slices.Contains(rep.Disabled, ComponentRef{Code: "Hardpoint 1", Type: ExternalHardpoint}) {
		t.Errorf("disabled %+v", rep.Disabled)
	}

	_, rep = mustHit(t, s, templateHit(t, Forward, 4, "Block 6"))
	// Top row on the external: columns 3 and 5 of that row are wasted.
	if rep.Wasted != 2 || len(rep.Destroyed) != 4 {
		t.Errorf("Block 6 on the external: wasted %d, destroyed %d; want 2, 4", rep.Wasted, len(rep.Destroyed))
	}

	// Columns 3 and 5 cut away to the bottom: column 4 still stands on
	// its own bottom box, so the external stays.
	n, _, err := s.Volley([]Hit{laser(Forward, 3, 8), laser(Forward, 5, 8)})
	if err != nil || n.Externals()[0].State != Intact || column(n, Forward, 4) != "oooooooo" {
		t.Errorf("external lost without cause: %v, column 4 %s, %v", n.Externals()[0].State, column(n, Forward, 4), err)
	}
	// The book's Diagram 4 widows column 4: the external goes with it.
	n, rep, _ = s.Volley([]Hit{laser(Forward, 3, 6), laser(Forward, 5, 6), templateHit(t, Forward, 5, "MDC 10 (sample)")})
	if n.Externals()[0].State != Widowed || !slices.Equal(rep.ExternalsLost, []string{"Hardpoint 1"}) {
		t.Errorf("column 4 widowed but the external is %v, lost %v", n.Externals()[0].State, rep.ExternalsLost)
	}
}

func turretShip(t *testing.T, turrets int) Ship {
	t.Helper()
	sp := spaceGullSpec()
	for i := range turrets {
		sp.Turrets = append(sp.Turrets, TurretSpec{
			Name:       "T" + string(rune('1'+i)),
			Armour:     10,
			Internal:   [][]string{row10("W"), row10("R")},
			Components: map[string]string{"W": "Weapon", "R": "Turret Structure"},
		})
	}
	return mustShip(t, sp)
}

func TestTurrets(t *testing.T) {
	for n, want := range map[int]int{0: 0, 1: 1, 2: 1, 3: 2, 4: 2, 5: 3} {
		if got := turretShip(t, n).TurretChance(); got != want {
			t.Errorf("%d turrets: chance %d, want %d", n, got, want)
		}
	}
	s := turretShip(t, 3)
	if got, _ := s.TurretStruck(3); got != 0 {
		t.Errorf("a 3 against chance 2 struck turret %d", got)
	}
	if got, _ := s.TurretStruck(2, 3); got != 3 {
		t.Errorf("a 2 and pick 3 struck %d", got)
	}

	// A 5-point laser on turret 1: armour, weapon, structure, then 2 past
	// the bottom. The turret still has boxes, so those 2 are wasted.
	n, rep := mustHit(t, s, Hit{Facing: Left, Column: 1, Points: 5, Turret: 1})
	if rep.Wasted != 2 || rep.Residual != 0 || rep.TurretDestroyed != 0 {
		t.Errorf("laser through one turret column: %+v", rep)
	}
	// Destroy the turret's internal block column by column; the last laser
	// passes its residual into the hull's left facing.
	for c := 2; c <= 9; c++ {
		n, _ = mustHit(t, n, Hit{Facing: Left, Column: c, Points: 3, Turret: 1})
	}
	n, rep = mustHit(t, n, Hit{Facing: Left, Column: 10, Points: 6, Turret: 1})
	if rep.TurretDestroyed != 1 || rep.Residual != 3 {
		t.Fatalf("destroying hit: %+v", rep)
	}
	if got := column(n, Left, 10); got != "xxxo" {
		t.Errorf("hull left column 10 = %s, want the 3 residual points", got)
	}
	if !n.Turrets()[0].Destroyed {
		t.Error("turret 1 not reported destroyed")
	}
	if _, _, err := n.Hit(Hit{Facing: Left, Column: 1, Points: 1, Turret: 1}); CodeOf(err) != CodeRule {
		t.Errorf("hit on a destroyed turret: %v", err)
	}
	if got, err := n.TurretStruck(1, 1, 1, 2); err != nil || got != 2 {
		t.Errorf("picks 1, 1, 2: %d, %v; want 2 (destroyed turret re-rolled)", got, err)
	}
	if _, err := n.TurretStruck(1, 1); err == nil {
		t.Error("picks naming only a destroyed turret gave no error")
	}
	// The structure went at the first hit? It has 10 boxes: disabled at 6.
	// The jam roll came with it.
	var jam *Roll
	s2 := s
	for c := 1; c <= 6; c++ {
		var rep Report
		s2, rep = mustHit(t, s2, Hit{Facing: Left, Column: c, Points: 3, Turret: 2})
		for _, r := range rep.Rolls {
			if r.Kind == RollTurretJam {
				jam = &r
			}
		}
		if (jam != nil) != (c == 6) {
			t.Fatalf("after %d hits jam roll %v", c, jam)
		}
	}
	s2, out, err := s2.Resolve(*jam, 8)
	if err != nil || out.JamFacing != 0 || !s2.Turrets()[1].Jammed {
		t.Errorf("jam 8: %+v, %v", out, err)
	}
}

// TestTurretTemplateResidual: a template's cells past a destroyed turret's
// bottom go on into the hull.
func TestTurretTemplateResidual(t *testing.T) {
	s := mustShip(t, Spec{
		Name:       "Gunboat",
		Armour:     ArmourSpec{Forward: 20, Aft: 20, Left: 20, Right: 20},
		Internal:   [][]string{row10("F"), row10("P"), row10("S")},
		Components: map[string]string{"F": "Free", "P": "Powerplant", "S": "Ship Destroyed"},
		Turrets: []TurretSpec{{Name: "Dorsal", Internal: [][]string{{"W", "W", "W", "F", "F", "F", "F", "F", "F", "F"}},
			Components: map[string]string{"W": "Weapon", "F": "Free"}}},
	})
	// Destroy all but column 2 of the (unarmoured) turret.
	for _, c := range []int{1, 3, 4, 5, 6, 7, 8, 9, 10} {
		s, _ = mustHit(t, s, Hit{Facing: Right, Column: c, Points: 1, Turret: 1})
	}
	tp, _ := NewTemplate("Plus", []string{".X.", "XXX", ".X."})
	s, rep := mustHit(t, s, Hit{Facing: Right, Column: 2, Template: &tp, Turret: 1})
	// Row 1 of the template takes the last box; rows 2-3 (4 cells) pass on
	// as "XXX", ".X." onto the hull's right column 2.
	if rep.TurretDestroyed != 1 || rep.Residual != 4 {
		t.Fatalf("report %+v", rep)
	}
	for col, want := range map[int]string{1: "xo", 2: "xx", 3: "xo"} {
		if got := column(s, Right, col); got != want {
			t.Errorf("hull right column %d = %s, want %s", col, got, want)
		}
	}
}

func TestRepair(t *testing.T) {
	sp := spaceGullSpec()
	sp.Armour.Forward = 0
	s := mustShip(t, sp)
	s, _ = mustHit(t, s, laser(Forward, 9, 3)) // F, E2, E2
	n, minutes, err := s.Repair(0, "E2")
	if err != nil || minutes != 2*2*60 {
		t.Fatalf("Repair(E2) = %d, %v; want 240 minutes (2 boxes at 2 hours)", minutes, err)
	}
	if got := internalColumn(n, 9); got != "x E2 E2 S " {
		t.Errorf("after repair column 9 = %q", got)
	}
	if got := internalColumn(s, 9); got != "x x x S " {
		t.Errorf("Repair changed the ship it was called on: %q", got)
	}
	if _, _, err := s.Repair(0, "F"); CodeOf(err) != CodeRule {
		t.Errorf("repairing Free boxes: %v, want CodeRule", err)
	}
	c := cargoShip(t, "loaded")
	c, _ = mustHit(t, c, laser(Forward, 1, 1))
	if _, _, err := c.Repair(0, "K"); CodeOf(err) != CodeRule {
		t.Errorf("repairing cargo: %v, want CodeRule (N/A)", err)
	}
}

// TestWidowing checks the 4-connected rule: "Blocks that touch only at the
// corner are not connected for this purpose" (book l.330).
func TestWidowing(t *testing.T) {
	s := mustShip(t, spaceGullSpec())
	// Aft is 4 rows. A laser takes rows 1-3 of column 2: nothing widowed.
	s, rep, err := s.Volley([]Hit{laser(Aft, 2, 3)})
	if err != nil || len(rep.Widowed) != 0 {
		t.Fatalf("a column cut from the top widows nothing: %+v %v", rep.Widowed, err)
	}
	// "X.." centred on column 2 rests on its row 4 and takes row 4 of
	// column 1 only. Column 1 rows 1-3 then touch the armour that is left
	// (row 4 of column 2) only at a corner: widowed.
	tp, err := NewTemplate("Hook", []string{"X.."})
	if err != nil {
		t.Fatal(err)
	}
	n, rep, err := s.Volley([]Hit{{Facing: Aft, Column: 2, Template: &tp}})
	if err != nil {
		t.Fatal(err)
	}
	want := []Place{{Block: "aft", Row: 1, Column: 1}, {Block: "aft", Row: 2, Column: 1}, {Block: "aft", Row: 3, Column: 1}}
	if !reflect.DeepEqual(places(rep.Widowed), want) {
		t.Errorf("widowed %+v, want column 1 rows 1-3 (joined only at a corner)", rep.Widowed)
	}
	if got := column(n, Aft, 1) + " " + column(n, Aft, 2); got != "~~~x xxxo" {
		t.Errorf("columns 1 and 2 = %s, want ~~~x xxxo", got)
	}
}

// TestTemplateEdge: "If part of the damage template extends beyond either
// side of the armour block ... then the hits in that area have no effect"
// (book l.325).
func TestTemplateEdge(t *testing.T) {
	s := mustShip(t, spaceGullSpec())
	for col, wantCols := range map[int]string{1: "12", 10: "910"} {
		_, rep := mustHit(t, s, templateHit(t, Forward, col, "Block 6"))
		got := ""
		for _, p := range rep.Destroyed {
			if p.Row == 1 {
				got += strconv.Itoa(p.Column)
			}
		}
		if rep.Wasted != 2 || len(rep.Destroyed) != 4 || got != wantCols {
			t.Errorf("Block 6 on column %d: wasted %d, destroyed %d in row-1 columns %q; want 2, 4, %q", col, rep.Wasted, len(rep.Destroyed), got, wantCols)
		}
	}
}

// TestMootRollTakesNoDie: a consciousness roll for a crewman already out,
// and a wake roll for one awake, are moot and take no die.
func TestMootRollTakesNoDie(t *testing.T) {
	sp := Spec{
		Name:       "Wren",
		Internal:   [][]string{{"C", "C", "P", "P", "P", "P", "P", "P", "P", "P"}, {"C", "C", "P", "P", "P", "P", "P", "P", "P", "P"}, row10("S")},
		Components: map[string]string{"C": "Cockpit", "P": "Powerplant", "S": "Ship Destroyed"},
		Crew:       []CrewSpec{{Name: "Mara", Race: "Human", Station: "C"}},
	}
	s := mustShip(t, sp)
	r := Roll{Kind: RollConsciousness, Crew: "Mara", Station: "C", Column: 1, Number: 8}
	if _, _, err := s.Resolve(r); err == nil {
		t.Fatal("a consciousness roll of a conscious crewman resolved without a die")
	}
	if _, out, err := s.Resolve(Roll{Kind: RollWake, Crew: "Mara", Station: "C", Column: 1}); err != nil || !out.Moot {
		t.Errorf("wake roll of an awake crewman: %+v, %v", out, err)
	}
	out1, o, err := s.Resolve(r, 9)
	if err != nil || o.Status != Unconscious {
		t.Fatalf("a 9 against 8: %+v, %v", o, err)
	}
	if _, o, err := out1.Resolve(r); err != nil || !o.Moot || o.Status != Unconscious {
		t.Errorf("consciousness roll of an unconscious crewman: %+v, %v", o, err)
	}
}

// TestPilot: the pilot who makes the collapse roll is the first conscious
// crewman at a cockpit, else at the bridge; none when nobody is.
func TestPilot(t *testing.T) {
	sp := Spec{
		Name:   "Barge",
		Armour: ArmourSpec{Forward: 10, Aft: 10, Left: 10, Right: 10},
		Internal: [][]string{
			{"B", "B", "Q", "Q", "C", "C", "D", "D", "P", "P"},
			{"F", "F", "F", "F", "C", "C", "D", "D", "P", "P"},
			{"S", "S", "S", "S", "S", "S", "S", "S", "S", "S"},
		},
		Components: map[string]string{"B": "Bridge", "Q": "Quarters", "C": "Cockpit", "D": "Cockpit", "P": "Powerplant", "F": "Free", "S": "Ship Destroyed"},
		Crew: []CrewSpec{
			{Name: "Ada", Race: "Human", Station: "Q"},
			{Name: "Bo", Race: "Human", Station: "B"},
			{Name: "Cy", Race: "Human", Station: "C"},
			{Name: "Di", Race: "Human", Station: "D"},
		},
	}
	s := mustShip(t, sp)
	if got := s.Pilot(); got != "Cy" {
		t.Fatalf("pilot %q, want Cy (the first at a cockpit, not the bridge's Bo)", got)
	}
	knock := func(s Ship, name string) Ship {
		n := s.clone()
		for i := range n.crew {
			if n.crew[i].Name == name {
				n.crew[i].Status = Unconscious
			}
		}
		return n
	}
	s = knock(s, "Cy")
	if got := s.Pilot(); got != "Di" {
		t.Fatalf("pilot %q with Cy out, want Di", got)
	}
	s = knock(s, "Di")
	if got := s.Pilot(); got != "Bo" {
		t.Fatalf("pilot %q with both cockpits out, want Bo at the bridge", got)
	}
	if got := knock(s, "Bo").Pilot(); got != "" {
		t.Fatalf("pilot %q with nobody conscious at a station that flies, want none (Ada is in quarters)", got)
	}
}
