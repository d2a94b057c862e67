package interceptor

import (
	"strings"
	"testing"
)

func TestNewShipRejects(t *testing.T) {
	cases := []struct {
		name   string
		change func(*Spec)
		want   string
	}{
		{"no name", func(s *Spec) { s.Name = " " }, "needs a name"},
		{"armour not a multiple of ten", func(s *Spec) { s.Armour.Aft = 45 }, "not a multiple of ten"},
		{"negative armour", func(s *Spec) { s.Armour.Left = -10 }, "must be 0 to"},
		{"no internal rows", func(s *Spec) { s.Internal = nil }, "has no rows"},
		{"short row", func(s *Spec) { s.Internal[1] = s.Internal[1][:9] }, "row 2 of the Internal Component Block has 9 cells"},
		{"unknown code", func(s *Spec) { s.Internal[0][3] = "Q" }, `holds "Q", which is not in the components list`},
		{"unknown type", func(s *Spec) { s.Components["F"] = "Toaster" }, `unknown component type "Toaster"`},
		{"unused component", func(s *Spec) { s.Components["H"] = "Hospital" }, "has no boxes"},
		{"bad code", func(s *Spec) { s.Components["TOOLONG"] = "Free" }, "is 1 to 4 letters"},
		{"cockpit of 2", func(s *Spec) { s.Internal[1][4], s.Internal[1][5] = "F", "F" }, "cockpit C of the Internal Component Block has 2 boxes"},
		{"cargo contents for non-cargo", func(s *Spec) { s.Cargo = map[string]string{"F": "loaded"} }, "not a Cargo component"},
		{"crew at an engine", func(s *Spec) { s.Crew[0].Station = "E1" }, "code of a Bridge, Cockpit or Quarters"},
		{"unknown race", func(s *Spec) { s.Crew[0].Race = "Elf" }, `unknown race "Elf"`},
		{"two in a cockpit", func(s *Spec) { s.Crew = append(s.Crew, CrewSpec{Name: "Ann", Race: "Baufrin", Station: "C"}) }, "one crewman per cockpit"},
		{"external on bare facing", func(s *Spec) {
			s.Armour.Right = 0
			s.Externals = []ExternalSpec{{Name: "H1", Type: "External Hardpoint", Facing: Right, Column: 1}}
		}, "unarmoured facings cannot carry external systems"},
		{"external not external", func(s *Spec) {
			s.Externals = []ExternalSpec{{Name: "H1", Type: "Engine", Facing: Aft, Column: 1}}
		}, "only External Hardpoints"},
		{"external column 11", func(s *Spec) {
			s.Externals = []ExternalSpec{{Name: "H1", Type: "External Hardpoint", Facing: Aft, Column: 11}}
		}, "columns are 1 to 10"},
		{"two externals on a column", func(s *Spec) {
			s.Externals = []ExternalSpec{{Name: "H1", Type: "External Hardpoint", Facing: Aft, Column: 2}, {Name: "H2", Type: "External Rescue Compartment", Facing: Aft, Column: 2}}
		}, "one external system per column"},
		{"external named as a component", func(s *Spec) {
			s.Externals = []ExternalSpec{{Name: "e1", Type: "External Hardpoint", Facing: Aft, Column: 2}}
		}, `external system "e1" has the name of component E1 (Engine)`},
		{"two externals of one name", func(s *Spec) {
			s.Externals = []ExternalSpec{{Name: "Rack", Type: "External Hardpoint", Facing: Aft, Column: 2}, {Name: "RACK", Type: "External Hardpoint", Facing: Left, Column: 2}}
		}, `two external systems are named "RACK"`},
		{"external hardpoint inside", func(s *Spec) { s.Components["F"] = "External Hardpoint" }, "list it under external systems"},
		{"turret armour 15", func(s *Spec) {
			s.Turrets = []TurretSpec{{Name: "T", Armour: 15, Internal: [][]string{row10("W")}, Components: map[string]string{"W": "Weapon"}}}
		}, "T's armour has 15 boxes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sp := spaceGullSpec()
			c.change(&sp)
			_, err := NewShip(sp)
			if err == nil || CodeOf(err) != CodeInvalid || !strings.Contains(err.Error(), c.want) {
				t.Errorf("NewShip error %v, want CodeInvalid containing %q", err, c.want)
			}
		})
	}
	// The untouched record is valid, so each row above fails for its change.
	if _, err := NewShip(spaceGullSpec()); err != nil {
		t.Fatal(err)
	}
}

