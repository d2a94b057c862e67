package interceptor

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func ip(row, col int) Place { return Place{Block: "internal", Row: row, Column: col} }

// magazine is an unarmoured ship whose four-row Internal Component Block
// is Free boxes but for one box M of the given type at (row, col), 1-based.
func magazine(typ string, row, col int) Spec {
	sp := Spec{Name: "Magazine", Components: map[string]string{"F": "Free", "M": typ}}
	for r := 1; r <= 4; r++ {
		line := row10("F")
		if r == row {
			line[col-1] = "M"
		}
		sp.Internal = append(sp.Internal, line)
	}
	return sp
}

// TestMissileReloadNeighbours: "All boxes adjacent to the Missile Reload
// box will be destroyed" (CARGO BAY, book l.435): the eight boxes around
// it, inside the Internal Component Block, those at its edges included and
// none beyond them. Rows are the order a hit records them in: the row
// above, left to right, then the row itself, then the row below.
func TestMissileReloadNeighbours(t *testing.T) {
	cases := []struct {
		name     string
		row, col int
		points   int // a laser down the reloads' column, from row 1
		exploded []Place
	}{
		{"middle", 2, 5, 2, []Place{ip(1, 4), ip(1, 6), ip(2, 4), ip(2, 6), ip(3, 4), ip(3, 5), ip(3, 6)}},
		{"left edge", 2, 1, 2, []Place{ip(1, 2), ip(2, 2), ip(3, 1), ip(3, 2)}},
		{"right edge", 2, 10, 2, []Place{ip(1, 9), ip(2, 9), ip(3, 9), ip(3, 10)}},
		{"top row", 1, 5, 1, []Place{ip(1, 4), ip(1, 6), ip(2, 4), ip(2, 5), ip(2, 6)}},
		{"bottom row", 4, 5, 4, []Place{ip(3, 4), ip(3, 6), ip(4, 4), ip(4, 6)}},
	}
	for _, c := range cases {
		for _, typ := range []string{"Missile Reloads", "Autoloader Ammunition"} {
			t.Run(c.name+", "+typ, func(t *testing.T) {
				s := mustShip(t, magazine(typ, c.row, c.col))
				n, rep := mustHit(t, s, laser(Forward, c.col, c.points))
				var destroyed []Place
				for r := 1; r <= c.row; r++ {
					destroyed = append(destroyed, ip(r, c.col))
				}
				if !reflect.DeepEqual(rep.Destroyed, destroyed) {
					t.Errorf("destroyed %v, want %v", rep.Destroyed, destroyed)
				}
				if !reflect.DeepEqual(rep.Exploded, c.exploded) {
					t.Errorf("exploded %v, want %v", rep.Exploded, c.exploded)
				}
				gone := 0
				for r := 1; r <= 4; r++ {
					for col := 1; col <= Columns; col++ {
						if _, st, _ := n.InternalBox(r, col); st != Intact {
							gone++
						}
					}
				}
				if gone != len(destroyed)+len(c.exploded) {
					t.Errorf("%d boxes gone, want the %d destroyed and exploded", gone, len(destroyed)+len(c.exploded))
				}
			})
		}
	}
}

// TestNotExplosive: an Autoloader itself (AUTOLOADER, book l.399: only "Its
// ammunition may explode") and loaded cargo (CARGO BAY, l.435: "destroyed
// as usual") take the hit and nothing around them.
func TestNotExplosive(t *testing.T) {
	for _, typ := range []string{"Autoloader", "Cargo", "Engine"} {
		sp := magazine(typ, 2, 5)
		if typ == "Cargo" {
			sp.Cargo = map[string]string{"M": "loaded"}
		}
		_, rep := mustHit(t, mustShip(t, sp), laser(Forward, 5, 2))
		if len(rep.Exploded) != 0 || !reflect.DeepEqual(rep.Destroyed, []Place{ip(1, 5), ip(2, 5)}) {
			t.Errorf("%s: destroyed %v, exploded %v; want rows 1-2 of column 5 and no explosion", typ, rep.Destroyed, rep.Exploded)
		}
	}
}

