package interceptor

import (
	"strings"
	"testing"
)

// TestNewShipLimitRows: each limit on a record accepted at its value and
// refused one past it (CodeInvalid).
func TestNewShipLimitRows(t *testing.T) {
	turrets := func(n int) func(*Spec) {
		return func(s *Spec) {
			s.Turrets = nil
			for range n {
				s.Turrets = append(s.Turrets, TurretSpec{Name: "T", Internal: [][]string{row10("W")}, Components: map[string]string{"W": "Weapon"}})
			}
		}
	}
	internalRows := func(n int) func(*Spec) {
		return func(s *Spec) {
			s.Internal = nil
			for range n {
				s.Internal = append(s.Internal, row10("F"))
			}
			s.Components = map[string]string{"F": "Free"}
			s.Crew = nil
		}
	}
	code := func(c string) func(*Spec) {
		return func(s *Spec) {
			s.Internal[0][0] = c
			s.Components[c] = "Free"
		}
	}
	external := func(col int) func(*Spec) {
		return func(s *Spec) {
			s.Externals = []ExternalSpec{{Name: "Rack", Type: "External Hardpoint", Facing: Forward, Column: col}}
		}
	}
	cases := []struct {
		name   string
		change func(*Spec)
		want   string // "" for a valid record
	}{
		{"20 turrets", turrets(MaxTurrets), ""},
		{"21 turrets", turrets(MaxTurrets + 1), "21 turrets: at most 20"},
		{"200 internal rows", internalRows(MaxInternalRows), ""},
		{"201 internal rows", internalRows(MaxInternalRows + 1), "has 201 rows: at most 200"},
		{"a code of 4", code("ABCD"), ""},
		{"a code of 5", code("ABCDE"), `component code "ABCDE"`},
		{"code AZ", code("AZ"), ""},
		{"code az", code("az"), ""},
		{"code 09", code("09"), ""},
		{"code @ (before A)", code("@"), `component code "@"`},
		{"code [ (after Z)", code("["), `component code "["`},
		{"code ` (before a)", code("`"), "component code \"`\""},
		{"code { (after z)", code("{"), `component code "{"`},
		{"code / (before 0)", code("/"), `component code "/"`},
		{"code : (after 9)", code(":"), `component code ":"`},
		{"external on column 1", external(1), ""},
		{"external on column 10", external(10), ""},
		{"external on column 0", external(0), "is on column 0: columns are 1 to 10"},
		{"armour 2000", func(s *Spec) { s.Armour.Aft = MaxArmour }, ""},
		{"armour of 45: the nearest whole rows", func(s *Spec) { s.Armour.Aft = 45 }, "the aft armour has 45 boxes, which is not a multiple of ten: armour is ten columns wide in full rows (40 or 50)"},
		{"unknown code names its row and column", func(s *Spec) { s.Internal[1][3] = "Q" }, `row 2 column 4 of the Internal Component Block holds "Q"`},
		{"turret armour names the turret", func(s *Spec) {
			s.Turrets = []TurretSpec{{Internal: [][]string{row10("W")}, Components: map[string]string{"W": "Weapon"}}, {Name: "Ventral", Armour: 5, Internal: [][]string{row10("W")}, Components: map[string]string{"W": "Weapon"}}}
		}, "Ventral's armour has 5 boxes"},
		{"turret block names the turret", func(s *Spec) {
			s.Turrets = []TurretSpec{{Internal: [][]string{row10("W")}, Components: map[string]string{"W": "Weapon"}}, {Internal: [][]string{row10("Q")}, Components: map[string]string{"W": "Weapon"}}}
		}, `turret 2's Internal Component Block holds "Q"`},
		{"occupied hangar that is no hangar", func(s *Spec) { s.OccupiedHangars = []string{"E1"} }, `"E1" is listed as an occupied hangar but is not a Hangar component`},
		{"occupied hangar that is no component", func(s *Spec) { s.OccupiedHangars = []string{"Q"} }, `"Q" is listed as an occupied hangar`},
		{"cargo contents unknown", func(s *Spec) {
			s.Components["F"] = "Cargo"
			s.Cargo = map[string]string{"F": "troops"}
		}, `cargo F holds "troops"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sp := spaceGullSpec()
			c.change(&sp)
			_, err := NewShip(sp)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("NewShip: %v, want a valid record", err)
			case c.want != "" && (CodeOf(err) != CodeInvalid || !strings.Contains(err.Error(), c.want)):
				t.Errorf("NewShip error %v, want CodeInvalid containing %q", err, c.want)
			}
		})
	}
}

// TestTurretNames: a turret without a name is named by its number; a
// named one keeps its name.
func TestTurretNames(t *testing.T) {
	sp := spaceGullSpec()
	w := func(name string) TurretSpec {
		return TurretSpec{Name: name, Internal: [][]string{row10("W")}, Components: map[string]string{"W": "Weapon"}}
	}
	sp.Turrets = []TurretSpec{w(""), w(" Dorsal "), w("")}
	s := mustShip(t, sp)
	var got []string
	for _, tu := range s.Turrets() {
		got = append(got, tu.Name)
	}
	if strings.Join(got, ",") != "turret 1,Dorsal,turret 3" {
		t.Errorf("turret names %q, want turret 1, Dorsal, turret 3", got)
	}
}

// TestHangarsAndUnlistedCargo: "Hits against an unoccupied hangar bay will
// continue onward until a 'solid' box is struck" (HANGAR BAY, book l.441);
// an occupied one takes the hit. A Cargo component the record gives no
// contents for is empty (CARGO BAY, l.435: "Empty cargo bay boxes are
// ignored").
func TestHangarsAndUnlistedCargo(t *testing.T) {
	sp := Spec{
		Name: "Carrier",
		Internal: [][]string{
			{"H", "H", "G", "G", "K", "K", "F", "F", "F", "F"},
			row10("E"),
		},
		Components:      map[string]string{"H": "Hangar", "G": "Hangar", "K": "Cargo", "F": "Free", "E": "Engine"},
		OccupiedHangars: []string{"G"},
	}
	s := mustShip(t, sp)
	for _, c := range []struct {
		col  int
		want Place
	}{{1, ip(2, 1)}, {3, ip(1, 3)}, {5, ip(2, 5)}, {7, ip(1, 7)}} {
		_, rep := mustHit(t, s, laser(Forward, c.col, 1))
		if len(rep.Destroyed) != 1 || rep.Destroyed[0] != c.want {
			t.Errorf("laser 1 on column %d destroyed %v, want %v", c.col, rep.Destroyed, c.want)
		}
	}
	for _, c := range s.Components(0) {
		if want := c.Code == "G"; c.Type == Hangar && c.Occupied != want {
			t.Errorf("hangar %s occupied %v, want %v", c.Code, c.Occupied, want)
		}
		if c.Code == "K" && c.Contents != CargoEmpty {
			t.Errorf("unlisted cargo K holds %q, want empty", c.Contents)
		}
	}
}

// TestNewTemplateLimitRows: a template may be MaxTemplateSize rows and
// MaxTemplateSize cells wide, not more; errors name the row at fault.
func TestNewTemplateLimitRows(t *testing.T) {
	rows := func(n int, row string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = row
		}
		return out
	}
	wide := strings.Repeat("X", MaxTemplateSize)
	cases := []struct {
		name string
		rows []string
		want string // "" for a valid template
	}{
		{"21 rows", rows(MaxTemplateSize, "X"), ""},
		{"22 rows", rows(MaxTemplateSize+1, "X"), "has 22 rows: it needs 1 to 21"},
		{"21 wide", []string{wide}, ""},
		{"23 wide", []string{wide + "XX"}, "is 23 cells wide: the width must be odd"},
		{"1 wide", []string{"X"}, ""},
		{"ragged second row", []string{"XXX", "X"}, "row 2 of template \"T\" is 1 cells wide, row 1 is 3"},
		{"bad cell in row 3", []string{"XXX", "...", ".O."}, `row 3 of template "T" holds "O"`},
		{"bad cell in row 1", []string{"X-X"}, `row 1 of template "T" holds "-"`},
	}
	for _, c := range cases {
		tp, err := NewTemplate("T", c.rows)
		switch {
		case c.want == "" && (err != nil || len(tp.Rows()) != len(c.rows) || tp.Width() != len(c.rows[0])):
			t.Errorf("%s: %v, want a template of %d rows and width %d", c.name, err, len(c.rows), len(c.rows[0]))
		case c.want != "" && (CodeOf(err) != CodeInvalid || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want CodeInvalid containing %q", c.name, err, c.want)
		}
	}
	if w := (Template{}).Width(); w != 0 {
		t.Errorf("an empty template is %d wide, want 0", w)
	}
}

// TestFacings: the four facings are valid, in record order; others are not
// and have no armour.
func TestFacings(t *testing.T) {
	s := mustShip(t, spaceGullSpec())
	for i, f := range Facings() {
		if !f.Valid() || f.index() != i {
			t.Errorf("facing %s: valid %v, index %d; want valid, %d", f, f.Valid(), f.index(), i)
		}
	}
	if Facing("up").Valid() || s.ArmourRows("up") != 0 || s.RenderArmour("up") != nil {
		t.Error("facing up is valid or has armour")
	}
	if _, ok := s.ArmourBox("up", 1, 1); ok {
		t.Error("facing up has a box")
	}
}