func TestParseComponentType(t *testing.T) {
	for in, want := range map[string]ComponentType{
		"Ship Destroyed": ShipDestroyed, "ship_destroyed": ShipDestroyed, "SHIP DESTROYED": ShipDestroyed,
		"Missile reloads": MissileReloads, "TOT": TimeOnTarget, "Hospital Bay": Hospital, " Free ": Free,
	} {
		if got, err := ParseComponentType(in); err != nil || got != want {
			t.Errorf("ParseComponentType(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestNewTemplate(t *testing.T) {
	good, err := NewTemplate("Block 6", []string{"XXX", "xxx"})
	if err != nil || good.Points() != 6 || good.Width() != 3 || good.Rows()[1] != "XXX" {
		t.Fatalf("Block 6: %+v, %v", good, err)
	}
	for _, c := range []struct {
		name string
		rows []string
		want string
	}{
		{"", []string{"X"}, "needs a name"},
		{"none", nil, "has 0 rows"},
		{"even", []string{"XX"}, "must be odd"},
		{"ragged", []string{"XXX", "X"}, "all rows have the same width"},
		{"letters", []string{"XOX"}, "cells are X"},
		{"empty top", []string{"...", "XXX"}, "top row"},
	} {
		if _, err := NewTemplate(c.name, c.rows); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewTemplate(%q, %q) error %v, want %q", c.name, c.rows, err, c.want)
		}
	}
	for _, tp := range SampleTemplates() {
		if tp.Points() == 0 {
			t.Errorf("sample %s does no damage", tp.Name)
		}
	}
}

func TestHitRejects(t *testing.T) {
	s := mustShip(t, spaceGullSpec())
	tp := SampleTemplates()[0]
	for _, h := range []Hit{
		{Facing: "up", Column: 1, Points: 1},
		{Facing: Forward, Column: 0, Points: 1},
		{Facing: Forward, Column: 11, Points: 1},
		{Facing: Forward, Column: 1},
		{Facing: Forward, Column: 1, Points: 2, Template: &tp},
		{Facing: Forward, Column: 1, Points: 1, Turret: 1},
	} {
		if n, _, err := s.Hit(h); CodeOf(err) != CodeInvalid || column(n, Forward, 1) != "oooooooo" {
			t.Errorf("Hit(%+v) error %v, want CodeInvalid and no change", h, err)
		}
	}
}

// TestRender checks the text grid of the book's Diagram 4 state.
func TestRender(t *testing.T) {
	sp := spaceGullSpec()
	sp.Externals = []ExternalSpec{{Name: "H1", Type: "External Hardpoint", Facing: Forward, Column: 9}}
	s := mustShip(t, sp)
	s, _, err := s.Volley([]Hit{laser(Forward, 3, 6), laser(Forward, 5, 6), templateHit(t, Forward, 5, "MDC 10 (sample)")})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"forward armour (80 boxes)",
		"    1  2  3  4  5  6  7  8  9  10",
		"ext .  .  .  .  .  .  .  .  E  .",
		"  1 o  o  x  ~  x  o  o  o  o  o",
		"  2 o  o  x  ~  x  o  o  o  o  o",
		"  3 o  o  x  ~  x  o  o  o  o  o",
		"  4 o  o  x  ~  x  o  o  o  o  o",
		"  5 o  o  x  ~  x  o  o  o  o  o",
		"  6 o  o  x  ~  x  o  o  o  o  o",
		"  7 o  o  x  x  x  x  x  o  o  o",
		"  8 o  o  o  x  x  x  o  o  o  o",
	}
	if got := s.RenderArmour(Forward); strings.Join(got, "\\n") != strings.Join(want, "\\n") {
		t.Errorf("RenderArmour:\\n%s\\nwant\\n%s", strings.Join(got, "\\n"), strings.Join(want, "\\n"))
	}
	wantInternal := []string{
		"internal components",
		"    1   2   3   4   5   6   7   8   9   10",
		"  1 F   F   F   F   x   F   F   F   F   F",
		"  2 E1  E1  P   P   x   C   P   P   E2  E2",
		"  3 E1  E1  P   P   C   C   P   P   E2  E2",
		"  4 S   S   S   S   S   S   S   S   S   S",
	}
	if got := s.RenderInternal(); strings.Join(got, "\\n") != strings.Join(wantInternal, "\\n") {
		t.Errorf("RenderInternal:\\n%s\\nwant\\n%s", strings.Join(got, "\\n"), strings.Join(wantInternal, "\\n"))
	}
	// Disabled components carry the mark; every line fits 80 columns.
	s, _ = mustHit(t, s, laser(Forward, 6, 9)) // 6 armour, F, then C twice: 3 of 4 cockpit boxes
	for _, line := range append(s.RenderInternal(), s.RenderArmour(Aft)...) {
		if len(line) > 80 {
			t.Errorf("line longer than 80: %q", line)
		}
	}
	if got := s.RenderInternal()[4]; !strings.Contains(got, "C*") {
		t.Errorf("row 3 %q does not mark the disabled cockpit", got)
	}
}
