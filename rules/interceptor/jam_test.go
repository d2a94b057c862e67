package interceptor

import (
	"reflect"
	"strings"
	"testing"
)

// disableStructure fires 3-point lasers down columns 1-6 of turret k of a
// turretShip (armour, Weapon, Turret Structure in each column): the sixth
// disables the 10-box structure (book l.337) and calls for the jam roll.
func disableStructure(t *testing.T, s Ship, k int) (Ship, Roll) {
	t.Helper()
	var rolls []Roll
	for c := 1; c <= 6; c++ {
		var rep Report
		s, rep = mustHit(t, s, Hit{Facing: Left, Column: c, Points: 3, Turret: k})
		rolls = append(rolls, rep.Rolls...)
	}
	want := []Roll{{Kind: RollTurretJam, Turret: k, Station: "R"}}
	if !reflect.DeepEqual(rolls, want) {
		t.Fatalf("turret %d's structure disabled: rolls %+v, want %+v", k, rolls, want)
	}
	return s, rolls[0]
}

// TestTurretJamRolls resolves the jam roll of a disabled TURRET STRUCTURE
// (book l.409) for the first and the last turret, every face: 1-6 jam the
// turret facing that way, 7-10 leave weapons that must be abandoned. Only
// that turret is jammed.
func TestTurretJamRolls(t *testing.T) {
	for _, k := range []int{1, 3} {
		s, roll := disableStructure(t, turretShip(t, 3), k)
		for face := 1; face <= 10; face++ {
			n, out, err := s.Resolve(roll, face)
			want := face
			if face > 6 {
				want = 0
			}
			if err != nil || out.JamFacing != want || out.Moot {
				t.Errorf("turret %d, face %d: %+v, %v; want facing %d", k, face, out, err, want)
				continue
			}
			for i, tu := range n.Turrets() {
				jammed := i+1 == k
				if tu.Jammed != jammed || (jammed && tu.JamFacing != want) {
					t.Errorf("turret %d, face %d: turret %d jammed %v facing %d", k, face, i+1, tu.Jammed, tu.JamFacing)
				}
			}
			if s.Turrets()[k-1].Jammed {
				t.Errorf("Resolve jammed the ship it was called on")
			}
		}
		for _, faces := range [][]int{nil, {0}, {11}} {
			if _, _, err := s.Resolve(roll, faces...); CodeOf(err) != CodeInvalid {
				t.Errorf("turret %d, faces %v: %v, want CodeInvalid", k, faces, err)
			}
		}
	}
	s := turretShip(t, 3)
	for _, k := range []int{0, 4} {
		if _, _, err := s.Resolve(Roll{Kind: RollTurretJam, Turret: k, Station: "R"}, 1); CodeOf(err) != CodeInvalid || !strings.Contains(err.Error(), "there are 3 turrets") {
			t.Errorf("a jam roll for turret %d: %v, want CodeInvalid", k, err)
		}
	}
}

// TestTurretJamMoot: when the hit that disables the structure destroys the
// turret too, its weapons are gone: the jam roll is moot and takes no die.
func TestTurretJamMoot(t *testing.T) {
	sp := spaceGullSpec()
	sp.Turrets = []TurretSpec{{Name: "Dorsal", Internal: [][]string{row10("R")}, Components: map[string]string{"R": "Turret Structure"}}}
	s := mustShip(t, sp)
	tp, err := NewTemplate("Bar 19", []string{strings.Repeat("X", 19)})
	if err != nil {
		t.Fatal(err)
	}
	s, rep := mustHit(t, s, Hit{Facing: Aft, Column: 5, Template: &tp, Turret: 1})
	if rep.TurretDestroyed != 1 || len(rep.Rolls) != 1 || rep.Rolls[0].Kind != RollTurretJam {
		t.Fatalf("report %+v, want turret 1 destroyed and a jam roll", rep)
	}
	n, out, err := s.Resolve(rep.Rolls[0])
	if err != nil || !out.Moot || n.Turrets()[0].Jammed {
		t.Errorf("jam roll of a destroyed turret: %+v, %v; want moot, no jam", out, err)
	}
}

// TestHullTurretStructure: the jam roll is for a turret's structure; a
// Turret Structure in the hull is disabled like any component, with no
// turret to jam.
func TestHullTurretStructure(t *testing.T) {
	s := mustShip(t, Spec{
		Name:       "Odd",
		Internal:   [][]string{{"R", "F", "F", "F", "F", "F", "F", "F", "F", "F"}, row10("F")},
		Components: map[string]string{"R": "Turret Structure", "F": "Free"},
	})
	_, rep := mustHit(t, s, laser(Forward, 1, 1))
	if !reflect.DeepEqual(rep.Disabled, []ComponentRef{{Code: "R", Type: TurretStructure}}) || len(rep.Rolls) != 0 {
		t.Errorf("disabled %+v, rolls %+v; want R disabled and no roll", rep.Disabled, rep.Rolls)
	}
}

