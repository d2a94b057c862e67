package interceptor

import (
	"testing"
)

// spaceGullSpec is the SPACE GULL record of issue 14, whose forward block is
// the one in the book's worked example (DAMAGE TEMPLATE, book l.327).
func spaceGullSpec() Spec {
	return Spec{
		Name:   "Space Gull",
		Armour: ArmourSpec{Forward: 80, Aft: 40, Left: 40, Right: 40},
		Internal: [][]string{
			{"F", "F", "F", "F", "F", "F", "F", "F", "F", "F"},
			{"E1", "E1", "P", "P", "C", "C", "P", "P", "E2", "E2"},
			{"E1", "E1", "P", "P", "C", "C", "P", "P", "E2", "E2"},
			{"S", "S", "S", "S", "S", "S", "S", "S", "S", "S"},
		},
		Components: map[string]string{"F": "Free", "E1": "Engine", "E2": "Engine", "P": "Powerplant", "C": "Cockpit", "S": "Ship Destroyed"},
		Crew:       []CrewSpec{{Name: "Marcos", Race: "Human", Station: "C"}},
	}
}

func mustShip(t *testing.T, sp Spec) Ship {
	t.Helper()
	s, err := NewShip(sp)
	if err != nil {
		t.Fatalf("NewShip(%s): %v", sp.Name, err)
	}
	return s
}

func mustHit(t *testing.T, s Ship, h Hit) (Ship, Report) {
	t.Helper()
	n, rep, err := s.Hit(h)
	if err != nil {
		t.Fatalf("Hit(%+v): %v", h, err)
	}
	return n, rep
}

func laser(f Facing, col, points int) Hit { return Hit{Facing: f, Column: col, Points: points} }

func templateHit(t *testing.T, f Facing, col int, name string) Hit {
	t.Helper()
	for _, tp := range SampleTemplates() {
		if tp.Name == name {
			return Hit{Facing: f, Column: col, Template: &tp}
		}
	}
	t.Fatalf("no sample template %q", name)
	return Hit{}
}

// column returns the states of armour column col of facing f, top first,
// as a string of marks.
func column(s Ship, f Facing, col int) string {
	out := ""
	for r := 1; r <= s.ArmourRows(f); r++ {
		st, _ := s.ArmourBox(f, r, col)
		out += map[BoxState]string{Intact: "o", Destroyed: "x", Widowed: "~"}[st]
	}
	return out
}

// internalColumn returns internal column col top first: codes of intact
// boxes, x for destroyed ones.
func internalColumn(s Ship, col int) string {
	out := ""
	for r := 1; r <= s.InternalRows(); r++ {
		code, st, _ := s.InternalBox(r, col)
		if st != Intact {
			code = "x"
		}
		out += code + " "
	}
	return out
}

func places(ps []Place) []Place {
	if ps == nil {
		return []Place{}
	}
	return ps
}