// TestExplosionUnderArmour: the explosion stays inside the Internal
// Component Block; the armour above is not adjacent to it. The places a
// hit reports count internal rows from the block's own top.
func TestExplosionUnderArmour(t *testing.T) {
	s := mustShip(t, Spec{
		Name:       "Armoured Magazine",
		Armour:     ArmourSpec{Forward: 20},
		Internal:   [][]string{{"F", "F", "F", "F", "M", "F", "F", "F", "F", "F"}, row10("F"), row10("F")},
		Components: map[string]string{"F": "Free", "M": "Missile Reloads"},
	})
	n, rep := mustHit(t, s, laser(Forward, 5, 3))
	wantDestroyed := []Place{{Block: "forward", Row: 1, Column: 5}, {Block: "forward", Row: 2, Column: 5}, ip(1, 5)}
	if !reflect.DeepEqual(rep.Destroyed, wantDestroyed) {
		t.Errorf("destroyed %v, want %v", rep.Destroyed, wantDestroyed)
	}
	wantExploded := []Place{ip(1, 4), ip(1, 6), ip(2, 4), ip(2, 5), ip(2, 6)}
	if !reflect.DeepEqual(rep.Exploded, wantExploded) {
		t.Errorf("exploded %v, want %v", rep.Exploded, wantExploded)
	}
	for _, col := range []int{4, 6} {
		if got := column(n, Forward, col); got != "oo" {
			t.Errorf("armour column %d = %s, want it untouched", col, got)
		}
	}
}

// TestSampleTemplateRows lowers each sample template onto column 5 of the
// SPACE GULL's fresh 80-box forward block (book l.325: "The area covered
// by the template is the area destroyed by the hit"): each template row
// lands one armour row lower, its cells centred on the rolled column.
func TestSampleTemplateRows(t *testing.T) {
	a := func(row int, cols ...int) []Place {
		var out []Place
		for _, c := range cols {
			out = append(out, Place{Block: "forward", Row: row, Column: c})
		}
		return out
	}
	cases := map[string][]Place{
		"Block 6":         slices.Concat(a(1, 4, 5, 6), a(2, 4, 5, 6)),
		"Cross 5":         slices.Concat(a(1, 5), a(2, 4, 5, 6), a(3, 5)),
		"Wedge 9":         slices.Concat(a(1, 3, 4, 5, 6, 7), a(2, 4, 5, 6), a(3, 5)),
		"MDC 10 (sample)": slices.Concat(a(1, 3, 4, 5, 6, 7), a(2, 4, 5, 6), a(3, 5), a(4, 5)),
	}
	s := mustShip(t, spaceGullSpec())
	for name, want := range cases {
		h := templateHit(t, Forward, 5, name)
		_, rep := mustHit(t, s, h)
		if !reflect.DeepEqual(rep.Destroyed, want) || rep.Wasted != 0 {
			t.Errorf("%s on column 5: destroyed %v, wasted %d; want %v", name, rep.Destroyed, rep.Wasted, want)
		}
		if len(want) != h.Template.Points() {
			t.Errorf("%s does %d points, the rows above have %d", name, h.Template.Points(), len(want))
		}
	}
}

// TestTemplateRestsOnHighestRemainingBox: "The arrow is then lowered on
// the armour diagram until it is above the highest remaining armour box of
// the indicated column" (book l.325). With rows 1-2 of column 5 gone, a
// Block 6 on column 5 covers rows 3-4 of columns 4-6; rows 1-2 of columns
// 4 and 6 stay.
func TestTemplateRestsOnHighestRemainingBox(t *testing.T) {
	s, _ := mustHit(t, mustShip(t, spaceGullSpec()), laser(Forward, 5, 2))
	n, rep := mustHit(t, s, templateHit(t, Forward, 5, "Block 6"))
	var want []Place
	for _, row := range []int{3, 4} {
		for _, col := range []int{4, 5, 6} {
			want = append(want, Place{Block: "forward", Row: row, Column: col})
		}
	}
	if !reflect.DeepEqual(rep.Destroyed, want) || rep.Wasted != 0 {
		t.Errorf("destroyed %v, wasted %d; want %v", rep.Destroyed, rep.Wasted, want)
	}
	for col, wantCol := range map[int]string{4: "ooxxoooo", 5: "xxxxoooo", 6: "ooxxoooo"} {
		if got := column(n, Forward, col); got != wantCol {
			t.Errorf("column %d = %s, want %s", col, got, wantCol)
		}
	}
}