// TestWoundRollRows resolves wound rolls of BRIDGE (book l.353): a face of
// Percent/10 or less wounds; the wounded then roll on the Column (a 4 Hits
// column kills, l.361). A roll EndTurn could not give is refused.
func TestWoundRollRows(t *testing.T) {
	s := cingulum(t, "Ast")
	wound := func(percent, column int) Roll {
		return Roll{Kind: RollWound, Crew: "Ast", Station: "B", Percent: percent, Column: column}
	}
	cases := []struct {
		roll    Roll
		faces   []int
		wounded bool
		status  CrewStatus
	}{
		{wound(0, 0), []int{1}, false, Conscious},
		{wound(10, 1), []int{2}, false, Conscious},
		{wound(10, 1), []int{1, 8}, true, Conscious},
		{wound(10, 1), []int{1, 9}, true, Unconscious},
		{wound(100, 3), []int{10, 4}, true, Conscious},
		{wound(100, 3), []int{10, 5}, true, Unconscious},
		{wound(100, 4), []int{10}, true, Dead},
	}
	for _, c := range cases {
		n, out, err := s.Resolve(c.roll, c.faces...)
		if err != nil || out.Wounded != c.wounded || out.Status != c.status || out.Moot {
			t.Errorf("%d%% on column %d, faces %v: %+v, %v; want wounded %v, %s", c.roll.Percent, c.roll.Column, c.faces, out, err, c.wounded, c.status)
			continue
		}
		if cr := n.Crew()[0]; cr.Status != c.status || cr.Wounded != c.wounded {
			t.Errorf("%d%% on column %d, faces %v: Ast is %s, wounded %v", c.roll.Percent, c.roll.Column, c.faces, cr.Status, cr.Wounded)
		}
	}
	for _, r := range []Roll{wound(-10, 1), wound(110, 1), wound(10, -1), wound(10, 5)} {
		if _, _, err := s.Resolve(r, 1, 1); CodeOf(err) != CodeInvalid || !strings.Contains(err.Error(), "is not one EndTurn gives") {
			t.Errorf("%d%% on column %d: %v, want CodeInvalid", r.Percent, r.Column, err)
		}
	}
	if _, _, err := s.Resolve(Roll{Kind: RollWound, Crew: "Nobody", Percent: 10, Column: 1}, 1, 1); CodeOf(err) != CodeInvalid {
		t.Errorf("a roll for nobody aboard: %v", err)
	}
	if _, _, err := s.Resolve(Roll{Kind: "dance", Crew: "Ast"}, 1); CodeOf(err) != CodeInvalid {
		t.Errorf("an unknown roll kind: %v", err)
	}
}

// TestCollapseRollRows resolves STRUCTURAL COLLAPSE rolls (book l.466-471)
// against 3 Ship Destroyed boxes lost: above 3 holds and takes no chart
// die; 3 or less reads the chart die.
func TestCollapseRollRows(t *testing.T) {
	s := cingulum(t, "Ast", "Bel")
	r := Roll{Kind: RollCollapse, Number: 3, Crew: "Ast"}
	cases := []struct {
		faces    []int
		breakup  Breakup
		exploded bool
		dead     bool
	}{
		{[]int{4}, BreakupNone, false, false},
		{[]int{10}, BreakupNone, false, false},
		{[]int{3, 1}, BreakupDrift, false, false},
		{[]int{3, 4}, BreakupDrift, false, false},
		{[]int{1, 5}, BreakupDelayed, true, false},
		{[]int{2, 7}, BreakupDelayed, true, false},
		{[]int{3, 8}, BreakupExplodes, true, true},
		{[]int{1, 10}, BreakupExplodes, true, true},
	}
	for _, c := range cases {
		n, out, err := s.Resolve(r, c.faces...)
		if err != nil || out.Breakup != c.breakup || n.Exploded() != c.exploded {
			t.Errorf("faces %v: %+v, exploded %v, %v; want %q, exploded %v", c.faces, out, n.Exploded(), err, c.breakup, c.exploded)
		}
		for _, cr := range n.Crew() {
			if (cr.Status == Dead) != c.dead {
				t.Errorf("faces %v: %s is %s", c.faces, cr.Name, cr.Status)
			}
		}
	}
	for _, faces := range [][]int{nil, {3}, {0}, {11}, {3, 0}, {3, 11}} {
		if _, _, err := s.Resolve(r, faces...); CodeOf(err) != CodeInvalid {
			t.Errorf("faces %v: %v, want CodeInvalid", faces, err)
		}
	}
}