// TestTemplateOnEmptiedColumn: a template centred on a column with no box
// left, armour or internal, has nothing to rest on and falls through the
// block: it does nothing (docs/interceptor.md, "A column with nothing
// left"), even where its cells lie over intact columns.
func TestTemplateOnEmptiedColumn(t *testing.T) {
	s := mustShip(t, Spec{
		Name:       "Sloop",
		Armour:     ArmourSpec{Forward: 20},
		Internal:   [][]string{row10("F"), row10("F")},
		Components: map[string]string{"F": "Free"},
	})
	s, _ = mustHit(t, s, laser(Forward, 5, 4))
	tp, err := NewTemplate("Square 9", []string{"XXX", "XXX", "XXX"})
	if err != nil {
		t.Fatal(err)
	}
	n, rep := mustHit(t, s, Hit{Facing: Forward, Column: 5, Template: &tp})
	if len(rep.Destroyed) != 0 || rep.Wasted != 9 {
		t.Errorf("destroyed %v, wasted %d; want nothing destroyed and all 9 points wasted", rep.Destroyed, rep.Wasted)
	}
	for _, col := range []int{4, 6} {
		if got := column(n, Forward, col) + " " + internalColumn(n, col); got != "oo F F " {
			t.Errorf("column %d = %q, want it untouched", col, got)
		}
	}
}

// TestTemplateBelowTheBottom: "If the area shown by the template extends
// below the last row of armour boxes, apply that damage to the Internal
// Component Block" (book l.325); what lies below the last internal row
// does nothing and is counted wasted.
func TestTemplateBelowTheBottom(t *testing.T) {
	s := mustShip(t, Spec{
		Name:       "Sloop",
		Armour:     ArmourSpec{Forward: 10},
		Internal:   [][]string{row10("F")},
		Components: map[string]string{"F": "Free"},
	})
	_, rep := mustHit(t, s, templateHit(t, Forward, 5, "MDC 10 (sample)"))
	want := []Place{
		{Block: "forward", Row: 1, Column: 3}, {Block: "forward", Row: 1, Column: 4}, {Block: "forward", Row: 1, Column: 5},
		{Block: "forward", Row: 1, Column: 6}, {Block: "forward", Row: 1, Column: 7},
		ip(1, 4), ip(1, 5), ip(1, 6),
	}
	if !reflect.DeepEqual(rep.Destroyed, want) || rep.Wasted != 2 {
		t.Errorf("destroyed %v, wasted %d; want %v and the last two rows' 2 points wasted", rep.Destroyed, rep.Wasted, want)
	}
}

// gunboat is a ship whose one turret, Dorsal, is unarmoured, with one
// internal row (W W W F F F F F F F), above a hull with an unarmoured right
// facing and an Internal Component Block of rows rows of Free boxes.
func gunboat(t *testing.T, rows int) Ship {
	t.Helper()
	sp := Spec{
		Name:       "Gunboat",
		Armour:     ArmourSpec{Forward: 20, Aft: 20, Left: 20},
		Components: map[string]string{"F": "Free"},
		Turrets: []TurretSpec{{Name: "Dorsal", Internal: [][]string{{"W", "W", "W", "F", "F", "F", "F", "F", "F", "F"}},
			Components: map[string]string{"W": "Weapon", "F": "Free"}}},
	}
	for range rows {
		sp.Internal = append(sp.Internal, row10("F"))
	}
	return mustShip(t, sp)
}

// TestTurretResidualBelowTheHull: "Once a turret is destroyed, any residual
// damage passes into the ship's hull and is resolved as usual" (TURRETS,
// book l.341): the template's rows that fell past the turret go on into
// the hull, and what falls past the hull's bottom too is wasted. Volley's
// report keeps the destroyed turret's number after the widowed-armour check.
func TestTurretResidualBelowTheHull(t *testing.T) {
	s := gunboat(t, 1)
	for _, c := range []int{1, 3, 4, 5, 6, 7, 8, 9, 10} {
		s, _ = mustHit(t, s, Hit{Facing: Right, Column: c, Points: 1, Turret: 1})
	}
	tp, _ := NewTemplate("Plus", []string{".X.", "XXX", ".X."})
	n, rep, err := s.Volley([]Hit{{Facing: Right, Column: 2, Template: &tp, Turret: 1}})
	if err != nil {
		t.Fatal(err)
	}
	want := []Place{{Turret: 1, Block: "internal", Row: 1, Column: 2}, ip(1, 1), ip(1, 2), ip(1, 3)}
	if !reflect.DeepEqual(rep.Destroyed, want) {
		t.Errorf("destroyed %v, want %v", rep.Destroyed, want)
	}
	if rep.TurretDestroyed != 1 || rep.Residual != 4 || rep.Wasted != 1 {
		t.Errorf("turret destroyed %d, residual %d, wasted %d; want 1, 4 and 1 (the bottom X past the hull)", rep.TurretDestroyed, rep.Residual, rep.Wasted)
	}
	if len(rep.Shots) != 1 || rep.Shots[0].TurretDestroyed != 1 {
		t.Errorf("shots %+v, want the one shot destroying turret 1", rep.Shots)
	}
	if !n.Turrets()[0].Destroyed {
		t.Error("turret 1 not destroyed")
	}

	// A laser's leftover points go on down the same hull column; those
	// past the hull's bottom are wasted.
	s = gunboat(t, 1)
	for _, c := range []int{1, 3, 4, 5, 6, 7, 8, 9, 10} {
		s, _ = mustHit(t, s, Hit{Facing: Right, Column: c, Points: 1, Turret: 1})
	}
	_, rep = mustHit(t, s, Hit{Facing: Right, Column: 2, Points: 4, Turret: 1})
	if want := []Place{{Turret: 1, Block: "internal", Row: 1, Column: 2}, ip(1, 2)}; !reflect.DeepEqual(rep.Destroyed, want) || rep.Residual != 3 || rep.Wasted != 2 {
		t.Errorf("laser 4: destroyed %v, residual %d, wasted %d; want %v, 3, 2", rep.Destroyed, rep.Residual, rep.Wasted, want)
	}
}

// TestVolleyKeepsTurretDestroyed: a turret destroyed by one shot of a
// volley is the report's TurretDestroyed, whatever the later shots do.
func TestVolleyKeepsTurretDestroyed(t *testing.T) {
	s := gunboat(t, 2)
	var hits []Hit
	for c := 1; c <= Columns; c++ {
		hits = append(hits, Hit{Facing: Right, Column: c, Points: 1, Turret: 1})
	}
	hits = append(hits, laser(Forward, 1, 1))
	_, rep, err := s.Volley(hits)
	if err != nil {
		t.Fatal(err)
	}
	if rep.TurretDestroyed != 1 || rep.Shots[9].TurretDestroyed != 1 || rep.Shots[10].TurretDestroyed != 0 {
		t.Errorf("turret destroyed %d (shot 10: %d, shot 11: %d); want 1 (1, 0)", rep.TurretDestroyed, rep.Shots[9].TurretDestroyed, rep.Shots[10].TurretDestroyed)
	}
}

// TestVolleyErrors: an error names the hit of a volley it comes from,
// unless the volley is that one hit; the ship is returned unchanged.
func TestVolleyErrors(t *testing.T) {
	s := mustShip(t, spaceGullSpec())
	_, _, err := s.Volley([]Hit{laser(Forward, 1, 1), laser(Forward, 11, 1)})
	if CodeOf(err) != CodeInvalid || !strings.HasPrefix(err.Error(), "hit 2: hit on column 11") {
		t.Errorf("a bad second hit: %v, want CodeInvalid starting \"hit 2: hit on column 11\"", err)
	}
	n, rep, err := s.Volley([]Hit{laser(Forward, 0, 1)})
	if CodeOf(err) != CodeInvalid || !strings.HasPrefix(err.Error(), "hit on column 0") || len(rep.Shots) != 0 || column(n, Forward, 1) != "oooooooo" {
		t.Errorf("a bad single hit: %v, want CodeInvalid starting \"hit on column 0\" and no change", err)
	}
	// After the blast: the sixth hit's error is numbered too.
	sp := spaceGullSpec()
	sp.Armour.Aft = 0
	boom := []Hit{laser(Aft, 3, 3), laser(Aft, 4, 3), laser(Aft, 7, 3), laser(Aft, 8, 3), laser(Aft, 1, 2), laser(Aft, 11, 1)}
	if _, _, err := mustShip(t, sp).Volley(boom); CodeOf(err) != CodeInvalid || !strings.HasPrefix(err.Error(), "hit 6: hit on column 11") {
		t.Errorf("a bad hit after the blast: %v, want \"hit 6: ...\"", err)
	}
}

// TestHitOnDestroyedTurretNamesIt: "Hits on a previously-destroyed turret
// are re-rolled" (book l.341); the error names the turret.
func TestHitOnDestroyedTurretNamesIt(t *testing.T) {
	s := turretShip(t, 3)
	for c := 1; c <= Columns; c++ {
		s, _ = mustHit(t, s, Hit{Facing: Left, Column: c, Points: 3, Turret: 1})
	}
	_, _, err := s.Hit(Hit{Facing: Left, Column: 1, Points: 1, Turret: 1})
	if CodeOf(err) != CodeRule || !strings.Contains(err.Error(), "turret 1 (T1) is destroyed") {
		t.Errorf("hit on destroyed turret 1: %v, want CodeRule naming turret 1 (T1)", err)
	}
}

// TestWidowedTurretArmour: a turret's armour block widows as the hull's do
// (book l.330), and the places name the turret.
func TestWidowedTurretArmour(t *testing.T) {
	s := mustShip(t, Spec{
		Name:       "Gunboat",
		Internal:   [][]string{row10("F")},
		Components: map[string]string{"F": "Free"},
		Turrets:    []TurretSpec{{Name: "Dorsal", Armour: 20, Internal: [][]string{row10("W")}, Components: map[string]string{"W": "Weapon"}}},
	})
	// Centred on column 2 of the turret's 2-row armour, the top row takes
	// row 1 of column 3 and the second row takes row 2 of columns 1 and
	// 2: row 1 of columns 1 and 2 has no path to the bottom row any more.
	tp, _ := NewTemplate("Hook", []string{"..X", "XX."})
	_, rep, err := s.Volley([]Hit{{Facing: Forward, Column: 2, Template: &tp, Turret: 1}})
	if err != nil {
		t.Fatal(err)
	}
	want := []Place{{Turret: 1, Block: "armour", Row: 1, Column: 1}, {Turret: 1, Block: "armour", Row: 1, Column: 2}}
	if !reflect.DeepEqual(rep.Widowed, want) {
		t.Errorf("widowed %v, want %v", rep.Widowed, want)
	}
}

// TestHitTermRows: the terms of a hit accepted at each limit and refused
// one past it (CodeInvalid), and the ship left as it was on a refusal.
func TestHitTermRows(t *testing.T) {
	s := turretShip(t, 1)
	tp := SampleTemplates()[0]
	cases := []struct {
		name string
		hit  Hit
		ok   bool
	}{
		{"laser of 1", laser(Forward, 1, 1), true},
		{"laser of 1000", laser(Forward, 1, MaxLaserPoints), true},
		{"laser of 1001", laser(Forward, 1, MaxLaserPoints+1), false},
		{"laser of 0", laser(Forward, 1, 0), false},
		{"laser of -1", laser(Forward, 1, -1), false},
		{"column 10", laser(Forward, 10, 1), true},
		{"column 11", laser(Forward, 11, 1), false},
		{"column 0", laser(Forward, 0, 1), false},
		{"template", Hit{Facing: Forward, Column: 5, Template: &tp}, true},
		{"template and points", Hit{Facing: Forward, Column: 5, Template: &tp, Points: 1}, false},
		{"empty template", Hit{Facing: Forward, Column: 5, Template: &Template{Name: "Nothing"}}, false},
		{"turret 1 of 1", Hit{Facing: Forward, Column: 1, Points: 1, Turret: 1}, true},
		{"turret 2 of 1", Hit{Facing: Forward, Column: 1, Points: 1, Turret: 2}, false},
		{"turret -1", Hit{Facing: Forward, Column: 1, Points: 1, Turret: -1}, false},
		{"facing up", Hit{Facing: "up", Column: 1, Points: 1}, false},
	}
	for _, c := range cases {
		n, rep, err := s.Hit(c.hit)
		switch {
		case c.ok && err != nil:
			t.Errorf("%s: %v, want it to land", c.name, err)
		case !c.ok && (CodeOf(err) != CodeInvalid || len(rep.Destroyed) != 0 || n.snapshotAll() != s.snapshotAll()):
			t.Errorf("%s: %v, want CodeInvalid and no change", c.name, err)
		}
	}
}
